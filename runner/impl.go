package runner

import (
	"github.com/conform-suite/conform/protocol"
)

// Implementation is anything that answers protocol v1 requests: the
// in-process reference (reference.InProcess, wired in by the command line),
// a child process over stdio, an HTTP service.
//
// Call returns the implementation's answer to one request. A non-nil error
// means no answer could be had (the process died, the request timed out, the
// answer was not a protocol message); it is classified by the runner.
type Implementation interface {
	protocol.Answerer
	Close() error
}
