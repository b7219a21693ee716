package report

import (
	"fmt"
	"slices"
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
	n := count(r, func(res *runner.Result) bool { return res.Recorded != nil })
	return fmt.Sprintf("%d %s graded against the answers recorded for %s, the others against the specification", n, Plural(n, "vector", "vectors"), name)
}

// codelessLine is the reports' line about codeless refusals, or "".
func codelessLine(r *runner.Report) string {
	passed := count(r, func(res *runner.Result) bool { return res.Codeless != nil && res.Outcome == runner.Pass })
	return CodelessLine(passed, len(r.CodelessResults())-passed)
}

// CodelessLine is the reports' line about refusals without a code, passed
// and failed (under --require-codes): "N refusals passed without a code
// (...)", or "" when there are none. conform run and conform features
// both write it.
func CodelessLine(passed, failed int) string {
	var parts []string
	if passed > 0 {
		parts = append(parts, fmt.Sprintf("%d %s passed without a code (PROTO-REJECT-002 allows it; --require-codes fails %s)", passed, Plural(passed, "refusal", "refusals"), Plural(passed, "it", "them")))
	}
	if failed > 0 {
		parts = append(parts, fmt.Sprintf("%d %s without a code failed (--require-codes)", failed, Plural(failed, "refusal", "refusals")))
	}
	return strings.Join(parts, "; ")
}

// Plural returns one when n is 1, and many otherwise.
func Plural(n int, one, many string) string {
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

// An unsupportedOp is the unsupported results of one op, which the text and
// Markdown reports show on one line instead of one block a vector.
type unsupportedOp struct {
	op       string
	n        int
	listed   bool // the op is in hello: the implementation answered error kind unsupported
	required bool // --require-ops names the op: the results failed
}

// line describes the op's unsupported results, ending with what
// --require-ops does about them.
func (u unsupportedOp) line() string {
	s := fmt.Sprintf("%s: %d %s, ", u.op, u.n, Plural(u.n, "vector", "vectors"))
	if u.listed {
		s += "answered error kind unsupported"
	} else {
		s += "the op is not listed in hello"
	}
	if u.required {
		return s + "; failed under --require-ops"
	}
	return s + "; not judged (--require-ops would fail " + Plural(u.n, "it", "them") + ")"
}

// unsupportedOps gathers the unsupported results by op, in the order the
// ops first appear. When --require-ops failed some of them, judged names
// the ops that were judged (some result not unsupported) as a --require-ops
// flag; it is "" otherwise, or when there are none.
func unsupportedOps(r *runner.Report) (ops []unsupportedOp, judged string) {
	var offered []string
	for i := range r.Results {
		res := &r.Results[i]
		op := res.Vector.Op
		if res.Outcome != runner.Unsupported {
			if !slices.Contains(offered, op) {
				offered = append(offered, op)
			}
			continue
		}
		k := slices.IndexFunc(ops, func(u unsupportedOp) bool { return u.op == op })
		if k < 0 {
			k = len(ops)
			ops = append(ops, unsupportedOp{op: op, listed: r.Implementation.Supports(op)})
		}
		ops[k].n++
		ops[k].required = ops[k].required || res.Required
	}
	if len(offered) > 0 && slices.ContainsFunc(ops, func(u unsupportedOp) bool { return u.required }) {
		judged = "--require-ops=" + strings.Join(offered, ",")
	}
	return ops, judged
}

// count counts the results of r that match.
func count(r *runner.Report, match func(*runner.Result) bool) int {
	n := 0
	for i := range r.Results {
		if match(&r.Results[i]) {
			n++
		}
	}
	return n
}

// unsupportedNote is what the summaries add to the count of unsupported
// results, n, when some failed under --require-ops, or "".
func unsupportedNote(r *runner.Report, o runner.Outcome, n int) string {
	if o != runner.Unsupported {
		return ""
	}
	// The unsupported results that failed under --require-ops.
	switch req := count(r, func(res *runner.Result) bool { return res.Outcome == runner.Unsupported && res.Required }); {
	case req == n:
		return " failing under --require-ops"
	case req > 0:
		return fmt.Sprintf(" (%d failing under --require-ops)", req)
	}
	return ""
}

// failuresFirst returns the results in the order the reports list them:
// the failures other than unsupported ops, then the unsupported results
// that failed under --require-ops, then the rest, each group in run order.
func failuresFirst(r *runner.Report) []*runner.Result {
	var groups [3][]*runner.Result
	for i := range r.Results {
		res := &r.Results[i]
		switch {
		case res.Failed() && res.Outcome != runner.Unsupported:
			groups[0] = append(groups[0], res)
		case res.Failed():
			groups[1] = append(groups[1], res)
		default:
			groups[2] = append(groups[2], res)
		}
	}
	return append(append(groups[0], groups[1]...), groups[2]...)
}
