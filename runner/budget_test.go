package runner

import (
	"testing"

	"github.com/conform-suite/conform/internal/jsonv"
	"github.com/conform-suite/conform/protocol"
)

// TestLimitsAsSpecified checks the figures PROTO-FRAME-007 states: a value
// counted as 272 bytes, and at --parallel 64 an answer of at most 2 MiB and
// 7,710 values; with one request in flight, the value cap of one answer.
func TestLimitsAsSpecified(t *testing.T) {
	if jsonv.ValueCost != 272 {
		t.Errorf("jsonv.ValueCost = %d; spec/protocol.md says 272", jsonv.ValueCost)
	}
	if got, want := LimitsFor(64), (Limits{Inflight: 64, Bytes: 2 << 20, Values: 7710}); got != want {
		t.Errorf("LimitsFor(64) = %+v; want %+v", got, want)
	}
	if got := LimitsFor(0); got.Inflight != 1 || got.Values != protocol.DefaultMaxAnswerValues || got.Bytes != AnswerBytesBudget {
		t.Errorf("LimitsFor(0) = %+v; want one request in flight with the whole budget", got)
	}
	// Whatever the parallelism, the shares add up to no more than the budgets.
	for _, n := range []int{1, 3, 7, 64, 1000} {
		l := LimitsFor(n)
		if l.Bytes*n > AnswerBytesBudget || l.Values*jsonv.ValueCost*n > AnswerValuesBudget {
			t.Errorf("LimitsFor(%d) = %+v: %d requests in flight hold more than the budget", n, l, n)
		}
	}
}
