package runner

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/vectors"
)

// fixedAnswer answers every request with the same answer.
type fixedAnswer struct{ resp protocol.Response }

func (a fixedAnswer) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	r := a.resp
	r.ID = req.ID
	return r, nil
}

func (fixedAnswer) Close() error { return nil }

// TestExpectedError judges answers to a vector that expects error kind
// bad_request (PROTO-ERROR-003): an error of that kind passes whatever its
// message; an output, even one the op could give, and an error of another
// kind fail with a difference naming the kind; an empty answer is a
// protocol error.
func TestExpectedError(t *testing.T) {
	v := &vectors.Vector{
		ID: "quote.parse/bad-request-empty-input", Op: "quote.parse", Input: json.RawMessage(`{}`),
		Expect: vectors.Expect{Error: &vectors.ExpectError{Kind: protocol.KindBadRequest}},
	}
	tests := []struct {
		name    string
		resp    protocol.Response
		outcome Outcome
		diff    string
	}{
		{"bad_request", protocol.Response{Error: &protocol.Error{Kind: protocol.KindBadRequest, Message: "anything at all"}}, Pass, ""},
		{"bad_request without message", protocol.Response{Error: &protocol.Error{Kind: protocol.KindBadRequest}}, Pass, ""},
		{"internal", protocol.Response{Error: &protocol.Error{Kind: protocol.KindInternal, Message: "nil pointer"}}, Fail, `want "bad_request", got "internal"`},
		{"an output", protocol.Response{Output: json.RawMessage(`{"rejected":{"code":"QUOTE_SCHEME"}}`)}, Fail, `want an error answer of kind "bad_request"`},
		{"no body", protocol.Response{}, ProtocolErr, ""},
	}
	for _, tt := range tests {
		res := (&Runner{Impl: fixedAnswer{tt.resp}, Timeout: 10 * time.Second}).RunOne(context.Background(), 1, v)
		if res.Outcome != tt.outcome {
			t.Errorf("%s: outcome %s (%s %q), want %s", tt.name, res.Outcome, res.Detail, res.Diffs, tt.outcome)
			continue
		}
		if tt.diff != "" && (len(res.Diffs) != 1 || !strings.Contains(res.Diffs[0], tt.diff)) {
			t.Errorf("%s: diffs %q, want one naming %q", tt.name, res.Diffs, tt.diff)
		}
		if res.Failed() != (tt.outcome != Pass) {
			t.Errorf("%s: Failed() = %v", tt.name, res.Failed())
		}
	}
	// An error answer to a vector that expects an output stays outcome error.
	out := &vectors.Vector{ID: "quote.parse/x", Op: "quote.parse", Input: json.RawMessage(`{"href":"x"}`),
		Expect: vectors.Expect{Output: json.RawMessage(`{"rejected":{"code":"QUOTE_SCHEME"}}`)}}
	res := (&Runner{Impl: fixedAnswer{protocol.Response{Error: &protocol.Error{Kind: protocol.KindBadRequest, Message: "m"}}}, Timeout: 10 * time.Second}).RunOne(context.Background(), 1, out)
	if res.Outcome != Errored {
		t.Errorf("bad_request to a vector expecting an output: outcome %s, want %s", res.Outcome, Errored)
	}
}
