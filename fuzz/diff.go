package fuzz

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/conform-suite/conform/internal/jsonv"
	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/reference"
	"github.com/conform-suite/conform/runner"
	"github.com/conform-suite/conform/vectors"
)

// Class names a finding in the runner's words: the outcome the runner's
// judge gave the implementation's answer, with the comparison for a wrong
// one (classOf), or a failure of the oracle, which the runner does not
// judge.
type Class string

// Classes of findings.
const (
	// The comparisons' names (runner.Comparison.String, which a test holds
	// them to).
	ClassMismatch        Class = "mismatch"         // a different ordinary output
	ClassAcceptedWrongly Class = "accepted-wrongly" // the reference refused, the implementation did not
	ClassRejectedWrongly Class = "rejected-wrongly" // the implementation refused, the reference did not

	ClassError    = Class(runner.Errored)     // the implementation answered with a protocol error
	ClassCrash    = Class(runner.Crash)       // no answer: the implementation died or the transport failed
	ClassTimeout  = Class(runner.Timeout)     // no answer within Config.Timeout
	ClassProtocol = Class(runner.ProtocolErr) // an answer that is not a protocol message

	ClassReference Class = "reference-error" // the reference itself failed (a bug in conform)
	ClassOracle    Class = "oracle-error"    // an oracle other than the reference gave no answer to compare, or an error the implementation did not give
)

// Triage says, for a finding against an oracle other than the reference,
// who is off the specification: the in-process reference judges the
// implementation's answer and the oracle's.
type Triage string

// Triages.
const (
	TriagePort      Triage = "port-off-spec"      // the reference agrees with the oracle
	TriageIncumbent Triage = "incumbent-off-spec" // the reference agrees with the implementation
	TriageBoth      Triage = "both-off-spec"      // the implementation and the oracle agree, the reference does not
	TriageThreeWay  Triage = "three-way"          // all three answer differently
)

// PortOffSpec reports whether the implementation under test is off the
// specification in a finding of this triage: only then does the finding
// become a vector that fails it.
func (t Triage) PortOffSpec() bool { return t != TriageIncumbent }

// unanswered reports whether the class is of an outcome without an answer:
// a crash or a timeout.
func (c Class) unanswered() bool { return c == ClassCrash || c == ClassTimeout }

// classOf is the class of a finding the judge failed: its comparison for a
// wrong answer, its outcome otherwise.
func classOf(res runner.Result) Class {
	if res.Outcome == runner.Fail {
		return Class(res.Comparison.String())
	}
	return Class(res.Outcome)
}

// Config describes one differential fuzzing run.
type Config struct {
	Impl runner.Implementation // the implementation under test
	// Ref is the oracle: the implementation whose answers are taken as
	// expected. nil means the in-process reference (reference.InProcess{});
	// any other implementation (an incumbent through its adapter, or the
	// reference over a transport) is an oracle like any other: its
	// failures are findings of kind ClassOracle, and an error answer is
	// compared by kind with the implementation's.
	Ref runner.Implementation

	// Ops to fuzz. Empty means every op the reference answers, the
	// implementation offers, and that has a generator or a vector.
	Ops []string
	// Corpus supplies the vector inputs that are mutated and the requirement
	// ids of emitted vectors; nil means the embedded corpus.
	Corpus *vectors.Corpus
	// NoCorpus fuzzes from the generators alone: no vector's input is
	// mutated (the corpus still gives emitted vectors their requirement
	// ids), so that a run measures what the generators reach by themselves.
	NoCorpus bool

	Seed     uint64        // every input is a function of Seed and its case number
	Count    int           // stop after Count executions; 0 for no bound
	Duration time.Duration // stop after Duration; 0 for no bound
	Timeout  time.Duration // per request; 0 means 5s
	// Parallel is how many cases are in flight at once (generated and
	// recorded in order, so the findings do not depend on it); 0 means 1.
	// The implementation must accept concurrent calls, as the runner's
	// transports do.
	Parallel int
	// StopWhen, when set, stops the run after a finding for which it
	// returns true.
	StopWhen func(*Finding) bool

	// Known maps divergence classes a profile records (Known) to a vector
	// that records each: a divergence of one of them is counted in
	// Report.Known, not made a finding.
	Known map[string]string

	// ShrinkExecs and ShrinkTime bound the work spent shrinking one finding;
	// zero means 2000 executions and 20s.
	ShrinkExecs int
	ShrinkTime  time.Duration

	// Progress, when set, is called with the running totals about every
	// progressEvery and once at the end.
	Progress func(Stats)
}

// progressEvery is how often Config.Progress is called.
const progressEvery = 250 * time.Millisecond

// Stats are the running totals of a run.
type Stats struct {
	Execs     int // inputs sent to both sides (shrinking excluded)
	Shrinks   int // executions spent shrinking
	Divergent int // executions that diverged, before de-duplication
	Findings  int // distinct findings
	Skipped   int // inputs of an op the oracle or the implementation does not offer, or sent while the run was stopped
	// Refused counts the inputs the oracle refused as bad requests (an
	// input outside the op's shape): they are judged too, the
	// implementation agreeing only with a bad_request of its own.
	Refused int
	// Inconclusive counts the inputs in flight each time they were sent
	// when the implementation was stopped for another input's hang or
	// crash, even when sent again alone (after its restart budget was
	// spent, say): neither findings nor agreements.
	Inconclusive int
	Elapsed      time.Duration
	Count        int // the run's bounds, copied from Config
	Duration     time.Duration
}

// Rate returns executions per second.
func (s Stats) Rate() float64 {
	if s.Elapsed <= 0 {
		return 0
	}
	return float64(s.Execs+s.Shrinks) / s.Elapsed.Seconds()
}

// Finding is one distinct divergence, shrunk.
type Finding struct {
	Op        string
	Class     Class
	Signature string // op, kind and what differs from the reference's answer (compareSig): the de-duplication key

	Input    json.RawMessage // the shrunk input
	Original json.RawMessage // the input as first found
	// Expected is the reference's output for Input, or, when it refused
	// the input as a bad request, its error answer without the message
	// ({"error":{"kind":"bad_request"}}), with ExpectError its kind.
	Expected    json.RawMessage
	ExpectError string
	Actual      json.RawMessage // the implementation's output for Input, if it gave one
	Detail      string          // the error, crash, timeout or protocol detail
	Diffs       []string        // for the compare kinds

	// Triage, with an oracle other than the reference, says who is off the
	// specification; Oracle is then the oracle's output (and Expected the
	// reference's).
	Triage Triage
	Oracle json.RawMessage
	// OracleError is the kind of the oracle's error answer, when it
	// answered one (Oracle is then {"error":{"kind":...}}).
	OracleError string

	Seed       uint64 // Config.Seed
	Case       int    // the case number that found it (0-based)
	From       string // the id of the vector whose input was mutated, if any
	Hits       int    // executions that ended in this signature
	ShrinkRuns int    // executions spent shrinking it
}

// answers sets the finding's answers and what differs from those of the
// probe o.
func (f *Finding) answers(o probe) {
	f.Expected, f.Actual, f.Detail, f.Diffs, f.Oracle = o.expected, o.actual, o.detail, o.diffs, o.oracle
	f.ExpectError, f.OracleError = "", o.oracleErr
	if o.refused {
		f.ExpectError = protocol.KindBadRequest
	}
}

// Report is the result of a run.
type Report struct {
	Stats
	Ops         []string   // the ops fuzzed
	Unsupported []string   // ops the implementation declared or answered as unsupported
	Findings    []*Finding // in order of discovery
	// Known counts, per divergence class of Config.Known, the executions
	// that diverged in that class.
	Known map[string]int
	// Stopped, when not empty, says why the run ended early: the
	// implementation stopped answering even inputs it had answered right.
	Stopped string
}

// Diverged reports whether the run found anything.
func (r *Report) Diverged() bool { return len(r.Findings) > 0 }

type engine struct {
	cfg Config
	// refCalls and implCalls send requests as conform run does: under the
	// per-request deadline, and again when a request failed for another's
	// fault (it was in flight when the implementation was stopped for a
	// hang or a crash of another input), so that a finding's input is the
	// one that causes it.
	refCalls, implCalls *runner.Runner
	external            bool // the oracle is not the in-process reference
	id                  atomic.Int64
	seeds               map[string][]seedInput
	unsupported         map[string]bool
	stats               Stats
	lastGood            map[string][]byte // per op, the last input both sides agreed on
	dead                string            // why the implementation is considered gone
	byKey               map[string]*Finding
	codes               map[string][]string // per op, the implementation's codes the keys name (key)
	start               time.Time
	stopped             bool // Config.StopWhen said so
}

type seedInput struct {
	id string
	v  *jsonv.Value
}

// Run fuzzes cfg.Impl against the reference until the count or the time
// bound is reached or ctx is done. It fails only when nothing can be
// fuzzed; divergences are the report's findings.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if cfg.Impl == nil {
		return nil, errors.New("fuzz: no implementation under test")
	}
	if cfg.Count <= 0 && cfg.Duration <= 0 {
		return nil, errors.New("fuzz: neither a count nor a duration bounds the run")
	}
	external := cfg.Ref != nil
	if cfg.Ref == nil {
		cfg.Ref = reference.InProcess{}
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 5 * time.Second
	}
	if cfg.ShrinkExecs <= 0 {
		cfg.ShrinkExecs = 2000
	}
	if cfg.ShrinkTime <= 0 {
		cfg.ShrinkTime = 20 * time.Second
	}
	if cfg.Corpus == nil {
		c, err := vectors.Load(vectors.FS())
		if err != nil {
			return nil, err
		}
		cfg.Corpus = c
	}
	// The implementation's answers and an external oracle's share the run's
	// memory budget: each holds Parallel requests in flight.
	inflight := max(1, cfg.Parallel)
	if external {
		inflight *= 2
	}
	for _, im := range []runner.Implementation{cfg.Impl, cfg.Ref} {
		if b, ok := im.(runner.Budgeted); ok {
			b.SetInflight(inflight)
		}
	}
	e := newEngine(cfg, external)
	ops, err := e.selectOps(ctx)
	if err != nil {
		return nil, err
	}
	rep := &Report{Ops: ops}
	e.loop(ctx, rep, ops)
	rep.Unsupported, rep.Stopped = slices.Sorted(maps.Keys(e.unsupported)), e.dead
	e.progress(rep)
	rep.Stats = e.stats
	return rep, nil
}

// newEngine returns the engine of a run of cfg (defaults filled in), with
// the corpus's inputs as its seeds.
func newEngine(cfg Config, external bool) *engine {
	e := &engine{cfg: cfg, external: external, seeds: map[string][]seedInput{}, unsupported: map[string]bool{}, lastGood: map[string][]byte{},
		byKey: map[string]*Finding{}, codes: map[string][]string{}}
	e.refCalls = &runner.Runner{Impl: cfg.Ref, Timeout: cfg.Timeout}
	e.implCalls = &runner.Runner{Impl: cfg.Impl, Timeout: cfg.Timeout}
	e.stats.Count, e.stats.Duration = cfg.Count, cfg.Duration
	if cfg.NoCorpus {
		return e
	}
	for _, v := range cfg.Corpus.Vectors() {
		if in, err := parseJSON16(v.Input); err == nil {
			e.seeds[v.Op] = append(e.seeds[v.Op], seedInput{v.ID, in})
		}
	}
	return e
}

// loop runs the cases of ops, a batch at a time, until the run is over. A
// batch of cases is generated in order, checked concurrently, and recorded
// in order: the findings do not depend on Parallel.
func (e *engine) loop(ctx context.Context, rep *Report, ops []string) {
	e.start = time.Now()
	lastProgress := e.start
	for i := 0; !e.over(ctx, i); {
		live := slices.DeleteFunc(slices.Clone(ops), func(op string) bool { return e.unsupported[op] })
		if len(live) == 0 {
			break
		}
		batch := e.batch(i, live)
		// Parallel workers take the batch's cases in turn, so that a slow
		// case holds up one worker, not the batch; none starts a case once
		// the run's time is up.
		var next atomic.Int64
		var wg sync.WaitGroup
		for range min(max(1, e.cfg.Parallel), len(batch)) {
			wg.Go(func() {
				for k := int(next.Add(1)) - 1; k < len(batch) && !e.timeUp(ctx); k = int(next.Add(1)) - 1 {
					c := &batch[k]
					c.in, c.from = e.input(c.r, c.op)
					c.data = encode(c.in)
					c.o, c.done = e.check(ctx, c.op, c.data), true
				}
			})
		}
		wg.Wait()
		for k := range batch {
			if k > 0 && e.over(ctx, i) || !batch[k].done {
				break
			}
			e.record(ctx, rep, &batch[k])
			i++
		}
		if time.Since(lastProgress) >= progressEvery {
			lastProgress = time.Now()
			e.progress(rep)
		}
	}
}

// batchPerWorker is how many cases a batch holds per parallel worker: the
// ops still offered are settled between batches (so the findings do not
// depend on Parallel), and a larger batch leaves the workers idle less
// often at its end.
const batchPerWorker = 16

// batch starts the next cases, from case i on: batchPerWorker for each
// case in flight, never past the count, each with its op and the random
// source its input is generated from (in parallel: an input is a function
// of the seed and its case number alone).
func (e *engine) batch(i int, live []string) []caseRun {
	batch := make([]caseRun, batchPerWorker*max(1, e.cfg.Parallel))
	if e.cfg.Count > 0 {
		batch = batch[:min(len(batch), e.cfg.Count-i)]
	}
	for k := range batch {
		c := &batch[k]
		c.r = newCaseRand(e.cfg.Seed, uint64(i+k))
		c.i, c.op = i+k, pickOne(c.r, live)
	}
	return batch
}

// timeUp reports whether the run's time is up or ctx is done.
func (e *engine) timeUp(ctx context.Context) bool {
	return e.cfg.Duration > 0 && time.Since(e.start) >= e.cfg.Duration || ctx.Err() != nil
}

// over reports whether the run is over before case i: its count or time is
// reached, ctx is done, or it was stopped (or the implementation is gone).
func (e *engine) over(ctx context.Context, i int) bool {
	return e.cfg.Count > 0 && i >= e.cfg.Count || e.timeUp(ctx) || e.stopped || e.dead != ""
}

// progress brings the running totals up to date and reports them.
func (e *engine) progress(rep *Report) {
	e.stats.Elapsed = time.Since(e.start)
	e.stats.Findings = len(rep.Findings)
	if e.cfg.Progress != nil {
		e.cfg.Progress(e.stats)
	}
}

// caseRun is one case of a run: its input and both sides' answers.
type caseRun struct {
	i    int
	done bool // checked (a case the run ended before is not)
	r    *rand.Rand
	op   string
	in   *jsonv.Value
	from string
	data []byte
	o    probe
}

// record counts one checked case, and turns a new divergence into a
// finding, shrunk while the implementation is alive.
func (e *engine) record(ctx context.Context, rep *Report, c *caseRun) {
	e.stats.Execs++
	o := e.alone(ctx, c)
	if o.refused {
		e.stats.Refused++
	}
	switch {
	case o.unsupported:
		e.unsupported[c.op] = true
		e.stats.Skipped++
	case o.inconclusive:
		e.stats.Inconclusive++
	case o.skip:
		e.stats.Skipped++
	case o.class == "":
		e.lastGood[c.op] = c.data
	default:
		e.stats.Divergent++
		if _, ok := e.cfg.Known[o.sig]; ok {
			if rep.Known == nil {
				rep.Known = map[string]int{}
			}
			rep.Known[o.sig]++
			return
		}
		key := e.key(c.op, o)
		f, alive := e.byKey[key], e.alive(ctx, c.op, o)
		switch {
		case f != nil:
			f.Hits++
			return
		case !alive:
			// Perhaps the input that killed it: kept as found, unshrunk.
			f = &Finding{Op: c.op, Class: o.class, Signature: o.sig, Input: c.data, Original: c.data}
			f.answers(o)
			f.Detail += " (the implementation answered nothing after this input; not shrunk)"
		default:
			f = e.shrink(ctx, c.op, c.in, o)
		}
		f.Seed, f.Case, f.From, f.Hits, f.Signature = e.cfg.Seed, c.i, c.from, 1, key
		e.byKey[key] = f
		rep.Findings = append(rep.Findings, f)
		e.stopped = e.stopped || e.cfg.StopWhen != nil && e.cfg.StopWhen(f)
	}
}

// selectOps returns the ops to fuzz: those asked for (or all that have
// inputs), that the reference answers and the implementation offers.
func (e *engine) selectOps(ctx context.Context) ([]string, error) {
	refOps := e.hello(ctx, e.cfg.Ref)
	if refOps == nil {
		refOps = reference.Ops()
	}
	implOps := e.hello(ctx, e.cfg.Impl)
	noInputs := func(op string) bool { return inputGens[op] == nil && len(e.seeds[op]) == 0 }
	ops := e.cfg.Ops
	if len(ops) == 0 {
		ops = slices.DeleteFunc(slices.Clone(refOps), noInputs)
	}
	var out []string
	for _, op := range ops {
		switch {
		case !slices.Contains(refOps, op):
			return nil, fmt.Errorf("fuzz: the oracle does not answer op %q", op)
		case noInputs(op):
			return nil, fmt.Errorf("fuzz: op %q has neither a inputGen nor a vector to mutate", op)
		case implOps != nil && !slices.Contains(implOps, op):
			e.unsupported[op] = true
		default:
			out = append(out, op)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("fuzz: the implementation offers none of the ops to fuzz that the oracle offers")
	}
	return out, nil
}

// hello returns the ops an implementation declares, or nil when it does
// not answer hello or declares no ops (it is then assumed to support every
// op, unlike runner.Connect, and whatever its protocol version).
func (e *engine) hello(ctx context.Context, impl runner.Implementation) []string {
	ctx, cancel := context.WithTimeout(ctx, e.cfg.Timeout)
	defer cancel()
	h, err := runner.AskHello(ctx, impl)
	if err != nil || h == nil {
		return nil
	}
	return h.Ops
}

// input returns the next input for op: generated, generated then mutated,
// or a mutated vector input (and that vector's id).
func (e *engine) input(r *rand.Rand, op string) (*jsonv.Value, string) {
	gen, seeds := inputGens[op], e.seeds[op]
	if len(faultSites[op]) > 0 && r.IntN(outsideEvery) == 0 {
		// An input outside the op's shape on purpose: a generated or a
		// vector input with one fault at one of its closed objects.
		base, from := jobj(), ""
		switch {
		case gen != nil && (len(seeds) == 0 || r.IntN(2) == 0):
			base = gen(r)
		case len(seeds) > 0:
			s := pickOne(r, seeds)
			base, from = s.v, s.id
		}
		in, _, _ := outsideSchema(r, op, base)
		return in, from
	}
	if gen != nil && (len(seeds) == 0 || r.IntN(2) == 0) {
		v := gen(r)
		if r.IntN(3) == 0 {
			v = mutate(r, v)
		}
		return v, ""
	}
	s := pickOne(r, seeds)
	return mutate(r, s.v), s.id
}

// outsideEvery is how often (one input in outsideEvery) an input is made
// outside the op's shape on purpose (outsideSchema).
const outsideEvery = 8

// probe is the comparison of both sides' answers to one input.
type probe struct {
	skip        bool // nothing to judge: the run was stopped, or the op is not offered
	unsupported bool // the implementation does not offer the op
	// refused: the expected answer is an error of kind bad_request (the
	// reference, or the oracle when untriaged, refused the input);
	// expected is then that error's answer body.
	refused bool
	// inconclusive (with skip): each time the input was sent, the
	// implementation was stopped for another input in flight (its hang or
	// crash), so nothing is known of this one.
	inconclusive bool
	class        Class // "" when both agree
	sig          string
	code         string // the implementation's refusal code when sig ends with it (compareSig)
	triage       Triage
	oracle       json.RawMessage // the oracle's output (or error answer body), when triaged
	oracleErr    string          // the kind of the oracle's error answer, when triaged
	expected     json.RawMessage
	actual       json.RawMessage
	detail       string
	diffs        []string
}

func (e *engine) check(ctx context.Context, op string, input []byte) probe {
	req := protocol.Request{ID: protocol.IntID(e.id.Add(1)), Op: op, Input: input}
	// who names the oracle in signatures; only an oracle other than the
	// in-process reference is asked under the per-request deadline.
	failed, who, call := ClassReference, "reference", e.cfg.Ref.Call
	if e.external {
		failed, who, call = ClassOracle, "oracle", e.refCalls.Call
	}
	rresp, err := call(ctx, req)
	// The runner's judge decides, with the oracle's answer as the
	// expectation; the fuzzer only names the finding.
	want, refused := vectors.Expect{Output: rresp.Output}, false
	switch {
	case err != nil && ctx.Err() != nil:
		return probe{skip: true} // the run was stopped, not the oracle
	case otherInputsFault(err):
		return probe{skip: true, inconclusive: true}
	case err != nil:
		return finish(op, probe{class: failed, detail: "the oracle gave no answer: " + err.Error()})
	case rresp.Error != nil && rresp.Error.Kind == protocol.KindUnsupported:
		return probe{skip: true}
	case rresp.Error != nil && rresp.Error.Kind == protocol.KindBadRequest:
		// An input outside the op's shape: the implementation must refuse
		// it too, as a vector expecting the error would have it (an
		// oracle's bad_request means the same as the reference's).
		want, refused = badRequest, true
	case rresp.Error != nil && e.external:
		// An incumbent may fail where the spec refuses (T3 Code throws
		// URIError): the implementation agrees when it fails the same way,
		// as it would pass a vector expecting that error, whatever its
		// message.
		want = vectors.Expect{Error: &vectors.ExpectError{Kind: rresp.Error.Kind}}
	case rresp.Error != nil:
		return finish(op, probe{class: ClassReference, detail: rresp.Error.Kind + ": " + rresp.Error.Message})
	case rresp.Output == nil:
		return finish(op, probe{class: failed, detail: "the oracle gave no output"})
	}
	// An external oracle's output is untrusted too: one that is not JSON
	// fails the oracle, whatever the implementation answers. (The
	// in-process reference's is its own encoder's.)
	if e.external && rresp.Error == nil {
		if _, err := jsonv.Parse(rresp.Output); err != nil {
			return finish(op, probe{class: failed, detail: "the oracle's output: " + err.Error()})
		}
	}
	iresp, err := e.implCalls.Call(ctx, req)
	switch {
	case err != nil && ctx.Err() != nil:
		return probe{skip: true} // the run was stopped, not the implementation
	case otherInputsFault(err):
		return probe{skip: true, inconclusive: true}
	}
	res := judge(req, want, iresp, err, e.cfg.Timeout)
	if res.Outcome == runner.Unsupported {
		return probe{skip: true, unsupported: true}
	}
	if rresp.Error != nil && !refused {
		return oracleError(op, rresp.Error, res, iresp, err)
	}
	o := probe{expected: rresp.Output}
	if refused {
		o.refused, o.expected = true, badRequestBody
	}
	o.describe(res, iresp, who)
	if e.external {
		return e.triage(ctx, op, req, iresp, err, rresp, o)
	}
	return finish(op, o)
}

// badRequest is the expectation of an input refused as a bad request, and
// badRequestBody its answer body as a finding shows it (the message is
// never compared).
var (
	badRequest     = vectors.Expect{Error: &vectors.ExpectError{Kind: protocol.KindBadRequest}}
	badRequestBody = json.RawMessage(`{"error":{"kind":"bad_request"}}`)
)

// describe fills o from the judge's result on the implementation's answer:
// its class and signature, unless it passed.
func (o *probe) describe(res runner.Result, iresp protocol.Response, who string) {
	o.actual, o.detail, o.diffs, o.class, o.sig, o.code = iresp.Output, res.Detail, res.Diffs, "", "", ""
	switch res.Outcome {
	case runner.Pass:
		return
	case runner.Fail:
		if o.refused {
			// The judge calls any wrong answer to an expected error a
			// mismatch: an output is an input accepted wrongly, another
			// error kind an error answer, as anywhere else.
			o.describeRefused(res, iresp, who)
			return
		}
		o.sig, o.code = compareSig(res.Comparison, o.expected, iresp.Output, res.Diffs, who)
	case runner.Errored:
		o.sig = errorKindSig(iresp.Error.Kind)
	}
	o.class = classOf(res)
}

// describeRefused fills o from the judge's failing result on the
// implementation's answer to an input refused as a bad request.
func (o *probe) describeRefused(res runner.Result, iresp protocol.Response, who string) {
	if iresp.Error != nil {
		o.class, o.sig = ClassError, errorKindSig(iresp.Error.Kind)
		o.detail = iresp.Error.Kind + ": " + iresp.Error.Message + " (" + who + ": bad_request)"
		o.diffs = nil
		return
	}
	o.class, o.sig = ClassAcceptedWrongly, who+" bad_request"
}

// judge is the runner's judgement of resp (or err, when no answer came) to
// req, as a vector of req's op and input expecting want; timeout is the
// per-request limit a timeout's detail names.
func judge(req protocol.Request, want vectors.Expect, resp protocol.Response, err error, timeout time.Duration) runner.Result {
	v := &vectors.Vector{ID: req.Op + "/fuzz", Op: req.Op, Input: req.Input, Expect: want}
	return (&runner.Runner{Timeout: timeout}).Judge(v, req, resp, err)
}

// triage labels a comparison with an external oracle by the
// specification: the in-process reference answers the same request, and
// judges the implementation's answer and the oracle's (oresp) (for an op
// it knows). An input on which the implementation and the oracle agree is
// a finding only when both are off the specification. The probe's
// expectation becomes the reference's (its output, or the bad_request it
// refuses the input with), so that a vector made of it fails the
// implementation only where the implementation is off the specification.
func (e *engine) triage(ctx context.Context, op string, req protocol.Request, iresp protocol.Response, ierr error, oresp protocol.Response, o probe) probe {
	sresp, err := reference.InProcess{}.Call(ctx, req)
	switch {
	case err == nil && sresp.Error != nil && sresp.Error.Kind == protocol.KindUnsupported:
		// An op the reference does not know: the oracle alone decides.
		return finish(op, o)
	case err != nil:
		return finish(op, probe{class: ClassReference, detail: "the reference gave no answer: " + err.Error()})
	case sresp.Error != nil && sresp.Error.Kind != protocol.KindBadRequest:
		return finish(op, probe{class: ClassReference, detail: sresp.Error.Kind + ": " + sresp.Error.Message})
	}
	spec := vectors.Expect{Output: sresp.Output}
	o.refused, o.expected = false, sresp.Output
	if sresp.Error != nil {
		spec, o.refused, o.expected = badRequest, true, badRequestBody
	}
	port := judge(req, spec, iresp, ierr, e.cfg.Timeout)
	incumbent := judge(req, spec, oresp, nil, e.cfg.Timeout)
	portOK, incumbentOK := port.Outcome == runner.Pass, incumbent.Outcome == runner.Pass
	switch agree := o.class == ""; {
	case agree && portOK:
		return o
	case !agree && !portOK && incumbentOK:
		o.triage = TriagePort
	case !agree && portOK && !incumbentOK:
		o.triage = TriageIncumbent
	default:
		o.triage = TriageThreeWay
		if agree {
			o.triage = TriageBoth
		}
		o.describe(port, iresp, "reference")
	}
	o.oracle = oresp.Output
	if oresp.Error != nil {
		o.oracleErr = oresp.Error.Kind
		o.oracle, _ = json.Marshal(map[string]map[string]string{"error": {"kind": oresp.Error.Kind}})
	}
	return finish(op, o)
}

// otherInputsFault reports whether err is a failure that was not the
// request's own, even when sent again: it was in flight each time the
// implementation was stopped for another input.
func otherInputsFault(err error) bool {
	var ce *runner.CallError
	return errors.As(err, &ce) && ce.Retry
}

// oracleError describes the judge's result res on the implementation's
// answer (iresp, or err when none came) to an input an oracle answered with
// an error: an error of the same kind agrees (messages are never compared);
// anything else is a ClassOracle finding, without a vector, since the only
// error a vector can expect is a bad_request, which the oracle never gets
// here.
func oracleError(op string, want *protocol.Error, res runner.Result, iresp protocol.Response, err error) probe {
	o := probe{class: ClassOracle, sig: "oracle error " + errorKindSig(want.Kind)}
	switch {
	case res.Outcome == runner.Pass:
		return probe{}
	case err != nil:
		o.detail = fmt.Sprintf("the oracle answered error %s (%s); the implementation gave no answer: %v", want.Kind, want.Message, err)
	case iresp.Error != nil:
		o.detail = fmt.Sprintf("the oracle answered error %s (%s); the implementation error %s (%s)", want.Kind, want.Message, iresp.Error.Kind, iresp.Error.Message)
	default:
		o.actual = iresp.Output
		o.detail = fmt.Sprintf("the oracle answered error %s (%s); the implementation an output", want.Kind, want.Message)
	}
	return finish(op, o)
}

// finish puts the op and the probe's label (its triage and class) before
// its signature: the de-duplication key of a divergence. A probe where both
// sides agree is returned as it is.
func finish(op string, o probe) probe {
	if o.class == "" {
		return o
	}
	label := string(o.class)
	if o.triage != "" {
		label = string(o.triage) + " " + label
	}
	o.sig = strings.TrimSuffix(op+" "+label+" "+o.sig, " ")
	return o
}

// maxCodes is how many distinct refusal codes of the implementation's own
// an op's signatures name; past them a code counts as "another code", so
// that an implementation answering random codes cannot multiply findings.
const maxCodes = 8

// key is the de-duplication key of a divergence of op: its signature, with
// an implementation's code past the first maxCodes of the op (in the order
// recorded, so the key does not depend on Parallel) as "another code".
func (e *engine) key(op string, o probe) string {
	if o.code == "" {
		return o.sig
	}
	codes := e.codes[op]
	if !slices.Contains(codes, o.code) {
		if len(codes) == maxCodes {
			return strings.TrimSuffix(o.sig, o.code) + "another code"
		}
		e.codes[op] = append(codes, o.code)
	}
	return o.sig
}

// alone returns the outcome of case c, sent again alone (record runs when
// no other request is in flight) where the outcome with others in flight
// may be another input's: an input failed by others each time it was sent
// (inconclusive), and a crash or a hang that would be a new finding. The
// runner pins a crash or a hang on the oldest request unanswered, which is
// right for an implementation that answers in order and at once; one that
// answers out of order, or holds answers back in a buffer while it reads
// on (conform's own serve --stdio does), may have died or hung on another.
// Answers are always the input's own, and a known crash or hang only adds
// a hit: neither is sent again.
func (e *engine) alone(ctx context.Context, c *caseRun) probe {
	if e.cfg.Parallel > 1 && (c.o.inconclusive || c.o.class.unanswered() && e.byKey[e.key(c.op, c.o)] == nil) {
		return e.check(ctx, c.op, c.data)
	}
	return c.o
}

// alive reports whether the implementation still answers after an outcome
// without an answer (a crash or a timeout): it is sent again the last input
// of op it answered right. A transport whose restart budget is spent fails
// every call, whatever the input; then findings would be noise, and the run
// stops.
func (e *engine) alive(ctx context.Context, op string, o probe) bool {
	if e.dead != "" {
		return false
	}
	good := e.lastGood[op]
	if !o.class.unanswered() || good == nil {
		return true
	}
	if p := e.check(ctx, op, good); p.class.unanswered() {
		e.dead = fmt.Sprintf("the implementation no longer answers %s inputs it answered before (%s)", op, p.detail)
		return false
	}
	return true
}

// newCaseRand returns the random source of case i of a run with seed: each
// case is reproducible on its own.
func newCaseRand(seed, i uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, i)) }
