package runner

import (
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/conform-suite/conform/internal/jsonv"
	"github.com/conform-suite/conform/protocol"
)

// The memory budget of a run (docs/runner.md, "Memory budget"). What conform
// holds of the answers in flight is bounded by construction: a run divides
// each budget by the number of requests it keeps in flight at once, and an
// answer over its share is outcome protocol, as an over-long line is. So
// --parallel changes how much one answer may hold, never how much all of
// them hold together.
const (
	// AnswerBytesBudget bounds the bytes of the answers in flight at once,
	// as read: a line on stdio, a body over HTTP (a batch's body is one
	// request's answer).
	AnswerBytesBudget = 128 << 20
	// AnswerValuesBudget bounds what the answers in flight decode into, in
	// bytes: each JSON value of an answer costs jsonv.ValueCost.
	AnswerValuesBudget = 128 << 20
)

// Limits are what one request's answer may hold.
type Limits struct {
	Inflight int // requests in flight at once, the budgets' divisor
	Bytes    int // bytes of the answer as read (a line, or an HTTP body)
	Values   int // JSON values each member of an answer decodes into
}

// LimitsFor returns the share of the budgets of one request when inflight
// requests are in flight at once (1 when inflight is not positive). A batch
// is one request: its answers share its limits.
func LimitsFor(inflight int) Limits {
	inflight = max(inflight, 1)
	return Limits{
		Inflight: inflight,
		Bytes:    AnswerBytesBudget / inflight,
		Values:   min(protocol.DefaultMaxAnswerValues, AnswerValuesBudget/jsonv.ValueCost/inflight),
	}
}

// why explains a limit that came from the budget, for a message.
func (l Limits) why() string {
	return fmt.Sprintf("the share of one request in flight of the run's memory budget, with %d in flight (lower --parallel, or --batch, to give each more; docs/runner.md)", l.Inflight)
}

// Budgeted is an implementation that holds its answers to the run's memory
// budget: Run tells it how many requests it keeps in flight before the
// first is sent. Stdio, HTTP and Spawn are.
type Budgeted interface {
	SetInflight(n int)
}

// budget holds a transport's answers to their share of the run's budget
// (SetInflight); until it is told, it assumes one request in flight.
type budget struct{ lim atomic.Pointer[Limits] }

// SetInflight sets the number of requests in flight at once.
func (b *budget) SetInflight(n int) {
	l := LimitsFor(n)
	b.lim.Store(&l)
}

func (b *budget) limits() Limits {
	if l := b.lim.Load(); l != nil {
		return *l
	}
	return LimitsFor(1)
}

// maxBytes is the cap on one answer: own (a transport's flag, such as
// --max-line), or the budget's share when that is lower, with a note saying
// which ("" for own).
func (b *budget) maxBytes(own int) (int, string) {
	l := b.limits()
	if l.Bytes < own {
		return l.Bytes, l.why()
	}
	return own, ""
}

// refused is the message of an answer that ParseAnswer refused, with the
// budget's reason when its values were over the budget.
func (b *budget) refused(err error) string {
	if _, ok := errors.AsType[*protocol.TooLargeError](err); ok {
		return err.Error() + ": " + b.limits().why()
	}
	return err.Error()
}

// lineTooLong is the message of an answer line over its cap, why the cap
// is the budget's share ("" when it is the transport's own); it is "" when
// err is not about such a line.
func lineTooLong(err error, why string) string {
	tooLong, ok := errors.AsType[*protocol.LineTooLongError](err)
	switch {
	case !ok:
		return ""
	case why != "":
		return "the implementation wrote " + tooLong.Error() + ": the limit is " + why
	}
	return "the implementation wrote " + tooLong.Error()
}
