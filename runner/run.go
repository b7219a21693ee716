// Package runner checks an implementation against conform's vectors through
// protocol v1: it turns each vector into a request, sends it to an
// Implementation, compares the answer with the vector's expectation and
// classifies the outcome.
package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/conform-suite/conform/vectors"
)

// Outcome is the verdict on one vector.
type Outcome string

// Outcomes.
const (
	Pass        Outcome = "pass"
	Fail        Outcome = "fail"        // a wrong answer
	Unsupported Outcome = "unsupported" // the implementation does not offer the op
	Errored     Outcome = "error"       // the implementation answered with an error
	Crash       Outcome = "crash"       // the implementation died
	Timeout     Outcome = "timeout"
	ProtocolErr Outcome = "protocol" // the answer was not a valid protocol message
)

// Result is the outcome of one vector.
type Result struct {
	Vector   *vectors.Vector
	Outcome  Outcome
	Verdict  Verdict  // for Fail: what kind of wrong answer
	Diffs    []string // for Fail
	Detail   string   // for the other failing outcomes
	Request  Request
	Actual   json.RawMessage
	Duration time.Duration
}

// Failed reports whether the outcome counts as a failure.
func (r *Result) Failed() bool { return r.Outcome != Pass && r.Outcome != Unsupported }

// Runner runs vectors against an implementation.
type Runner struct {
	Impl    Implementation
	Choices map[string]string // the implementation's declared choices
}

// Run runs every vector in order and returns one result per vector.
func (r *Runner) Run(ctx context.Context, vs []*vectors.Vector) []Result {
	results := make([]Result, 0, len(vs))
	for i, v := range vs {
		results = append(results, r.RunOne(ctx, int64(i+1), v))
	}
	return results
}

// RunOne runs one vector, sending it with the given request id.
func (r *Runner) RunOne(ctx context.Context, id int64, v *vectors.Vector) Result {
	req := Request{ID: json.RawMessage(strconv.FormatInt(id, 10)), Op: v.Op, Input: v.Input}
	res := Result{Vector: v, Request: req}
	start := time.Now()
	resp, err := r.Impl.Call(ctx, req)
	res.Duration = time.Since(start)
	switch {
	case err != nil:
		res.Outcome, res.Detail = Crash, err.Error()
		return res
	case resp.Error != nil && resp.Error.Kind == "unsupported":
		res.Outcome, res.Detail = Unsupported, resp.Error.Message
		return res
	case resp.Error != nil:
		res.Outcome, res.Detail = Errored, resp.Error.Kind+": "+resp.Error.Message
		return res
	case resp.Output == nil:
		res.Outcome, res.Detail = ProtocolErr, "answer has neither output nor error"
		return res
	}
	res.Actual = resp.Output
	want, err := r.expected(v)
	if err != nil {
		res.Outcome, res.Detail = Fail, err.Error()
		return res
	}
	verdict, diffs, err := Compare(want, resp.Output)
	if err != nil {
		res.Outcome, res.Detail = Fail, err.Error()
		return res
	}
	res.Verdict, res.Diffs = verdict, diffs
	res.Outcome = Pass
	if verdict != Match {
		res.Outcome = Fail
	}
	return res
}

// expected returns the output the vector expects from this implementation.
func (r *Runner) expected(v *vectors.Vector) (json.RawMessage, error) {
	if v.Expect.Output != nil {
		return v.Expect.Output, nil
	}
	value, ok := r.Choices[v.Expect.Choice]
	if !ok {
		return nil, fmt.Errorf("the implementation declares no value for choice %s", v.Expect.Choice)
	}
	out, ok := v.Expect.Outputs[value]
	if !ok {
		return nil, fmt.Errorf("choice %s = %q is not one of the vector's allowed values", v.Expect.Choice, value)
	}
	return out, nil
}

// WriteText writes a human report: one block per failing vector, then a
// closing "N passed, N failed" line (", N unsupported" when any).
func WriteText(w io.Writer, results []Result) {
	passed, failed, unsupported := 0, 0, 0
	for i := range results {
		res := &results[i]
		switch {
		case res.Outcome == Pass:
			passed++
			continue
		case res.Outcome == Unsupported:
			unsupported++
			continue
		}
		failed++
		kind := string(res.Outcome)
		if res.Outcome == Fail && res.Verdict != Match && res.Verdict != Mismatch {
			kind = res.Verdict.String()
		}
		fmt.Fprintf(w, "%s %s %v\n", kind, res.Vector.ID, res.Vector.Requirements)
		if res.Detail != "" {
			fmt.Fprintf(w, "    %s\n", res.Detail)
		}
		for _, d := range res.Diffs {
			fmt.Fprintf(w, "    %s\n", d)
		}
	}
	fmt.Fprintf(w, "%d passed, %d failed", passed, failed)
	if unsupported > 0 {
		fmt.Fprintf(w, ", %d unsupported", unsupported)
	}
	fmt.Fprintln(w)
}
