package cli

import (
	"os"
	"strings"

	"github.com/conform-suite/conform/vectors"
)

const profileHead = `Usage: conform profile export NAME [--vectors DIR] [--out FILE]

Writes the built-in profile NAME (a system the vectors record divergences
of: seed, t3code, vance) as a profile file: the record of each vector
where that system answers otherwise than the specification, with the
answer it gives and why. 'conform run --profile-file FILE' grades under
such a file as under the built-in profile; a team keeps one for its own
incumbent ('conform fuzz --oracle ... --record-profile NAME' writes one),
edits it, and passes it back. The file goes to stdout unless --out is
given.
`

func (e *env) profile(args []string) int {
	flags := e.newFlags("profile", profileHead)
	out := flags.String("out", "", "write the profile file to `FILE` instead of stdout")
	dir := flags.String("vectors", "", "read the vectors of `DIR` instead of the embedded corpus")
	if done, code := e.parse(flags, args, 2); done {
		return code
	}
	if flags.NArg() != 2 || flags.Arg(0) != "export" {
		return e.usageHint("want 'conform profile export NAME'", "the systems with built-in profiles are "+strings.Join(vectors.Systems, ", "))
	}
	corpus, err := loadCorpus(*dir)
	if err != nil {
		return e.usagef("%v", err)
	}
	data, err := corpus.ExportProfile(flags.Arg(1))
	if err != nil {
		return e.usagef("%v", err)
	}
	if *out == "" {
		_, err = e.stdout.Write(data)
	} else {
		err = os.WriteFile(*out, data, 0o644)
	}
	if err != nil {
		return e.failf("%v", err)
	}
	return ExitOK
}
