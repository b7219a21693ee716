package runner

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/spec"
)

// Report is everything one run produced; its Write methods render it.
type Report struct {
	SuiteVersion   string
	Implementation *protocol.Hello // nil: the implementation does not know hello
	Transport      string          // "in-process", "stdio: CMD", "http: URL", ...
	Started        time.Time
	Duration       time.Duration
	Results        []Result
	Stale          []Expectation // expectation entries that name no vector
	Spec           *spec.Spec    // for requirement texts; may be nil
	Conform        *Identity     // which conform and corpus made the report; may be nil
	// Profile is the profile the run graded under (Runner.Profile); ""
	// is the default one.
	Profile string
	// Shard is the part of the selection the run judged (--shard); the
	// zero Shard is all of it. Reports of one implementation that are
	// distinct shards of one split are parts of one run.
	Shard Shard
}

// Totals counts a report's outcomes. Failed counts every result that fails
// the run (an unsupported one of a required op too); Stale counts the
// expectation entries that name no vector, apart from the vectors (they
// fail the run too, but Total, Passed, Failed and Skipped count vectors
// only, so they never exceed the corpus); Skipped counts unsupported results of ops not required, and
// xfails; Interrupted counts the vectors the run stopped before judging.
// Neither skipped nor interrupted results count as passed. Codeless counts
// the refusals that matched without the code the vector expects, whether
// they passed or (with --require-codes) failed.
type Totals struct {
	Total       int             `json:"total"`
	Passed      int             `json:"passed"`
	Failed      int             `json:"failed"`
	Skipped     int             `json:"skipped"`
	Interrupted int             `json:"interrupted"`
	Codeless    int             `json:"codeless"`
	Stale       int             `json:"stale"`
	ByOutcome   map[Outcome]int `json:"by_outcome"`
}

// Judged is the number of vectors that got a verdict: passed or failed.
func (t Totals) Judged() int { return t.Passed + t.Failed }

// Totals counts the report's outcomes.
func (r *Report) Totals() Totals {
	t := Totals{Total: len(r.Results), Stale: len(r.Stale), ByOutcome: map[Outcome]int{}}
	for i := range r.Results {
		res := &r.Results[i]
		t.ByOutcome[res.Outcome]++
		if res.Codeless != nil {
			t.Codeless++
		}
		switch {
		case res.Outcome == Pass:
			t.Passed++
		case res.Outcome == Interrupted:
			t.Interrupted++
		case res.Failed():
			t.Failed++
		default:
			t.Skipped++
		}
	}
	return t
}

// Failed reports whether the run failed: some result failed, an
// expectation entry is stale, the run was interrupted, or nothing was
// judged at all.
func (r *Report) Failed() bool {
	t := r.Totals()
	return t.Failed > 0 || t.Stale > 0 || t.Interrupted > 0 || t.Judged() == 0
}

// Problems are the reasons the run failed other than failing results, one
// sentence each: the run was interrupted, or nothing was judged.
func (r *Report) Problems() []string {
	t := r.Totals()
	var out []string
	if t.Interrupted > 0 {
		out = append(out, fmt.Sprintf("the run was interrupted: %d of %d vectors were not judged", t.Interrupted, t.Total))
	}
	if t.Judged() == 0 {
		out = append(out, "nothing was judged: "+r.nothingJudged(t))
	}
	return out
}

func (r *Report) nothingJudged(t Totals) string {
	switch {
	case t.Total == 0:
		return "no vector ran"
	case t.Interrupted == t.Total:
		return fmt.Sprintf("the run was interrupted before any of the %d vectors got an answer", t.Total)
	}
	var parts []string
	for _, o := range []Outcome{Unsupported, XFail, Interrupted} {
		if n := t.ByOutcome[o]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, o))
		}
	}
	s := fmt.Sprintf("none of the %d vectors passed or failed (%s)", t.Total, strings.Join(parts, ", "))
	if t.ByOutcome[Unsupported] > 0 {
		if r.Implementation != nil && len(r.Implementation.Ops) == 0 {
			s += "; the implementation's hello lists no op"
		} else {
			s += "; the implementation offers none of the selected ops"
		}
	}
	return s
}

// CodelessResults are the passing or failing results whose refusal left
// out the code the vector expects.
func (r *Report) CodelessResults() []*Result {
	var out []*Result
	for i := range r.Results {
		if r.Results[i].Codeless != nil {
			out = append(out, &r.Results[i])
		}
	}
	return out
}

// RequirementResult is the roll-up of the vectors that name one requirement.
type RequirementResult struct {
	ID      string     `json:"id"`
	Level   spec.Level `json:"level,omitempty"` // "" when the spec is not at hand or lacks the id
	Outcome Outcome    `json:"outcome"`         // Pass, Fail (some vector failed) or Unsupported (all unsupported)
	Vectors int        `json:"vectors"`
	Failing []string   `json:"failing,omitempty"` // ids of the failing vectors
}

// Requirements rolls the results up by requirement: a requirement is met
// when every vector naming it passed (or is an expected failure it is not:
// an xfail counts as failing here), unsupported when all its vectors were.
func (r *Report) Requirements() []RequirementResult {
	byID := map[string]*RequirementResult{}
	for i := range r.Results {
		res := &r.Results[i]
		if res.Outcome == Interrupted {
			continue // not judged: says nothing of the requirement
		}
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
			}
			rr.Vectors++
			switch {
			case res.Outcome == Unsupported && !res.Required:
			case res.Outcome == Pass:
				if rr.Outcome == Unsupported {
					rr.Outcome = Pass
				}
			default:
				rr.Outcome = Fail
				rr.Failing = append(rr.Failing, res.Vector.ID)
			}
		}
	}
	out := make([]RequirementResult, 0, len(byID))
	for _, id := range slices.Sorted(maps.Keys(byID)) {
		out = append(out, *byID[id])
	}
	return out
}
