package runner

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/conform-suite/conform/internal/safetext"
	"github.com/conform-suite/conform/protocol"
)

// Stdio is a persistent child process that speaks protocol v1 over its
// standard input and output. Requests are pipelined: any number of Calls may
// be in flight at once, and answers are matched by id, in whatever order they
// come. Ids on the wire are the transport's own (0 for the first request, then
// counting up), so that a late answer can never be mistaken for a new one; the
// Response carries the caller's id.
//
// The child runs in a process group of its own (on Unix): a timeout, a
// restart and Close kill the whole group, and so does the child's exit, so
// that nothing it started outlives it; once it has exited, its stdout is read
// for at most a short grace period more. The child's stderr is captured,
// bounded to its last 64 KiB, and attached to every failure.
//
// The oldest request in flight is the one a sequential child works on. When
// the child dies, that request fails with outcome crash; when a request's
// context expires and it is the oldest, it fails with outcome timeout and
// the child is killed. Either way the other requests in flight fail with a
// *CallError marked Retry, which the Runner sends again (up to three times)
// with a fresh deadline, and the next Call starts a new child, as long as
// the restart budget lasts. When the child loses step with the protocol (a
// line that is not an answer, an id that matches no request in flight, a
// line over MaxLine), every request in flight fails with outcome protocol
// and the child is killed, to be restarted the same way.
type Stdio struct {
	Command  []string // program and arguments
	Env      []string // environment; nil for the runner's own
	MaxLine  int      // cap on one answer line, in bytes; 0 for DefaultMaxLine
	Restarts int      // restart budget: how many new children after the first; 0 for none
	Grease   bool     // add an unknown member to every request (PROTO-FRAME-005)
	// StartTimeout bounds the hello a restarted child must answer before a
	// request is sent to it; 0 for DefaultStartTimeout.
	StartTimeout time.Duration

	budget   // each answer's share of the run's memory budget
	mu       sync.Mutex
	cur      *child
	started  int // children started so far
	closed   bool
	nextWire atomic.Int64
}

// DefaultRestarts is the restart budget of NewStdio.
const DefaultRestarts = 10

// DefaultStartTimeout is how long a restarted child may take to answer
// hello.
const DefaultStartTimeout = 10 * time.Second

// NewStdio returns a stdio transport for the command with default limits.
func NewStdio(command ...string) *Stdio {
	return &Stdio{Command: command, Restarts: DefaultRestarts}
}

// child is one run of the implementation's process.
type child struct {
	s       *Stdio
	p       *proc
	writeq  chan []byte
	dead    chan struct{} // closed once the child is gone and pending emptied
	sendMu  sync.Mutex    // orders wire ids as lines are queued
	mu      sync.Mutex
	gone    bool
	pending map[int64]waiting // by wire id
	late    map[int64]bool    // wire ids given up on: their answers are dropped
	killFor string            // why the runner killed the child, if it did
}

type answer struct {
	resp  protocol.Response
	err   error
	retry bool // the child was killed because of another request
}

// Stderr returns the tail of the current child's stderr.
func (s *Stdio) Stderr() string {
	s.mu.Lock()
	c := s.cur
	s.mu.Unlock()
	if c == nil {
		return ""
	}
	return c.p.stderr.String()
}

// Call sends req to the child and waits for its answer or for ctx.
func (s *Stdio) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	return s.CallWithin(ctx, req, 0)
}

// CallWithin is Call with a time limit (0 for none) that starts once the
// request can be sent: after the restart of a child that died, and its
// hello, which is bounded by StartTimeout instead.
func (s *Stdio) CallWithin(ctx context.Context, req protocol.Request, limit time.Duration) (protocol.Response, error) {
	for attempt := 0; ; attempt++ {
		c, err := s.child(ctx)
		if err != nil {
			return protocol.Response{}, err
		}
		cctx, cancel := ctx, context.CancelFunc(func() {})
		if limit > 0 {
			cctx, cancel = context.WithTimeout(ctx, limit)
		}
		a := c.call(cctx, req)
		cancel()
		if a.retry && attempt < 3 {
			continue // the child was gone before the request was queued
		}
		if a.retry {
			a.err = callErr(Crash, "the implementation kept dying before this request could be sent")
		}
		return a.resp, a.err
	}
}

// Close closes the child's stdin (EOF means exit, PROTO-STDIO-003) and waits
// briefly for it to exit before killing it; either way, its process group is
// killed.
func (s *Stdio) Close() error {
	s.mu.Lock()
	c := s.cur
	s.closed = true
	s.mu.Unlock()
	if c == nil {
		return nil
	}
	c.p.stdin.Close()
	select {
	case <-c.dead:
	case <-time.After(2 * time.Second):
		c.kill("closed by the runner")
		<-c.dead
	}
	return nil
}

// child returns the running child, starting one if there is none or the last
// one died. A restarted child is handed out once it has answered hello
// (any answer will do, an error too), within StartTimeout: the first child's
// hello is the caller's (Connect), and counted as the caller says.
func (s *Stdio) child(ctx context.Context) (*child, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, callErr(Crash, "the transport is closed")
	}
	if c := s.cur; c != nil && c.dying() {
		// Stopped for a timeout but not yet reaped: wait for it (bounded
		// by the kill), so that no request is queued on a dying child.
		s.mu.Unlock()
		<-c.dead
		s.mu.Lock()
	}
	if s.cur != nil && !s.cur.isGone() {
		return s.cur, nil
	}
	if restarts := s.started - 1; s.cur != nil && restarts >= s.Restarts {
		times := fmt.Sprintf("%d times", s.started)
		if s.started == 1 {
			times = "once"
		}
		return nil, &CallError{Outcome: Crash, Msg: fmt.Sprintf("not sent: the implementation has ended %s (died, or killed after a timeout or a protocol violation) and the restart budget (%d) is spent", times, max(s.Restarts, 0)), Stderr: s.cur.p.stderr.String()}
	}
	c, err := s.start()
	if err != nil {
		return nil, err
	}
	s.started++
	s.cur = c
	if wait := cmp.Or(s.StartTimeout, DefaultStartTimeout); s.started > 1 {
		hctx, cancel := context.WithTimeout(ctx, wait)
		a := c.call(hctx, protocol.HelloRequest())
		cancel()
		if a.err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			o, msg, _ := classify(a.err)
			c.kill("it did not answer hello after a restart")
			return nil, &CallError{Outcome: o, Msg: "not sent: the restarted implementation did not answer hello (it has " + wait.String() + " to): " + msg, Stderr: c.p.stderr.String()}
		}
	}
	return c, nil
}

func (s *Stdio) start() (*child, error) {
	p, err := startProc(s.Command, s.Env)
	if err != nil {
		return nil, err
	}
	c := &child{
		s: s, p: p,
		writeq:  make(chan []byte, 256),
		dead:    make(chan struct{}),
		pending: map[int64]waiting{},
		late:    map[int64]bool{},
	}
	go c.write()
	go c.read()
	return c, nil
}

// dying reports whether the runner has stopped the child.
func (c *child) dying() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.killFor != "" && !c.gone
}

func (c *child) isGone() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gone
}

// kill ends the child and its process group; the reader then fails the
// requests in flight.
func (c *child) kill(reason string) {
	c.mu.Lock()
	if c.killFor == "" {
		c.killFor = reason
	}
	c.mu.Unlock()
	c.p.kill()
}

func (c *child) call(ctx context.Context, req protocol.Request) answer {
	grease := ""
	if c.s.Grease {
		grease = "grease_" + strconv.Itoa(len(req.Op)%7)
	}
	// The line is built with an empty id, spliced in below: the wire id is
	// taken and the line queued under one lock, so that wire ids follow the
	// order of the lines on the pipe, and the oldest request in flight is
	// the one a sequential child is busy with.
	noID := req
	noID.ID = nil
	body, err := appendRequestLine(nil, noID, grease)
	if err != nil {
		return answer{err: callErr(ProtocolErr, "%v", err)}
	}
	ch := make(chan answer, 1)
	c.sendMu.Lock()
	c.mu.Lock()
	if c.gone {
		c.mu.Unlock()
		c.sendMu.Unlock()
		return answer{retry: true}
	}
	wire := c.s.nextWire.Add(1) - 1
	c.pending[wire] = waiting{ch, string(req.ID)}
	c.mu.Unlock()
	line := make([]byte, 0, len(body)+20)
	line = append(line, body[:len(`{"id":`)]...)
	line = strconv.AppendInt(line, wire, 10)
	line = append(line, body[len(`{"id":`):]...)
	select {
	case c.writeq <- line:
	case <-c.dead:
	case <-ctx.Done():
	}
	c.sendMu.Unlock()
	var a answer
	select {
	case a = <-ch:
	case <-ctx.Done():
		c.mu.Lock()
		_, stillPending := c.pending[wire]
		delete(c.pending, wire)
		c.late[wire] = true
		// The oldest request in flight is the one a sequential child is
		// stuck on: it is blamed and the child is stopped; the others are
		// victims.
		oldest := len(c.pending) == 0 || slices.Min(slices.Collect(maps.Keys(c.pending))) > wire
		timedOut := errors.Is(ctx.Err(), context.DeadlineExceeded)
		blamed := timedOut && oldest && c.killFor == ""
		if blamed {
			c.killFor = "a request timed out" // under the lock: one request is blamed
		}
		c.mu.Unlock()
		switch {
		case !stillPending:
			a = <-ch // the answer raced the deadline
		case !timedOut:
			return answer{err: ctx.Err()}
		case !blamed:
			// Another request is older, or already blamed: this one may only
			// be waiting behind it. The older one's deadline stops the
			// child; this one is sent again.
			return answer{err: &CallError{Outcome: Timeout, Msg: "no answer before the deadline, while an older request was unanswered too", Retry: true}}
		default:
			c.kill("a request timed out")
			return answer{err: &CallError{Outcome: Timeout, Msg: "no answer before the deadline; the implementation was restarted", Stderr: c.p.stderr.String()}}
		}
	}
	a.resp.ID = req.ID
	return a
}

// write sends queued lines, flushing when the queue runs empty so that
// pipelined requests share system calls.
func (c *child) write() {
	w := bufio.NewWriterSize(c.p.stdin, 64<<10)
	for {
		select {
		case line := <-c.writeq:
			w.Write(line)
			for len(c.writeq) > 0 && w.Buffered() < 32<<10 {
				w.Write(<-c.writeq)
			}
			if err := w.Flush(); err != nil {
				// The child closed its stdin, most likely by dying: stop it
				// without a reason of the runner's, so that the requests in
				// flight are reported as a crash when the reader sees it go.
				c.p.kill()
				return
			}
		case <-c.dead:
			return
		}
	}
}

// read matches answer lines with requests until stdout ends, or until the
// child loses step with the protocol, then reaps the child and fails
// whatever is still in flight.
func (c *child) read() {
	defer c.reap()
	lr := protocol.NewLineReader(c.p.stdout, c.s.MaxLine)
	lr.Stop = true // the child is abandoned after an over-long line
	for {
		maxLine, why := c.s.maxBytes(cmp.Or(c.s.MaxLine, protocol.DefaultMaxLine))
		lr.SetMax(maxLine)
		line, err := lr.ReadLine()
		if msg := lineTooLong(err, why); msg != "" {
			c.desync(callErr(ProtocolErr, "%s", msg))
		}
		if err != nil {
			return
		}
		if protocol.BlankLine(line) { // JSON white space only: any other is garbage
			continue
		}
		resp, perr := protocol.ParseAnswer(bytes.Clone(line), c.s.limits().Values)
		key := string(resp.ID)
		wire, err := strconv.ParseInt(key, 10, 64)
		if err != nil {
			wire = -1
		}
		c.mu.Lock()
		w, ok := c.pending[wire]
		ch := w.ch
		delete(c.pending, wire)
		isLate := c.late[wire]
		c.mu.Unlock()
		switch {
		case ok && perr != nil:
			ch <- answer{err: &CallError{Outcome: ProtocolErr, Msg: c.s.refused(perr), Stderr: c.p.stderr.String()}}
		case ok:
			resp.Stderr = c.p.stderr.String
			ch <- answer{resp: resp}
		case isLate:
			// The answer to a request given up on: drop it.
		case perr != nil && len(resp.ID) == 0:
			c.desync(callErr(ProtocolErr, "the implementation wrote a line that is not an answer (%v): %s", perr, excerpt(string(line))))
			return
		default:
			c.desync(callErr(ProtocolErr, "the implementation answered id %s, which matches no request in flight%s: %s", key, c.idTypeHint(resp.ID), excerpt(string(line))))
			return
		}
	}
}

// waiting is a request in flight: where its answer goes, and its id as
// the request wrote it.
type waiting struct {
	ch chan answer
	id string
}

// idTypeHint says, for an answer id that matches nothing, when it is the id
// of a request in flight written as another JSON type (the integer 5 as
// the string "5"), which PROTO-ID-001 forbids; "" otherwise.
func (c *child) idTypeHint(id []byte) string {
	var s string
	if json.Unmarshal(id, &s) != nil {
		return ""
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return ""
	}
	c.mu.Lock()
	_, pending := c.pending[n]
	c.mu.Unlock()
	if !pending {
		return ""
	}
	return fmt.Sprintf(" (a string, where the request's id was the integer %d: echo an id with its type, PROTO-ID-001)", n)
}

// desync handles a child that lost step with the protocol (a line that is
// not an answer, an id that matches nothing, a line over the cap): no answer
// in flight can be trusted to be the right one, so every request in flight
// fails with err, and the child is killed, to be restarted against the
// restart budget.
func (c *child) desync(err *CallError) {
	c.mu.Lock()
	if n := len(c.pending); n > 1 {
		err.Msg += fmt.Sprintf(" (%d requests were in flight)", n)
	}
	err.Msg += "; the implementation was restarted"
	err.Stderr = c.p.stderr.String()
	for key, w := range c.pending {
		e := *err
		w.ch <- answer{err: &e}
		delete(c.pending, key)
		c.late[key] = true
	}
	c.mu.Unlock()
	c.kill("it lost step with the protocol")
}

// reap waits for the child to end once its stdout is no longer read, and
// fails the requests still in flight.
func (c *child) reap() {
	c.p.doneReading()
	select {
	case <-c.p.exited:
	case <-time.After(2 * time.Second):
		// stdout is shut but the process lives on.
		c.p.kill()
		<-c.p.exited
	}
	c.p.stdin.Close()
	status := c.p.status()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gone = true
	n := len(c.pending)
	var oldest int64 // the wire id of the oldest request in flight, if any
	var ids []string // the ids of the requests in flight
	if n > 0 {
		oldest = slices.Min(slices.Collect(maps.Keys(c.pending)))
	}
	for _, w := range c.pending {
		ids = append(ids, w.id)
	}
	slices.Sort(ids)
	for key, w := range c.pending {
		ch := w.ch
		switch {
		case c.killFor != "":
			// Not this request's fault: the runner sends it again, with a
			// fresh deadline.
			ch <- answer{err: &CallError{Outcome: Crash, Msg: "the implementation was stopped (" + c.killFor + ") while this request was in flight", Retry: true}}
		case key != oldest:
			// A sequential child dies on the oldest request it has not
			// answered: this one only waited behind it, and is sent again.
			ch <- answer{err: &CallError{Outcome: Crash, Msg: fmt.Sprintf("the implementation died (%s) while an older request was unanswered", status), Retry: true, Stderr: c.p.stderr.String()}}
		default:
			msg := fmt.Sprintf("the implementation died (%s) before answering", status)
			if n > 1 {
				msg += fmt.Sprintf("; %d requests were in flight, this one the oldest unanswered (the one a sequential implementation works on); the others were sent again", n)
			}
			ch <- answer{err: &CallError{Outcome: Crash, Msg: msg, Stderr: c.p.stderr.String(), InFlight: ids}}
		}
		delete(c.pending, key)
	}
	close(c.dead)
}

// excerpt quotes at most 120 bytes of a line for a message, never cutting a
// UTF-8 sequence.
func excerpt(s string) string {
	if len(s) > 120 {
		s = safetext.Head(s, 120) + "…"
	}
	return strconv.Quote(s)
}
