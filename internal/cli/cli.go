// Package cli is the conform command line: a thin layer over the runner.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/conform-suite/conform/runner"
	"github.com/conform-suite/conform/vectors"
)

// Exit codes.
const (
	ExitOK     = 0 // every vector passed
	ExitFailed = 1 // at least one vector failed
	ExitUsage  = 2 // bad usage, or nothing could be run
)

const usage = `conform checks an implementation of the quote, marker and selref suites
against the conformance vectors.

Usage:
  conform run [flags]      run the vectors and print a report
  conform features [flags] [paths]  run the Gherkin scenarios against an implementation
  conform coverage [--json]         list each requirement and what exercises it
  conform help             show this help

Run 'conform run -h' for the flags of run.

Exit codes: 0 all passed, 1 some failed, 2 usage error or nothing could be run.
`

// Main runs the command line with args (without the program name) and
// returns the process exit code.
func Main(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return ExitUsage
	}
	switch args[0] {
	case "run":
		return run(args[1:], stdout, stderr)
	case "features":
		return featuresCmd(args[1:], stdout, stderr)
	case "coverage":
		return coverageCmd(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return ExitOK
	default:
		fmt.Fprintf(stderr, "conform: error: unknown command %q\n\n%s", args[0], usage)
		return ExitUsage
	}
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("conform run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("vectors", "", "read vectors from `DIR` instead of the embedded corpus")
	fs.Usage = func() {
		fmt.Fprint(stderr, "Usage: conform run [flags]\n\nRuns every vector against the in-process reference implementation and prints\none line per failure and a closing 'N passed, N failed' line.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK
		}
		return ExitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "conform: error: unexpected argument %q\n", fs.Arg(0))
		return ExitUsage
	}
	fsys := vectors.FS()
	if *dir != "" {
		fsys = os.DirFS(*dir)
	}
	corpus, err := vectors.Load(fsys)
	if err != nil {
		fmt.Fprintf(stderr, "conform: error: %v\n", err)
		return ExitUsage
	}
	vs := corpus.Vectors()
	if len(vs) == 0 {
		fmt.Fprintln(stderr, "conform: error: no vectors to run")
		return ExitUsage
	}
	r := &runner.Runner{Impl: runner.InProcess{}}
	results := r.Run(context.Background(), vs)
	runner.WriteText(stdout, results)
	for i := range results {
		if results[i].Failed() {
			return ExitFailed
		}
	}
	return ExitOK
}
