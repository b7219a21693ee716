package runner

import (
	"context"
	"time"

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

// TimedImplementation is an Implementation that applies the per-request
// time limit itself, from the moment the request can be sent rather than
// from the call: Stdio first restarts a child that died and waits for its
// hello, so that a slow start-up (a JVM's) is not taken from the time of
// the request that happens to come next. The Runner calls CallWithin when
// it has a limit; a wrapper of an implementation passes it on.
type TimedImplementation interface {
	Implementation
	CallWithin(ctx context.Context, req protocol.Request, limit time.Duration) (protocol.Response, error)
}
