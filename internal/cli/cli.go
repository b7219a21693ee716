// Package cli is the conform command line: a thin layer over the runner.
// Every command prints errors as "conform: error: ..." and, where there is
// something to do about it, "conform: hint: ...", and never panics on bad
// flags or input.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"github.com/conform-suite/conform/internal/safetext"
	"io"
	"os"
	"strings"

	"github.com/conform-suite/conform/vectors"
)

// Exit codes.
const (
	ExitOK     = 0 // vectors were judged and every one passed
	ExitFailed = 1 // a vector failed, nothing was judged, or the run was interrupted
	ExitUsage  = 2 // bad usage, or nothing could be run
)

const usage = `conform checks an implementation of the quote, marker and selref suites
against the conformance vectors, over protocol v1 (docs/runner.md).

Usage:
  conform run [flags]            run the vectors and report (default: the in-process reference)
  conform list [flags]           list the vectors, filtered like run
  conform explain ID             show a vector, its requirements and the request line to replay
  conform doctor [flags]         check an implementation's protocol: handshake, schemas, overhead
  conform fuzz [flags]           fuzz an implementation against the reference or an --oracle (docs/fuzzing.md)
  conform serve --stdio          serve the reference implementation on stdin/stdout
  conform serve --http ADDR      serve the reference implementation over HTTP
  conform features [flags]       run the Gherkin scenarios against an implementation
  conform coverage [--json]      list each requirement with the vectors and scenarios exercising it
  conform help                   show this help

Point conform at an implementation with --stdio "CMD", --http URL or --spawn "CMD".
Run 'conform COMMAND -h' for the flags of a command.

Exit codes: 0 all judged passed, 1 some failed or nothing was judged (every vector
skipped) or the run was interrupted, 2 usage error or an implementation that
cannot be started. The CI gate:
  conform run --stdio CMD --require-ops --require-codes --junit report.xml
`

// env carries the streams of one invocation.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// errorf, hintf and infof print one line to stderr; what they say may
// quote an implementation's words, so the line is rendered with
// safetext.Text: no control character or newline of theirs reaches the
// terminal.
func (e *env) errorf(format string, args ...any) {
	fmt.Fprintf(e.stderr, "conform: error: %s\n", safetext.Text(fmt.Sprintf(format, args...)))
}

func (e *env) hintf(format string, args ...any) {
	fmt.Fprintf(e.stderr, "conform: hint: %s\n", safetext.Text(fmt.Sprintf(format, args...)))
}

// Main runs the command line with args (without the program name) and
// returns the process exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	return MainIO(args, os.Stdin, stdout, stderr)
}

// MainIO is Main with an explicit standard input (for serve --stdio).
func MainIO(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	defer func() {
		if r := recover(); r != nil {
			e.errorf("internal error: %v", r)
			e.hintf("this is a bug in conform; please report it with the command line")
			code = ExitUsage
		}
	}()
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return ExitUsage
	}
	switch args[0] {
	case "run":
		return e.run(args[1:])
	case "list":
		return e.list(args[1:])
	case "explain":
		return e.explain(args[1:])
	case "doctor":
		return e.doctor(args[1:])
	case "fuzz":
		return e.fuzz(args[1:])
	case "serve":
		return e.serve(args[1:])
	case "features":
		return e.features(args[1:])
	case "coverage":
		return e.coverage(args[1:])
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return ExitOK
	default:
		e.errorf("unknown command %q", args[0])
		e.hintf("the commands are run, list, explain, doctor, fuzz, serve, features and coverage; see 'conform help'")
		return ExitUsage
	}
}

// newFlags returns a flag set whose usage text is head followed by the flags.
func (e *env) newFlags(name, head string) *flag.FlagSet {
	fs := flag.NewFlagSet("conform "+name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprint(e.stderr, head)
		fmt.Fprint(e.stderr, "\nFlags:\n")
		fs.PrintDefaults()
	}
	return fs
}

// parse parses args; done is true when the command is over (help or a bad
// flag), with code its exit code.
func (e *env) parse(fs *flag.FlagSet, args []string, maxArgs int) (done bool, code int) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return true, ExitOK
		}
		e.hintf("see '%s -h'", fs.Name())
		return true, ExitUsage
	}
	if fs.NArg() > maxArgs {
		e.errorf("unexpected argument %q", fs.Arg(maxArgs))
		if strings.HasPrefix(fs.Arg(maxArgs), "-") {
			e.hintf("flags go before arguments")
		}
		return true, ExitUsage
	}
	return false, ExitOK
}

// listFlag is a repeatable flag; each use may also hold a comma-separated
// list.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(s string) error {
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			*l = append(*l, part)
		}
	}
	return nil
}

// loadCorpus loads the embedded corpus, or the one in dir.
func (e *env) loadCorpus(dir string) (*vectors.Corpus, bool) {
	fsys := vectors.FS()
	if dir != "" {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			e.errorf("--vectors %s: not a directory", dir)
			return nil, false
		}
		fsys = os.DirFS(dir)
	}
	corpus, err := vectors.Load(fsys)
	if err != nil {
		e.errorf("%v", err)
		return nil, false
	}
	return corpus, true
}

func (e *env) infof(format string, args ...any) {
	fmt.Fprintf(e.stderr, "conform: %s\n", safetext.Text(fmt.Sprintf(format, args...)))
}
