package cli

import (
	"encoding/json"
	"fmt"

	"github.com/conform-suite/conform/runner"
	"github.com/conform-suite/conform/vectors"
)

const versionHead = `Usage: conform version [--json] [--vectors DIR]

Prints which conform this is: the module version and VCS revision it was
built from, the protocol and suite versions, and the SHA-256 digest of the
embedded vector files (or of DIR's), the same identity every report
carries. Two reports with the same corpus digest used the same vectors.
`

func (e *env) version(args []string) int {
	fs := e.newFlags("version", versionHead)
	asJSON := fs.Bool("json", false, "print the identity as a JSON object")
	dir := fs.String("vectors", "", "digest the vectors of `DIR` instead of the embedded corpus")
	if done, code := e.parse(fs, args, 0); done {
		return code
	}
	id, err := identity(*dir)
	if err != nil {
		return e.usagef("%v", err)
	}
	if *asJSON {
		data, _ := json.MarshalIndent(id, "", "  ")
		fmt.Fprintf(e.stdout, "%s\n", data)
		return ExitOK
	}
	rev := id.Revision
	if rev == "" {
		rev = "(not recorded)"
	} else if id.Modified {
		rev += " (modified)"
	}
	fmt.Fprintf(e.stdout, "conform %s\nmodule:   %s\nrevision: %s\nprotocol: %d\nsuite:    %s\ncorpus:   %s\n",
		id.Version, id.Module, rev, id.Protocol, id.Suite, id.CorpusDigest)
	return ExitOK
}

// identity is this binary's identity with the digest of the embedded
// corpus, or of dir's.
func identity(dir string) (*runner.Identity, error) {
	d, err := vectors.Digest(corpusFS(dir))
	if err != nil {
		return nil, err
	}
	return runner.NewIdentity(d), nil
}
