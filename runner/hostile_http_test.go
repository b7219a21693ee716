package runner

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/net/netutil"

	"github.com/conform-suite/conform/internal/await"
	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/vectors"
)

// The hostile battery for HTTP: clients that try to make the server hold
// memory or time, and servers that try the same on the runner. Memory is
// measured (peak heap sampled, or bytes allocated); time only has generous
// ceilings.

// peakHeap runs f and returns the largest heap in use seen while it ran.
func peakHeap(f func()) uint64 {
	runtime.GC()
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > peak.Load() {
				peak.Store(ms.HeapInuse)
			}
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	f()
	close(stop)
	<-done
	return peak.Load()
}

// allocated runs f and returns the bytes it allocated (all goroutines).
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

const mb = 1 << 20

// serveTest serves impl with o on a loopback listener, as 'conform serve'
// does, until the test ends.
func serveTest(t *testing.T, impl Implementation, o protocol.ServeOptions) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- o.Serve(ctx, impl, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve() = %v", err)
		}
	})
	return ln.Addr().String()
}

// postHello checks that the server at addr still answers within a generous
// ceiling.
func postHello(t *testing.T, addr string) {
	t.Helper()
	c := &http.Client{Timeout: 60 * time.Second}
	resp, err := c.Post("http://"+addr+"/", "application/json", strings.NewReader(`{"id":1,"op":"hello","input":{"protocol":1}}`))
	if err != nil {
		t.Fatalf("the server no longer answers: %v", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !bytes.Contains(body, []byte(`"protocol":1`)) {
		t.Fatalf("hello after the attack = %d %s", resp.StatusCode, body)
	}
}

func TestServeBatchBomb(t *testing.T) {
	srv := httptest.NewServer(protocol.ServeOptions{}.Handler(InProcess{}))
	defer srv.Close()
	bomb := make([]byte, 0, 10*mb+2)
	bomb = append(bomb, '[')
	for i := range 5_000_000 {
		if i > 0 {
			bomb = append(bomb, ',')
		}
		bomb = append(bomb, '1')
	}
	bomb = append(bomb, ']')
	var status int
	var body []byte
	peak := peakHeap(func() {
		resp, err := http.Post(srv.URL, "application/json", bytes.NewReader(bomb))
		if err != nil {
			t.Fatal(err)
		}
		status = resp.StatusCode
		body, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
	})
	if status != http.StatusRequestEntityTooLarge || !bytes.Contains(body, []byte(`"kind":"bad_request"`)) || !bytes.Contains(body, []byte("10000 requests")) {
		t.Errorf("a batch of 5,000,000 items = %d %s, want 413 naming the limit of 10000 requests", status, body)
	}
	if peak > 512*mb {
		t.Errorf("the batch bomb took the heap to %d MB, want under 512", peak/mb)
	}
}

func TestServeBatchLimit(t *testing.T) {
	srv := httptest.NewServer(protocol.ServeOptions{MaxBatch: 3}.Handler(InProcess{}))
	defer srv.Close()
	item := `{"id":%d,"op":"hello","input":{"protocol":1}}`
	for n, want := range map[int]int{0: 200, 1: 200, 3: 200, 4: 413} {
		var items []string
		for i := range n {
			items = append(items, fmt.Sprintf(item, i))
		}
		resp, err := http.Post(srv.URL, "application/json", strings.NewReader("["+strings.Join(items, ",")+"]"))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var answers []protocol.Response
		switch {
		case resp.StatusCode != want:
			t.Errorf("a batch of %d with a limit of 3 = %d %s, want %d", n, resp.StatusCode, body, want)
		case want == 200 && (json.Unmarshal(body, &answers) != nil || len(answers) != n):
			t.Errorf("a batch of %d = %s, want an array of %d answers", n, body, n)
		}
	}
}

// blockingImpl answers its first `free` calls and then waits for the
// request's context to end, counting calls.
type blockingImpl struct {
	free    int64
	calls   atomic.Int64
	blocked chan struct{} // closed when a call past the free ones has begun
	stopped chan struct{} // closed when such a call has seen its context end
	once    sync.Once
	bonce   sync.Once
}

func (b *blockingImpl) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	if req.Op == "hello" {
		return echoImpl{}.Call(ctx, req)
	}
	if b.calls.Add(1) > b.free {
		b.bonce.Do(func() { close(b.blocked) })
		<-ctx.Done()
		b.once.Do(func() { close(b.stopped) })
		return protocol.Response{}, ctx.Err()
	}
	return protocol.Response{ID: req.ID, Output: req.Input}, nil
}

func (b *blockingImpl) Close() error { return nil }

func TestServeStopsWhenClientGoes(t *testing.T) {
	impl := &blockingImpl{free: 2, blocked: make(chan struct{}), stopped: make(chan struct{})}
	addr := serveTest(t, impl, protocol.ServeOptions{})
	var items []string
	for i := range 100 {
		items = append(items, fmt.Sprintf(`{"id":%d,"op":"echo.echo","input":{"n":%d}}`, i, i))
	}
	body := "[" + strings.Join(items, ",") + "]"
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	// The answers are streamed: the first two arrive while the third is
	// still being worked on.
	br := bufio.NewReader(conn)
	conn.SetReadDeadline(await.Deadline(t))
	var seen strings.Builder
	for !strings.Contains(seen.String(), `"id":1,`) {
		line, err := br.ReadString('}')
		if err != nil {
			t.Fatalf("reading the streamed answers: %v after %q", err, seen.String())
		}
		seen.WriteString(line)
	}
	// The client goes once the third item is being worked on (before that,
	// the server would stop between items, which another path does).
	select {
	case <-impl.blocked:
	case <-await.Context(t).Done():
		t.Fatal("the third item was not started by the test's deadline")
	}
	conn.Close()
	select {
	case <-impl.stopped:
	case <-await.Context(t).Done():
		t.Fatal("the work had not stopped by the test's deadline after the client went away")
	}
	// Give the handler a moment to see the cancellation; no more item may
	// be started after it.
	postHello(t, addr)
	if n := impl.calls.Load(); n != 3 {
		t.Errorf("the server called the implementation %d times, want 3 (2 answered, 1 cancelled)", n)
	}
}

// rawPost opens a connection and sends the headers of a POST announcing
// size bytes, then prefix of its body.
func rawPost(t *testing.T, addr string, size int, prefix []byte) (net.Conn, error) {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	conn.SetWriteDeadline(await.Deadline(t))
	if _, err := fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", size); err != nil {
		return conn, err
	}
	_, err = conn.Write(prefix)
	return conn, err
}

func TestServeNeverReadingClients(t *testing.T) {
	o := protocol.ServeOptions{WriteTimeout: time.Second, MaxConns: 5}
	addr := serveTest(t, echoImpl{}, o)
	// A batch whose answer (about 8 MB) is far more than the socket
	// buffers hold.
	big := strings.Repeat("x", mb)
	var items []string
	for i := range 8 {
		items = append(items, fmt.Sprintf(`{"id":%d,"op":"echo.echo","input":{"s":%q}}`, i, big))
	}
	body := []byte("[" + strings.Join(items, ",") + "]")
	var conns []net.Conn
	peak := peakHeap(func() {
		for range 5 {
			c, err := rawPost(t, addr, len(body), body)
			if err != nil {
				t.Fatal(err)
			}
			conns = append(conns, c)
		}
		// All 5 connection slots are taken by clients that never read:
		// the server must time them out to answer anyone else.
		postHello(t, addr)
	})
	for _, c := range conns {
		c.Close()
	}
	if peak > 256*mb {
		t.Errorf("5 clients that never read took the heap to %d MB, want under 256", peak/mb)
	}
}

func TestServePartialBodies(t *testing.T) {
	o := protocol.ServeOptions{ReadTimeout: time.Second}
	addr := serveTest(t, echoImpl{}, o)
	part := bytes.Repeat([]byte("["), 2*mb)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var conns []net.Conn
	peak := peakHeap(func() {
		for range 200 {
			wg.Go(func() {
				c, err := rawPost(t, addr, 4*mb, part)
				if c != nil {
					mu.Lock()
					conns = append(conns, c)
					mu.Unlock()
				}
				_ = err // a connection the server already closed is fine
			})
		}
		wg.Wait()
		postHello(t, addr)
	})
	for _, c := range conns {
		c.Close()
	}
	// The bodies held at once never pass DefaultBodyBudget (128 MiB); the
	// collector may let the heap reach about twice what is live before it
	// runs, so the bound is twice the budget plus room for the rest. The 400
	// MB these bodies hold unbounded would take the heap far past it.
	if bound := uint64(2*protocol.DefaultBodyBudget + 64*mb); peak > bound {
		t.Errorf("200 connections with partial 2 MB bodies took the heap to %d MB, want under %d", peak/mb, bound/mb)
	}
}

func TestServeEndlessBody(t *testing.T) {
	addr := serveTest(t, echoImpl{}, protocol.ServeOptions{ReadTimeout: time.Second})
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
	closed := make(chan struct{})
	go func() { // a trickle that never ends, so the connection is never idle
		for {
			select {
			case <-closed:
				return
			case <-time.After(50 * time.Millisecond):
			}
			if _, err := conn.Write([]byte("1\r\n[\r\n")); err != nil {
				return
			}
		}
	}()
	conn.SetReadDeadline(await.Deadline(t))
	_, err = io.Copy(io.Discard, conn)
	close(closed)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatal("a body that never ends kept its connection open until the test's deadline")
	}
}

func TestServeConnectionsOverLimit(t *testing.T) {
	// A flood delays others by about its size / MaxConns * ReadHeaderTimeout,
	// here 3 s, and holds no more than MaxConns connections' worth.
	addr := serveTest(t, echoImpl{}, protocol.ServeOptions{MaxConns: 10, ReadHeaderTimeout: time.Second})
	var conns []net.Conn
	for range 30 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			break // the kernel's queue is full: refused is fine too
		}
		conns = append(conns, c)
	}
	// The silent connections hold every slot until their headers time out.
	postHello(t, addr)
	for _, c := range conns {
		c.Close()
	}
}

// TestLimitListener holds the listener that ServeOptions.Serve limits
// connections with to what Serve relies on.
func TestLimitListener(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := netutil.LimitListener(inner, 2)
	defer ln.Close()
	for range 3 {
		c, err := net.Dial("tcp", inner.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	a, _ := ln.Accept()
	b, _ := ln.Accept()
	third := make(chan net.Conn, 1)
	go func() {
		c, _ := ln.Accept()
		third <- c
	}()
	select {
	case <-third:
		t.Fatal("a third connection was accepted while 2 were open, with a limit of 2")
	case <-time.After(200 * time.Millisecond):
	}
	a.Close()
	a.Close() // closing twice frees one slot only
	select {
	case c := <-third:
		c.Close()
	case <-await.Context(t).Done():
		t.Fatal("closing a connection did not let the next one in")
	}
	b.Close()
}

func TestServeReadTimeoutDoesNotCancelWork(t *testing.T) {
	addr := serveTest(t, echoImpl{delay: 3 * time.Second}, protocol.ServeOptions{ReadTimeout: 2 * time.Second})
	h := NewHTTP("http://" + addr + "/")
	resp, err := h.Call(context.Background(), protocol.Request{ID: protocol.IntID(5), Op: "echo.echo", Input: json.RawMessage(`{"a":1}`)})
	if err != nil || string(resp.Output) != `{"a":1}` {
		t.Errorf("a request that takes longer than ReadTimeout = %s, %v; want its answer", resp.Output, err)
	}
}

func TestServeRefusesIDsThatAreNotText(t *testing.T) {
	srv := httptest.NewServer(protocol.ServeOptions{}.Handler(InProcess{}))
	defer srv.Close()
	for _, id := range []string{"\"a\xffb\"", `"\ud800"`, `"\udc00\ud800"`, `"x\uD83D"`, `"\ud83dx"`} {
		body := `[{"id":` + id + `,"op":"hello","input":{"protocol":1}}]`
		resp, err := http.Post(srv.URL, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !bytes.HasPrefix(got, []byte(`[{"id":null,"error":{"kind":"bad_request"`)) || bytes.Contains(got, []byte{0xff}) {
			t.Errorf("id %q = %s, want a bad_request with id null", id, got)
		}
	}
	for _, id := range []string{`"\ud83d\ude00"`, `"\\ud800"`, `"é"`, `"\u00e9\n"`, `7`} {
		resp, err := http.Post(srv.URL, "application/json", strings.NewReader(`{"id":`+id+`,"op":"hello","input":{"protocol":1}}`))
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !bytes.HasPrefix(got, []byte(`{"id":`+id+`,"output":`)) {
			t.Errorf("id %s = %s, want it echoed with an output", id, got)
		}
	}
}

// helloThen serves hello itself and every other request with f.
func helloThen(f http.HandlerFunc) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if bytes.Contains(body, []byte(`"op":"hello"`)) {
			w.Write([]byte(`{"id":0,"output":{"protocol":1,"name":"hostile","version":"0","language":"go","ops":["echo.echo"]}}`))
			return
		}
		f(w, r)
	}))
}

// runHostile runs the echo corpus against url with client (nil for the
// runner's own) and returns the results.
func runHostile(t *testing.T, h *HTTP) []Result {
	t.Helper()
	hello, err := Connect(context.Background(), h)
	if err != nil {
		t.Fatalf("Connect() = %v", err)
	}
	r := &Runner{Impl: h, Hello: hello, Timeout: 60 * time.Second, Batch: 4}
	return r.Run(context.Background(), echoCorpus(t))
}

func TestHTTPClientGzipBomb(t *testing.T) {
	// 1024 gzip members of 1 MiB of zeros each: 1 GiB inflated.
	var member, bomb bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&member, gzip.BestCompression)
	zw.Write(make([]byte, mb))
	zw.Close()
	for range 1024 {
		bomb.Write(member.Bytes())
	}
	srv := helloThen(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Type", "application/json")
		w.Write(bomb.Bytes())
	})
	defer srv.Close()
	// The runner's client, and a caller's client whose transport would
	// decompress transparently if asked to.
	for name, h := range map[string]*HTTP{"own client": NewHTTP(srv.URL), "default transport": {URL: srv.URL, Client: &http.Client{}}} {
		var results []Result
		n := allocated(func() { results = runHostile(t, h) })
		for _, res := range results {
			if res.Outcome != ProtocolErr || !strings.Contains(res.Detail, "Content-Encoding") {
				t.Errorf("%s: %s: %s %q, want protocol naming the Content-Encoding", name, res.Vector.ID, res.Outcome, res.Detail)
			}
		}
		if n > 256*mb {
			t.Errorf("%s: a gzip bomb (%d bytes, 1 GiB inflated) made the runner allocate %d MB, want under 256", name, bomb.Len(), n/mb)
		}
	}
}

func TestHTTPClientRedirect(t *testing.T) {
	var reached atomic.Int64
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Add(1)
		protocol.ServeOptions{}.Handler(echoImpl{}).ServeHTTP(w, r)
	}))
	defer other.Close()
	srv := helloThen(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/moved", http.StatusTemporaryRedirect)
	})
	defer srv.Close()
	for name, h := range map[string]*HTTP{"own client": NewHTTP(srv.URL), "default client": {URL: srv.URL}} {
		for _, res := range runHostile(t, h) {
			if res.Outcome != ProtocolErr || !strings.Contains(res.Detail, other.URL+"/moved") || !strings.Contains(res.Detail, "307") {
				t.Errorf("%s: %s: %s %q, want protocol naming the 307 and its Location", name, res.Vector.ID, res.Outcome, res.Detail)
			}
		}
	}
	if n := reached.Load(); n != 0 {
		t.Errorf("the server redirected to received %d requests, want none", n)
	}
}

func TestHTTPClientOverSizeBody(t *testing.T) {
	for name, chunked := range map[string]bool{"with a length": false, "chunked": true} {
		srv := helloThen(func(w http.ResponseWriter, r *http.Request) {
			body := bytes.Repeat([]byte(" "), 2*mb)
			if !chunked {
				w.Header().Set("Content-Length", fmt.Sprint(len(body)))
			}
			w.Write(body[:mb])
			if chunked {
				w.(http.Flusher).Flush()
			}
			w.Write(body[mb:])
		})
		h := NewHTTP(srv.URL)
		h.MaxBody = mb
		for _, res := range runHostile(t, h) {
			if res.Outcome != ProtocolErr || !strings.Contains(res.Detail, "limit of 1048576 bytes") {
				t.Errorf("%s: %s: %s %q, want protocol naming the limit", name, res.Vector.ID, res.Outcome, res.Detail)
			}
		}
		srv.Close()
	}
}

func TestHTTPClientMaxLine(t *testing.T) {
	srv := httptest.NewServer(protocol.ServeOptions{}.Handler(echoImpl{}))
	defer srv.Close()
	h := NewHTTP(srv.URL)
	h.MaxLine = 40
	long := json.RawMessage(`{"s":"` + strings.Repeat("x", 60) + `"}`)
	resps, errs := h.CallBatch(context.Background(), []protocol.Request{
		{ID: protocol.IntID(1), Op: "echo.echo", Input: json.RawMessage(`{"a":1}`)},
		{ID: protocol.IntID(2), Op: "echo.echo", Input: long},
	})
	if errs[0] != nil || string(resps[0].Output) != `{"a":1}` {
		t.Errorf("a short answer in the batch = %s, %v; want it", resps[0].Output, errs[0])
	}
	var ce *CallError
	if !errors.As(errs[1], &ce) || ce.Outcome != ProtocolErr || !strings.Contains(ce.Msg, "--max-line") {
		t.Errorf("an answer longer than MaxLine = %v, want protocol naming --max-line", errs[1])
	}
	if _, err := h.Call(context.Background(), protocol.Request{ID: protocol.IntID(3), Op: "echo.echo", Input: long}); !errors.As(err, &ce) || ce.Outcome != ProtocolErr {
		t.Errorf("a single answer longer than MaxLine = %v, want protocol", err)
	}
}

func TestHTTPClientQuotesStatusText(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				br := bufio.NewReader(c)
				req, err := http.ReadRequest(br)
				if err != nil {
					return
				}
				io.Copy(io.Discard, req.Body)
				body := strings.Repeat("\x1b]52;c;ZXZpbA==\x07", 100)
				fmt.Fprintf(c, "HTTP/1.1 418 \x1b[2J%s\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", strings.Repeat("t", 200), len(body), body)
			}()
		}
	}()
	h := NewHTTP("http://" + ln.Addr().String() + "/")
	_, err = h.Call(context.Background(), protocol.Request{ID: protocol.IntID(1), Op: "echo.echo", Input: json.RawMessage(`{}`)})
	var ce *CallError
	switch {
	case !errors.As(err, &ce):
		t.Fatalf("Call() = %v, want a CallError", err)
	case ce.Outcome != ProtocolErr:
		t.Errorf("status 418: outcome %s, want protocol", ce.Outcome)
	case strings.ContainsAny(ce.Msg, "\x1b\x07") || len(ce.Msg) > 400:
		t.Errorf("the detail quotes the server's text raw or whole (%d bytes): %q", len(ce.Msg), ce.Msg)
	}
}

// heldImpl holds every echo.echo request until release is closed,
// saying on entered that one arrived.
type heldImpl struct{ entered, release chan struct{} }

func (b heldImpl) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	if req.Op == "echo.echo" {
		b.entered <- struct{}{}
		<-b.release
	}
	return echoImpl{}.Call(ctx, req)
}

func (heldImpl) Close() error { return nil }

// postBody POSTs body and returns the status, the Retry-After header and
// the answer.
func postBody(t *testing.T, addr string, body []byte) (int, string, string) {
	t.Helper()
	c := &http.Client{}
	resp, err := c.Post("http://"+addr+"/", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Retry-After"), string(data)
}

// smallValues is a request whose input holds n small values.
func smallValues(n int) []byte {
	return []byte(`{"id":1,"op":"echo.echo","input":{"v":[0` + strings.Repeat(",0", n-1) + `]}}`)
}

// serve --http counts what a body decodes into before decoding it: bodies
// of small values, each within MaxBody, once took the server to 3.1 GB.
// One whose values alone pass the budget is refused with 413; one that
// does not fit in what is left while others are served gets 503 and
// Retry-After; the server answers again once they are done.
func TestServeDecodedBudget(t *testing.T) {
	t.Run("over the whole budget", func(t *testing.T) {
		addr := serveTest(t, echoImpl{}, protocol.ServeOptions{})
		body := smallValues(2 << 20) // 4 MB: 2 million values at 272 bytes, over 256 MiB
		var wg sync.WaitGroup
		peak := peakHeap(func() {
			for range 7 {
				wg.Go(func() {
					status, _, answer := postBody(t, addr, body)
					if status != http.StatusRequestEntityTooLarge || !strings.Contains(answer, "decodes into up to") {
						t.Errorf("a body of 2 million values = %d %s; want 413 naming the values", status, answer)
					}
				})
			}
			wg.Wait()
			postHello(t, addr)
		})
		if peak > 512*mb {
			t.Errorf("7 bodies of 2 million values took the heap to %d MB, want under 512", peak/mb)
		}
	})
	t.Run("none left", func(t *testing.T) {
		b := heldImpl{entered: make(chan struct{}), release: make(chan struct{})}
		body := smallValues(1000) // about 276 KB of decoded cost
		addr := serveTest(t, b, protocol.ServeOptions{DecodedBudget: 400 << 10})
		first := make(chan int, 1)
		go func() {
			status, _, _ := postBody(t, addr, body)
			first <- status
		}()
		<-b.entered // the first body holds its cost while it is served
		if status, retry, answer := postBody(t, addr, body); status != http.StatusServiceUnavailable || retry != "1" {
			t.Errorf("a body beyond what is left = %d (Retry-After %q) %s; want 503 with Retry-After 1", status, retry, answer)
		}
		close(b.release)
		if status := <-first; status != http.StatusOK {
			t.Errorf("the first body = %d, want 200", status)
		}
		go func() { <-b.entered }() // the next body may be served now
		if status, _, answer := postBody(t, addr, body); status != http.StatusOK {
			t.Errorf("a body after the first was served = %d %s, want 200", status, answer)
		}
	})
}

// manyMembers is an output of n members: {"m0":0,"m1":0,...}.
func manyMembers(n int) []byte {
	b := []byte(`{`)
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `"m`...)
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, `":0`...)
	}
	return append(b, '}')
}

// Answers of many members, each under every byte cap, once cost 50 times
// their bytes decoded, times the requests in flight (2 GB over stdio, past
// 12 GB over HTTP). Each answer now holds its share of the run's budget: 32
// requests in flight, each answered with 300,000 members (4 MB), are each
// outcome protocol with a detail naming the budget, and the heap stays
// within the budgets.
func TestRunDecodedAnswersBudget(t *testing.T) {
	out := manyMembers(300_000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req protocol.Request
		json.NewDecoder(r.Body).Decode(&req)
		w.Write([]byte(`{"id":` + string(req.ID) + `,"output":`))
		w.Write(out)
		w.Write([]byte("}\n"))
	}))
	defer srv.Close()
	vs := make([]*vectors.Vector, 64)
	for i := range vs {
		vs[i] = &vectors.Vector{ID: fmt.Sprintf("echo.echo/v%d", i), Op: "echo.echo", Input: json.RawMessage(`{}`), Expect: vectors.Expect{Output: json.RawMessage(`{}`)}}
	}
	r := &Runner{Impl: NewHTTP(srv.URL), Hello: &protocol.Hello{Protocol: 1, Ops: []string{"echo.echo"}}, Parallel: 32}
	var results []Result
	peak := peakHeap(func() { results = r.Run(context.Background(), vs) })
	share := LimitsFor(32)
	for _, res := range results {
		if res.Outcome != ProtocolErr || !strings.Contains(res.Detail, fmt.Sprintf("more than %d JSON values", share.Values)) || !strings.Contains(res.Detail, "memory budget, with 32 in flight") {
			t.Fatalf("%s: %s %s; want protocol, naming the share of the budget", res.Vector.ID, res.Outcome, res.Detail)
		}
	}
	if bound := uint64(2*(AnswerBytesBudget+AnswerValuesBudget) + 64*mb); peak > bound {
		t.Errorf("32 answers of 300,000 members in flight took the heap to %d MB, want under %d", peak/mb, bound/mb)
	}
}
