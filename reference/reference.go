// Package reference is the Go reference implementation of every conform suite,
// exposed through the ops of protocol v1 (spec/protocol.md). It uses the
// standard library, plus golang.org/x/net/html to parse the HTML of
// quote.dom_text, and the conform packages protocol and internal/jsonv (the
// wire shapes and their faithful decoding). It never imports the runner:
// InProcess satisfies the runner's Implementation interface, and the
// command line wires it in.
//
// The suites themselves live in the sub-packages quote, marker and selref;
// this package only routes an op name to its handler and turns a panic into
// an internal error, so that no input can bring down a caller.
package reference

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/conform-suite/conform/internal/jsonv"
	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/reference/internal/opkit"
	"github.com/conform-suite/conform/reference/marker"
	"github.com/conform-suite/conform/reference/quote"
	"github.com/conform-suite/conform/reference/selref"
)

// Name, Version and Language identify the reference in the hello handshake.
const (
	Name     = "conform-reference"
	Version  = "0.1.0"
	Language = "go"
)

var handlers = func() map[string]opkit.Handler {
	all := map[string]opkit.Handler{}
	for _, suite := range []map[string]opkit.Handler{quote.Ops, marker.Ops, selref.Ops} {
		for op, h := range suite {
			if _, dup := all[op]; dup {
				panic("reference: op registered twice: " + op)
			}
			all[op] = h
		}
	}
	return all
}()

// Ops returns the names of every op the reference answers, sorted (never
// nil: hello's "ops" is an array even when empty).
func Ops() []string { return append([]string{}, slices.Sorted(maps.Keys(handlers))...) }

// Hello returns the reference's answer to the hello handshake.
func Hello() protocol.Hello {
	return protocol.Hello{Protocol: protocol.Version, Name: Name, Version: Version, Language: Language, Ops: Ops()}
}

// Handle answers one request: op is the request's op, input its raw input.
// The output is a JSON-marshallable value; err, when non-nil, is an *Error.
// Handle never panics: a panic in a handler becomes an internal error. An
// input that is not JSON is a bad request whatever the op, as a request
// line holding it is on a transport.
func Handle(op string, input json.RawMessage) (output any, err error) {
	v, err := opkit.Parse(input)
	if err != nil {
		return nil, err
	}
	return HandleValue(op, v)
}

// HandleValue is Handle for an input already decoded (by the transport that
// read the request, in its one pass).
func HandleValue(op string, input *jsonv.Value) (output any, err error) {
	if op == "hello" {
		return Hello(), nil
	}
	h, ok := handlers[op]
	if !ok {
		return nil, &protocol.Error{Kind: protocol.KindUnsupported, Message: fmt.Sprintf("unknown op %q", op)}
	}
	if input == nil {
		return nil, &protocol.Error{Kind: protocol.KindBadRequest, Message: "missing input"}
	}
	defer func() {
		if r := recover(); r != nil {
			output, err = nil, &protocol.Error{Kind: protocol.KindInternal, Message: fmt.Sprintf("panic in %s: %v", op, r)}
		}
	}()
	return h(input)
}
