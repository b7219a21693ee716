package cli

import (
	"fmt"
	"io/fs"

	"github.com/conform-suite/conform/features"
	"github.com/conform-suite/conform/internal/coverage"
	"github.com/conform-suite/conform/report"
)

const coverageHead = `Usage: conform coverage [--json] [-v]

Lists every requirement of the specification with its level (MUST, MUST NOT,
SHOULD, SHOULD NOT, MAY, INFORMATIVE) and the vectors and scenarios that
exercise it, then the requirements nothing exercises, the MUST and MUST NOT
requirements of a chapter with vectors that no vector names, and the ids a
vector or scenario names but the specification does not define.

Then, per seed document, the seed statements that requirements cite (with
the citing requirements) and the statements a chapter declares out of scope
(with -v, why), from the seed references of spec/ ([seed NNN: "quote"]), and
any seed reference that is malformed or names no known seed.

Exit code 1 when one of those lists of defects is not empty, 0 otherwise.
`

func (e *env) coverage(args []string) int {
	fs := e.newFlags("coverage", coverageHead)
	asJSON := fs.Bool("json", false, "write the report as JSON")
	verbose := fs.Bool("v", false, "list the vectors and scenarios under each requirement")
	if done, code := e.parse(fs, args, 0); done {
		return code
	}
	r := buildCoverage()
	write := func() error { return report.Coverage(e.stdout, r, *verbose) }
	if *asJSON {
		write = func() error { return report.CoverageJSON(e.stdout, r) }
	}
	if err := write(); err != nil {
		return e.usagef("%v", err)
	}
	if r.Failed() {
		return ExitFailed
	}
	return ExitOK
}

// buildCoverage relates the embedded specification, vectors and features;
// like embeddedSpec, it fails only in a broken build, and then panics.
func buildCoverage() *coverage.Report {
	var sc []coverage.Scenario
	for _, fsys := range []fs.FS{features.FS(), features.RunnerFS()} {
		s, err := coverage.Scenarios(fsys)
		if err != nil {
			panic(fmt.Sprintf("the embedded features: %v", err))
		}
		sc = append(sc, s...)
	}
	return coverage.Build(embeddedSpec(), embeddedCorpus(), sc)
}
