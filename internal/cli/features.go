package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/conform-suite/conform/features"
	"github.com/conform-suite/conform/runner"
)

// featuresCmd implements `conform features`: the Gherkin scenarios run
// against an implementation.
func featuresCmd(args []string, stdout, stderr io.Writer) int {
	set := flag.NewFlagSet("conform features", flag.ContinueOnError)
	set.SetOutput(stderr)
	stdio := set.String("stdio", "", "run against the implementation started by the shell command `CMD`, over stdio")
	httpURL := set.String("http", "", "run against the implementation served at `URL`")
	format := set.String("format", "pretty", "report `FORMAT`s, comma separated: "+strings.Join(features.Formats(), ", ")+"; name:FILE writes one to FILE")
	tags := set.String("tags", "", "run only the scenarios matching the tag `EXPR` (@QUOTE-LINK-004, ~@slow, @a,@b for or, @a && @b)")
	dir := set.String("dir", "", "read the feature files from `DIR` instead of the embedded ones")
	noColor := set.Bool("no-color", false, "no ANSI colours in the report")
	timeout := set.Duration("timeout", features.DefaultTimeout, "bound on each request")
	set.Usage = func() {
		fmt.Fprint(stderr, `Usage: conform features [--stdio CMD | --http URL] [--format F] [--tags EXPR] [paths]

Runs the Gherkin scenarios (embedded, or from --dir) against an implementation:
the in-process reference by default. paths are feature files or directories
relative to the feature root: quote, marker/strip.feature. Scenarios run in
strict mode: an undefined, pending or ambiguous step fails. A scenario calling
an op the implementation does not list in its hello answer is skipped.

Exit codes: 0 every scenario passed, 1 some failed, 2 usage error or an
implementation that cannot be started.

Flags:
`)
		set.PrintDefaults()
	}
	if err := set.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK
		}
		return ExitUsage
	}
	if *stdio != "" && *httpURL != "" {
		fmt.Fprintln(stderr, "conform: error: --stdio and --http exclude each other")
		return ExitUsage
	}
	if err := features.CheckFormat(*format); err != nil {
		fmt.Fprintf(stderr, "conform: error: %v\n", err)
		return ExitUsage
	}
	var fsys fs.FS = features.FS()
	if *dir != "" {
		fsys = os.DirFS(*dir)
	}
	var paths []string
	for _, p := range set.Args() {
		p = strings.TrimPrefix(strings.TrimPrefix(p, "./"), "features/")
		if _, err := fsStat(fsys, p); err != nil {
			fmt.Fprintf(stderr, "conform: error: no feature file or directory %q\n", p)
			return ExitUsage
		}
		paths = append(paths, p)
	}
	impl, err := openImplementation(*stdio, *httpURL, *timeout)
	if err != nil {
		fmt.Fprintf(stderr, "conform: error: %v\n", err)
		return ExitUsage
	}
	defer impl.Close()
	status := features.Run(features.Options{
		Impl: impl, FS: fsys, Paths: paths, Tags: *tags, Format: *format,
		Output: stdout, NoColors: *noColor, Timeout: *timeout,
	})
	switch status {
	case features.StatusOK:
		return ExitOK
	case features.StatusFailed:
		return ExitFailed
	}
	return ExitUsage
}

func fsStat(fsys fs.FS, p string) (fs.FileInfo, error) {
	if p == "" || p == "." {
		return fs.Stat(fsys, ".")
	}
	return fs.Stat(fsys, p)
}

// openImplementation returns the implementation named by the flags: a child
// process over stdio, an HTTP service, or the in-process reference.
func openImplementation(stdio, httpURL string, timeout time.Duration) (runner.Implementation, error) {
	switch {
	case stdio != "":
		return nil, errors.New("--stdio is not available in this build yet")
	case httpURL != "":
		return nil, errors.New("--http is not available in this build yet")
	}
	return runner.InProcess{}, nil
}
