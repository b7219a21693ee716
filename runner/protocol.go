package runner

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// ProtocolVersion is the version of the protocol this runner speaks.
const ProtocolVersion = 1

// SuiteVersion is the version of the conformance suite (specification and
// vectors) that this runner carries. Reports name it.
const SuiteVersion = "0.1.0"

// Error kinds of protocol v1 (spec/protocol.md, PROTO-ERROR).
const (
	KindUnsupported = "unsupported"
	KindBadRequest  = "bad_request"
	KindInternal    = "internal"
)

// Request is one protocol v1 request: {"id", "op", "input"}.
type Request struct {
	ID    json.RawMessage `json:"id"`
	Op    string          `json:"op"`
	Input json.RawMessage `json:"input"`
}

// Response is one protocol v1 answer: exactly one of Output and Error is set.
type Response struct {
	ID     json.RawMessage `json:"id"`
	Output json.RawMessage `json:"output,omitempty"`
	Error  *ErrorBody      `json:"error,omitempty"`

	// Raw is the answer exactly as the implementation wrote it, when it
	// travelled as bytes (stdio, HTTP); nil in process.
	Raw json.RawMessage `json:"-"`

	// stderr returns the tail of the answering process's stderr, when the
	// transport captures it (stdio, spawn); the Runner attaches it to a
	// failing result.
	stderr func() string
}

// ErrorBody is a failure of the implementation itself. Kind is one of
// "unsupported", "bad_request" and "internal".
type ErrorBody struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

// Hello is the output of the hello handshake.
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
	if h == nil || op == "hello" {
		return true
	}
	for _, o := range h.Ops {
		if o == op {
			return true
		}
	}
	return false
}

// IntID returns the JSON id for the integer n.
func IntID(n int64) json.RawMessage { return json.RawMessage(strconv.FormatInt(n, 10)) }

// appendRequestLine appends req as one protocol line (compact JSON and a
// newline) to buf, with id in place of req.ID when id is not nil (an empty,
// non-nil id leaves a gap to splice one into). grease,
// when not empty, is added as an extra top-level member that the
// implementation has to ignore (PROTO-FRAME-005).
func appendRequestLine(buf []byte, id json.RawMessage, req Request, grease string) ([]byte, error) {
	if id == nil {
		id = req.ID
	}
	buf = append(buf, `{"id":`...)
	buf = append(buf, id...)
	buf = append(buf, `,"op":`...)
	buf = strconv.AppendQuote(buf, req.Op)
	buf = append(buf, `,"input":`...)
	if len(req.Input) == 0 {
		buf = append(buf, "null"...)
	} else {
		var c bytes.Buffer
		if err := json.Compact(&c, req.Input); err != nil {
			return buf, fmt.Errorf("request input: %w", err)
		}
		buf = append(buf, c.Bytes()...)
	}
	if grease != "" {
		buf = append(buf, `,"`...)
		buf = append(buf, grease...)
		buf = append(buf, `":{"ignore":true}`...)
	}
	return append(buf, "}\n"...), nil
}

// RequestLine returns req as the exact line a stdio transport sends, without
// grease: the line to replay by hand.
func RequestLine(req Request) (string, error) {
	b, err := appendRequestLine(nil, nil, req, "")
	return string(b), err
}

// errNoAnswerBody marks an answer with neither output nor error.
var errNoAnswerBody = errors.New("the answer has neither \"output\" nor \"error\"")

// parseResponse decodes one answer line and checks its shape: an object with
// an id and exactly one of output (an object) and error (with a known kind).
func parseResponse(line []byte) (Response, error) {
	var r Response
	var raw struct {
		ID     json.RawMessage `json:"id"`
		Output json.RawMessage `json:"output"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(line, &raw); err != nil {
		return r, fmt.Errorf("the answer is not a JSON object: %v", err)
	}
	r.ID = compactID(raw.ID)
	r.Raw = line
	if len(r.ID) == 0 || string(r.ID) == "null" {
		return r, errors.New(`the answer has no "id"`)
	}
	hasOut := len(raw.Output) > 0 && string(raw.Output) != "null"
	hasErr := len(raw.Error) > 0 && string(raw.Error) != "null"
	switch {
	case hasOut && hasErr:
		return r, errors.New(`the answer has both "output" and "error"`)
	case hasOut:
		if raw.Output[0] != '{' {
			return r, errors.New(`the answer's "output" is not an object`)
		}
		r.Output = raw.Output
	case hasErr:
		var e ErrorBody
		if err := json.Unmarshal(raw.Error, &e); err != nil {
			return r, fmt.Errorf(`the answer's "error" is not an object with string "kind" and "message": %v`, err)
		}
		switch e.Kind {
		case KindUnsupported, KindBadRequest, KindInternal:
		default:
			return r, fmt.Errorf("the answer's error kind %q is not one of unsupported, bad_request, internal", e.Kind)
		}
		r.Error = &e
	default:
		return r, errNoAnswerBody
	}
	return r, nil
}

// compactID returns the id without surrounding white space, the form in
// which ids are matched.
func compactID(id json.RawMessage) json.RawMessage {
	return bytes.TrimSpace(id)
}

// validID reports whether id is a JSON string or integer (PROTO-ID-001).
func validID(id json.RawMessage) bool {
	if len(id) == 0 {
		return false
	}
	if id[0] == '"' {
		var s string
		return json.Unmarshal(id, &s) == nil
	}
	_, err := strconv.ParseInt(string(id), 10, 64)
	return err == nil
}
