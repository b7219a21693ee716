package report

import (
	"testing"
	"testing/fstest"

	"github.com/conform-suite/conform/internal/fixture"
	"github.com/conform-suite/conform/runner"
	"github.com/conform-suite/conform/spec"
	"github.com/conform-suite/conform/vectors"
)

// rollupReport is a run over fixture.RollupSpec: TEST-R-001 passes, TEST-R-002
// fails on two of its three vectors, TEST-R-003 is unsupported, TEST-R-004
// is named by no vector, TEST-R-005 passes where supported, TEST-R-006 is
// informative, TEST-R-007 is an expected failure.
func rollupReport(t *testing.T) *runner.Report {
	t.Helper()
	s, err := spec.Load(fstest.MapFS{"test.md": {Data: []byte(fixture.RollupSpec)}})
	if err != nil {
		t.Fatal(err)
	}
	vec := func(id string, reqs ...string) *vectors.Vector {
		return &vectors.Vector{ID: id, Op: "t.op", Requirements: reqs}
	}
	return &runner.Report{Spec: s, Results: []runner.Result{
		{Vector: vec("t/a1", "TEST-R-001", "TEST-R-002"), Outcome: runner.Pass},
		{Vector: vec("t/a2", "TEST-R-001"), Outcome: runner.Pass},
		{Vector: vec("t/b1", "TEST-R-002"), Outcome: runner.Fail},
		{Vector: vec("t/b2", "TEST-R-002"), Outcome: runner.Crash},
		{Vector: vec("t/c1", "TEST-R-003"), Outcome: runner.Unsupported},
		{Vector: vec("t/e1", "TEST-R-005", "TEST-R-006"), Outcome: runner.Pass},
		{Vector: vec("t/e2", "TEST-R-005"), Outcome: runner.Unsupported},
		{Vector: vec("t/f1", "TEST-R-007"), Outcome: runner.XFail},
	}}
}

const mb = 1 << 20
