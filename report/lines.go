package report

import (
	"fmt"
	"strings"

	"github.com/conform-suite/conform/runner"
	"github.com/conform-suite/conform/spec"
)

// profileLine says which profile the run graded under, and how many of its
// results were graded against a system's recorded answer.
func profileLine(r *runner.Report) string {
	return runner.ProfileName(r.Profile) + " (" + profileDetail(r) + ")"
}

func profileDetail(r *runner.Report) string {
	name := runner.ProfileName(r.Profile)
	if name == runner.DefaultProfile {
		return "every vector graded against the specification"
	}
	n := 0
	for i := range r.Results {
		if r.Results[i].Recorded != nil {
			n++
		}
	}
	return fmt.Sprintf("%d %s graded against the answers recorded for %s, the others against the specification", n, plural(n, "vector", "vectors"), name)
}

// codelessLine is the reports' line about codeless refusals, or "".
func codelessLine(r *runner.Report) string {
	var passed, failed int
	for _, res := range r.CodelessResults() {
		if res.Outcome == runner.Pass {
			passed++
		} else {
			failed++
		}
	}
	return CodelessLine(passed, failed)
}

// CodelessLine is the reports' line about refusals without a code, passed
// and failed (under --require-codes): "N refusals passed without a code
// (...)", or "" when there are none. conform run and conform features
// both write it.
func CodelessLine(passed, failed int) string {
	var parts []string
	if passed > 0 {
		parts = append(parts, fmt.Sprintf("%d %s passed without a code (PROTO-REJECT-002 allows it; --require-codes fails %s)", passed, plural(passed, "refusal", "refusals"), plural(passed, "it", "them")))
	}
	if failed > 0 {
		parts = append(parts, fmt.Sprintf("%d %s without a code failed (--require-codes)", failed, plural(failed, "refusal", "refusals")))
	}
	return strings.Join(parts, "; ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// requirementText returns a requirement's level and text, or "" when the
// spec is not at hand.
func requirementText(r *runner.Report, id string) (spec.Level, string) {
	if r.Spec == nil {
		return "", ""
	}
	req, ok := r.Spec.Lookup(id)
	if !ok {
		return "", "(not in the specification)"
	}
	return req.Level, req.Text
}
