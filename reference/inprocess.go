package reference

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"reflect"

	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/reference/internal/opkit"
)

// InProcess is the reference, called directly: it satisfies the runner's
// Implementation interface. Its answers are JSON bytes, judged exactly as an
// answer read from a pipe is. A request read by protocol.ParseRequest
// carries its decoded input (Request.Value), which is used as it is; any
// other has its input decoded here, once.
type InProcess struct{}

// Call answers req with the reference.
func (InProcess) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	if err := ctx.Err(); err != nil {
		return protocol.Response{}, err
	}
	out, err := handle(req)
	return respond(req.ID, out, err), nil
}

// AppendAnswer appends the answer line to req, exactly as a server appends
// Call's answer (protocol.AppendAnswer, with an internal error when ctx has
// ended), writing an output that appends itself (opkit.Appender) straight
// into buf.
func (InProcess) AppendAnswer(ctx context.Context, req protocol.Request, buf []byte) []byte {
	if err := ctx.Err(); err != nil {
		return protocol.AppendAnswer(buf, protocol.ErrorAnswer(req.ID, protocol.KindInternal, err.Error()))
	}
	out, err := handle(req)
	if a, ok := out.(opkit.Appender); ok && err == nil {
		start := len(buf)
		id := req.ID
		if len(id) == 0 {
			id = json.RawMessage("null")
		}
		buf = append(append(append(buf, `{"id":`...), id...), `,"output":`...)
		at := len(buf)
		buf = a.AppendJSON(buf)
		// An Appender writes compact JSON as encoding/json does (no raw line
		// break, which protocol.AppendAnswer would compact away), so only an
		// output holding text that was not UTF-8 is left to Call's answer.
		if !replacedUTF8(buf[at:]) {
			return append(buf, "}\n"...)
		}
		buf = buf[:start] // an output no answer carries as it is: as Call answers
	}
	return protocol.AppendAnswer(buf, respond(req.ID, out, err))
}

// AnswerType is InProcess: AppendAnswer answers as its Call does, and
// not as the Call of a type that embeds it.
func (InProcess) AnswerType() reflect.Type { return reflect.TypeFor[InProcess]() }

// handle runs the op of req on its input, decoded once.
func handle(req protocol.Request) (any, error) {
	if req.Value != nil {
		return HandleValue(req.Op, req.Value)
	}
	return Handle(req.Op, req.Input)
}

// respond is the answer carrying out, or err.
func respond(id json.RawMessage, out any, err error) protocol.Response {
	resp := protocol.Response{ID: id}
	if err != nil {
		var e *protocol.Error
		if !errors.As(err, &e) {
			e = &protocol.Error{Kind: protocol.KindInternal, Message: err.Error()}
		}
		resp.Error = &protocol.Error{Kind: e.Kind, Message: e.Message}
		return resp
	}
	data, err := marshal(out)
	if err != nil {
		resp.Error = &protocol.Error{Kind: protocol.KindInternal, Message: "marshal output: " + err.Error()}
		return resp
	}
	if replacedUTF8(data) {
		// encoding/json writes each ill-formed UTF-8 byte of a string as
		// \ufffd: the output held text that no answer could carry.
		resp.Error = &protocol.Error{Kind: protocol.KindInternal, Message: "marshal output: a string is not well-formed UTF-8"}
		return resp
	}
	resp.Output = data
	return resp
}

// marshal writes an output as encoding/json.Marshal does, through its own
// encoder when it has one (opkit.Appender).
func marshal(out any) ([]byte, error) {
	if a, ok := out.(opkit.Appender); ok {
		return a.AppendJSON(nil), nil
	}
	return json.Marshal(out)
}

// Close does nothing.
func (InProcess) Close() error { return nil }

// replacedUTF8 reports whether data, written by encoding/json, holds a \ufffd
// escape: encoding/json writes U+FFFD itself as UTF-8 and uses the escape only
// for a byte of a string that was not UTF-8.
func replacedUTF8(data []byte) bool {
	for {
		k := bytes.IndexByte(data, '\\')
		if k < 0 || k+1 == len(data) {
			return false
		}
		if bytes.HasPrefix(data[k+1:], []byte("ufffd")) {
			return true
		}
		data = data[k+2:] // past the escape's two bytes: \\ufffd is text
	}
}
