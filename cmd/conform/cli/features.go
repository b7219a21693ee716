package cli

import (
	"cmp"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/conform-suite/conform/features"
	"github.com/conform-suite/conform/runner"
)

const featuresHead = `Usage: conform features [--stdio CMD | --http URL] [--format F] [--tags EXPR] [paths]

Runs the Gherkin scenarios (embedded, or from --dir) against an implementation
(default: the in-process reference) with godog, in strict mode: an undefined or
ambiguous step fails. paths are feature files or directories relative to the
feature root (quote, marker/strip.feature), or FILE:LINE for one scenario. A
scenario calling an op the implementation does not list in its hello answer is
skipped (with --require-ops it fails). A skipped scenario is never counted as
passed.

The report ends with conform's summary: every failure again, with the command
that replays its scenario alone, the skipped scenarios by reason, the profile
and the diverging scenarios. pretty and progress are godog's formats ended by
that summary; junit and cucumber are godog's, and the summary alone (format
conform) is added on standard output when they write to files.

A refusal that matches without the code its step expects passes (the
protocol allows leaving the code out), and the report counts and lists it:
"N refusals passed without a code"; --require-codes makes each a failure.
The CI gate: conform features --stdio CMD --require-ops --require-codes.

--profile NAME judges under a real system's profile: the scenarios and
example rows tagged @divergence:NAME are not run but reported as diverging
(neither passed nor failed); the default profile, spec, judges them all.

The framing scenarios (protocol/) send raw lines: with --stdio to one process
they share (each exchange ends with a hello request of id "conform-fence-N",
so that every answer is read with the lines that caused it), and to a fresh
process for the scenario that closes its input; with --http one POST per
line. The scenario "End of input means exit" gives the process 5 seconds
from its start to exit once its input ends; --exit-within sets another
bound, for a runtime that is slow to start or a loaded machine.

Exit code 0 when some scenario was judged and every one judged passed; 1 when
one failed (a codeless refusal under --require-codes, an unoffered op under
--require-ops) or none was judged (every one skipped); 2 on bad usage (paths
and --tags that select no scenario too) or an implementation that cannot be
started.
`

func (e *env) features(args []string) int {
	flags := e.newFlags("features", featuresHead)
	var (
		impl              implFlags
		format, tags, dir string
		noColor           bool
		requireOps        requireOpsFlag
		requireCodes      bool
		profile           profileFlags
		exitWithin        time.Duration
	)
	impl.register(flags, runner.DefaultRestarts)
	profile.register(flags, false)
	flags.StringVar(&format, "format", "pretty", "report `FORMAT`s, comma separated: "+strings.Join(features.Formats(), ", ")+"; NAME:FILE writes one to FILE; conform is the summary pretty and progress end with")
	flags.StringVar(&tags, "tags", "", "run only the scenarios matching the tag `EXPR` (@QUOTE-LINK-004, ~@slow, @a,@b for or, @a && @b)")
	flags.StringVar(&dir, "dir", "", "read the feature files from `DIR` instead of the embedded ones")
	flags.BoolVar(&noColor, "no-color", false, "no ANSI colours in the report (colours are used only on a terminal, and never with NO_COLOR set)")
	flags.Var(&requireOps, "require-ops", "fail every scenario calling an op the implementation does not offer (`=OPS`: only these ops, comma separated)")
	flags.BoolVar(&requireCodes, "require-codes", false, "fail every refusal that matches without the code its step expects (by default it passes, counted and listed)")
	flags.DurationVar(&exitWithin, "exit-within", 0, "how long a process may take, from its start, to exit once its input ends: a `DURATION` such as 30s (by default the 5s the scenario names)")
	if done, code := e.parse(flags, args, 1<<20); done {
		return code
	}
	if exitWithin < 0 {
		return e.usagef("--exit-within %v: give a positive duration", exitWithin)
	}
	if err := features.CheckFormat(format); err != nil {
		return e.usagef("--format: %v", err)
	}
	for f := range strings.SplitSeq(format, ",") {
		// A report file that cannot be written is found before any
		// scenario runs, not after.
		if _, file, ok := strings.Cut(f, ":"); ok {
			err := checkWritable(file)
			if err == nil {
				err = os.MkdirAll(filepath.Dir(file), 0o755) // godog makes no directory
			}
			if err != nil {
				return e.usagef("--format %s: %v", f, err)
			}
		}
	}
	if err := features.CheckTags(tags); err != nil {
		return e.usagef("--tags %v", err)
	}
	if err := profile.check(); err != nil {
		return e.usagef("--profile: %v", err)
	}
	if len(requireOps.ops.Ops) > 0 {
		if err := checkOps(embeddedCorpus(), requireOps.ops.Ops, "--require-ops="); err != nil {
			return e.usagef("%v", err)
		}
	}
	raw, err := rawFor(&impl)
	if err != nil {
		return e.usagef("%v", err)
	}
	fsys := features.FS()
	if dir != "" {
		fsys = os.DirFS(dir)
	}
	var paths []string
	for _, p := range flags.Args() {
		p = strings.TrimPrefix(strings.TrimPrefix(p, "./"), "features/")
		file := p
		if i := strings.LastIndexByte(p, ':'); i >= 0 && strings.Trim(p[i+1:], "0123456789") == "" && i+1 < len(p) {
			file = p[:i] // FILE:LINE, one scenario
		}
		if _, err := fs.Stat(fsys, cmp.Or(file, ".")); err != nil {
			return e.usageHint(fmt.Sprintf("no feature file or directory %q", p), "paths are relative to the feature root: quote, marker/strip.feature")
		}
		paths = append(paths, p)
	}
	ctx, stop := stoppable()
	defer stop()
	im, _, _, ok := e.connect(ctx, &impl)
	if !ok {
		return ExitUsage
	}
	defer im.Close()
	var tally features.Tally
	prog := startProgress(e.stderr, "features", 0)
	status := features.Run(features.Options{
		Impl: im, Answered: prog.answered, Raw: raw, FS: fsys, Paths: paths, Tags: tags, Format: format,
		Output: e.stdout, NoColors: !useColor(e.stdout, noColor), Timeout: impl.timeout, Context: ctx, ExitWithin: exitWithin,
		RequireOps: requireOps.ops, RequireCodes: requireCodes, Tally: &tally, Profile: profile.name,
		Replay: replayCommand(&impl, dir, profile.name, requireCodes),
	})
	prog.done()
	if status == features.StatusOptions {
		return ExitUsage
	}
	if tally.Scenarios == 0 && (tags != "" || len(paths) > 0) {
		sel := slices.Clone(paths)
		if tags != "" {
			sel = append(sel, "--tags "+tags)
		}
		return e.usageHint("no scenario matches the selection ("+strings.Join(sel, ", ")+")",
			"a scenario is tagged with each requirement it exercises (@MARKER-STRIP-001), whole ids only; a path names a suite, a file or FILE:LINE of a scenario")
	}
	if msg := tally.NothingJudged(); msg != "" {
		return e.failf("%s", msg)
	}
	if status == features.StatusFailed {
		return ExitFailed
	}
	return ExitOK
}

// replayCommand is the command that runs one scenario again as this run
// judged it; the summary adds the scenario's "file:line".
func replayCommand(f *implFlags, dir, profile string, requireCodes bool) string {
	args := slices.Concat([]string{"conform features"}, implArgs(f),
		givenFlags([][2]string{{"--dir", dir}, {"--profile", strings.TrimPrefix(profile, runner.DefaultProfile)}}))
	if requireCodes {
		args = append(args, "--require-codes")
	}
	return strings.Join(args, " ")
}

// rawFor returns the raw transport of the framing scenarios for the
// implementation the flags name.
func rawFor(f *implFlags) (features.Raw, error) {
	if err := f.check(); err != nil {
		return nil, err
	}
	switch {
	case f.stdio != "" || f.spawn != "":
		argv, err := splitCommand(f.stdio + f.spawn)
		if err != nil {
			return nil, err
		}
		return features.StdioRaw{Command: argv}, nil
	case f.http != "":
		return features.HTTPRaw{URL: f.http}, nil
	}
	return features.InProcessRaw(), nil
}
