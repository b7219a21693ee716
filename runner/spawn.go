package runner

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"

	"github.com/conform-suite/conform/protocol"
)

// Spawn starts a new process for every request: it writes the request line
// to the process's stdin, closes it, and reads one answer line from its
// stdout. It is the simplest fallback for an adapter that cannot stay
// running; it is slow (one process per vector).
type Spawn struct {
	Command []string
	Env     []string
	MaxLine int // cap on the answer line, in bytes; 0 for DefaultMaxLine

	budget // each answer's share of the run's memory budget
}

// Call runs one process for req. The process runs in a process group of
// its own, killed whole once the answer is read, the deadline passes or the
// process exits.
func (s *Spawn) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	if len(s.Command) == 0 {
		return protocol.Response{}, &StartError{Msg: "no command to start"}
	}
	line, err := appendRequestLine(nil, req, "")
	if err != nil {
		return protocol.Response{}, callErr(ProtocolErr, "%v", err)
	}
	p, err := startProc(s.Command, s.Env)
	if err != nil {
		return protocol.Response{}, err
	}
	defer func() {
		p.kill()
		p.doneReading()
		<-p.exited // bounded: the process is killed, its pipes closed after exitGrace
	}()
	go func() {
		p.stdin.Write(line) // a process that exits unread closes the pipe: Write fails
		p.stdin.Close()
	}()
	type read struct {
		line []byte
		err  error
	}
	maxLine, why := s.maxBytes(cmp.Or(s.MaxLine, protocol.DefaultMaxLine))
	done := make(chan read, 1)
	go func() {
		lr := protocol.NewLineReader(p.stdout, maxLine)
		lr.Stop = true
		l, err := lr.ReadLine()
		done <- read{bytes.Clone(l), err}
	}()
	var r read
	select {
	case r = <-done:
	case <-ctx.Done():
		p.kill()
		<-p.exited
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return protocol.Response{}, &CallError{Outcome: Timeout, Msg: "no answer before the deadline; the process was killed", Stderr: p.stderr.String()}
		}
		return protocol.Response{}, ctx.Err()
	}
	p.kill()
	<-p.exited // its last words on stderr
	stderr := p.stderr.String()
	switch msg := lineTooLong(r.err, why); {
	case msg != "":
		return protocol.Response{}, &CallError{Outcome: ProtocolErr, Msg: msg, Stderr: stderr}
	case r.err != nil:
		return protocol.Response{}, &CallError{Outcome: Crash, Msg: "the process ended without answering (" + p.status() + ")", Stderr: stderr}
	}
	resp, err := protocol.ParseAnswer(r.line, s.limits().Values)
	if err != nil {
		return protocol.Response{}, &CallError{Outcome: ProtocolErr, Msg: s.refused(err), Stderr: stderr}
	}
	if !bytes.Equal(resp.ID, compactID(req.ID)) {
		return protocol.Response{}, &CallError{Outcome: ProtocolErr, Msg: fmt.Sprintf("the answer's id %s is not the request's id %s", resp.ID, req.ID), Stderr: stderr}
	}
	resp.Stderr = func() string { return stderr }
	return resp, nil
}

// Close does nothing: no process outlives its request.
func (s *Spawn) Close() error { return nil }
