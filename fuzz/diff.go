package fuzz

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/conform-suite/conform/reference"
	"github.com/conform-suite/conform/runner"
	"github.com/conform-suite/conform/vectors"
)

// Kind classifies a finding.
type Kind string

// Kinds of findings. The first three come from runner.Compare's verdicts.
const (
	KindMismatch        Kind = "mismatch"         // a different ordinary output
	KindAcceptedWrongly Kind = "accepted-wrongly" // the reference refused, the implementation did not
	KindRejectedWrongly Kind = "rejected-wrongly" // the implementation refused, the reference did not
	KindError           Kind = "error"            // the implementation answered with a protocol error
	KindCrash           Kind = "crash"            // no answer: the implementation died or the transport failed
	KindTimeout         Kind = "timeout"          // no answer within Config.Timeout
	KindProtocol        Kind = "protocol"         // an answer that is not a protocol message
	KindReference       Kind = "reference-error"  // the reference itself failed (a bug in conform)
)

// Config describes one differential fuzzing run.
type Config struct {
	Impl runner.Implementation // the implementation under test
	Ref  runner.Implementation // the oracle; nil means reference.InProcess{}

	// Ops to fuzz. Empty means every op the reference answers, the
	// implementation offers, and that has a generator or a vector.
	Ops []string
	// Corpus supplies the vector inputs that are mutated and the requirement
	// ids of emitted vectors; nil means the embedded corpus.
	Corpus *vectors.Corpus

	Seed     uint64        // every input is a function of Seed and its case number
	Count    int           // stop after Count executions; 0 for no bound
	Duration time.Duration // stop after Duration; 0 for no bound
	Timeout  time.Duration // per request; 0 means 5s
	// MaxFindings stops the run once that many distinct findings are made;
	// 0 for no limit.
	MaxFindings int
	// Parallel is how many cases are in flight at once (generated and
	// recorded in order, so the findings do not depend on it); 0 means 1.
	// The implementation must accept concurrent calls, as the runner's
	// transports do.
	Parallel int
	// StopWhen, when set, stops the run after a finding for which it
	// returns true.
	StopWhen func(*Finding) bool

	// ShrinkExecs and ShrinkTime bound the work spent shrinking one finding;
	// zero means 2000 executions and 20s.
	ShrinkExecs int
	ShrinkTime  time.Duration

	// Progress, when set, is called with the running totals about every
	// ProgressEvery (0 means 250ms) and once at the end.
	Progress      func(Stats)
	ProgressEvery time.Duration
}

// Stats are the running totals of a run.
type Stats struct {
	Execs     int           // inputs sent to both sides (shrinking excluded)
	Shrinks   int           // executions spent shrinking
	Divergent int           // executions that diverged, before de-duplication
	Findings  int           // distinct findings
	Skipped   int           // inputs the reference refused as bad requests
	Elapsed   time.Duration //
	Count     int           // the run's bounds, copied from Config
	Duration  time.Duration
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
	Kind      Kind
	Signature string // op, kind and what differs from the reference's answer (compareSig): the de-duplication key

	Input    json.RawMessage // the shrunk input
	Original json.RawMessage // the input as first found
	Expected json.RawMessage // the reference's output for Input
	Actual   json.RawMessage // the implementation's output for Input, if it gave one
	Detail   string          // the error, crash, timeout or protocol detail
	Diffs    []string        // for the compare kinds

	Seed       uint64 // Config.Seed
	Case       int    // the case number that found it (0-based)
	From       string // the id of the vector whose input was mutated, if any
	Hits       int    // executions that ended in this signature
	ShrinkRuns int    // executions spent shrinking it
}

// Report is the result of a run.
type Report struct {
	Stats
	Ops         []string   // the ops fuzzed
	Unsupported []string   // ops the implementation declared or answered as unsupported
	Findings    []*Finding // in order of discovery
	// Stopped, when not empty, says why the run ended early: the
	// implementation stopped answering even inputs it had answered right.
	Stopped string
}

// Diverged reports whether the run found anything.
func (r *Report) Diverged() bool { return len(r.Findings) > 0 }

type engine struct {
	cfg         Config
	ref, impl   runner.Implementation
	id          atomic.Int64
	seeds       map[string][]seedInput
	unsupported map[string]bool
	stats       Stats
	lastGood    map[string][]byte // per op, the last input both sides agreed on
	dead        string            // why the implementation is considered gone
	byKey       map[string]*Finding
	start       time.Time
	stopped     bool // Config.StopWhen said so
}

type seedInput struct {
	id string
	v  *jnode
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
	if cfg.ProgressEvery <= 0 {
		cfg.ProgressEvery = 250 * time.Millisecond
	}
	if cfg.Corpus == nil {
		c, err := vectors.Load(vectors.FS())
		if err != nil {
			return nil, err
		}
		cfg.Corpus = c
	}
	e := &engine{cfg: cfg, ref: cfg.Ref, impl: cfg.Impl, seeds: map[string][]seedInput{}, unsupported: map[string]bool{}, lastGood: map[string][]byte{}}
	e.stats.Count, e.stats.Duration = cfg.Count, cfg.Duration
	for _, v := range cfg.Corpus.Vectors() {
		if in, err := parseJSON16(v.Input); err == nil {
			e.seeds[v.Op] = append(e.seeds[v.Op], seedInput{v.ID, in})
		}
	}
	ops, err := e.selectOps(ctx)
	if err != nil {
		return nil, err
	}
	rep := &Report{Ops: ops}
	for op := range e.unsupported {
		rep.Unsupported = append(rep.Unsupported, op)
	}
	e.byKey = map[string]*Finding{}
	e.start = time.Now()
	lastProgress := e.start
	progress := func() {
		e.stats.Elapsed = time.Since(e.start)
		e.stats.Findings = len(rep.Findings)
		if cfg.Progress != nil {
			cfg.Progress(e.stats)
		}
	}
	over := func(i int) bool {
		return cfg.Count > 0 && i >= cfg.Count || cfg.Duration > 0 && time.Since(e.start) >= cfg.Duration || ctx.Err() != nil ||
			cfg.MaxFindings > 0 && len(rep.Findings) >= cfg.MaxFindings || e.stopped || rep.Stopped != ""
	}
	for i := 0; !over(i); {
		live := slices.DeleteFunc(slices.Clone(ops), func(op string) bool { return e.unsupported[op] })
		if len(live) == 0 {
			break
		}
		// A batch of cases is generated in order, checked concurrently, and
		// recorded in order: the findings do not depend on Parallel.
		batch := make([]caseRun, max(1, cfg.Parallel))
		if cfg.Count > 0 {
			batch = batch[:min(len(batch), cfg.Count-i)]
		}
		for k := range batch {
			c := &batch[k]
			r := newCaseRand(cfg.Seed, uint64(i+k))
			c.i, c.op = i+k, pickOne(r, live)
			c.in, c.from = e.input(r, c.op)
			c.data = c.in.encode()
		}
		var wg sync.WaitGroup
		for k := range batch {
			wg.Go(func() { batch[k].o = e.check(ctx, batch[k].op, batch[k].data) })
		}
		wg.Wait()
		for k := range batch {
			if k > 0 && over(i) {
				break
			}
			e.record(ctx, rep, &batch[k])
			i++
		}
		if time.Since(lastProgress) >= cfg.ProgressEvery {
			lastProgress = time.Now()
			progress()
		}
	}
	for op := range e.unsupported {
		if !slices.Contains(rep.Unsupported, op) {
			rep.Unsupported = append(rep.Unsupported, op)
		}
	}
	slices.Sort(rep.Unsupported)
	progress()
	rep.Stats = e.stats
	return rep, nil
}

// caseRun is one case of a run: its input and both sides' answers.
type caseRun struct {
	i    int
	op   string
	in   *jnode
	from string
	data []byte
	o    outcome
}

// record counts one checked case, and turns a new divergence into a
// finding, shrunk while the implementation is alive.
func (e *engine) record(ctx context.Context, rep *Report, c *caseRun) {
	e.stats.Execs++
	o := c.o
	switch {
	case o.unsupported:
		e.unsupported[c.op] = true
		e.stats.Skipped++
	case o.skip:
		e.stats.Skipped++
	case o.kind == "":
		e.lastGood[c.op] = c.data
	default:
		e.stats.Divergent++
		known := e.byKey[o.sig]
		alive := e.alive(ctx, c.op, o)
		var f *Finding
		switch {
		case known != nil:
			known.Hits++
		case !alive:
			// Perhaps the input that killed it: kept as found, unshrunk.
			f = &Finding{Op: c.op, Kind: o.kind, Signature: o.sig, Input: c.data, Original: c.data,
				Expected: o.expected, Detail: o.detail + " (the implementation answered nothing after this input; not shrunk)"}
		default:
			f = e.shrink(ctx, c.op, c.in, o, e.start)
		}
		if f != nil {
			f.Seed, f.Case, f.From, f.Hits = e.cfg.Seed, c.i, c.from, 1
			e.byKey[o.sig] = f
			rep.Findings = append(rep.Findings, f)
			e.stopped = e.stopped || e.cfg.StopWhen != nil && e.cfg.StopWhen(f)
		}
		rep.Stopped = e.dead
	}
}

// selectOps returns the ops to fuzz: those asked for (or all that have
// inputs), that the reference answers and the implementation offers.
func (e *engine) selectOps(ctx context.Context) ([]string, error) {
	refOps := e.hello(ctx, e.ref)
	if refOps == nil {
		refOps = reference.Ops()
	}
	implOps := e.hello(ctx, e.impl)
	ops := e.cfg.Ops
	if len(ops) == 0 {
		for _, op := range refOps {
			if inputGens[op] != nil || len(e.seeds[op]) > 0 {
				ops = append(ops, op)
			}
		}
	}
	var out []string
	for _, op := range ops {
		switch {
		case !slices.Contains(refOps, op):
			return nil, fmt.Errorf("fuzz: the reference does not answer op %q", op)
		case inputGens[op] == nil && len(e.seeds[op]) == 0:
			return nil, fmt.Errorf("fuzz: op %q has neither a inputGen nor a vector to mutate", op)
		case implOps != nil && !slices.Contains(implOps, op):
			e.unsupported[op] = true
		default:
			out = append(out, op)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("fuzz: the implementation offers none of the ops to fuzz")
	}
	return out, nil
}

// hello returns the ops an implementation declares, or nil when it does
// not answer hello (it is then assumed to support every op).
func (e *engine) hello(ctx context.Context, impl runner.Implementation) []string {
	ctx, cancel := context.WithTimeout(ctx, e.cfg.Timeout)
	defer cancel()
	resp, err := impl.Call(ctx, runner.Request{ID: json.RawMessage("0"), Op: "hello", Input: json.RawMessage(`{"protocol":1}`)})
	if err != nil || resp.Error != nil || resp.Output == nil {
		return nil
	}
	var h runner.Hello
	if json.Unmarshal(resp.Output, &h) != nil || h.Ops == nil {
		return nil
	}
	return h.Ops
}

// input returns the next input for op: generated, generated then mutated,
// or a mutated vector input (and that vector's id).
func (e *engine) input(r *rand.Rand, op string) (*jnode, string) {
	gen, seeds := inputGens[op], e.seeds[op]
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

// outcome is the comparison of both sides' answers to one input.
type outcome struct {
	skip        bool // the reference refused the input as a bad request
	unsupported bool // the implementation does not offer the op
	kind        Kind // "" when both agree
	sig         string
	expected    json.RawMessage
	actual      json.RawMessage
	detail      string
	diffs       []string
}

func (e *engine) check(ctx context.Context, op string, input []byte) outcome {
	req := runner.Request{ID: json.RawMessage(strconv.FormatInt(e.id.Add(1), 10)), Op: op, Input: input}
	rresp, err := e.ref.Call(ctx, req)
	switch {
	case err != nil:
		return e.finish(op, outcome{kind: KindReference, detail: err.Error()})
	case rresp.Error != nil && (rresp.Error.Kind == reference.KindBadRequest || rresp.Error.Kind == reference.KindUnsupported):
		return outcome{skip: true}
	case rresp.Error != nil:
		return e.finish(op, outcome{kind: KindReference, detail: rresp.Error.Kind + ": " + rresp.Error.Message})
	case rresp.Output == nil:
		return e.finish(op, outcome{kind: KindReference, detail: "the reference gave no output"})
	}
	o := outcome{expected: rresp.Output}
	ictx, cancel := context.WithTimeout(ctx, e.cfg.Timeout)
	defer cancel()
	iresp, err := e.impl.Call(ictx, req)
	if err != nil && ctx.Err() != nil {
		return outcome{skip: true} // the run was stopped, not the implementation
	}
	switch {
	case err != nil && (errors.Is(err, context.DeadlineExceeded) || ictx.Err() != nil && ctx.Err() == nil):
		o.kind, o.detail = KindTimeout, err.Error()
	case err != nil:
		o.kind, o.detail = classifyCallError(err), err.Error()
	case iresp.Error != nil && iresp.Error.Kind == reference.KindUnsupported:
		return outcome{skip: true, unsupported: true}
	case iresp.Error != nil:
		o.kind, o.detail = KindError, iresp.Error.Kind+": "+iresp.Error.Message
		o.sig = errorKindSig(iresp.Error.Kind)
	case iresp.Output == nil:
		o.kind, o.detail = KindProtocol, "answer has neither output nor error"
	default:
		o.actual = iresp.Output
		verdict, diffs, err := runner.Compare(rresp.Output, iresp.Output)
		switch {
		case err != nil:
			return e.finish(op, outcome{kind: KindReference, detail: err.Error()})
		case verdict == runner.Match:
			return o
		}
		o.kind, o.diffs = Kind(verdict.String()), diffs
		o.sig = compareSig(verdict, rresp.Output, iresp.Output, diffs)
	}
	return e.finish(op, o)
}

func (e *engine) finish(op string, o outcome) outcome {
	o.sig = strings.TrimSuffix(op+" "+string(o.kind)+" "+o.sig, " ")
	return o
}

// The signature of a finding is its de-duplication key: the op, the kind,
// and what differs, built only from what the reference answered and from a
// fixed set of categories, never from a value the implementation chose.
// An implementation that answers at random can therefore make no more
// findings than there are distinct (op, reference answer class,
// difference) triples, while two faults that differ in the reference's
// refusal code, or in the member that differs, stay two findings.

// compareSig is the signature part of a verdict of runner.Compare:
//   - accepted-wrongly: the reference's refusal ("reference rejected:CODE");
//   - rejected-wrongly: the kind of refusal the implementation made and
//     whether it carries a code ("rejected with a code", "dropped without a
//     code"), not the code itself;
//   - mismatch: the shape of the difference (diffShape), and when the
//     reference refused, its refusal: a wrong code is
//     "$.rejected.code=value; reference rejected:CODE".
func compareSig(verdict runner.Verdict, expected, actual json.RawMessage, diffs []string) string {
	ref := parseRefusal(expected)
	switch verdict {
	case runner.AcceptedWrongly:
		return "reference " + ref.String()
	case runner.RejectedWrongly:
		got := parseRefusal(actual)
		if got.key == "" {
			return "refused"
		}
		if got.hasCode {
			return got.key + " with a code"
		}
		return got.key + " without a code"
	}
	sig := diffShape(diffs)
	if ref.key != "" {
		sig += "; reference " + ref.String()
	}
	return sig
}

// refusalOf is the refusal member of an output, if it has one.
type refusalOf struct {
	key     string // "rejected" or "dropped"; "" when the output is no refusal
	hasCode bool   // the refusal has a "code" member
	code    string // the code when it is a string
}

func (r refusalOf) String() string {
	switch {
	case r.key == "":
		return "no refusal"
	case !r.hasCode:
		return r.key + " without a code"
	}
	return r.key + ":" + r.code
}

// parseRefusal returns the refusal of an output object: the first of the
// protocol's refusal members it holds.
func parseRefusal(out json.RawMessage) refusalOf {
	var m map[string]json.RawMessage
	if json.Unmarshal(out, &m) != nil {
		return refusalOf{}
	}
	for _, k := range []string{"rejected", "dropped"} {
		body, ok := m[k]
		if !ok {
			continue
		}
		r := refusalOf{key: k}
		var inner map[string]json.RawMessage
		if json.Unmarshal(body, &inner) == nil {
			if c, ok := inner["code"]; ok {
				r.hasCode = true
				if json.Unmarshal(c, &r.code) != nil {
					r.code = "(not a string)"
				}
			}
		}
		return r
	}
	return refusalOf{}
}

// errorKindSig is the signature part of a protocol error answer: its kind
// when the protocol defines it, else "another kind" (an implementation that
// invents kinds must not multiply its findings).
func errorKindSig(kind string) string {
	switch kind {
	case reference.KindBadRequest, reference.KindInternal:
		return kind
	}
	return "another kind"
}

// classifyCallError classifies a failure to get an answer: the runner's
// transports say which outcome it is; any other error is a crash.
func classifyCallError(err error) Kind {
	var ce *runner.CallError
	switch {
	case errors.As(err, &ce) && ce.Outcome == runner.Timeout:
		return KindTimeout
	case errors.As(err, &ce) && ce.Outcome == runner.ProtocolErr:
		return KindProtocol
	case errors.Is(err, context.DeadlineExceeded):
		return KindTimeout
	}
	return KindCrash
}

// outputRefusal returns the code of a refusal output, or "".
func outputRefusal(out json.RawMessage) string {
	var m map[string]struct {
		Code string `json:"code"`
	}
	if json.Unmarshal(out, &m) != nil {
		return ""
	}
	for _, k := range []string{"rejected", "dropped"} {
		if r, ok := m[k]; ok {
			return k + ":" + r.Code
		}
	}
	return ""
}

var (
	diffIndex = regexp.MustCompile(`\[\d+\]`)
	diffLen   = regexp.MustCompile(`^want \d+ elements, got \d+`)
)

// diffShape reduces runner.Compare's diff lines to their paths and
// categories, without values or array indexes: two inputs failing the same
// way have the same shape.
func diffShape(diffs []string) string {
	var parts []string
	for _, d := range diffs {
		path, rest, _ := strings.Cut(d, ": ")
		path = diffIndex.ReplaceAllString(path, "[*]")
		cat := "value"
		switch {
		case strings.HasPrefix(rest, "missing"):
			cat = "missing"
		case strings.HasPrefix(rest, "unexpected member"):
			// The member's name is the implementation's choice: only the
			// object that holds it is part of the shape.
			cat, path = "extra", memberParent(path)+".*"
		case diffLen.MatchString(rest):
			cat = "length"
		}
		parts = append(parts, path+"="+cat)
	}
	slices.Sort(parts)
	return strings.Join(slices.Compact(parts), ",")
}

// memberParent returns the path of the object holding the member at path
// ($.a.b or $.a["b c"] gives $.a). A quoted key cannot hold `["` (its quote
// marks are escaped), so the last one starts the member.
func memberParent(path string) string {
	if strings.HasSuffix(path, `"]`) {
		if i := strings.LastIndex(path, `["`); i > 0 {
			return path[:i]
		}
	}
	if i := strings.LastIndexByte(path, '.'); i > 0 {
		return path[:i]
	}
	return path
}

// alive reports whether the implementation still answers after an outcome
// without an answer (a crash or a timeout): it is sent again the last input
// of op it answered right. A transport whose restart budget is spent fails
// every call, whatever the input; then findings would be noise, and the run
// stops.
func (e *engine) alive(ctx context.Context, op string, o outcome) bool {
	if e.dead != "" {
		return false
	}
	if o.kind != KindCrash && o.kind != KindTimeout {
		return true
	}
	good := e.lastGood[op]
	if good == nil {
		return true
	}
	if p := e.check(ctx, op, good); p.kind == KindCrash || p.kind == KindTimeout {
		e.dead = fmt.Sprintf("the implementation no longer answers %s inputs it answered before (%s)", op, p.detail)
		return false
	}
	return true
}

// newCaseRand returns the random source of case i of a run with seed: each
// case is reproducible on its own.
func newCaseRand(seed, i uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, i)) }
