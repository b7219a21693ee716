package protocol

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// echo answers every request with its own id as output. Before answering
// the request whose id is in waitFor, it waits until the request whose id is
// the value has been started (or until ctx ends, so that a server that
// answers one request at a time fails the test instead of hanging it).
type echo struct {
	waitFor map[string]string
	mu      sync.Mutex
	started map[string]chan struct{}
}

func (e *echo) begun(id string) chan struct{} {
	e.mu.Lock()
	defer e.mu.Unlock()
	c, ok := e.started[id]
	if !ok {
		c = make(chan struct{})
		e.started[id] = c
	}
	return c
}

func (e *echo) Call(ctx context.Context, req Request) (Response, error) {
	id := string(req.ID)
	close(e.begun(id))
	if other, ok := e.waitFor[id]; ok {
		select {
		case <-e.begun(other):
		case <-ctx.Done():
			return Response{}, fmt.Errorf("request %s was not started while %s waited for it", other, id)
		}
	}
	return Response{ID: req.ID, Output: json.RawMessage(id)}, nil
}

// TestServeStdioConcurrentInOrder: a large request is answered while an
// earlier one is still being worked on, and the answers come in the order
// of the requests all the same; a small request, a line too long and a
// line that is not a request keep their places.
func TestServeStdioConcurrentInOrder(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute) // only a server that serialises waits this long
	defer cancel()
	impl := &echo{waitFor: map[string]string{"1": "2"}, started: map[string]chan struct{}{}}
	large := func(id int) string {
		return fmt.Sprintf(`{"id":%d,"op":"x","input":{"pad":"%s"}}`, id, strings.Repeat("p", concurrentLine))
	}
	in := large(1) + "\n" + large(2) + "\n\n" +
		`{"id":3,"op":"x","input":{}}` + "\n" +
		strings.Repeat("a", 3*concurrentLine) + "\n" +
		"not json\n" +
		large(4)
	var out strings.Builder
	if err := ServeStdio(ctx, impl, strings.NewReader(in), &out, 2*concurrentLine); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	want := []string{`{"id":1,"output":1}`, `{"id":2,"output":2}`, `{"id":3,"output":3}`, `"kind":"bad_request"`, `"kind":"bad_request"`, `{"id":4,"output":4}`}
	if len(lines) != len(want) {
		t.Fatalf("answers:\n%s\nwant %d lines", out.String(), len(want))
	}
	for i, w := range want {
		if !strings.Contains(lines[i], w) {
			t.Errorf("answer %d = %s, want it to hold %s", i+1, lines[i], w)
		}
	}
	if !strings.Contains(lines[3], "longer than the limit") {
		t.Errorf("answer 4 = %s, want the line too long named", lines[3])
	}
}

// failingWriter fails every write.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

// TestServeStdioWriteFails: when its output fails, ServeStdio stops and
// returns the error (every request already read is still answered to
// nobody, and nothing waits forever).
func TestServeStdioWriteFails(t *testing.T) {
	impl := &echo{started: map[string]chan struct{}{}}
	var in strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&in, `{"id":%d,"op":"x","input":{}}`+"\n", i)
	}
	err := ServeStdio(t.Context(), impl, strings.NewReader(in.String()), failingWriter{}, 0)
	if err == nil || !strings.Contains(err.Error(), "broken pipe") {
		t.Fatalf("ServeStdio = %v, want the write's error", err)
	}
}

// failingReader fails after its lines.
type failingReader struct{ r io.Reader }

func (f failingReader) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if err == io.EOF {
		return n, errors.New("input gone")
	}
	return n, err
}

// TestServeStdioReadFails: the requests read before the input failed are
// answered, and the read error is returned.
func TestServeStdioReadFails(t *testing.T) {
	impl := &echo{started: map[string]chan struct{}{}}
	var out strings.Builder
	err := ServeStdio(t.Context(), impl, failingReader{strings.NewReader(`{"id":7,"op":"x","input":{}}` + "\n")}, &out, 0)
	if err == nil || !strings.Contains(err.Error(), "input gone") {
		t.Errorf("ServeStdio = %v, want the read's error", err)
	}
	if out.String() != `{"id":7,"output":7}`+"\n" {
		t.Errorf("answers = %q, want the one to the request read", out.String())
	}
}

// TestServeStdioFlushesBeforeWaiting: when the input that is waiting ends
// with a blank line, the answers before it are written before the server
// waits for more: a client that sends its request and a blank line, then
// waits for the answer, gets it.
func TestServeStdioFlushesBeforeWaiting(t *testing.T) {
	impl := &echo{started: map[string]chan struct{}{}}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	go func() { served <- ServeStdio(t.Context(), impl, inR, outW, 0) }()
	large := fmt.Sprintf(`{"id":1,"op":"x","input":{"pad":"%s"}}`, strings.Repeat("p", concurrentLine))
	if _, err := io.WriteString(inW, large+"\n"+`{"id":2,"op":"x","input":{}}`+"\n\n"); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(outR)
	for _, want := range []string{`{"id":1,"output":1}`, `{"id":2,"output":2}`} {
		if !lines.Scan() || lines.Text() != want {
			t.Fatalf("answer %q (%v), want %s", lines.Text(), lines.Err(), want)
		}
	}
	inW.Close()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
}

// htmlish answers every request with an output holding the characters
// that encoding/json would escape for HTML, or fails for op "fail".
type htmlish struct{}

func (htmlish) Call(ctx context.Context, req Request) (Response, error) {
	if req.Op == "fail" {
		return Response{}, errors.New("the implementation failed")
	}
	return Response{ID: req.ID, Output: json.RawMessage(`{"t":"<a&b>\u2028"}`)}, nil
}

// TestHTTPAnswersAsStdio: a single request POSTed over HTTP is answered with
// the very bytes its line gets over stdio (PROTO-HTTP-001), whatever the
// output holds and whether the call succeeds, fails or is refused.
func TestHTTPAnswersAsStdio(t *testing.T) {
	h := DefaultServeOptions().Handler(htmlish{})
	for _, line := range []string{
		`{"id":1,"op":"quote.parse","input":{}}`,
		`{"id":"x","op":"fail","input":{}}`,
		`{"id":2,"op":"quote.parse"}`,
		`{"id":2,"op":"quote.parse","input":{},"input":{}}`,
	} {
		want := ServeLine(context.Background(), htmlish{}, []byte(line))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/", strings.NewReader(line)))
		if got := rec.Body.String(); got != string(want) {
			t.Errorf("%s: HTTP answered %q, stdio %q", line, got, want)
		}
	}
}

// TestServeStdioBlankLines: a line of JSON white space only gets no answer,
// a line of any other white space is not JSON (PROTO-FRAME-008).
func TestServeStdioBlankLines(t *testing.T) {
	in := "\n \t \r\n\r\n" + `{"id":1,"op":"x","input":{}}` + "\n" +
		"\u00a0\n\v\n\f\n\u0085\n\ufeff\n\u3000\n" + `{"id":2,"op":"x","input":{}}` + "\n \n"
	var out strings.Builder
	if err := ServeStdio(t.Context(), &echo{started: map[string]chan struct{}{}}, strings.NewReader(in), &out, 0); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	want := []string{`{"id":1,"output":1}`}
	for range 6 {
		want = append(want, `{"id":null,"error":{"kind":"bad_request"`)
	}
	want = append(want, `{"id":2,"output":2}`)
	if len(lines) != len(want) {
		t.Fatalf("answers:\n%s\nwant %d lines", out.String(), len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("answer %d = %s, want it to start %s", i+1, lines[i], w)
		}
	}
}
