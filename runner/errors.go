package runner

import (
	"context"
	"errors"
	"fmt"
)

// CallError is a failure to get an answer to one request: the transport
// classifies it as crash, timeout or protocol. Message text is not API.
type CallError struct {
	Outcome Outcome // Crash, Timeout or ProtocolErr
	Msg     string
	Stderr  string // the tail of the implementation's stderr, when captured
	// Retry marks a timeout of a request that waited behind an older one
	// that hung: the request deserves a second try with a fresh deadline.
	Retry bool
	// InFlight lists, for a crash blamed on the oldest of several requests
	// in flight, the ids of all of them (this one's included), as written
	// on the request: whether the crash has a culprit among them is for
	// Runner.recheckAlone to find out.
	InFlight []string
}

func (e *CallError) Error() string { return string(e.Outcome) + ": " + e.Msg }

func callErr(o Outcome, format string, args ...any) *CallError {
	return &CallError{Outcome: o, Msg: fmt.Sprintf(format, args...)}
}

// StartError reports an implementation that could not be started or did not
// complete the handshake: nothing can be run against it.
type StartError struct {
	Msg    string
	Stderr string
	// Timeout is set when the implementation was reached but did not
	// answer hello in time (a buffered stdout is the usual cause).
	Timeout bool
}

func (e *StartError) Error() string { return e.Msg }

// classify turns an error from Implementation.Call into an outcome and a
// detail line.
func classify(err error) (Outcome, string, string) {
	if ce, ok := errors.AsType[*CallError](err); ok {
		return ce.Outcome, ce.Msg, ce.Stderr
	}
	if se, ok := errors.AsType[*StartError](err); ok {
		return Crash, se.Msg, se.Stderr
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return Timeout, err.Error(), ""
	}
	return Crash, err.Error(), ""
}
