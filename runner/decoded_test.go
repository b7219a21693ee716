package runner

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/vectors"
)

// sameOutput answers every request with the same output bytes.
type sameOutput json.RawMessage

func (f sameOutput) Call(_ context.Context, req protocol.Request) (protocol.Response, error) {
	return protocol.Response{ID: req.ID, Output: json.RawMessage(f)}, nil
}

func (sameOutput) Close() error { return nil }

// TestJudgeDecodedOnce judges answers against one expectation, written with
// white space and a lone surrogate as a vector file writes it, through one
// Runner (its decoded expectation reused): the expectation's compact form,
// any other spelling of the same value and the lone surrogate answered as
// U+FFFD pass; a changed number, the surrogate's neighbour, a member named
// twice and a codeless refusal are judged as Compare and --require-codes
// judge them, whether or not the expectation was decoded before.
func TestJudgeDecodedOnce(t *testing.T) {
	v := &vectors.Vector{ID: "t.op/x", Op: "t.op", Input: json.RawMessage(`{"a": 1}`),
		Expect: vectors.Expect{Output: json.RawMessage("{\n  \"s\": \"x\\ud800\",\n  \"n\": 1.50\n}")}}
	refusal := &vectors.Vector{ID: "t.op/r", Op: "t.op", Input: json.RawMessage(`{}`),
		Expect: vectors.Expect{Output: json.RawMessage(`{ "rejected": { "code": "bad" } }`)}}
	tests := []struct {
		v       *vectors.Vector
		answer  string
		outcome Outcome
	}{
		{v, `{"s":"x\ud800","n":1.50}`, Pass}, // the compact form itself
		{v, `{"n":15e-1,"s":"x\ud800"}`, Pass},
		{v, `{"s":"x\ufffd","n":1.5}`, Pass},
		{v, `{"s":"x\ud801","n":1.50}`, Fail},
		{v, `{"s":"x\ud800","n":1.51}`, Fail},
		{v, `{"s":"x\ud800","n":1.50,"n":1.50}`, Fail},
		{refusal, `{"rejected":{"code":"bad"}}`, Pass},
		{refusal, `{"rejected":{}}`, Fail}, // --require-codes
		{refusal, `{"rejected":{"code":"other"}}`, Fail},
	}
	r := &Runner{Impl: nil, RequireCodes: true}
	for round := range 2 { // decoded afresh, then from the cache
		for _, tt := range tests {
			r.Impl = sameOutput(tt.answer)
			res := r.RunOne(context.Background(), 1, tt.v)
			if res.Outcome != tt.outcome {
				t.Errorf("round %d: answer %s to %s = %s %v, want %s", round, tt.answer, tt.v.Expect.Output, res.Outcome, res.Diffs, tt.outcome)
			}
		}
	}
}
