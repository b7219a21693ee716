package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/conform-suite/conform/features"
	"github.com/conform-suite/conform/internal/coverage"
	"github.com/conform-suite/conform/spec"
	"github.com/conform-suite/conform/vectors"
)

// coverageCmd implements `conform coverage`: every requirement of spec/ with
// its level and the vectors and scenarios that exercise it.
func coverageCmd(args []string, stdout, stderr io.Writer) int {
	set := flag.NewFlagSet("conform coverage", flag.ContinueOnError)
	set.SetOutput(stderr)
	asJSON := set.Bool("json", false, "write the report as JSON")
	verbose := set.Bool("v", false, "list the vectors and scenarios under each requirement")
	set.Usage = func() {
		fmt.Fprint(stderr, `Usage: conform coverage [--json] [-v]

Lists every requirement of the specification with its level (MUST, MUST NOT,
SHOULD, SHOULD NOT, MAY, INFORMATIVE) and the vectors and scenarios that
exercise it, then the requirements nothing exercises and the ids that a vector
or scenario names but the specification does not define.

Exits 1 when a requirement is exercised by nothing, when a MUST or MUST NOT
requirement of a chapter with vectors is named by no vector, or when an
undefined id is named.

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
	if set.NArg() > 0 {
		fmt.Fprintf(stderr, "conform: error: unexpected argument %q\n", set.Arg(0))
		return ExitUsage
	}
	r, err := buildCoverage()
	if err != nil {
		fmt.Fprintf(stderr, "conform: error: %v\n", err)
		return ExitUsage
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(r); err != nil {
			fmt.Fprintf(stderr, "conform: error: %v\n", err)
			return ExitUsage
		}
	} else {
		r.WriteText(stdout, *verbose)
	}
	if len(r.Unexercised) > 0 || len(r.Undefined) > 0 || len(r.Vectorless) > 0 {
		return ExitFailed
	}
	return ExitOK
}

// buildCoverage relates the embedded specification, vectors and features.
func buildCoverage() (*coverage.Report, error) {
	s, err := spec.Embedded()
	if err != nil {
		return nil, err
	}
	c, err := vectors.Load(vectors.FS())
	if err != nil {
		return nil, err
	}
	sc, err := coverage.Scenarios(features.FS())
	if err != nil {
		return nil, err
	}
	return coverage.Build(s, c, sc), nil
}
