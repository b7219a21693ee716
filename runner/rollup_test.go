package runner

import (
	"bytes"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/conform-suite/conform/spec"
	"github.com/conform-suite/conform/vectors"
)

const rollupSpec = `# Test

- **TEST-R-001**: An implementation MUST do a.
- **TEST-R-002**: An implementation MUST NOT do b.
- **TEST-R-003**: An implementation MUST do c.
- **TEST-R-004**: An implementation MUST do d.
- **TEST-R-005**: An implementation SHOULD do e.
- **TEST-R-006**: A term is defined here.
`

func TestRollUp(t *testing.T) {
	s, err := spec.Load(fstest.MapFS{"test.md": {Data: []byte(rollupSpec)}})
	if err != nil {
		t.Fatal(err)
	}
	vec := func(id string, reqs ...string) *vectors.Vector {
		return &vectors.Vector{ID: id, Requirements: reqs}
	}
	results := []Result{
		{Vector: vec("t/a1", "TEST-R-001", "TEST-R-002"), Outcome: Pass},
		{Vector: vec("t/a2", "TEST-R-001"), Outcome: Pass},
		{Vector: vec("t/b1", "TEST-R-002"), Outcome: Fail},
		{Vector: vec("t/b2", "TEST-R-002"), Outcome: Crash},
		{Vector: vec("t/c1", "TEST-R-003"), Outcome: Unsupported},
		{Vector: vec("t/e1", "TEST-R-005", "TEST-R-006", "TEST-X-001"), Outcome: Pass},
		{Vector: vec("t/e2", "TEST-R-005"), Outcome: Unsupported},
	}
	r := RollUp(results, s)
	want := []RequirementOutcome{
		{ID: "TEST-R-001", Level: spec.Must, Status: RequirementConforms, Passed: 2},
		{ID: "TEST-R-002", Level: spec.MustNot, Status: RequirementFails, Passed: 1, Failed: 2, Failing: []string{"t/b1", "t/b2"}},
		{ID: "TEST-R-003", Level: spec.Must, Status: RequirementUnsupported, Unsupported: 1},
		{ID: "TEST-R-004", Level: spec.Must, Status: RequirementUntested},
		{ID: "TEST-R-005", Level: spec.Should, Status: RequirementConforms, Passed: 1, Unsupported: 1},
		{ID: "TEST-R-006", Level: spec.Informative, Status: RequirementConforms, Passed: 1},
	}
	if len(r.Requirements) != len(want) {
		t.Fatalf("RollUp() = %+v, want %+v", r.Requirements, want)
	}
	for i, w := range want {
		g := r.Requirements[i]
		if g.ID != w.ID || g.Level != w.Level || g.Status != w.Status || g.Passed != w.Passed || g.Failed != w.Failed || g.Unsupported != w.Unsupported || !slices.Equal(g.Failing, w.Failing) {
			t.Errorf("RollUp().Requirements[%d] = %+v, want %+v", i, g, w)
		}
	}
	levels := []struct {
		level spec.Level
		want  LevelRollup
		line  string
	}{
		{spec.Must, LevelRollup{Level: spec.Must, Tested: 2, Conforming: 1, Unsupported: 1, Untested: 1}, "conforms to 1 of 2 MUST requirements (1 unsupported, 1 untested)"},
		{spec.MustNot, LevelRollup{Level: spec.Must, Tested: 2, Conforming: 1, Unsupported: 1, Untested: 1}, "conforms to 1 of 2 MUST requirements (1 unsupported, 1 untested)"},
		{spec.Should, LevelRollup{Level: spec.Should, Tested: 1, Conforming: 1}, "conforms to 1 of 1 SHOULD requirements"},
		{spec.May, LevelRollup{Level: spec.May}, "conforms to 0 of 0 MAY requirements"},
	}
	for _, tt := range levels {
		if got := r.Level(tt.level); got != tt.want {
			t.Errorf("Level(%s) = %+v, want %+v", tt.level, got, tt.want)
		}
		if got := r.Level(tt.level).Summary(); got != tt.line {
			t.Errorf("Level(%s).Summary() = %q, want %q", tt.level, got, tt.line)
		}
	}
	var buf bytes.Buffer
	r.WriteText(&buf)
	wantText := "requirement TEST-R-002 (MUST NOT) fails: 2 of 3 vectors: [t/b1 t/b2]\n" +
		"conforms to 1 of 2 MUST requirements (1 unsupported, 1 untested)\n" +
		"conforms to 1 of 1 SHOULD requirements\n"
	if buf.String() != wantText {
		t.Errorf("WriteText() = %q, want %q", buf.String(), wantText)
	}
}
