package features

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/conform-suite/conform/runner"
)

// Tally counts the scenarios of a run by what happened to them. A scenario
// is passed when every step passed, failed when a step failed (or was
// undefined or ambiguous), and skipped otherwise (a step skipped
// it: its op is not offered, there is no raw transport, or it needs
// conform's own fakes).
//
// Under a system's profile (Options.Profile), a scenario or example row
// tagged @divergence:<system> is not run: it is diverging, neither passed
// nor failed nor skipped, and listed in Diverging.
type Tally struct {
	Scenarios, Passed, Failed, Skipped int
	// SkipReasons counts the skipped scenarios by reason.
	SkipReasons map[string]int
	// Diverging lists the scenarios not judged because the profile's
	// system is recorded to answer them differently: "file: name".
	Diverging []string
	// Codeless lists the refusals that matched without the code the
	// scenario expects (PROTO-REJECT-002 allows leaving it out), in the
	// order the scenarios were set up: passed ones, and failed ones under
	// Options.RequireCodes.
	Codeless []Codeless
}

// Codeless is one refusal that left out the code its step expects.
type Codeless struct {
	Scenario string // "file: scenario name"
	runner.CodelessRefusal
	// Failed is set when the step failed for it (Options.RequireCodes).
	Failed bool
}

// CodelessLine is the reports' line about refusals without a code, as
// conform run writes it: "N refusals passed without a code (...)", or "".
func (t Tally) CodelessLine() string {
	var passed, failed int
	for _, c := range t.Codeless {
		if c.Failed {
			failed++
		} else {
			passed++
		}
	}
	return runner.CodelessLine(passed, failed)
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
	if n := len(t.Diverging); n > 0 {
		parts = append(parts, fmt.Sprintf("%d diverging", n))
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
	what := "skipped"
	if n := len(t.Diverging); n > 0 {
		reasons = append(reasons, fmt.Sprintf("%d: diverging under the profile", n))
		what = "skipped or diverging"
	}
	return fmt.Sprintf("nothing was judged: all %d scenarios were %s (%s)", t.Scenarios, what, strings.Join(reasons, "; "))
}

// verdict is what happened to one scenario, from its steps' statuses.
type verdict struct {
	pickle     string // the pickle id
	name       string // "file: scenario name"
	failure    string // the status and error of the first step that failed it
	diverging  bool   // not run: the profile's system answers it differently
	ran        bool   // some step reported a status
	failed     bool
	passed     int
	skipped    int
	skipReason string
	codeless   []Codeless // refusals its steps took without their code
}

func (v *verdict) step(status stepStatus, err error) {
	v.ran = true
	switch status {
	case stepPassed:
		v.passed++
	case stepSkipped:
		v.skipped++
		if err != nil && errors.Is(err, errSkip) && v.skipReason == "" {
			v.skipReason = skipReason(err)
		}
	default:
		if !v.failed {
			v.failure = status.String()
			if err != nil {
				v.failure += ": " + err.Error()
			}
		}
		v.failed = true
	}
}

// outcome is "passed", "failed", "skipped" or "diverging".
func (v *verdict) outcome() string {
	switch {
	case v.diverging:
		return "diverging"
	case v.failed || !v.ran:
		return "failed"
	case v.skipped > 0:
		return "skipped"
	}
	return "passed"
}

// verdicts gathers the scenarios of one run.
type verdicts struct {
	profile string // the profile's name, for the reports
	mu      sync.Mutex
	list    []*verdict
	byID    map[string]*verdict
}

func (vs *verdicts) add(v *verdict) {
	vs.mu.Lock()
	defer vs.mu.Unlock()
	vs.list = append(vs.list, v)
}

func (vs *verdicts) setID(v *verdict, id, name string) {
	vs.mu.Lock()
	defer vs.mu.Unlock()
	v.pickle, v.name = id, name
	if vs.byID == nil {
		vs.byID = map[string]*verdict{}
	}
	vs.byID[id] = v
}

// codeless records that a step of v's scenario took a refusal without
// the code it expects; failed when the step fails for it.
func (vs *verdicts) codeless(v *verdict, c runner.CodelessRefusal, failed bool) {
	vs.mu.Lock()
	defer vs.mu.Unlock()
	v.codeless = append(v.codeless, Codeless{CodelessRefusal: c, Failed: failed})
}

// codelessOf lists the refusals without a code of the scenario of pickle id.
func (vs *verdicts) codelessOf(id string) []Codeless {
	vs.mu.Lock()
	defer vs.mu.Unlock()
	if v := vs.byID[id]; v != nil {
		return append([]Codeless(nil), v.codeless...)
	}
	return nil
}

// diverging reports whether the scenario of pickle id was not run because
// the profile's system answers it differently.
func (vs *verdicts) diverging(id string) bool {
	vs.mu.Lock()
	defer vs.mu.Unlock()
	v := vs.byID[id]
	return v != nil && v.diverging
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
		for _, c := range v.codeless {
			c.Scenario = v.name
			t.Codeless = append(t.Codeless, c)
		}
		switch v.outcome() {
		case "passed":
			t.Passed++
		case "failed":
			t.Failed++
		case "diverging":
			t.Diverging = append(t.Diverging, v.name)
		default:
			t.Skipped++
			t.SkipReasons[firstNonEmpty(v.skipReason, "a step was skipped")]++
		}
	}
	return t
}

// outcome is what happened to one scenario, as a test compares it
// between drivers.
type outcome struct {
	Name   string // "file: scenario name"
	Status string // passed, failed, skipped or diverging
	// Detail is the skip reason of a skipped scenario, the first failing
	// step's status and error of a failed one.
	Detail string
}

// outcomes lists the scenarios that ran, in the order they were set up.
func (vs *verdicts) outcomes() []outcome {
	vs.mu.Lock()
	defer vs.mu.Unlock()
	var list []outcome
	for _, v := range vs.list {
		if v.pickle == "" {
			continue
		}
		o := outcome{Name: v.name, Status: v.outcome()}
		switch o.Status {
		case "skipped", "diverging":
			o.Detail = v.skipReason
		case "failed":
			o.Detail = v.failure
		}
		list = append(list, o)
	}
	return list
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// summary is the summary block of the pretty and progress reports: the
// tally line, the profile, and the scenarios left unrun as diverging.
func (vs *verdicts) summary() string {
	t := vs.tally()
	var b strings.Builder
	if len(t.Codeless) > 0 {
		b.WriteString("refusals without the code the scenario expects:\n")
		for _, c := range t.Codeless {
			fmt.Fprintf(&b, "  %s (%s, want code %s)\n", c.Scenario, c.Member, c.Code)
		}
		b.WriteString("\n")
	}
	b.WriteString(t.Line() + "\n")
	if l := t.CodelessLine(); l != "" {
		fmt.Fprintf(&b, "codes: %s\n", l)
	}
	fmt.Fprintf(&b, "profile: %s\n", vs.profile)
	if len(t.Diverging) > 0 {
		fmt.Fprintf(&b, "diverging (tagged @divergence:%s, not judged):\n", vs.profile)
		count := map[string]int{}
		for _, name := range t.Diverging {
			count[name]++
		}
		for _, name := range t.Diverging {
			switch n := count[name]; n {
			case 0:
				continue // listed already
			case 1:
				fmt.Fprintf(&b, "  %s\n", name)
			default:
				fmt.Fprintf(&b, "  %s (%d rows)\n", name, n)
			}
			count[name] = 0
		}
	}
	return b.String()
}
