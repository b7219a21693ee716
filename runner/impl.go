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

// InProcess is the Go reference, called directly.
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
	resp.Output = data
	return resp, nil
}

// Close does nothing.
func (InProcess) Close() error { return nil }
