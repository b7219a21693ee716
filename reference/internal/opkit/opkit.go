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
	"reflect"
	"strings"
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
	return exactNames(input, v)
}

// exactNames refuses member names that encoding/json matched only
// case-insensitively ("Label" for "label"), since protocol member names are
// exact, and refuses a missing member unless its field is optional: a
// pointer, a json.RawMessage, or tagged omitempty or omitzero.
func exactNames(input json.RawMessage, v any) error {
	t := reflect.TypeOf(v)
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(input, &members); err != nil {
		return nil // not an object: the decode above already judged it
	}
	names := map[string]bool{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		names[name] = true
		optional := strings.Contains(opts, "omitempty") || strings.Contains(opts, "omitzero") ||
			f.Type.Kind() == reflect.Pointer || f.Type == rawMessage
		if _, ok := members[name]; !ok && !optional {
			return &Error{Kind: KindBadRequest, Message: fmt.Sprintf("input: missing member %q", name)}
		}
	}
	for k := range members {
		if !names[k] {
			return &Error{Kind: KindBadRequest, Message: fmt.Sprintf("input: unknown member %q", k)}
		}
	}
	return nil
}

var rawMessage = reflect.TypeFor[json.RawMessage]()

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
