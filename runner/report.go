package runner

import (
	"slices"
	"time"

	"github.com/conform-suite/conform/spec"
)

// Report is everything one run produced; its Write methods render it.
type Report struct {
	SuiteVersion   string
	Implementation *Hello // nil: the implementation does not know hello
	Transport      string // "in-process", "stdio: CMD", "http: URL", ...
	Started        time.Time
	Duration       time.Duration
	Results        []Result
	Stale          []Expectation // expectation entries that name no vector
	Spec           *spec.Spec    // for requirement texts; may be nil
}

// Totals counts a report's outcomes. Failed counts every result that fails
// the run plus every stale expectation; Skipped counts unsupported and xfail.
type Totals struct {
	Total     int
	Passed    int
	Failed    int
	Skipped   int
	ByOutcome map[Outcome]int
}

// Totals counts the report's outcomes.
func (r *Report) Totals() Totals {
	t := Totals{Total: len(r.Results), ByOutcome: map[Outcome]int{}}
	for i := range r.Results {
		res := &r.Results[i]
		t.ByOutcome[res.Outcome]++
		switch {
		case res.Outcome == Pass:
			t.Passed++
		case res.Failed():
			t.Failed++
		default:
			t.Skipped++
		}
	}
	t.Failed += len(r.Stale)
	return t
}

// Failed reports whether the run failed: some result failed, or an
// expectation entry is stale.
func (r *Report) Failed() bool { return r.Totals().Failed > 0 }

// RequirementResult is the roll-up of the vectors that name one requirement.
type RequirementResult struct {
	ID      string
	Level   spec.Level // "" when the spec is not at hand or lacks the id
	Outcome Outcome    // Pass, Fail (some vector failed) or Unsupported (all unsupported)
	Vectors int
	Failing []string // ids of the failing vectors
}

// Requirements rolls the results up by requirement: a requirement is met
// when every vector naming it passed (or is an expected failure it is not:
// an xfail counts as failing here), unsupported when all its vectors were.
func (r *Report) Requirements() []RequirementResult {
	byID := map[string]*RequirementResult{}
	var order []string
	for i := range r.Results {
		res := &r.Results[i]
		for _, id := range res.Vector.Requirements {
			rr, ok := byID[id]
			if !ok {
				rr = &RequirementResult{ID: id, Outcome: Unsupported}
				if r.Spec != nil {
					if req, ok := r.Spec.Lookup(id); ok {
						rr.Level = req.Level
					}
				}
				byID[id] = rr
				order = append(order, id)
			}
			rr.Vectors++
			switch res.Outcome {
			case Unsupported:
			case Pass:
				if rr.Outcome == Unsupported {
					rr.Outcome = Pass
				}
			default:
				rr.Outcome = Fail
				rr.Failing = append(rr.Failing, res.Vector.ID)
			}
		}
	}
	slices.Sort(order)
	out := make([]RequirementResult, 0, len(order))
	for _, id := range order {
		out = append(out, *byID[id])
	}
	return out
}

// requirementText returns a requirement's level and text, or "" when the
// spec is not at hand.
func (r *Report) requirementText(id string) (spec.Level, string) {
	if r.Spec == nil {
		return "", ""
	}
	req, ok := r.Spec.Lookup(id)
	if !ok {
		return "", "(not in the specification)"
	}
	return req.Level, req.Text
}
