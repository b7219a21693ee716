package features

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/cucumber/godog"

	"github.com/conform-suite/conform/report"
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
	Codeless []report.CodelessScenario
}

// CodelessLine is the reports' line about refusals without a code, as
// conform run writes it: "N refusals passed without a code (...)", or "".
func (t Tally) CodelessLine() string {
	failed := 0
	for _, c := range t.Codeless {
		if c.Failed {
			failed++
		}
	}
	return report.CodelessLine(len(t.Codeless)-failed, failed)
}

// Judged is the number of scenarios judged: passed or failed.
func (t Tally) Judged() int { return t.Passed + t.Failed }

// Line is the summary line: "N scenarios (N passed, N failed, N skipped)".
func (t Tally) Line() string {
	if t.Scenarios == 0 {
		return "No scenarios"
	}
	var parts []string
	for _, c := range []struct {
		n    int
		what string
	}{{t.Passed, "passed"}, {t.Failed, "failed"}, {t.Skipped, "skipped"}, {len(t.Diverging), "diverging"}} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c.n, c.what))
		}
	}
	return fmt.Sprintf("%d %s (%s)", t.Scenarios, report.Plural(t.Scenarios, "scenario", "scenarios"), strings.Join(parts, ", "))
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

// record is what happened to one scenario, from its steps' statuses.
type record struct {
	name       string    // "file: scenario name", "" until the scenario begins
	uri, title string    // the file, and the scenario's name
	nodes      []string  // the ids of its scenario and example row
	failure    string    // the status and error of the first step that failed it, "" when none did
	failedStep string    // the text of that step
	start, end time.Time // its begin, and the last step status (zero when none came)
	diverging  bool      // not run: the profile's system answers it differently
	skipped    bool
	skipReason string
	codeless   []report.CodelessScenario // refusals its steps took without their code
}

// begin records the start of v's scenario, p, not run when diverging.
func (v *record) begin(p *godog.Scenario, diverging bool) {
	// godog names the file "file:LINE" when the run selected a scenario by
	// its line.
	uri := p.Uri
	if i := strings.LastIndexByte(uri, ':'); i >= 0 && strings.Trim(uri[i+1:], "0123456789") == "" {
		uri = uri[:i]
	}
	v.name, v.uri, v.title, v.nodes = uri+": "+p.Name, uri, p.Name, p.AstNodeIds
	v.start, v.diverging = time.Now(), diverging
}

// took is how long the scenario ran.
func (v *record) took() time.Duration {
	if v.end.IsZero() {
		return 0
	}
	return v.end.Sub(v.start)
}

func (v *record) step(text string, status godog.StepResultStatus, err error) {
	v.end = time.Now()
	switch {
	case status == godog.StepPassed:
	case status == godog.StepSkipped:
		v.skipped = true
		if errors.Is(err, errSkip) && v.skipReason == "" {
			v.skipReason = strings.TrimPrefix(err.Error(), errSkip.Error()+": ")
		}
	case v.failure == "": // the first step that fails the scenario
		v.failure, v.failedStep = status.String(), text
		if err != nil {
			v.failure += ": " + err.Error()
		}
	}
}

// status is "passed", "failed", "skipped" or "diverging".
func (v *record) status() string {
	switch {
	case v.diverging:
		return "diverging"
	case v.failure != "" || v.end.IsZero(): // no step reported a status
		return "failed"
	case v.skipped:
		return "skipped"
	}
	return "passed"
}

// records gathers the scenarios of one run.
type records struct {
	profile string // the profile's name, for the reports
	list    []*record
}

// ran returns the records of the scenarios that ran, in the order they
// were set up: a scenario filtered out by tags is set up, never run.
func (vs *records) ran() []*record {
	return slices.DeleteFunc(slices.Clone(vs.list), func(v *record) bool { return v.name == "" })
}

func (vs *records) tally() Tally {
	t := Tally{SkipReasons: map[string]int{}}
	for _, v := range vs.ran() {
		t.Scenarios++
		t.Codeless = append(t.Codeless, v.codeless...)
		switch v.status() {
		case "passed":
			t.Passed++
		case "failed":
			t.Failed++
		case "diverging":
			t.Diverging = append(t.Diverging, v.name)
		default:
			t.Skipped++
			t.SkipReasons[cmp.Or(v.skipReason, "a step was skipped")]++
		}
	}
	return t
}

// scenarioStatus is what happened to one scenario, as the package's tests
// check it.
type scenarioStatus struct {
	Name   string // "file: scenario name"
	Status string // passed, failed, skipped or diverging
	// Detail is the skip reason of a skipped scenario, the first failing
	// step's status and error of a failed one.
	Detail string
}

// statuses lists the scenarios that ran, in the order they were set up.
func (vs *records) statuses() []scenarioStatus {
	var list []scenarioStatus
	for _, v := range vs.ran() {
		o := scenarioStatus{Name: v.name, Status: v.status()}
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
