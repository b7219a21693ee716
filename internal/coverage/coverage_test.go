package coverage_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/conform-suite/conform/internal/coverage"
	"github.com/conform-suite/conform/report"
	"github.com/conform-suite/conform/spec"
	"github.com/conform-suite/conform/vectors"
)

const testSpec = `# Test

- **TEST-A-001**: An implementation MUST do a.
- **TEST-A-002**: An implementation SHOULD do b.
- **TEST-A-003**: An implementation MAY do c.
- **TEST-A-004**: Withdrawn.
- **TEST-A-005**: An implementation MUST NOT do d.
- **TEST-A-006**: An implementation MUST do e.
`

const otherSpec = `# Other

- **OTHER-B-001**: An implementation MUST do f.
`

const testFeature = `@TEST-A-001
Feature: f

  @TEST-A-002 @wip
  Scenario: plain
    Given a step

  Rule: r
    @TEST-A-999
    Scenario: in a rule
      Given a step

  Scenario Outline: outline <x>
    Given a step <x>

    @TEST-A-002
    Examples:
      | x |
      | 1 |

    @TEST-A-006 @OTHER-B-001
    Scenario: scenario only
      Given a step
`

const testVectors = `{"op": "t.op", "description": "d", "vectors": [
  {"id": "t.op/one", "description": "one", "requirements": ["TEST-A-001", "TEST-A-005"], "input": {}, "expect": {"output": {}}},
  {"id": "t.op/two", "description": "two", "requirements": ["TEST-X-001"], "input": {}, "expect": {"output": {}}}
]}`

func TestScenarios(t *testing.T) {
	got, err := coverage.Scenarios(fstest.MapFS{"t/f.feature": {Data: []byte(testFeature)}, "t/README.md": {Data: []byte("# x")}, "testdata/x.feature": {Data: []byte("@TEST-Z-001\nFeature: x\n  Scenario: y\n    Given z\n")}})
	if err != nil {
		t.Fatal(err)
	}
	want := []coverage.Scenario{
		{File: "t/f.feature", Line: 5, Name: "plain", Requirements: []string{"TEST-A-001", "TEST-A-002"}},
		{File: "t/f.feature", Line: 10, Name: "in a rule", Requirements: []string{"TEST-A-001", "TEST-A-999"}},
		{File: "t/f.feature", Line: 13, Name: "outline <x>", Requirements: []string{"TEST-A-001", "TEST-A-002"}},
		{File: "t/f.feature", Line: 22, Name: "scenario only", Requirements: []string{"OTHER-B-001", "TEST-A-001", "TEST-A-006"}},
	}
	if len(got) != len(want) {
		t.Fatalf("Scenarios() = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i].File != want[i].File || got[i].Line != want[i].Line || got[i].Name != want[i].Name || !slices.Equal(got[i].Requirements, want[i].Requirements) {
			t.Errorf("Scenarios()[%d] = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestScenariosBadFeature(t *testing.T) {
	if _, err := coverage.Scenarios(fstest.MapFS{"bad.feature": {Data: []byte("Feature: a\n  Scenario: b\n  Examples:\n  | x |\n  Scenario Outline\n")}}); err == nil {
		t.Error("Scenarios(bad feature) = nil error, want an error")
	}
}

func build(t *testing.T) *coverage.Report {
	t.Helper()
	s, err := spec.Load(fstest.MapFS{"test.md": {Data: []byte(testSpec)}, "other.md": {Data: []byte(otherSpec)}})
	if err != nil {
		t.Fatal(err)
	}
	c, err := vectors.Load(fstest.MapFS{"t/op.json": {Data: []byte(testVectors)}})
	if err != nil {
		t.Fatal(err)
	}
	sc, err := coverage.Scenarios(fstest.MapFS{"t/f.feature": {Data: []byte(testFeature)}})
	if err != nil {
		t.Fatal(err)
	}
	return coverage.Build(s, c, sc)
}

func TestBuild(t *testing.T) {
	r := build(t)
	tests := []struct {
		id                 string
		vectors, scenarios int
		exercised          bool
	}{
		{"TEST-A-001", 1, 4, true},
		{"TEST-A-002", 0, 2, true},
		{"TEST-A-003", 0, 0, false},
		{"TEST-A-004", 0, 0, false},
		{"TEST-A-005", 1, 0, true},
		{"TEST-A-006", 0, 1, true},
		{"OTHER-B-001", 0, 1, true},
	}
	for _, tt := range tests {
		e := r.Lookup(tt.id)
		if e == nil {
			t.Errorf("Lookup(%q) = nil, want an entry", tt.id)
			continue
		}
		if len(e.Vectors) != tt.vectors || len(e.Scenarios) != tt.scenarios || e.Exercised() != tt.exercised {
			t.Errorf("Lookup(%q) = %d vectors, %d scenarios, exercised %v; want %d, %d, %v", tt.id, len(e.Vectors), len(e.Scenarios), e.Exercised(), tt.vectors, tt.scenarios, tt.exercised)
		}
	}
	if want := []string{"TEST-A-003"}; !slices.Equal(r.Unexercised, want) {
		t.Errorf("Unexercised = %q, want %q (withdrawn ids excluded)", r.Unexercised, want)
	}
	wantUndefined := []coverage.Undefined{{ID: "TEST-X-001", By: "t.op/two"}, {ID: "TEST-A-999", By: "t/f.feature:10: in a rule"}}
	if !slices.Equal(r.Undefined, wantUndefined) {
		t.Errorf("Undefined = %+v, want %+v", r.Undefined, wantUndefined)
	}
	wantTotals := []coverage.Totals{
		{Level: spec.Must, Total: 3, Exercised: 3, WithVector: 1},
		{Level: spec.MustNot, Total: 1, Exercised: 1, WithVector: 1},
		{Level: spec.Should, Total: 1, Exercised: 1, WithVector: 0},
		{Level: spec.May, Total: 1, Exercised: 0, WithVector: 0},
	}
	if want := []string{"TEST-A-006"}; !slices.Equal(r.Vectorless, want) {
		t.Errorf("Vectorless = %q, want %q (other.md has no vector, so OTHER-B-001 is not listed)", r.Vectorless, want)
	}
	if !slices.Equal(r.Totals, wantTotals) {
		t.Errorf("Totals = %+v, want %+v", r.Totals, wantTotals)
	}
}

func TestText(t *testing.T) {
	var buf bytes.Buffer
	report.Coverage(&buf, build(t), true)
	out := buf.String()
	for _, want := range []string{
		"TEST-A-001             MUST          1 vector    4 scenarios\n",
		"    vector   t.op/one\n",
		"    scenario t/f.feature:5: plain\n",
		"TEST-A-003             MAY           0 vectors   0 scenarios  NOT EXERCISED\n",
		"TEST-A-004             INFORMATIVE   0 vectors   0 scenarios  withdrawn\n",
		"exercised by nothing: TEST-A-003\n",
		"mandatory, but named by no vector: TEST-A-006\n",
		"undefined requirement TEST-X-001 named by t.op/two",
		"MAY         0 of 1 exercised (0 by a vector)\n",
		"MUST        3 of 3 exercised (1 by a vector)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("Text() = %q, want it to contain %q", out, want)
		}
	}
}

func TestJSON(t *testing.T) {
	data, err := json.Marshal(build(t))
	if err != nil {
		t.Fatal(err)
	}
	var back coverage.Report
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if e := back.Lookup("TEST-A-001"); len(back.Requirements) != 7 || e == nil || e.Level != spec.Must || len(e.Scenarios) != 4 {
		t.Errorf("JSON round trip = %+v, want 7 requirements, TEST-A-001 a MUST with 4 scenarios", back.Requirements)
	}
	if !slices.Equal(back.Vectorless, []string{"TEST-A-006"}) {
		t.Errorf("JSON round trip: Vectorless = %q, want [TEST-A-006]", back.Vectorless)
	}
}

const seededSpec = `# Seeded

- **SEL-A-001**: An implementation MUST cut. [seed 002: "truncate to 200 characters"]
- **SEL-A-002**: An implementation MUST add an ellipsis. [seed 002: "truncate to 200 characters"] [seed 000: "a quote"]
- **SEL-A-003**: Withdrawn. [seed 002: "gone"]
- **SEL-A-004**: An implementation MUST do d. [seed 007: "no such seed"]

## Out of scope

- [seed 002: "No LLM tool."] Nothing to implement.
`

func TestSeeds(t *testing.T) {
	s, err := spec.Load(fstest.MapFS{"sel.md": {Data: []byte(seededSpec)}})
	if err != nil {
		t.Fatal(err)
	}
	r := coverage.Build(s, nil, nil)
	var ids []string
	for _, sd := range r.Seeds {
		ids = append(ids, sd.Seed)
	}
	if want := []string{"000", "001", "002", "007"}; !slices.Equal(ids, want) {
		t.Fatalf("Seeds = %q, want every known seed and the unknown 007: %q", ids, want)
	}
	s2 := r.Seeds[2]
	if s2.Suite != "selref" || len(s2.Statements) != 1 || s2.Statements[0].Quote != "truncate to 200 characters" ||
		!slices.Equal(s2.Statements[0].Requirements, []string{"SEL-A-001", "SEL-A-002"}) {
		t.Errorf("seed 002 = %+v, want one statement cited by SEL-A-001 and SEL-A-002 (the withdrawn one left out)", s2)
	}
	if want := []coverage.SeedExclusion{{Quote: "No LLM tool.", Reason: "Nothing to implement.", File: "sel.md", Line: 10}}; !slices.Equal(s2.OutOfScope, want) {
		t.Errorf("seed 002 out of scope = %+v, want %+v", s2.OutOfScope, want)
	}
	if st := r.Seeds[1].Statements; len(st) != 0 {
		t.Errorf("seed 001 statements = %+v, want none", st)
	}
	if len(r.SeedProblems) != 1 || r.SeedProblems[0].Line != 6 || !r.Failed() {
		t.Errorf("SeedProblems = %+v, Failed = %v; want the unknown seed 007 at line 6, and a failed report", r.SeedProblems, r.Failed())
	}
	var buf bytes.Buffer
	report.Coverage(&buf, r, true)
	out := buf.String()
	for _, want := range []string{
		"seed 002 \"Selection Reference — what a message pointed to\" (selref): 1 statements cited by 2 requirement references, 1 out of scope\n",
		"    cited        \"truncate to 200 characters\": SEL-A-001 SEL-A-002\n",
		"    out of scope \"No LLM tool.\": sel.md:10\n        Nothing to implement.\n",
		"seed 001 \"Render inline citations\" (marker): 0 statements",
		"seed reference at sel.md:6: SEL-A-004: seed reference names seed 007",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("Text() = %q, want it to contain %q", out, want)
		}
	}
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		Seeds []struct {
			Seed       string
			Statements []struct{ Quote string }
			OutOfScope []struct{ Quote, Reason string } `json:"out_of_scope"`
		}
		SeedProblems []spec.SeedProblem `json:"seed_problems"`
	}
	if err := json.Unmarshal(data, &back); err != nil || len(back.Seeds) != 4 || len(back.Seeds[2].OutOfScope) != 1 || back.Seeds[2].OutOfScope[0].Reason != "Nothing to implement." || len(back.SeedProblems) != 1 {
		t.Errorf("JSON = %s (%v), want 4 seeds, seed 002 with its out of scope reason, one problem", data, err)
	}
}
