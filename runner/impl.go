package runner

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/conform-suite/conform/reference"
)

// Implementation is anything that answers protocol v1 requests: the
// in-process reference, a child process over stdio, an HTTP service.
//
// Call returns the implementation's answer to one request. A non-nil error
// means no answer could be had (the process died, the request timed out, the
// answer was not a protocol message); it is classified by the runner.
type Implementation interface {
	Call(ctx context.Context, req Request) (Response, error)
	Close() error
}

// InProcess is the Go reference, called directly. Its answers are JSON
// bytes, judged by Compare exactly as an answer read from a pipe is.
type InProcess struct{}

// Call answers req with the reference.
func (InProcess) Call(ctx context.Context, req Request) (Response, error) {
	if err := ctx.Err(); err != nil {
		return Response{}, err
	}
	out, err := reference.Handle(req.Op, req.Input)
	resp := Response{ID: req.ID}
	if err != nil {
		var e *reference.Error
		if !errors.As(err, &e) {
			e = &reference.Error{Kind: reference.KindInternal, Message: err.Error()}
		}
		resp.Error = &ErrorBody{Kind: e.Kind, Message: e.Message}
		return resp, nil
	}
	data, err := json.Marshal(out)
	if err != nil {
		resp.Error = &ErrorBody{Kind: reference.KindInternal, Message: "marshal output: " + err.Error()}
		return resp, nil
	}
	if replacedUTF8(data) {
		// encoding/json writes each ill-formed UTF-8 byte of a string as
		// \ufffd: the output held text that no answer could carry.
		resp.Error = &ErrorBody{Kind: reference.KindInternal, Message: "marshal output: a string is not well-formed UTF-8"}
		return resp, nil
	}
	resp.Output = data
	return resp, nil
}

// replacedUTF8 reports whether data, written by encoding/json, holds a \ufffd
// escape: encoding/json writes U+FFFD itself as UTF-8 and uses the escape only
// for a byte of a string that was not UTF-8.
func replacedUTF8(data []byte) bool {
	for i := 0; i+1 < len(data); i++ {
		if data[i] != '\\' {
			continue
		}
		if data[i+1] == 'u' && i+6 <= len(data) && string(data[i+2:i+6]) == "fffd" {
			return true
		}
		i++ // skip the escaped character
	}
	return false
}

// Close does nothing.
func (InProcess) Close() error { return nil }
