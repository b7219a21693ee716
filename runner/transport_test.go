package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/conform-suite/conform/internal/fakeimpl"
	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/vectors"
)

// fakeStdio returns a stdio transport running the test binary as the fake
// implementation in mode.
func fakeStdio(mode string, extraEnv ...string) *Stdio {
	s := NewStdio(os.Args[0])
	s.Env = append(append(os.Environ(), fakeimpl.Env+"="+mode), extraEnv...)
	return s
}

func echoCorpus(t *testing.T) []*vectors.Vector {
	t.Helper()
	c, err := vectors.Load(fakeimpl.Corpus())
	if err != nil {
		t.Fatal(err)
	}
	return c.Vectors()
}

// runFake connects to impl and runs the echo corpus, returning the outcome
// of each vector by the last part of its id.
func runFake(t *testing.T, impl Implementation, timeout time.Duration, parallel int) (map[string]Result, *protocol.Hello) {
	t.Helper()
	defer impl.Close()
	ctx := context.Background()
	hello, err := Connect(ctx, impl)
	if err != nil {
		t.Fatalf("Connect() = %v, want a handshake", err)
	}
	r := &Runner{Impl: impl, Hello: hello, Timeout: timeout, Parallel: parallel}
	got := map[string]Result{}
	for _, res := range r.Run(ctx, echoCorpus(t)) {
		_, name, _ := strings.Cut(res.Vector.ID, "/")
		got[name] = res
	}
	return got, hello
}

// checkOutcomes checks the outcome of every vector: those in want have the
// given outcome, all others pass.
func checkOutcomes(t *testing.T, got map[string]Result, want map[string]Outcome) {
	t.Helper()
	for name, res := range got {
		w, ok := want[name]
		if !ok {
			w = Pass
		}
		if res.Outcome != w {
			t.Errorf("%s: outcome %s (%s %v), want %s", name, res.Outcome, res.Detail, res.Diffs, w)
		}
	}
}

func TestStdioFaults(t *testing.T) {
	tests := []struct {
		mode    string
		env     []string
		timeout time.Duration
		want    map[string]Outcome
		detail  map[string]string // substrings of Detail or Stderr
	}{
		{mode: fakeimpl.Echo},
		{mode: fakeimpl.Reverse},
		{mode: fakeimpl.Wrong, want: map[string]Outcome{"wrong-answer": Fail}, detail: map[string]string{"wrong-answer": ""}},
		{mode: fakeimpl.CrashOnce, env: []string{fakeimpl.EnvN + "=3"}, want: map[string]Outcome{"wrong-answer": Crash}, detail: map[string]string{"wrong-answer": "fake: boom on request 3"}},
		// The bound covers a restarted fake's start-up as well as its answer
		// (the request after the hang goes to a new child): generous enough
		// for a machine starved of CPU, paid once, on the hang.
		{mode: fakeimpl.Hang, timeout: 3 * time.Second, want: map[string]Outcome{"hang": Timeout}, detail: map[string]string{"hang": "no answer within 3s"}},
		{mode: fakeimpl.NonJSON, want: map[string]Outcome{"garbage": ProtocolErr}, detail: map[string]string{"garbage": "this is not JSON at all"}},
		// A line of white space other than JSON's is not a blank line: it
		// is garbage, even with the right answer after it (PROTO-FRAME-008).
		{mode: fakeimpl.SpaceLine, want: map[string]Outcome{"garbage": ProtocolErr}, detail: map[string]string{"garbage": "not JSON"}},
		{mode: fakeimpl.UnknownID, want: map[string]Outcome{"bad-id": ProtocolErr}, detail: map[string]string{"bad-id": `"somebody-else"`}},
		{mode: fakeimpl.HugeLine, want: map[string]Outcome{"huge-answer": ProtocolErr}, detail: map[string]string{"huge-answer": "longer than the limit"}},
		{mode: fakeimpl.ErrorAnswer, want: map[string]Outcome{"internal-error": Errored}, detail: map[string]string{"internal-error": "internal: fake: out of luck"}},
		{mode: fakeimpl.StderrFlood},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			env := tt.env
			if tt.mode == fakeimpl.CrashOnce {
				env = append(env, fakeimpl.EnvFile+"="+filepath.Join(t.TempDir(), "crashed"))
			}
			timeout := tt.timeout
			if timeout == 0 {
				timeout = 10 * time.Second
			}
			parallel := 1 // one request at a time: each fault is pinned on its vector
			if tt.mode == fakeimpl.Reverse {
				parallel = 8
			}
			start := time.Now()
			got, _ := runFake(t, fakeStdio(tt.mode, env...), timeout, parallel)
			if len(got) != len(echoCorpus(t)) {
				t.Fatalf("ran %d vectors, want %d", len(got), len(echoCorpus(t)))
			}
			checkOutcomes(t, got, tt.want)
			for name, sub := range tt.detail {
				res := got[name]
				if !strings.Contains(res.Detail+"\n"+res.Stderr, sub) {
					t.Errorf("%s: detail %q, stderr %q; want either to contain %q", name, res.Detail, res.Stderr, sub)
				}
			}
			if d := time.Since(start); d > 30*time.Second {
				t.Errorf("the run took %v", d)
			}
		})
	}
}

// TestStdioHugeLineBounded checks that a 100 MB answer line is streamed past,
// not held in memory: the run allocates far less than the line's size.
func TestStdioHugeLineBounded(t *testing.T) {
	s := fakeStdio(fakeimpl.HugeLine)
	s.MaxLine = 1 << 20
	defer s.Close()
	ctx := context.Background()
	if _, err := Connect(ctx, s); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := s.Call(ctx, protocol.Request{ID: protocol.IntID(1), Op: "echo.echo", Input: json.RawMessage(`{"huge":true}`)})
	runtime.ReadMemStats(&after)
	var ce *CallError
	if !errors.As(err, &ce) || ce.Outcome != ProtocolErr {
		t.Fatalf("Call(huge) error = %v, want a protocol CallError", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > fakeimpl.HugeSize/4 {
		t.Errorf("reading a %d-byte line allocated %d bytes", fakeimpl.HugeSize, alloc)
	}
	resp, err := s.Call(ctx, protocol.Request{ID: protocol.IntID(2), Op: "echo.echo", Input: json.RawMessage(`{"text":"after"}`)})
	if err != nil || string(resp.Output) != `{"text":"after"}` {
		t.Errorf("Call after the huge line = %s, %v; want the echo", resp.Output, err)
	}
}

func TestStdioStderrBounded(t *testing.T) {
	s := fakeStdio(fakeimpl.StderrFlood)
	defer s.Close()
	if _, err := Connect(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	tail := s.Stderr()
	if len(tail) > 70<<10 || !strings.Contains(tail, "earlier bytes dropped") {
		t.Errorf("Stderr() has %d bytes (%.60q...), want at most 64 KiB and a note of what was dropped", len(tail), tail)
	}
}

func TestStdioExitAtStart(t *testing.T) {
	s := fakeStdio(fakeimpl.ExitAtStart)
	s.Restarts = 0
	defer s.Close()
	_, err := Connect(context.Background(), s)
	var se *StartError
	if !errors.As(err, &se) || !strings.Contains(se.Stderr, "cannot initialise") {
		t.Fatalf("Connect() = %v, want a StartError carrying the child's stderr", err)
	}
}

func TestStdioCommandNotFound(t *testing.T) {
	s := NewStdio(filepath.Join(t.TempDir(), "no-such-program"))
	_, err := Connect(context.Background(), s)
	var se *StartError
	if !errors.As(err, &se) {
		t.Fatalf("Connect() = %v, want a StartError", err)
	}
}

// A child that dies with two requests in flight, both read and neither
// answered, is charged with one crash: the oldest request's, the one a
// sequential child works on. The other is sent again by Runner.Call, to
// the restarted child, and passes.
func TestStdioCrashBlamesTheOldest(t *testing.T) {
	s := fakeStdio(fakeimpl.CrashHolding, fakeimpl.EnvFile+"="+filepath.Join(t.TempDir(), "crashed"))
	defer s.Close()
	r := &Runner{Impl: s, Timeout: time.Minute}
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i := range errs {
		wg.Go(func() {
			_, errs[i] = r.Call(context.Background(), protocol.Request{ID: protocol.IntID(int64(i)), Op: "echo.echo", Input: json.RawMessage(`{"text":"a"}`)})
		})
	}
	wg.Wait()
	crashed := 0
	for i, err := range errs {
		if err == nil {
			continue
		}
		crashed++
		if o, detail, _ := classify(err); o != Crash || !strings.Contains(detail, "2 requests were in flight, this one the oldest") {
			t.Errorf("request %d: %s (%s), want a crash naming it the oldest of 2", i, o, detail)
		}
		// The ids in flight go with the crash, as the requests wrote
		// them, for Runner.recheckAlone to look for a culprit among.
		if ce, ok := errors.AsType[*CallError](err); !ok || !slices.Equal(ce.InFlight, []string{"0", "1"}) {
			t.Errorf("request %d: in flight %v, want [0 1]", i, ce)
		}
	}
	if crashed != 1 {
		t.Errorf("%d requests crashed, want 1: %v", crashed, errs)
	}
}

// A child restarted after a crash that takes longer to start than a
// request may take is not charged with a timeout for its start-up: the
// request's limit runs from its hello answer, which StartTimeout bounds.
func TestStdioRestartStartUpNotCharged(t *testing.T) {
	const limit = 500 * time.Millisecond
	s := fakeStdio(fakeimpl.CrashOnce, fakeimpl.EnvN+"=2", fakeimpl.EnvFile+"="+filepath.Join(t.TempDir(), "crashed"),
		fakeimpl.EnvRestartDelay+"="+(4*limit).String())
	s.StartTimeout = time.Minute
	defer s.Close()
	if _, err := Connect(context.Background(), s); err != nil { // the first child, request 1
		t.Fatal(err)
	}
	r := &Runner{Impl: s, Timeout: limit}
	echo := func(id int64) error {
		_, err := r.Call(context.Background(), protocol.Request{ID: protocol.IntID(id), Op: "echo.echo", Input: json.RawMessage(`{"text":"a"}`)})
		return err
	}
	if err := echo(2); err == nil || !strings.Contains(err.Error(), "died") {
		t.Fatalf("request 2 = %v, want the crash", err)
	}
	if err := echo(3); err != nil {
		t.Errorf("request 3, to the child restarted slowly = %v, want its answer", err)
	}
	// A restarted child that does not answer hello within StartTimeout is
	// a failure of the request that needed it, which is not sent.
	s2 := fakeStdio(fakeimpl.CrashOnce, fakeimpl.EnvN+"=2", fakeimpl.EnvFile+"="+filepath.Join(t.TempDir(), "crashed"),
		fakeimpl.EnvRestartDelay+"=1h")
	s2.StartTimeout = limit
	defer s2.Close()
	r.Impl = s2
	if _, err := Connect(context.Background(), s2); err != nil {
		t.Fatal(err)
	}
	echo(2)
	if err := echo(3); err == nil || !strings.Contains(err.Error(), "did not answer hello (it has 500ms to)") {
		t.Errorf("request 3, to a restarted child that never starts = %v, want the hello named", err)
	}
}

func TestStdioRestartBudget(t *testing.T) {
	// Crash on every third request of each child (hello, which a restarted
	// child answers first, is its first), with no marker file: the child
	// crashes again after every restart until the budget is spent.
	s := fakeStdio(fakeimpl.CrashOnce, fakeimpl.EnvN+"=3", fakeimpl.EnvFile+"="+filepath.Join(t.TempDir(), "never", "x"))
	s.Restarts = 2
	defer s.Close()
	ctx := context.Background()
	if _, err := Connect(ctx, s); err != nil {
		t.Fatal(err)
	}
	var outcomes []Outcome
	for i := range 6 {
		_, err := s.Call(ctx, protocol.Request{ID: protocol.IntID(int64(i)), Op: "echo.echo", Input: json.RawMessage(`{"text":"a"}`)})
		o := Pass
		if err != nil {
			o, _, _ = classify(err)
		}
		outcomes = append(outcomes, o)
	}
	// The marker directory does not exist, so the fake never records its
	// crash: every child answers one request and dies on its second; a
	// budget of 2 restarts allows 3 children.
	want := []Outcome{Pass, Crash, Pass, Crash, Pass, Crash}
	if strings.Join(toStrings(outcomes), ",") != strings.Join(toStrings(want), ",") {
		t.Errorf("outcomes = %v, want %v", outcomes, want)
	}
	_, err := s.Call(ctx, protocol.Request{ID: protocol.IntID(9), Op: "echo.echo", Input: json.RawMessage(`{"text":"a"}`)})
	if err == nil || !strings.Contains(err.Error(), "has ended 3 times") || !strings.Contains(err.Error(), "restart budget (2) is spent") {
		t.Errorf("Call after the budget = %v, want an error naming the restart budget", err)
	}
	// Without restarts, one end spends the budget.
	s0 := fakeStdio(fakeimpl.CrashOnce, fakeimpl.EnvN+"=2", fakeimpl.EnvFile+"="+filepath.Join(t.TempDir(), "never", "x"))
	s0.Restarts = 0
	defer s0.Close()
	if _, err := Connect(ctx, s0); err != nil {
		t.Fatal(err)
	}
	var last error
	for i := range 2 {
		_, last = s0.Call(ctx, protocol.Request{ID: protocol.IntID(int64(i)), Op: "echo.echo", Input: json.RawMessage(`{"text":"a"}`)})
	}
	if last == nil || !strings.Contains(last.Error(), "has ended once") {
		t.Errorf("Call after a budget of no restart = %v, want 'has ended once'", last)
	}
}

func toStrings(os []Outcome) []string {
	var s []string
	for _, o := range os {
		s = append(s, string(o))
	}
	return s
}

func TestNoHelloSupportsEverything(t *testing.T) {
	got, hello := runFake(t, fakeStdio(fakeimpl.NoHello), 10*time.Second, 4)
	if hello != nil {
		t.Errorf("Connect() = %+v, want nil for an implementation without hello", hello)
	}
	checkOutcomes(t, got, nil)
}

func TestOpNotInHelloIsUnsupported(t *testing.T) {
	got, _ := runFake(t, fakeStdio(fakeimpl.Unsupported), 10*time.Second, 4)
	for name, res := range got {
		if res.Outcome != Unsupported || res.Failed() {
			t.Errorf("%s: outcome %s, want unsupported (not a failure)", name, res.Outcome)
		}
	}
}

func TestSpawn(t *testing.T) {
	s := &Spawn{Command: []string{os.Args[0]}, Env: append(os.Environ(), fakeimpl.Env+"="+fakeimpl.Wrong)}
	got, _ := runFake(t, s, 10*time.Second, 4)
	checkOutcomes(t, got, map[string]Outcome{"wrong-answer": Fail})
}

// echoImpl is the echo fake in process, for HTTP servers.
type echoImpl struct{ delay time.Duration }

func (e echoImpl) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	if e.delay > 0 && req.Op != "hello" {
		select {
		case <-time.After(e.delay):
		case <-ctx.Done():
		}
	}
	switch req.Op {
	case "hello":
		return protocol.Response{ID: req.ID, Output: json.RawMessage(`{"protocol":1,"name":"echo","version":"0","language":"go","ops":["echo.echo"]}`)}, nil
	case "echo.echo":
		return protocol.Response{ID: req.ID, Output: req.Input}, nil
	}
	return protocol.Response{ID: req.ID, Error: &protocol.Error{Kind: protocol.KindUnsupported, Message: "no"}}, nil
}

func (echoImpl) Close() error { return nil }

func TestHTTP(t *testing.T) {
	srv := httptest.NewServer(protocol.ServeOptions{}.Handler(echoImpl{}))
	defer srv.Close()
	for _, batch := range []int{1, 4} {
		h := NewHTTP(srv.URL)
		h.Grease = true
		ctx := context.Background()
		hello, err := Connect(ctx, h)
		if err != nil {
			t.Fatal(err)
		}
		var answered atomic.Int64
		r := &Runner{Impl: h, Hello: hello, Timeout: 5 * time.Second, Batch: batch, Answered: func(n int) { answered.Add(int64(n)) }}
		vs := echoCorpus(t)
		for _, res := range r.Run(ctx, vs) {
			if res.Outcome != Pass {
				t.Errorf("batch %d: %s: %s %s", batch, res.Vector.ID, res.Outcome, res.Detail)
			}
		}
		if got := answered.Load(); got != int64(len(vs)) {
			t.Errorf("batch %d: Answered told of %d answers, want %d", batch, got, len(vs))
		}
	}
}

func TestHTTPFaults(t *testing.T) {
	status500 := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(readAll(r), `"hello"`) {
			protocol.ServeOptions{}.Handler(echoImpl{}).ServeHTTP(w, r)
			return
		}
		http.Error(w, "database on fire", http.StatusInternalServerError)
	}))
	defer status500.Close()
	slow := httptest.NewServer(protocol.ServeOptions{}.Handler(echoImpl{delay: 2 * time.Second}))
	defer slow.Close()
	// The right answer behind a U+00A0: only JSON's white space may stand
	// around an answer body.
	nbsp := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		protocol.ServeOptions{}.Handler(echoImpl{}).ServeHTTP(rec, r)
		body := rec.Body.String()
		if !strings.Contains(body, `"hello"`) && !strings.Contains(body, `"protocol"`) {
			body = "\u00a0" + body
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, body)
	}))
	defer nbsp.Close()

	tests := []struct {
		name   string
		url    string
		want   Outcome
		detail string
	}{
		{"status 500", status500.URL, Errored, "database on fire"},
		{"slower than the timeout", slow.URL, Timeout, "no answer"},
		{"a U+00A0 before the answer", nbsp.URL, ProtocolErr, "not JSON"},
	}
	for _, tt := range tests {
		h := NewHTTP(tt.url)
		hello, err := Connect(context.Background(), h)
		if err != nil {
			t.Fatalf("%s: Connect() = %v", tt.name, err)
		}
		r := &Runner{Impl: h, Hello: hello, Timeout: 300 * time.Millisecond}
		res := r.RunOne(context.Background(), 1, echoCorpus(t)[0])
		if res.Outcome != tt.want || !strings.Contains(res.Detail, tt.detail) {
			t.Errorf("%s: outcome %s (%s), want %s containing %q", tt.name, res.Outcome, res.Detail, tt.want, tt.detail)
		}
	}
}

func readAll(r *http.Request) string {
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := r.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	r.Body = httpBody(b.String())
	return b.String()
}

func TestHTTPConnectionRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	ln.Close()
	_, err = Connect(context.Background(), NewHTTP(url))
	var se *StartError
	if !errors.As(err, &se) || !strings.Contains(se.Msg, "connection refused") {
		t.Fatalf("Connect(%s) = %v, want a StartError saying connection refused", url, err)
	}
	res := (&Runner{Impl: NewHTTP(url), Timeout: time.Second}).RunOne(context.Background(), 1, echoCorpus(t)[0])
	if res.Outcome != Crash {
		t.Errorf("RunOne against a closed port: outcome %s (%s), want crash", res.Outcome, res.Detail)
	}
}

// The HTTP transport never opens more connections than a server of
// conform's accepts (protocol.DefaultMaxConns): a request written on a
// connection still waiting in the listen backlog went unanswered until its
// timeout (about one run in two at --parallel 64 --batch 1). 200 requests
// at once: the server holds the first DefaultMaxConns until that many are
// in, then answers all; the connections open at once never pass the cap.
func TestHTTPConnectionsCapped(t *testing.T) {
	var mu sync.Mutex
	open, most, inside := 0, 0, 0
	full := make(chan struct{})
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		if inside++; inside == protocol.DefaultMaxConns {
			close(full)
		}
		mu.Unlock()
		<-full
		var req protocol.Request
		json.NewDecoder(r.Body).Decode(&req)
		w.Write(protocol.AppendAnswer(nil, protocol.Response{ID: req.ID, Output: json.RawMessage(`{}`)}))
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		mu.Lock()
		defer mu.Unlock()
		switch s {
		case http.StateNew:
			open++
			most = max(most, open)
		case http.StateClosed, http.StateHijacked:
			open--
		}
	}
	srv.Start()
	defer srv.Close()
	h := NewHTTP(srv.URL)
	var wg sync.WaitGroup
	for i := range 200 {
		wg.Go(func() {
			if _, err := h.Call(context.Background(), protocol.Request{ID: protocol.IntID(int64(i)), Op: "echo.echo", Input: json.RawMessage(`{}`)}); err != nil {
				t.Errorf("request %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	if most > protocol.DefaultMaxConns {
		t.Errorf("%d connections open at once, want at most %d", most, protocol.DefaultMaxConns)
	}
}

// blamer answers echo.echo, and fails the way a transport does when the
// implementation died or hung with several requests in flight: the
// vectors named in always crash (or hang) every time they are sent; those
// in once fail so the first time only, as a vector charged with another's
// crash does.
type blamer struct {
	outcome Outcome
	always  map[string]bool
	mu      sync.Mutex
	once    map[string]bool
	failed  map[string]bool // the texts failed once already
	// inFlight, when set, is the CallError.InFlight of a failure in once:
	// the ids of the requests a stdio transport saw in flight.
	inFlight []string
}

func (b *blamer) Call(_ context.Context, req protocol.Request) (protocol.Response, error) {
	if req.Op != "echo.echo" { // hello: every op is offered
		return protocol.Response{ID: req.ID, Error: &protocol.Error{Kind: protocol.KindUnsupported, Message: "no hello"}}, nil
	}
	var in struct{ Text string }
	_ = json.Unmarshal(req.Input, &in)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.always[in.Text] || b.once[in.Text] {
		msg := "the implementation gave up"
		if b.failed[in.Text] {
			msg += " again" // as a spent restart budget's "not sent"
		}
		if b.failed == nil {
			b.failed = map[string]bool{}
		}
		b.failed[in.Text] = true
		e := &CallError{Outcome: b.outcome, Msg: msg}
		if b.once[in.Text] {
			e.InFlight = b.inFlight
		}
		delete(b.once, in.Text)
		return protocol.Response{}, e
	}
	return protocol.Response{ID: req.ID, Output: req.Input}, nil
}

func (b *blamer) Close() error { return nil }

// With several requests in flight, a crash or a hang is charged to the
// oldest request, which may not be the one that caused it; sent again
// alone, each vector so charged gets its own outcome. When no vector
// crashes alone, or (where the transport recorded the requests in flight)
// none of those in flight does, the crash is not dropped: it stays on the
// vector it was charged to, which says so.
func TestRunRechecksAlone(t *testing.T) {
	for _, tt := range []struct {
		name         string
		outcome      Outcome
		always, once []string
		parallel     int
		want         map[string]Outcome
		detail       string   // of the vector "plain"
		with         []string // the texts in flight when "a" crashed, as stdio records them (nil: not recorded)
	}{
		// "a" (vector plain) is charged with the crash of "z" (vector after-all).
		{"crash with a culprit", Crash, []string{"z"}, []string{"a"}, 4, map[string]Outcome{"after-all": Crash}, "", nil},
		{"hang with a culprit", Timeout, []string{"z"}, []string{"a"}, 4, map[string]Outcome{"after-all": Timeout}, "", nil},
		// Nothing crashes alone: the crash stays where the transport put it.
		{"crash without a culprit", Crash, nil, []string{"a"}, 4, map[string]Outcome{"plain": Crash},
			"sent again alone, it got outcome pass, but no vector of the run crashed when sent alone, so the crash stays this vector's", nil},
		{"hang without a culprit", Timeout, nil, []string{"a"}, 4, map[string]Outcome{"plain": Timeout}, "no vector of the run hung when sent alone", nil},
		// One at a time, every request was alone already.
		{"one at a time", Crash, []string{"z"}, []string{"a"}, 1, map[string]Outcome{"plain": Crash, "after-all": Crash}, "", nil},
		// The transport saw the culprit in flight: the crash is its.
		{"crash with the culprit in flight", Crash, []string{"z"}, []string{"a"}, 4, map[string]Outcome{"after-all": Crash}, "", []string{"a", "z"}},
		// A vector crashes alone, but it was not in flight when "a"
		// crashed: "a" and "b" crash only together, a finding of its own.
		{"crash with the culprit elsewhere", Crash, []string{"z"}, []string{"a"}, 4, map[string]Outcome{"plain": Crash, "after-all": Crash},
			"sent again alone, it got outcome pass, and none of the vectors in flight when the implementation died (echo.echo/plain, echo.echo/wrong-answer) crashes alone", []string{"a", "b"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := &blamer{outcome: tt.outcome, always: map[string]bool{}, once: map[string]bool{}}
			for _, s := range tt.always {
				b.always[s] = true
			}
			for _, s := range tt.once {
				b.once[s] = true
			}
			for i, v := range echoCorpus(t) {
				var in struct{ Text string }
				if json.Unmarshal(v.Input, &in) == nil && slices.Contains(tt.with, in.Text) {
					b.inFlight = append(b.inFlight, string(protocol.IntID(int64(i+1))))
				}
			}
			got, _ := runFake(t, b, time.Minute, tt.parallel)
			checkOutcomes(t, got, tt.want)
			// A vector that fails alone as it did with others keeps its
			// first result, with what the implementation said then.
			if d := got["after-all"].Detail; len(tt.always) > 0 && strings.Contains(d, "again") {
				t.Errorf("after-all: detail %q, want the first failure's", d)
			}
			if d := got["plain"].Detail; !strings.Contains(d, tt.detail) || tt.detail == "" && strings.Contains(d, "alone") {
				t.Errorf("plain: detail %q, want %q", d, tt.detail)
			}
		})
	}
}

// A batch that hangs on one of its requests times out as a whole; sent
// again alone, each request gets its own outcome, and only the one that
// hangs is a timeout.
func TestBatchHangRecheckedAlone(t *testing.T) {
	got := runBatchedEcho(t, false)
	// The echo server answers every other vector of the corpus right,
	// garbage and bad ids included (it echoes them).
	checkOutcomes(t, got, map[string]Outcome{"hang": Timeout})
}

// A liar: an implementation that answers each request alone right but
// refuses every batch (PROTO-HTTP-002) does not pass by being sent each
// request alone; the batch's failure stands on every vector, and says why.
func TestBatchRefusedWholeIsNoPass(t *testing.T) {
	got := runBatchedEcho(t, true)
	for name, res := range got {
		if res.Outcome != ProtocolErr || !strings.Contains(res.Detail, "PROTO-HTTP-002") {
			t.Errorf("%s: outcome %s (%s), want protocol naming PROTO-HTTP-002", name, res.Outcome, res.Detail)
		}
	}
}

// runBatchedEcho runs the echo corpus in batches of 4 against an HTTP
// server that echoes, hangs on {"hang":true} and, with refuseBatches,
// answers every batch with status 400.
func runBatchedEcho(t *testing.T, refuseBatches bool) map[string]Result {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var batch []protocol.Request
		var one protocol.Request
		body, _ := io.ReadAll(r.Body)
		if refuseBatches && len(body) > 0 && body[0] == '[' {
			http.Error(w, `{"id":null,"error":{"kind":"bad_request","message":"no batches"}}`, http.StatusBadRequest)
			return
		}
		if json.Unmarshal(body, &batch) != nil {
			_ = json.Unmarshal(body, &one)
			batch = []protocol.Request{one}
		}
		var answers []map[string]any
		for _, req := range batch {
			if req.Op != "echo.echo" {
				answers = append(answers, map[string]any{"id": req.ID, "error": map[string]string{"kind": "unsupported", "message": "only echo"}})
				continue
			}
			if bytes.Contains(req.Input, []byte(`"hang"`)) {
				<-r.Context().Done()
				return
			}
			answers = append(answers, map[string]any{"id": req.ID, "output": req.Input})
		}
		if len(body) > 0 && body[0] == '[' {
			_ = json.NewEncoder(w).Encode(answers)
			return
		}
		_ = json.NewEncoder(w).Encode(answers[0])
	}))
	defer srv.Close()
	impl := NewHTTP(srv.URL)
	hello, err := Connect(context.Background(), impl)
	if err != nil {
		t.Fatal(err)
	}
	vs := echoCorpus(t)
	if refuseBatches { // without the vector that hangs, which explains its batch's failure
		vs = slices.DeleteFunc(vs, func(v *vectors.Vector) bool { return strings.HasSuffix(v.ID, "/hang") })
	}
	r := &Runner{Impl: impl, Hello: hello, Timeout: 2 * time.Second, Parallel: 1, Batch: 4}
	got := map[string]Result{}
	for _, res := range r.Run(context.Background(), vs) {
		_, name, _ := strings.Cut(res.Vector.ID, "/")
		got[name] = res
	}
	return got
}
