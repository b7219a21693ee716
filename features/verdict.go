package features

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/cucumber/godog"
)

// Tally counts the scenarios of a run by what happened to them. godog
// counts a skipped scenario as passed; conform does not: a scenario is
// passed when every step passed, failed when a step failed (or was
// undefined, pending or ambiguous), and skipped otherwise (a step skipped
// it: its op is not offered, there is no raw transport, or it needs
// conform's own fakes).
type Tally struct {
	Scenarios, Passed, Failed, Skipped int
	// SkipReasons counts the skipped scenarios by reason.
	SkipReasons map[string]int
}

// Judged is the number of scenarios that got a verdict: passed or failed.
func (t Tally) Judged() int { return t.Passed + t.Failed }

// Line is the summary line: "N scenarios (N passed, N failed, N skipped)".
func (t Tally) Line() string {
	if t.Scenarios == 0 {
		return "No scenarios"
	}
	var parts []string
	if t.Passed > 0 {
		parts = append(parts, fmt.Sprintf("%d passed", t.Passed))
	}
	if t.Failed > 0 {
		parts = append(parts, fmt.Sprintf("%d failed", t.Failed))
	}
	if t.Skipped > 0 {
		parts = append(parts, fmt.Sprintf("%d skipped", t.Skipped))
	}
	return fmt.Sprintf("%d scenarios (%s)", t.Scenarios, strings.Join(parts, ", "))
}

// NothingJudged says why no scenario was judged, or "" when some were.
func (t Tally) NothingJudged() string {
	if t.Judged() > 0 {
		return ""
	}
	if t.Scenarios == 0 {
		return "nothing was judged: no scenario ran"
	}
	var reasons []string
	for _, r := range slices.Sorted(maps.Keys(t.SkipReasons)) {
		reasons = append(reasons, fmt.Sprintf("%d: %s", t.SkipReasons[r], r))
	}
	return fmt.Sprintf("nothing was judged: all %d scenarios were skipped (%s)", t.Scenarios, strings.Join(reasons, "; "))
}

// verdict is what happened to one scenario, from its steps' statuses.
type verdict struct {
	pickle     string // the pickle id
	ran        bool   // some step reported a status
	failed     bool
	passed     int
	skipped    int
	skipReason string
}

func (v *verdict) step(status godog.StepResultStatus, err error) {
	v.ran = true
	switch status {
	case godog.StepPassed:
		v.passed++
	case godog.StepSkipped:
		v.skipped++
		if err != nil && errors.Is(err, godog.ErrSkip) && v.skipReason == "" {
			v.skipReason = strings.TrimPrefix(err.Error(), godog.ErrSkip.Error()+": ")
		}
	default:
		v.failed = true
	}
}

// outcome is "passed", "failed" or "skipped".
func (v *verdict) outcome() string {
	switch {
	case v.failed || !v.ran:
		return "failed"
	case v.skipped > 0:
		return "skipped"
	}
	return "passed"
}

// verdicts gathers the scenarios of one run.
type verdicts struct {
	mu   sync.Mutex
	list []*verdict
	byID map[string]*verdict
}

func (vs *verdicts) add(v *verdict) {
	vs.mu.Lock()
	defer vs.mu.Unlock()
	vs.list = append(vs.list, v)
}

func (vs *verdicts) setID(v *verdict, id string) {
	vs.mu.Lock()
	defer vs.mu.Unlock()
	v.pickle = id
	if vs.byID == nil {
		vs.byID = map[string]*verdict{}
	}
	vs.byID[id] = v
}

// skipReason is why the scenario of pickle id was skipped, or "".
func (vs *verdicts) skipReason(id string) string {
	vs.mu.Lock()
	defer vs.mu.Unlock()
	if v := vs.byID[id]; v != nil {
		return v.skipReason
	}
	return ""
}

func (vs *verdicts) tally() Tally {
	vs.mu.Lock()
	defer vs.mu.Unlock()
	t := Tally{SkipReasons: map[string]int{}}
	for _, v := range vs.list {
		if v.pickle == "" {
			continue // initialised, never run (filtered out by tags)
		}
		t.Scenarios++
		switch v.outcome() {
		case "passed":
			t.Passed++
		case "failed":
			t.Failed++
		default:
			t.Skipped++
			t.SkipReasons[firstNonEmpty(v.skipReason, "a step was skipped")]++
		}
	}
	return t
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
