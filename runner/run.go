// Package runner checks an implementation against conform's vectors through
// protocol v1 (spec/protocol.md): it turns each vector into a request, sends
// it to an Implementation, and judges the answer against the vector's
// expectation. [Runner.Judge] is conform's one judge: the differential
// fuzzer judges through it too, with an oracle's answer as the expectation.
//
// # Vocabulary
//
// These words mean one thing each, wherever conform uses them:
//
//   - an outcome ([Outcome]) is what became of one case: pass, fail (a wrong
//     answer, shown as accepted-wrongly or rejected-wrongly when a refusal
//     was wrongly withheld or given), error (the implementation answered a
//     protocol error), crash, timeout, protocol (an answer that is not a
//     protocol message), unsupported (the op is not offered), xfail and
//     xpass (against an expectations file) and interrupted (not judged);
//   - a comparison ([Comparison]) is how an output compares with the
//     expected one: match, mismatch, accepted-wrongly or rejected-wrongly;
//     it refines the outcome fail;
//   - a result ([Result]) is one case's outcome with everything a report
//     shows of it: the request, the comparison's differences, the recorded
//     answer it was graded against, a refusal that left out its code;
//   - the verdict is the run's alone: whether it passed (the JSON report's
//     "verdict" member, the exit code).
//
// # Transports
//
// Every transport satisfies [Implementation]: the in-process reference
// (reference.InProcess, no serialization), [Stdio] (a persistent child
// process, pipelined requests matched by id), [HTTP] (one request or a batch
// per POST) and [Spawn] (a process per request). Serving an implementation
// over the protocol is package protocol's (protocol.ServeStdio,
// protocol.ServeOptions), not the runner's.
//
// # Outcomes
//
// Each vector yields one [Outcome]. A [Report] gathers the results of a run,
// applies an expectations file (see [Expectations]) and writes text, JSON,
// JUnit XML, TAP and Markdown.
package runner

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/conform-suite/conform/protocol"

	"github.com/conform-suite/conform/internal/jsonv"
	"github.com/conform-suite/conform/vectors"
)

// Outcome is what became of one case (a vector, a scenario's call, a fuzz
// input): see the vocabulary in the package documentation.
type Outcome string

// Outcomes.
const (
	Pass        Outcome = "pass"
	Fail        Outcome = "fail"        // a wrong answer (see Result.Comparison)
	Unsupported Outcome = "unsupported" // the implementation does not offer the op
	Errored     Outcome = "error"       // the implementation answered with an error
	Crash       Outcome = "crash"       // the implementation died (or could not be reached)
	Timeout     Outcome = "timeout"     // no answer before the per-request deadline
	ProtocolErr Outcome = "protocol"    // the answer was not a valid protocol message
	XFail       Outcome = "xfail"       // failed, as the expectations file says
	XPass       Outcome = "xpass"       // passed, though the expectations file says it fails
	Interrupted Outcome = "interrupted" // not judged: the caller stopped the run (SIGINT)
)

// Outcomes lists every outcome in report order.
var Outcomes = []Outcome{Pass, Fail, Unsupported, Errored, Crash, Timeout, ProtocolErr, XFail, XPass, Interrupted}

// Result is the outcome of one vector.
type Result struct {
	Vector     *vectors.Vector
	Outcome    Outcome
	Comparison Comparison // for Fail: what kind of wrong answer
	Diffs      []string   // for Fail: one line per difference, by JSON path
	Detail     string     // for the other outcomes: what happened
	Stderr     string     // the tail of the implementation's stderr, for crashes and the like
	Request    protocol.Request
	Expected   json.RawMessage // the output the vector expects from this implementation
	Actual     json.RawMessage // the output the implementation gave, when at most MaxAnswerKept bytes
	// Clipped describes an output longer than MaxAnswerKept (Actual is
	// then nil): its size, hash and first bytes.
	Clipped *Clipped
	// ActualNote says how Actual differs from the bytes the implementation
	// sent: bytes that are not UTF-8 are kept as U+FFFD, so that every
	// report is valid UTF-8 JSON.
	ActualNote string
	Duration   time.Duration
	Started    time.Time // when the request was sent (zero when none was): reports' wall-clock spans
	Reason     string    // for XFail and XPass: the expectations file's reason
	Original   Outcome
	// Required marks an Unsupported result of an op that Runner.RequireOps
	// requires: it fails the run.
	Required bool
	// Recorded is the divergence record the vector was graded against
	// under Runner.Profile (the system's recorded answer), or nil when it
	// was graded against its standard expectation.
	Recorded *vectors.Divergence
	// Codeless is set on a result whose expected refusal carried a code
	// and whose answer refused without one (PROTO-REJECT-002 allows it).
	// It stays a Pass unless Runner.RequireCodes is set, which makes it a
	// Fail; either way the reports count and list it.
	Codeless *CodelessRefusal

	// inFlight is CallError.InFlight of a crash: the ids of the requests in
	// flight when the implementation died.
	inFlight []string
}

// Failed reports whether the outcome fails the run. An interrupted result
// was not judged; it fails the run too.
func (r *Result) Failed() bool {
	switch r.Outcome {
	case Pass, XFail:
		return false
	case Unsupported:
		return r.Required
	}
	return true
}

// FirstLine is the first line of what went wrong: the first difference,
// or the detail.
func (r *Result) FirstLine() string {
	s := r.Detail
	if len(r.Diffs) > 0 {
		s = r.Diffs[0]
	}
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// Kind is the outcome as shown in reports: a Fail is refined into
// "accepted-wrongly" or "rejected-wrongly" when that is what went wrong.
func (r *Result) Kind() string {
	if r.Outcome == Fail && (r.Comparison == AcceptedWrongly || r.Comparison == RejectedWrongly) {
		return r.Comparison.String()
	}
	return string(r.Outcome)
}

// Runner runs vectors against an implementation.
type Runner struct {
	Impl Implementation
	// Hello is the implementation's handshake answer; nil means it does not
	// know hello and supports every op.
	Hello *protocol.Hello
	// Choices are the implementation's values for implementation-defined
	// points; when nil, Hello.Choices are used.
	Choices map[string]string
	// Timeout bounds each request; 0 means no bound.
	Timeout time.Duration
	// Parallel is the number of requests in flight at once; 0 means
	// GOMAXPROCS times 4.
	Parallel int
	// Batch, when above 1 and Impl implements Batcher, sends vectors in
	// batches of that many.
	Batch int
	// RequireOps names the ops that must be offered: an unsupported vector
	// of such an op fails instead of being skipped (--require-ops).
	RequireOps RequiredOps
	// RequireCodes fails a refusal that matched but left out the code the
	// vector expects (--require-codes).
	RequireCodes bool
	// Profile names the profile graded under (--profile): DefaultProfile
	// (or "") grades every vector against its standard expectation; a
	// system's name grades the vectors that record an answer of that system
	// against the recorded answer, and the others as usual.
	Profile string
	// Answered, when set, is told of every n answers Impl gives (or calls
	// that failed), as they come: conform's progress line counts them.
	Answered func(n int)

	decoded decodedJSON // the vectors' inputs and expected outputs, decoded once
}

// Batcher is an implementation that can answer several requests at once
// (HTTP batches).
type Batcher interface {
	CallBatch(ctx context.Context, reqs []protocol.Request) ([]protocol.Response, []error)
}

// Connect performs the hello handshake (PROTO-HELLO-001): AskHello, then a
// *StartError for another protocol version. Declaring no ops is declaring
// none: the returned hello's Ops is then empty, not nil.
func Connect(ctx context.Context, impl Implementation) (*protocol.Hello, error) {
	h, err := AskHello(ctx, impl)
	switch {
	case err != nil || h == nil:
		return nil, err
	case h.Protocol != protocol.Version:
		return nil, &StartError{Msg: fmt.Sprintf("the implementation speaks protocol %d; this runner speaks %d", h.Protocol, protocol.Version)}
	case h.Ops == nil:
		h.Ops = []string{}
	}
	return h, nil
}

// AskHello sends hello and decodes the answer, as it is. It returns nil and
// no error for an implementation that does not know hello (it answers with
// error kind unsupported), and a *StartError when the implementation cannot
// be reached or its answer is not a hello.
func AskHello(ctx context.Context, impl Implementation) (*protocol.Hello, error) {
	resp, err := impl.Call(ctx, protocol.HelloRequest())
	if err != nil {
		if se, ok := errors.AsType[*StartError](err); ok {
			return nil, se
		}
		outcome, detail, stderr := classify(err)
		return nil, &StartError{Msg: "no answer to hello: " + detail, Stderr: stderr, Timeout: outcome == Timeout}
	}
	if resp.Error != nil {
		if resp.Error.Kind == protocol.KindUnsupported {
			return nil, nil
		}
		return nil, &StartError{Msg: fmt.Sprintf("hello was answered with error %s: %s", resp.Error.Kind, resp.Error.Message)}
	}
	var h protocol.Hello
	if err := json.Unmarshal(resp.Output, &h); err != nil {
		return nil, &StartError{Msg: "the answer to hello is not a hello output: " + err.Error()}
	}
	return &h, nil
}

// Run runs every vector and returns one result per vector, in the order of
// vs. Requests run Parallel at a time; ids are 1 for vs[0], 2 for vs[1], ...
func (r *Runner) Run(ctx context.Context, vs []*vectors.Vector) []Result {
	results := make([]Result, len(vs))
	workers := cmp.Or(max(r.Parallel, 0), runtime.GOMAXPROCS(0)*4)
	batch := 1
	b, canBatch := r.Impl.(Batcher)
	if canBatch && r.Batch > 1 {
		batch = r.Batch
	}
	workers = min(workers, max(1, (len(vs)+batch-1)/batch))
	if b, ok := r.Impl.(Budgeted); ok {
		b.SetInflight(workers)
	}
	type job struct{ lo, hi int }
	jobs := make(chan job)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				if batch > 1 {
					r.runBatch(ctx, b, vs, results, j.lo, j.hi)
					continue
				}
				results[j.lo] = r.RunOne(ctx, int64(j.lo+1), vs[j.lo])
			}
		}()
	}
	for lo := 0; lo < len(vs); lo += batch {
		jobs <- job{lo, min(lo+batch, len(vs))}
	}
	close(jobs)
	wg.Wait()
	if workers > 1 && batch == 1 {
		r.recheckAlone(ctx, vs, results)
	}
	return results
}

// recheckAlone sends each vector whose result is a crash or a timeout
// again, alone (nothing else in flight, and not in a batch). With others
// in flight, the transport pins a crash or a hang on the oldest request
// unanswered: right for an implementation that answers in order and at
// once, wrong for one that holds answers back in a buffer while it reads
// on (conform's own serve --stdio does), which may have died or hung on a
// later request. (A batch that fails as a whole is split by runBatch.)
// Sent alone, a vector that crashes or hangs again keeps that outcome. One
// that does not takes the outcome it got alone when the crash (or hang)
// has a culprit: a vector that crashed (or hung) alone, and, for a crash
// whose transport recorded the requests in flight (stdio), was one of them.
// Otherwise nothing explains the crash but this vector (or the requests
// it was sent with: an implementation that fails only under concurrency),
// and it stays, its detail saying what happened when it was sent alone.
func (r *Runner) recheckAlone(ctx context.Context, vs []*vectors.Vector, results []Result) {
	var again []int
	for i := range results {
		if o := results[i].Outcome; o == Crash || o == Timeout {
			again = append(again, i)
		}
	}
	alone := make(map[int]Result, len(again))
	culprit := map[Outcome]bool{}
	culprits := map[string]bool{} // the ids of the vectors that crashed alone
	for _, i := range again {
		if ctx.Err() != nil {
			return // an interrupted re-check changes nothing
		}
		res := r.RunOne(ctx, int64(i+1), vs[i])
		switch res.Outcome {
		case Interrupted:
			return
		case Crash, Timeout:
			culprit[res.Outcome] = true
			if res.Outcome == Crash {
				culprits[string(res.Request.ID)] = true
			}
			if res.Outcome != results[i].Outcome {
				results[i] = res
			} // else the first result stands, with its stderr (a spent restart budget sends nothing again)
		default:
			alone[i] = res
		}
	}
	vectorOf := map[string]string{} // request id -> vector id, for the detail
	for k := range results {
		if results[k].Vector != nil {
			vectorOf[string(results[k].Request.ID)] = results[k].Vector.ID
		}
	}
	for _, i := range again {
		res, ok := alone[i]
		first := &results[i]
		with := first.inFlight
		switch {
		case !ok:
		case culprit[first.Outcome] && (with == nil || slices.ContainsFunc(with, func(id string) bool { return culprits[id] })):
			*first = res
		case culprit[first.Outcome]:
			var names []string
			for _, id := range with {
				names = append(names, cmp.Or(vectorOf[id], "request "+id))
			}
			first.Detail += fmt.Sprintf("; sent again alone, it got outcome %s, and none of the vectors in flight when the implementation died (%s) crashes alone, so the crash stays this vector's", res.Kind(), strings.Join(names, ", "))
		default:
			verb := map[Outcome]string{Crash: "crashed", Timeout: "hung"}[first.Outcome]
			first.Detail += fmt.Sprintf("; sent again alone, it got outcome %s, but no vector of the run %s when sent alone, so the %s stays this vector's", res.Kind(), verb, first.Outcome)
		}
	}
}

// request builds the request for a vector; ok is false when the vector is
// not to be sent (its op is not offered).
func (r *Runner) request(id int64, v *vectors.Vector, res *Result) bool {
	res.Vector = v
	res.Request = protocol.Request{ID: protocol.IntID(id), Op: v.Op, Input: v.Input, Value: r.decoded.get(v.Input, true).v}
	if !r.Hello.Supports(v.Op) {
		r.unsupported(res, "the implementation does not list "+v.Op+" in hello")
		return false
	}
	return true
}

// unsupported makes res Unsupported, and a failure when the op is required.
func (r *Runner) unsupported(res *Result, detail string) {
	res.Outcome, res.Detail = Unsupported, detail
	if r.RequireOps.Has(res.Vector.Op) {
		res.Required = true
		res.Detail += "; --require-ops requires " + res.Vector.Op
	}
}

// interrupted reports whether the caller stopped the run (ctx is done), and
// if so makes res Interrupted.
func interrupted(ctx context.Context, res *Result, when string) bool {
	if ctx.Err() == nil {
		return false
	}
	res.Outcome, res.Detail, res.Stderr = Interrupted, "the run was interrupted "+when+": "+context.Cause(ctx).Error(), ""
	return true
}

// RunOne runs one vector, sending it with the given request id.
func (r *Runner) RunOne(ctx context.Context, id int64, v *vectors.Vector) Result {
	var res Result
	if !r.request(id, v, &res) {
		return res
	}
	if interrupted(ctx, &res, "before this vector was sent") {
		return res
	}
	start := time.Now()
	res.Started = start
	resp, err := r.Call(ctx, res.Request)
	res.Duration = time.Since(start)
	if err != nil && interrupted(ctx, &res, "while waiting for the answer") {
		return res
	}
	r.judge(&res, resp, err)
	return res
}

// Judge judges one answer as Run does: resp, or err when no answer came,
// to req, the request made of v. It is the one judge of conform: the
// differential fuzzer judges an implementation through it, with the
// oracle's answer as v's expectation.
func (r *Runner) Judge(v *vectors.Vector, req protocol.Request, resp protocol.Response, err error) Result {
	res := Result{Vector: v, Request: req}
	r.judge(&res, resp, err)
	return res
}

func (r *Runner) runBatch(ctx context.Context, b Batcher, vs []*vectors.Vector, results []Result, lo, hi int) {
	var reqs []protocol.Request
	var idx []int
	for i := lo; i < hi; i++ {
		if r.request(int64(i+1), vs[i], &results[i]) && !interrupted(ctx, &results[i], "before this vector was sent") {
			reqs = append(reqs, results[i].Request)
			idx = append(idx, i)
		}
	}
	if len(reqs) == 0 {
		return
	}
	cctx, cancel := r.deadline(ctx)
	start := time.Now()
	resps, errs := b.CallBatch(cctx, reqs)
	d := time.Since(start) / time.Duration(len(reqs))
	cancel()
	r.answered(len(reqs))
	if len(reqs) > 1 && !slices.Contains(errs, nil) && ctx.Err() == nil {
		r.splitBatch(ctx, vs, results, idx, resps, errs, start, d)
		return
	}
	for k, i := range idx {
		results[i].Duration, results[i].Started = d, start
		if errs[k] != nil && interrupted(ctx, &results[i], "while waiting for the answer") {
			continue
		}
		r.judge(&results[i], resps[k], errs[k])
	}
}

// splitBatch judges a batch that failed as a whole (it hung, the server
// died, a status other than 200, a body that is not its array): each
// request is sent again alone. When one of them fails alone without a
// right or wrong answer (a crash, a timeout, a protocol or error outcome),
// it explains the batch's failure, and every request takes the outcome it
// got alone. When none does, nothing but the batch explains it: the
// implementation did not answer a batch as PROTO-HTTP-002 asks (a batch
// too large, refused under PROTO-HTTP-004, included), and the batch's
// failure stands on every request of it, its detail saying so.
func (r *Runner) splitBatch(ctx context.Context, vs []*vectors.Vector, results []Result, idx []int, resps []protocol.Response, errs []error, start time.Time, d time.Duration) {
	alone := make([]Result, len(idx))
	explained := false
	for k, i := range idx {
		alone[k] = r.RunOne(ctx, int64(i+1), vs[i])
		switch alone[k].Outcome {
		case Crash, Timeout, ProtocolErr, Errored:
			explained = true
		}
	}
	for k, i := range idx {
		if explained || alone[k].Outcome == Interrupted {
			results[i] = alone[k]
			continue
		}
		results[i].Duration, results[i].Started = d, start
		r.judge(&results[i], resps[k], errs[k])
		results[i].Detail += fmt.Sprintf("; the batch of %d requests it was sent in failed as a whole, though none of them fails alone (this one got outcome %s): batches are not answered as PROTO-HTTP-002 asks (--batch 1 sends none)", len(idx), alone[k].Kind())
	}
}

// Call sends req to the implementation under the per-request deadline. A
// request that failed through no fault of its own (a *CallError marked
// Retry: it waited behind one that hung, or was in flight when the
// implementation was stopped for another) is sent again, with a fresh
// deadline, up to three times: its outcome is its own input's, never
// another's.
func (r *Runner) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	resp, err := r.call(ctx, req)
	for range 3 {
		if ce, ok := errors.AsType[*CallError](err); !ok || !ce.Retry {
			break
		}
		resp, err = r.call(ctx, req)
	}
	return resp, err
}

// call sends one request under the per-request deadline: the
// implementation's own (CallWithin) when it applies one.
func (r *Runner) call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	defer r.answered(1)
	if t, ok := r.Impl.(TimedImplementation); ok && r.Timeout > 0 {
		return t.CallWithin(ctx, req, r.Timeout)
	}
	cctx, cancel := r.deadline(ctx)
	defer cancel()
	return r.Impl.Call(cctx, req)
}

// answered tells r.Answered, if set, of n answers.
func (r *Runner) answered(n int) {
	if r.Answered != nil {
		r.Answered(n)
	}
}

func (r *Runner) deadline(ctx context.Context) (context.Context, context.CancelFunc) {
	if r.Timeout > 0 {
		return context.WithTimeout(ctx, r.Timeout)
	}
	return context.WithCancel(ctx)
}

// judge classifies an answer.
func (r *Runner) judge(res *Result, resp protocol.Response, err error) {
	defer res.bound()
	d := Recorded(r.Profile, res.Vector)
	res.Recorded = d
	defer func() {
		if res.Failed() && res.Stderr == "" && resp.Stderr != nil {
			res.Stderr = resp.Stderr() // the child's own words on a wrong answer
		}
	}()
	switch {
	case err != nil:
		res.Outcome, res.Detail, res.Stderr = classify(err)
		if ce, ok := errors.AsType[*CallError](err); ok {
			res.inFlight = ce.InFlight
		}
		if res.Outcome == Timeout && r.Timeout > 0 {
			res.Detail = fmt.Sprintf("no answer within %v (set the limit with --timeout): %s", r.Timeout, res.Detail)
		}
	case resp.Error != nil && resp.Error.Kind == protocol.KindUnsupported:
		r.unsupported(res, "the implementation answered error kind unsupported: "+resp.Error.Message)
	case d == nil && res.Vector.Expect.Error != nil:
		judgeError(res, resp)
	case resp.Error == nil && resp.Output == nil:
		res.Outcome, res.Detail = ProtocolErr, protocol.ErrNoAnswerBody.Error()
	case d != nil && d.Error != nil:
		judgeRecordedError(res, resp, d)
	case resp.Error != nil:
		res.Outcome, res.Detail = Errored, resp.Error.Kind+": "+resp.Error.Message
	default:
		r.judgeOutput(res, resp, d)
	}
}

// judgeOutput judges an output against the one the vector expects from
// this implementation (the recorded answer d when there is one).
func (r *Runner) judgeOutput(res *Result, resp protocol.Response, d *vectors.Divergence) {
	res.Actual = resp.Output
	want, err := r.expected(res.Vector, d)
	if err != nil {
		res.Outcome, res.Detail = Fail, err.Error()
		return
	}
	res.Expected = want
	if bytes.Equal(resp.Output, want) {
		// The expected output itself, byte for byte: the same value, with
		// the same refusal code, and nothing to decode.
		res.Outcome = Pass
		return
	}
	exp := r.decoded.get(want, false)
	if exp.err != nil {
		res.Outcome, res.Detail = Fail, fmt.Errorf("expected output: %w", exp.err).Error()
		return
	}
	var got *jsonv.Value
	if !bytes.Equal(resp.Output, exp.canon) { // else the expected output itself, written compactly
		res.Comparison, res.Diffs, got = compareDecoded(exp.v, want, resp.Output, resp.Value)
	}
	res.Outcome = Pass
	if res.Comparison != Match {
		res.Outcome = Fail
		return
	}
	if c := codelessRefusal(exp.v, got); c != nil {
		res.Codeless = c
		if r.RequireCodes {
			res.Outcome, res.Comparison = Fail, Mismatch
			res.Diffs = []string{fmt.Sprintf("$.%s.code: want %q, got no code (--require-codes)", c.Member, c.Code)}
		}
	}
}

// judgeError judges the answer to a vector that expects a protocol error of
// one kind: an error of that kind passes, whatever its message; an output
// or an error of another kind fails.
func judgeError(res *Result, resp protocol.Response) {
	want := res.Vector.Expect.Error.Kind
	res.Expected, _ = json.Marshal(map[string]any{"error": map[string]string{"kind": want}})
	switch {
	case resp.Error != nil && resp.Error.Kind == want:
		res.Outcome = Pass
	case resp.Error != nil:
		res.Outcome, res.Comparison = Fail, Mismatch
		res.Actual, _ = json.Marshal(map[string]*protocol.Error{"error": resp.Error})
		res.Diffs = []string{fmt.Sprintf("$.error.kind: want %q, got %q (%s)", want, resp.Error.Kind, resp.Error.Message)}
	case resp.Output == nil:
		res.Outcome, res.Detail = ProtocolErr, protocol.ErrNoAnswerBody.Error()
	default:
		res.Outcome, res.Comparison, res.Actual = Fail, Mismatch, resp.Output
		res.Diffs = []string{fmt.Sprintf("$: want an error answer of kind %q (the input is malformed), got the output %s", want, clipOutput(resp.Output))}
	}
}

// clipOutput shortens an output for a one-line difference.
func clipOutput(out json.RawMessage) string {
	if r := []rune(string(out)); len(r) > 120 {
		return string(r[:120]) + "…"
	}
	return string(out)
}

// expected returns the output the vector expects from this implementation,
// the recorded answer d when there is one.
func (r *Runner) expected(v *vectors.Vector, d *vectors.Divergence) (json.RawMessage, error) {
	if d != nil {
		return d.Output, nil
	}
	if v.Expect.Output != nil {
		return v.Expect.Output, nil
	}
	choices := r.Choices
	if choices == nil && r.Hello != nil {
		choices = r.Hello.Choices
	}
	value, ok := choices[v.Expect.Choice]
	if !ok {
		return nil, fmt.Errorf("the implementation declares no value for choice %s in hello", v.Expect.Choice)
	}
	out, ok := v.Expect.Outputs[value]
	if !ok {
		return nil, fmt.Errorf("choice %s = %q is not one of the vector's allowed values", v.Expect.Choice, value)
	}
	return out, nil
}
