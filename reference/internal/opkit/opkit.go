// Package opkit holds the small vocabulary shared by the reference's protocol
// adapters: the handler signature, the error kinds of protocol v1 and strict
// decoding of an op's input.
package opkit

import (
	"encoding/json"
	"fmt"

	"github.com/conform-suite/conform/internal/jsonv"
	"github.com/conform-suite/conform/protocol"
)

// Handler answers one op. input is the request's "input" member, decoded
// once (by the transport that read the request, or by Parse). The returned
// value is marshalled with encoding/json into "output".
type Handler func(input *jsonv.Value) (any, error)

// Parse decodes an input given as bytes as a transport does
// (protocol.InputOptions: bytes that are not UTF-8 and trailing data are bad
// requests; a member named twice is kept, for Decode to refuse where it maps
// members onto fields).
func Parse(input json.RawMessage) (*jsonv.Value, error) {
	if len(input) == 0 {
		return nil, &protocol.Error{Kind: protocol.KindBadRequest, Message: "missing input"}
	}
	v, err := protocol.InputOptions.Parse(input)
	if err != nil {
		return nil, &protocol.Error{Kind: protocol.KindBadRequest, Message: "input: " + err.Error()}
	}
	return v, nil
}

// DecodeRaw decodes input, given as bytes, into v as Decode does.
func DecodeRaw(input json.RawMessage, v any) error {
	in, err := Parse(input)
	if err != nil {
		return err
	}
	return Decode(in, v)
}

// BadRequest returns a bad_request error with a formatted message.
func BadRequest(format string, args ...any) error {
	return &protocol.Error{Kind: protocol.KindBadRequest, Message: fmt.Sprintf(format, args...)}
}

// HasLoneSurrogate reports whether a string anywhere in v (a member name
// included) holds a surrogate code unit outside a high-low pair.
func HasLoneSurrogate(v *jsonv.Value) bool {
	switch v.Type {
	case jsonv.String:
		return jsonv.HasLoneSurrogate(v.Units) // a string with text (Str) has none, whatever its Units
	case jsonv.Array:
		for i := range v.Elems {
			if HasLoneSurrogate(&v.Elems[i]) {
				return true
			}
		}
	case jsonv.Object:
		for i := range v.Members {
			if jsonv.HasLoneSurrogate(v.Members[i].Name) || HasLoneSurrogate(&v.Members[i].Value) {
				return true
			}
		}
	}
	return false
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

// Appender is an output that writes itself as JSON, exactly as
// encoding/json.Marshal writes it (the same member order and escaping:
// protocol.AppendQuoted), without reflection. The in-process reference
// appends such an output instead of marshalling it; the output of a hot op
// (one the fuzzers and the serve path call most) implements it.
type Appender interface {
	AppendJSON(buf []byte) []byte
}
