// Package opkit holds the small vocabulary shared by the reference's protocol
// adapters: the handler signature, the error kinds of protocol v1 and strict
// decoding of an op's input.
package opkit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Error kinds of protocol v1 (spec/protocol.md). A rejection of the input is
// never an Error: it is an ordinary output carrying "rejected" or "dropped".
const (
	KindUnsupported = "unsupported"
	KindBadRequest  = "bad_request"
	KindInternal    = "internal"
)

// Error is a failure of the implementation itself, answered as
// {"error": {"kind", "message"}}.
type Error struct {
	Kind    string
	Message string
}

func (e *Error) Error() string { return e.Kind + ": " + e.Message }

// Handler answers one op. input is the request's "input" member, as sent.
// The returned value is marshalled with encoding/json into "output".
type Handler func(input json.RawMessage) (any, error)

// Decode decodes input into v strictly: unknown members, trailing data and
// type mismatches are bad_request errors naming the problem.
func Decode(input json.RawMessage, v any) error {
	if len(bytes.TrimSpace(input)) == 0 {
		return &Error{Kind: KindBadRequest, Message: "missing input"}
	}
	dec := json.NewDecoder(bytes.NewReader(input))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return &Error{Kind: KindBadRequest, Message: "input: " + err.Error()}
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return &Error{Kind: KindBadRequest, Message: "input: trailing data after the object"}
	}
	return nil
}

// BadRequest returns a bad_request error with a formatted message.
func BadRequest(format string, args ...any) error {
	return &Error{Kind: KindBadRequest, Message: fmt.Sprintf(format, args...)}
}

// Rejected is the output of an op that refuses its input: {"rejected": {"code": C}}.
type Rejected struct {
	Rejected Code `json:"rejected"`
}

// Code carries a stable rejection code.
type Code struct {
	Code string `json:"code"`
}

// Reject returns the output {"rejected": {"code": code}}.
func Reject(code string) Rejected { return Rejected{Rejected: Code{Code: code}} }
