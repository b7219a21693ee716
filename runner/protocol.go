package runner

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/conform-suite/conform/protocol"
)

// ProtocolVersion is the version of the protocol this runner speaks.
const ProtocolVersion = protocol.Version

// SuiteVersion is the version of the conformance suite (specification and
// vectors) that this runner carries. Reports name it.
const SuiteVersion = "0.1.0"

// Error kinds of protocol v1 (spec/protocol.md, PROTO-ERROR).
const (
	KindUnsupported = protocol.KindUnsupported
	KindBadRequest  = protocol.KindBadRequest
	KindInternal    = protocol.KindInternal
)

// The wire shapes of protocol v1, defined once in package protocol.
type (
	// Request is one protocol v1 request: {"id", "op", "input"}.
	Request = protocol.Request
	// Response is one protocol v1 answer: exactly one of Output and Error is set.
	Response = protocol.Response
	// ErrorBody is a failure of the implementation itself. Kind is one of
	// "unsupported", "bad_request" and "internal".
	ErrorBody = protocol.Error
	// Hello is the output of the hello handshake.
	Hello = protocol.Hello
)

// IntID returns the JSON id for the integer n.
func IntID(n int64) json.RawMessage { return protocol.IntID(n) }

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
var errNoAnswerBody = protocol.ErrNoAnswerBody

// parseResponse decodes one answer line in one pass and checks its shape
// (protocol.ParseAnswer).
func parseResponse(line []byte) (Response, error) { return protocol.ParseAnswer(line) }
