package features

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/conform-suite/conform/internal/safetext"
	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/reference"
	"github.com/conform-suite/conform/runner"
)

// Raw sends protocol lines to an implementation as bytes. The framing
// scenarios of features/protocol need it: they send lines that are not
// requests, several lines at once, and close the input, all below the level
// of runner.Implementation, which only carries well-formed requests.
type Raw interface {
	// Exchange starts a fresh session, writes input (zero or more lines),
	// ends the input and returns everything the implementation answered,
	// and how long the session took to end once its input had ended.
	Exchange(ctx context.Context, input []byte) (output []byte, ended time.Duration, err error)
}

// maxRawOutput bounds what a raw exchange keeps of an implementation's answer.
const maxRawOutput = 16 << 20

// ServeRaw is an in-process Raw: a function that serves protocol lines read
// from r and writes its answers to w until r ends, as `conform serve --stdio`
// does.
type ServeRaw func(ctx context.Context, r io.Reader, w io.Writer) error

// Exchange serves input and returns the answers.
func (f ServeRaw) Exchange(ctx context.Context, input []byte) ([]byte, time.Duration, error) {
	var out bytes.Buffer
	start := time.Now()
	err := f(ctx, bytes.NewReader(input), &limitedWriter{w: &out, n: maxRawOutput})
	return out.Bytes(), time.Since(start), err
}

// InProcessRaw serves raw lines with the in-process reference, through the
// same loop as `conform serve --stdio`.
func InProcessRaw() Raw {
	return ServeRaw(func(ctx context.Context, r io.Reader, w io.Writer) error {
		return protocol.ServeStdio(ctx, reference.InProcess{}, r, w, 0)
	})
}

// StdioRaw talks to Command over its standard input and output: Exchange
// starts it afresh, and the harness keeps one process (a stdioSession) for
// the exchanges that do not end the input.
type StdioRaw struct {
	Command []string
	Env     []string // added to the environment
}

// Exchange runs the command with input on its standard input.
func (s StdioRaw) Exchange(ctx context.Context, input []byte) ([]byte, time.Duration, error) {
	if len(s.Command) == 0 {
		return nil, 0, errors.New("features: no command")
	}
	cmd := exec.CommandContext(ctx, s.Command[0], s.Command[1:]...)
	cmd.Env = append(os.Environ(), s.Env...)
	cmd.Stdin = bytes.NewReader(input)
	var out, stderr bytes.Buffer
	cmd.Stdout = &limitedWriter{w: &out, n: maxRawOutput}
	cmd.Stderr = &limitedWriter{w: &stderr, n: 64 << 10}
	cmd.WaitDelay = time.Second
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return out.Bytes(), time.Since(start), fmt.Errorf("features: %s: %w; stderr: %s", s.Command[0], err, bytes.TrimSpace(stderr.Bytes()))
	}
	// Writing all the input is instantaneous next to the process's life:
	// the time until it exited is the time it took to end after its input.
	return out.Bytes(), time.Since(start), nil
}

// HTTPRaw POSTs each line of the input to URL as one body and returns the
// bodies of the answers, one per line, whatever their status. It follows
// the runner's rules (runner.NewHTTPClient): a redirect is never followed
// and an answer is never inflated; a 3xx answer, an answer with a
// Content-Encoding and a body longer than 16 MiB are errors.
type HTTPRaw struct {
	URL    string
	Client *http.Client // nil means runner.NewHTTPClient(); redirects are never followed either way
}

// Exchange posts the lines one by one.
func (h HTTPRaw) Exchange(ctx context.Context, input []byte) ([]byte, time.Duration, error) {
	client := runner.NewHTTPClient()
	if h.Client != nil {
		c := *h.Client
		c.CheckRedirect = runner.NoRedirect
		client = &c
	}
	defer client.CloseIdleConnections()
	var out bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(input))
	sc.Buffer(make([]byte, 64<<10), maxRawOutput)
	for sc.Scan() {
		body, err := h.post(ctx, client, sc.Bytes())
		if err != nil {
			return out.Bytes(), 0, err
		}
		out.Write(bytes.TrimRight(body, "\r\n"))
		out.WriteByte('\n')
	}
	return out.Bytes(), 0, sc.Err()
}

// post sends one body and returns the answer's body.
func (h HTTPRaw) post(ctx context.Context, client *http.Client, body []byte) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.URL, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept-Encoding", "identity")
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
		return nil, fmt.Errorf("features: HTTP %s to %s: redirects are not followed", safetext.Clip(resp.Status, 80), safetext.Clip(resp.Header.Get("Location"), 200))
	}
	if ce := resp.Header.Get("Content-Encoding"); ce != "" && !strings.EqualFold(ce, "identity") {
		return nil, fmt.Errorf("features: HTTP %s with Content-Encoding %s, which was not asked for (Accept-Encoding: identity)", safetext.Clip(resp.Status, 80), safetext.Clip(ce, 80))
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxRawOutput+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxRawOutput {
		return nil, fmt.Errorf("features: the answer body is longer than %d bytes", maxRawOutput)
	}
	return data, nil
}

// limitedWriter keeps at most n bytes and drops the rest, so that a flood
// cannot exhaust memory; it never fails, so the writer on the other side is
// never blocked.
type limitedWriter struct {
	w io.Writer
	n int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if l.n > 0 {
		k := min(len(p), l.n)
		l.w.Write(p[:k])
		l.n -= k
	}
	return len(p), nil
}

// Session sends exchanges of protocol lines to one implementation: to one
// process of a StdioRaw that they share (each exchange ended by a fence, as
// a stdioSession does), started when there is none and closed after an
// exchange that timed out or failed, so that the next starts afresh; to
// any other Raw as its Exchange does. The framing scenarios and conform
// fuzz --envelopes send their lines through it.
type Session struct {
	raw Raw
	ss  *stdioSession
}

// NewSession returns a session of raw; Close ends it.
func NewSession(raw Raw) *Session { return &Session{raw: raw} }

// Exchange writes input (one or more lines) and returns the answer lines
// it caused.
func (s *Session) Exchange(ctx context.Context, input []byte) ([]byte, error) {
	st, ok := s.raw.(StdioRaw)
	if !ok {
		out, _, err := s.raw.Exchange(ctx, input)
		return out, err
	}
	if s.ss == nil {
		ss, err := st.openSession()
		if err != nil {
			return nil, err
		}
		s.ss = ss
	}
	out, err := s.ss.exchange(ctx, input)
	if err != nil || ctx.Err() != nil {
		s.Close()
	}
	return out, err
}

// Close ends the session's process, if it has one.
func (s *Session) Close() {
	if s.ss != nil {
		s.ss.close()
		s.ss = nil
	}
}

// A stdioSession is one process of a StdioRaw kept across scenarios: the
// framing scenarios that do not end its input send their lines to it, so
// an implementation pays its start-up once rather than once a scenario.
// After each exchange's lines it sends a fence, a hello request with an id
// of its own, and reads until the fence is answered and every line sent
// has had its answer: an answer too many is read with the exchange that
// caused it, never with the next. A session that timed out or ended is
// closed, and the next exchange starts another.
type stdioSession struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines chan []byte // the answer lines, closed when the output ends
	fence int
}

// openSession starts the command of s for a session.
func (s StdioRaw) openSession() (*stdioSession, error) {
	if len(s.Command) == 0 {
		return nil, errors.New("features: no command")
	}
	cmd := exec.Command(s.Command[0], s.Command[1:]...)
	cmd.Env = append(os.Environ(), s.Env...)
	cmd.Stderr = &limitedWriter{w: io.Discard}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("features: %s: %w", s.Command[0], err)
	}
	ss := &stdioSession{cmd: cmd, stdin: stdin, lines: make(chan []byte, 64)}
	go ss.read(stdout)
	return ss, nil
}

// read sends each line of the output, cut at maxRawOutput bytes, to
// ss.lines until the output ends.
func (ss *stdioSession) read(stdout io.Reader) {
	defer close(ss.lines)
	r := bufio.NewReaderSize(stdout, 64<<10)
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		line = append(line, chunk[:min(len(chunk), maxRawOutput-len(line))]...)
		if err == bufio.ErrBufferFull {
			continue // the line goes on
		}
		if len(line) > 0 {
			ss.lines <- line
		}
		if err != nil {
			return
		}
		line = nil
	}
}

// exchange writes input and a fence, and returns the answer lines read
// until the fence was answered and there were as many as input's
// non-empty lines; an error means the session is out of step and must be
// closed.
func (ss *stdioSession) exchange(ctx context.Context, input []byte) ([]byte, error) {
	ss.fence++
	fence := fmt.Sprintf("conform-fence-%d", ss.fence)
	want := 0
	for line := range bytes.SplitSeq(input, []byte("\n")) {
		if !protocol.BlankLine(line) { // a blank line gets no answer (PROTO-FRAME-008)
			want++
		}
	}
	msg := append(bytes.TrimRight(input, "\n"), '\n')
	msg = fmt.Appendf(msg, `{"id":%q,"op":"hello","input":{"protocol":1}}`+"\n", fence)
	written := make(chan error, 1)
	go func() { _, err := ss.stdin.Write(msg); written <- err }()
	var out bytes.Buffer
	got, fenced := 0, false
	for !fenced || got < want {
		select {
		case line, ok := <-ss.lines:
			if !ok {
				return out.Bytes(), fmt.Errorf("features: the implementation's output ended (it exited) after %d of %d answers", got, want)
			}
			// The fence's answer is the line naming it, whatever its id
			// became (an implementation may mangle ids: the scenario's
			// own answers show that); an earlier fence answered again is
			// dropped.
			if bytes.Contains(line, []byte("conform-fence-")) {
				fenced = fenced || bytes.Contains(line, []byte(fence+`\"`)) || bytes.Contains(line, []byte(fence+`"`))
				continue
			}
			got++
			if out.Len()+len(line) <= maxRawOutput {
				out.Write(line)
			}
		case <-ctx.Done():
			if fenced {
				return out.Bytes(), nil // fewer answers than lines: the steps say which
			}
			return out.Bytes(), fmt.Errorf("features: no answer to the lines within the time limit: %w", ctx.Err())
		}
	}
	if err := <-written; err != nil {
		return out.Bytes(), fmt.Errorf("features: writing to the implementation: %w", err)
	}
	return out.Bytes(), nil
}

// close ends the session's process. Wait closes the read end of its
// output, so the reader ends even when a child of the process still holds
// the write end.
func (ss *stdioSession) close() {
	ss.stdin.Close()
	ss.cmd.Process.Kill()
	ss.cmd.Wait()
	for range ss.lines {
	}
}
