package runner

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/conform-suite/conform/protocol"
)

// SuiteVersion is the version of the conformance suite (specification and
// vectors) that this runner carries. Reports name it.
const SuiteVersion = "0.1.0"

// appendRequestLine appends req as one protocol line (compact JSON and a
// newline) to buf (a request without an id leaves a gap to splice one
// into). grease, when not empty, is added as an extra top-level member that
// the implementation has to ignore (PROTO-FRAME-005).
func appendRequestLine(buf []byte, req protocol.Request, grease string) ([]byte, error) {
	buf = append(buf, `{"id":`...)
	buf = append(buf, req.ID...)
	buf = append(buf, `,"op":`...)
	buf = strconv.AppendQuote(buf, req.Op)
	buf = append(buf, `,"input":`...)
	switch {
	case len(req.Input) == 0:
		buf = append(buf, "null"...)
	case compact(req.Input):
		// Already compact (a fuzzer's encoded input): sent as it is. Inputs
		// are JSON already checked (a vector's, parsed when loaded; the
		// fuzzer's, encoded by it); Compact checks the others again.
		buf = append(buf, req.Input...)
	default:
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

// compact reports whether the JSON text b holds no white space outside its
// strings.
func compact(b []byte) bool {
	in, esc := false, false
	for _, c := range b {
		switch {
		case esc:
			esc = false
		case in && c == '\\':
			esc = true
		case c == '"':
			in = !in
		case !in && (c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			return false
		}
	}
	return !in
}

// RequestLine returns req as the exact line a stdio transport sends, without
// grease: the line to replay by hand.
func RequestLine(req protocol.Request) (string, error) {
	b, err := appendRequestLine(nil, req, "")
	return string(b), err
}
