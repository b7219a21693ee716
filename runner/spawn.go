package runner

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"time"
)

// Spawn starts a new process for every request: it writes the request line
// to the process's stdin, closes it, and reads one answer line from its
// stdout. It is the simplest fallback for an adapter that cannot stay
// running; it is slow (one process per vector).
type Spawn struct {
	Command   []string
	Dir       string
	Env       []string
	MaxLine   int // cap on the answer line, in bytes; 0 for DefaultMaxLine
	StderrMax int // bytes of stderr kept; 0 for 64 KiB
}

// Call runs one process for req.
func (s *Spawn) Call(ctx context.Context, req Request) (Response, error) {
	if len(s.Command) == 0 {
		return Response{}, &StartError{Msg: "no command to start"}
	}
	line, err := appendRequestLine(nil, nil, req, "")
	if err != nil {
		return Response{}, callErr(ProtocolErr, "%v", err)
	}
	stderrMax := s.StderrMax
	if stderrMax <= 0 {
		stderrMax = 64 << 10
	}
	cmd := exec.Command(s.Command[0], s.Command[1:]...)
	cmd.Dir, cmd.Env = s.Dir, s.Env
	cmd.Stdin = bytes.NewReader(line)
	stderr := newBoundedTail(stderrMax)
	cmd.Stderr = stderr
	cmd.WaitDelay = time.Second
	out, err := cmd.StdoutPipe()
	if err != nil {
		return Response{}, &StartError{Msg: err.Error()}
	}
	if err := cmd.Start(); err != nil {
		return Response{}, &StartError{Msg: fmt.Sprintf("cannot start %s: %v", s.Command[0], err)}
	}
	type read struct {
		line []byte
		err  error
	}
	done := make(chan read, 1)
	go func() {
		l, err := newLineReader(out, s.MaxLine).ReadLine()
		done <- read{bytes.Clone(l), err}
	}()
	var r read
	select {
	case r = <-done:
	case <-ctx.Done():
		cmd.Process.Kill()
		cmd.Wait()
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return Response{}, &CallError{Outcome: Timeout, Msg: "no answer before the deadline; the process was killed", Stderr: stderr.String()}
		}
		return Response{}, ctx.Err()
	}
	cmd.Process.Kill()
	cmd.Wait()
	var tooLong *LineTooLongError
	switch {
	case errors.As(r.err, &tooLong):
		return Response{}, &CallError{Outcome: ProtocolErr, Msg: "the implementation wrote " + tooLong.Error(), Stderr: stderr.String()}
	case r.err != nil:
		return Response{}, &CallError{Outcome: Crash, Msg: "the process ended without answering", Stderr: stderr.String()}
	}
	resp, err := parseResponse(r.line)
	if err != nil {
		return Response{}, &CallError{Outcome: ProtocolErr, Msg: err.Error(), Stderr: stderr.String()}
	}
	if !bytes.Equal(resp.ID, compactID(req.ID)) {
		return Response{}, &CallError{Outcome: ProtocolErr, Msg: fmt.Sprintf("the answer's id %s is not the request's id %s", resp.ID, req.ID), Stderr: stderr.String()}
	}
	return resp, nil
}

// Close does nothing: no process outlives its request.
func (s *Spawn) Close() error { return nil }
