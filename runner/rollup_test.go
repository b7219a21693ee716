package runner

import (
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
- **TEST-R-007**: An implementation MAY do f.
`

// rollupReport is a run over rollupSpec: TEST-R-001 passes, TEST-R-002
// fails on two of its three vectors, TEST-R-003 is unsupported, TEST-R-004
// is named by no vector, TEST-R-005 passes where supported, TEST-R-006 is
// informative, TEST-R-007 is an expected failure.
func rollupReport(t *testing.T) *Report {
	t.Helper()
	s, err := spec.Load(fstest.MapFS{"test.md": {Data: []byte(rollupSpec)}})
	if err != nil {
		t.Fatal(err)
	}
	vec := func(id string, reqs ...string) *vectors.Vector {
		return &vectors.Vector{ID: id, Op: "t.op", Requirements: reqs}
	}
	return &Report{Spec: s, Results: []Result{
		{Vector: vec("t/a1", "TEST-R-001", "TEST-R-002"), Outcome: Pass},
		{Vector: vec("t/a2", "TEST-R-001"), Outcome: Pass},
		{Vector: vec("t/b1", "TEST-R-002"), Outcome: Fail},
		{Vector: vec("t/b2", "TEST-R-002"), Outcome: Crash},
		{Vector: vec("t/c1", "TEST-R-003"), Outcome: Unsupported},
		{Vector: vec("t/e1", "TEST-R-005", "TEST-R-006"), Outcome: Pass},
		{Vector: vec("t/e2", "TEST-R-005"), Outcome: Unsupported},
		{Vector: vec("t/f1", "TEST-R-007"), Outcome: XFail},
	}}
}

func TestConformance(t *testing.T) {
	got := rollupReport(t).Conformance()
	want := []LevelRollup{
		{Level: spec.Must, Tested: 2, Conforming: 1, Unsupported: 1},
		{Level: spec.Should, Tested: 1, Conforming: 1},
		{Level: spec.May, Tested: 1, Conforming: 0},
	}
	if !slices.Equal(got, want) {
		t.Errorf("Conformance() = %+v, want %+v", got, want)
	}
}

func TestLevelSummary(t *testing.T) {
	tests := []struct {
		l    LevelRollup
		want string
	}{
		{LevelRollup{Level: spec.Must, Tested: 214, Conforming: 212}, "conforms to 212 of 214 MUST requirements run"},
		{LevelRollup{Level: spec.Must, Tested: 2, Conforming: 1, Unsupported: 3}, "conforms to 1 of 2 MUST requirements run (3 more unsupported)"},
		{LevelRollup{Level: spec.May}, "conforms to 0 of 0 MAY requirements run"},
	}
	for _, tt := range tests {
		if got := tt.l.Summary(); got != tt.want {
			t.Errorf("%+v.Summary() = %q, want %q", tt.l, got, tt.want)
		}
	}
}
