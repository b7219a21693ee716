package report

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/conform-suite/conform/internal/safetext"
	"github.com/conform-suite/conform/runner"
)

// Scenarios is a run of the Gherkin scenarios (conform features) as its
// summary tells it. Everything in it that a step or an implementation
// wrote is escaped when written.
type Scenarios struct {
	Failed []FailedScenario
	// Skipped lists the skipped scenarios ("file:line: name") by reason.
	Skipped  map[string][]string
	Codeless []CodelessScenario
	Tally    string // "N scenarios (N passed, N failed, N skipped, N diverging)"
	Codes    string // the line about refusals without a code, or ""
	Profile  string
	// Diverging lists the scenarios the profile left unrun, "file: name",
	// once per example row.
	Diverging []string
}

// FailedScenario is one failed scenario.
type FailedScenario struct {
	Where   string // "file:line" of the scenario or its example row
	Name    string
	Step    string // the step that failed it
	Failure string // its status and error, over several lines
	Replay  string // the command that runs it alone, or ""
}

// CodelessScenario is one refusal a scenario took without the code its
// step expects.
type CodelessScenario struct {
	Scenario string // "file: scenario name"
	runner.CodelessRefusal
	// Failed is set when the step failed for it (--require-codes).
	Failed bool
}

// maxListed bounds the scenarios listed under one skip reason.
const maxListed = 3

// ScenarioSummary writes the summary that ends conform features' pretty
// and progress reports (and its "conform" format): every failure again
// with the command that replays it, the skipped scenarios by reason (the
// first few of each), the refusals without their code, the tally, the
// profile and the scenarios left unrun as diverging.
func ScenarioSummary(w io.Writer, s Scenarios) error {
	var b strings.Builder
	b.WriteString("\n")
	if len(s.Failed) > 0 {
		b.WriteString("failed:\n")
		for _, f := range s.Failed {
			fmt.Fprintf(&b, "  %s: %s\n", f.Where, safetext.Text(f.Name))
			if f.Step != "" {
				fmt.Fprintf(&b, "    step: %s\n", safetext.Text(f.Step))
			}
			for line := range strings.SplitSeq(f.Failure, "\n") {
				fmt.Fprintf(&b, "    %s\n", safetext.Text(strings.TrimSpace(line)))
			}
			if f.Replay != "" {
				fmt.Fprintf(&b, "    replay: %s\n", f.Replay)
			}
		}
		b.WriteString("\n")
	}
	for _, reason := range slices.Sorted(maps.Keys(s.Skipped)) {
		names := s.Skipped[reason]
		fmt.Fprintf(&b, "skipped (%s): %d\n", safetext.Text(reason), len(names))
		for i, name := range names {
			if i == maxListed {
				fmt.Fprintf(&b, "  … and %d more\n", len(names)-maxListed)
				break
			}
			fmt.Fprintf(&b, "  %s\n", safetext.Text(name))
		}
	}
	if len(s.Codeless) > 0 {
		b.WriteString("refusals without the code the scenario expects:\n")
		for _, c := range s.Codeless {
			fmt.Fprintf(&b, "  %s (%s, want code %s)\n", safetext.Text(c.Scenario), c.Member, safetext.Text(c.Code))
		}
	}
	b.WriteString(s.Tally + "\n")
	if s.Codes != "" {
		fmt.Fprintf(&b, "codes: %s\n", s.Codes)
	}
	fmt.Fprintf(&b, "profile: %s\n", s.Profile)
	if len(s.Diverging) > 0 {
		fmt.Fprintf(&b, "diverging (tagged @divergence:%s, not judged):\n", s.Profile)
		count := map[string]int{}
		for _, name := range s.Diverging {
			count[name]++
		}
		for _, name := range s.Diverging {
			switch n := count[name]; n {
			case 0:
				continue // listed already
			case 1:
				fmt.Fprintf(&b, "  %s\n", safetext.Text(name))
			default:
				fmt.Fprintf(&b, "  %s (%d rows)\n", safetext.Text(name), n)
			}
			count[name] = 0
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
