// Package protocol is protocol v1 (spec/protocol.md) as data: the request,
// the answer, the hello handshake, the error kinds, the rules of ids and the
// limits, with one faithful JSON reading of each message. The runner, the
// reference and the test fakes all speak it through this package, so that
// there is one definition of every wire shape.
//
// A message is read in one pass (ParseRequest, ParseAnswer): the envelope's
// members are read one by one and each member's value is decoded once, by
// internal/jsonv, which keeps what encoding/json would lose: a lone surrogate
// escape stays a lone surrogate, a number stays its literal, and a member
// named twice is refused.
//
// The package also serves an [Answerer] (the reference, or any Go
// implementation) over the protocol: [ServeStdio] one line at a time, with
// the [LineReader] that both sides of a stdio transport read lines with, and
// [ServeOptions.Handler] over HTTP, within limits a client cannot lift.
// `conform serve` uses them; the runner, which only sends requests and
// judges answers, does not.
package protocol

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/conform-suite/conform/internal/jsonv"
)

// Version is the protocol version of this package.
const Version = 1

// Error kinds (PROTO-ERROR-001). A refusal of the input is never an error:
// it is an ordinary output carrying one of RefusalMembers.
const (
	KindUnsupported = "unsupported"
	KindBadRequest  = "bad_request"
	KindInternal    = "internal"
)

// RefusalMembers are the output members that mark a refusal of the input:
// "rejected" (every op that refuses) and "dropped" (selref.ingest). A
// refusal's "code" is optional in an answer (PROTO-REJECT-002).
var RefusalMembers = []string{"rejected", "dropped"}

// Refusal returns the refusal of a decoded output: the first of
// RefusalMembers the output object holds, and its body; "" and nil when it
// holds none or is no object.
func Refusal(out *jsonv.Value) (member string, body *jsonv.Value) {
	for _, k := range RefusalMembers {
		if b := out.Get(k); b != nil {
			return k, b
		}
	}
	return "", nil
}

// DefaultMaxLine is the runner's default limit on an answer line
// (PROTO-FRAME-004), and the server's on a request line.
const DefaultMaxLine = 16 << 20

// Request is one request: {"id", "op", "input"}.
type Request struct {
	ID    json.RawMessage `json:"id"`
	Op    string          `json:"op"`
	Input json.RawMessage `json:"input"`

	// Value is Input decoded, when the request was read by ParseRequest
	// (the decoding of the request's own pass) or built by the runner from
	// a vector (decoded once per run); nil otherwise. An
	// implementation that reads Value need not decode Input again. Whoever
	// rewrites Input (a proxy, a planted fault) must set Value to nil, or
	// the rewrite goes unseen.
	Value *jsonv.Value `json:"-"`
}

// Response is one answer: exactly one of Output and Error is set.
type Response struct {
	ID     json.RawMessage `json:"id"`
	Output json.RawMessage `json:"output,omitempty"`
	Error  *Error          `json:"error,omitempty"`

	// Value is Output decoded, when the answer was read by ParseAnswer and
	// its output is well-formed (no member named twice, UTF-8 throughout);
	// nil otherwise. A judge that reads Value need not decode Output again.
	Value *jsonv.Value `json:"-"`

	// Raw is the answer exactly as the implementation wrote it, when it
	// travelled as bytes (stdio, HTTP); nil in process.
	Raw json.RawMessage `json:"-"`

	// Stderr returns the tail of the answering process's stderr, when the
	// transport captures it (stdio, spawn); nil otherwise.
	Stderr func() string `json:"-"`
}

// Error is a failure of the implementation itself, answered as
// {"error": {"kind", "message"}}; Kind is one of the Kind constants.
type Error struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

func (e *Error) Error() string { return e.Kind + ": " + e.Message }

// Hello is the output of the hello handshake (PROTO-HELLO-001).
type Hello struct {
	Protocol int               `json:"protocol"`
	Name     string            `json:"name"`
	Version  string            `json:"version"`
	Language string            `json:"language"`
	Ops      []string          `json:"ops"`
	Choices  map[string]string `json:"choices,omitempty"`
}

// Supports reports whether the implementation offers op. A nil Hello (an
// implementation that does not know hello) supports every op, and every
// implementation that answered hello supports hello.
func (h *Hello) Supports(op string) bool {
	return h == nil || op == "hello" || slices.Contains(h.Ops, op)
}

// HelloRequest is the runner's first request (PROTO-HELLO-001).
func HelloRequest() Request {
	return Request{ID: IntID(0), Op: "hello", Input: json.RawMessage(`{"protocol":1}`)}
}

// IntID returns the JSON id for the integer n.
func IntID(n int64) json.RawMessage { return json.RawMessage(strconv.FormatInt(n, 10)) }

// ErrorAnswer returns the answer carrying an error of kind with message msg;
// a nil id is answered as null.
func ErrorAnswer(id json.RawMessage, kind, msg string) Response {
	if id == nil {
		id = json.RawMessage("null")
	}
	return Response{ID: id, Error: &Error{Kind: kind, Message: msg}}
}
