package features

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/cucumber/godog"
	messages "github.com/cucumber/messages/go/v34"

	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/reference"
	"github.com/conform-suite/conform/report"
	"github.com/conform-suite/conform/runner"
	"github.com/conform-suite/conform/spec"
	"github.com/conform-suite/conform/vectors"
)

// The scenarios of features/runner tell how conform's runner reports an
// implementation that crashes, hangs, floods or answers wrongly. They start
// deliberately faulty implementations, which only a test binary can play
// (internal/fakeimpl's), so they run in this package's tests, with the step
// definitions of this file, and never in `conform features`.

// selfTest is how the scenarios about the runner start the fakes.
type selfTest struct {
	// Fake is the command that plays the fake implementation (a test
	// binary that becomes the fake the environment from Env names).
	Fake []string
	// Env returns the environment entries that make Fake play mode; when
	// crashAt is not empty, the fake crashes on its crashAt-th request,
	// once, recording the crash in the file marker (which a mode that
	// crashes once by itself uses too).
	Env func(mode, crashAt, marker string) []string
	// Corpus is the vector corpus every mode is judged on: a correct mode
	// passes it whole, a faulty one fails the vectors that trigger its
	// fault.
	Corpus fs.FS
	// Concurrent names the modes whose fault needs requests in flight
	// (answers out of order).
	Concurrent []string
}

// selfRun is the state of one scenario about the runner itself.
type selfRun struct {
	sc       *scenario // the scenario, whose generic steps check a POST's answer
	st       *selfTest
	impl     runner.Implementation // the implementation the runner runs against
	stdio    *runner.Stdio         // impl, when it is a fake over stdio
	marker   string                // the file that makes the crashing fake crash once
	choices  map[string]string
	timeout  time.Duration
	parallel int  // requests in flight at once: 1 pins each fault on its vector
	require  bool // --require-ops: every op must be offered
	server   *httptest.Server
	other    *httptest.Server // a server the runner must never reach
	results  []runner.Result
	exit     int
	report   string
	expected json.RawMessage // the comparison steps' expected output
	status   int             // the HTTP status of the last POST
	body     []byte
}

var fakeRuns atomic.Int64

// registerSelfTest registers the steps of the scenarios about the runner
// (features/runner) into the scenario sc of s.
func registerSelfTest(sc *godog.ScenarioContext, scen *scenario, st *selfTest) {
	s := &selfRun{sc: scen, st: st}
	sc.Step(`^the fake implementation `+q+`$`, func(mode string) error { return s.fake(mode, "") })
	sc.Step(`^the fake implementation `+q+` that crashes on its request (\d+)$`, s.fake)
	sc.Step(`^the implementation declares the choice `+q+` as `+q+`$`, s.declareChoice)
	sc.Step(`^the reference served over HTTP$`, s.serveReference)
	sc.Step(`^the reference served over HTTP with a batch limit of (\d+)$`, func(n int) error {
		s.server = httptest.NewServer(protocol.ServeOptions{MaxBatch: n}.Handler(reference.InProcess{}))
		return nil
	})
	sc.Step(`^an HTTP implementation that answers every op with status 500$`, s.serve500)
	sc.Step(`^an HTTP implementation that redirects every op to another server$`, s.serveRedirect)
	sc.Step(`^the runner runs every vector$`, func(ctx context.Context) error { return s.runAll(ctx, nil) })
	sc.Step(`^the runner runs every vector with --require-ops$`, func(ctx context.Context) error {
		return s.runAll(ctx, func() { s.require = true })
	})
	sc.Step(`^the runner runs every vector with a line limit of (\d+) bytes$`, func(ctx context.Context, n int) error {
		if s.stdio == nil {
			return fmt.Errorf("a line limit applies to a fake implementation over stdio")
		}
		return s.runAll(ctx, func() { s.stdio.MaxLine = n })
	})
	sc.Step(`^the runner runs every vector with a timeout of (\d+) ms$`, func(ctx context.Context, n int) error {
		return s.runAll(ctx, func() { s.timeout = time.Duration(n) * time.Millisecond })
	})
	sc.Step(`^the runner runs a vector whose expected output for `+q+` = `+q+` is its input$`, s.runChoice)
	sc.Step(`^the outcome of `+q+` is `+q+`$`, s.outcomeOf)
	sc.Step(`^every outcome is `+q+`$`, s.everyOutcome)
	sc.Step(`^exactly (\d+) outcomes? (?:is|are) `+q+`$`, s.countOutcomes)
	sc.Step(`^its outcome is `+q+`$`, s.everyOutcome)
	sc.Step(`^no vector is run$`, func() error { return s.ranVectors(0) })
	sc.Step(`^the run completes$`, func() error {
		vs, err := s.fakeCorpus()
		if err != nil {
			return err
		}
		return s.ranVectors(len(vs))
	})
	sc.Step(`^the exit code is (\d+)$`, s.exitCode)
	sc.Step(`^the report shows the requirement `+q+` and the request line of `+q+`$`, s.reportShowsRequest)
	sc.Step(`^the report shows the stderr line `+q+`$`, s.reportShows)
	sc.Step(`^the report says `+q+`$`, s.reportShows)
	sc.Step(`^the comparison of expected output '(.*)'$`, s.expectOutput)
	sc.Step(`^the actual output '(.*)' matches$`, func(out string) error { return s.comparison(out, "match") })
	sc.Step(`^the actual output '(.*)' does not match$`, func(out string) error { return s.comparison(out, "") })
	sc.Step(`^the actual output '(.*)' is `+q+`$`, s.comparison)
	sc.Step(`^it is POSTed the body:$`, s.post)
	sc.Step(`^the HTTP status is (\d+)$`, s.httpStatus)
	sc.Step(`^the body is an array of (\d+) answers with the ids (.+)$`, s.batchIDs)
	sc.After(func(ctx context.Context, _ *messages.Pickle, err error) (context.Context, error) {
		if s.impl != nil {
			s.impl.Close()
		}
		if s.server != nil {
			s.server.Close()
		}
		if s.other != nil {
			s.other.Close()
		}
		if s.marker != "" {
			os.Remove(s.marker)
		}
		return ctx, nil
	})
}

// fakeCorpus is the vector corpus every fake mode is judged on.
func (s *selfRun) fakeCorpus() ([]*vectors.Vector, error) {
	c, err := vectors.Load(s.st.Corpus)
	if err != nil {
		return nil, fmt.Errorf("the fakes' corpus: %w", err)
	}
	return c.Vectors(), nil
}

// fake prepares the fake implementation of mode; crashAt, when not empty,
// is the request on which it crashes, once.
func (s *selfRun) fake(mode, crashAt string) error {
	st := runner.NewStdio(s.st.Fake...)
	marker := filepath.Join(os.TempDir(), fmt.Sprintf("conform-fake-%d-%d", os.Getpid(), fakeRuns.Add(1)))
	os.Remove(marker)
	s.marker = marker
	st.Env = append(os.Environ(), s.st.Env(mode, crashAt, marker)...)
	s.impl, s.stdio, s.parallel = st, st, 1
	if slices.Contains(s.st.Concurrent, mode) {
		s.parallel = 8 // answers out of order need requests in flight
	}
	return nil
}

func (s *selfRun) declareChoice(name, value string) error {
	if s.choices == nil {
		s.choices = map[string]string{}
	}
	s.choices[name] = value
	return nil
}

func (s *selfRun) serveReference() error {
	s.server = httptest.NewServer(protocol.ServeOptions{}.Handler(reference.InProcess{}))
	return nil
}

// serve500 serves hello and answers every other request with status 500.
func (s *selfRun) serve500() error {
	s.server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req protocol.Request
		body, _ := io.ReadAll(r.Body)
		if json.Unmarshal(body, &req) == nil && req.Op == "hello" {
			fmt.Fprintf(w, `{"id":%s,"output":{"protocol":1,"name":"http-500","version":"0","language":"go","ops":["echo.echo"]}}`, req.ID)
			return
		}
		http.Error(w, "out of order", http.StatusInternalServerError)
	}))
	s.impl = runner.NewHTTP(s.server.URL)
	return nil
}

// serveRedirect serves hello and answers every other request with a 307 to
// a second server, which must never be reached.
func (s *selfRun) serveRedirect() error {
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		panic("the runner followed a redirect")
	}))
	s.server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req protocol.Request
		body, _ := io.ReadAll(r.Body)
		if json.Unmarshal(body, &req) == nil && req.Op == "hello" {
			fmt.Fprintf(w, `{"id":%s,"output":{"protocol":1,"name":"http-307","version":"0","language":"go","ops":["echo.echo"]}}`, req.ID)
			return
		}
		http.Redirect(w, r, other.URL+"/elsewhere", http.StatusTemporaryRedirect)
	}))
	s.impl = runner.NewHTTP(s.server.URL)
	s.other = other
	return nil
}

// run runs vs as `conform run` does: the handshake first (an implementation
// that cannot be started runs nothing, exit code 2), then every vector
// (exit code 1 when one fails).
func (s *selfRun) run(ctx context.Context, vs []*vectors.Vector) error {
	if s.impl == nil {
		return fmt.Errorf("no implementation for the runner: start the scenario with a fake or an HTTP implementation")
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	sp, err := spec.Embedded()
	if err != nil {
		return err
	}
	s.results, s.report = nil, ""
	hello, err := runner.Connect(ctx, s.impl)
	if err != nil {
		s.exit, s.report = 2, err.Error()
		return nil
	}
	r := &runner.Runner{Impl: s.impl, Hello: hello, Choices: s.choices, Timeout: s.timeout, Parallel: s.parallel,
		RequireOps: runner.RequiredOps{All: s.require}}
	s.results = r.Run(ctx, vs)
	rep := &runner.Report{Implementation: hello, Transport: "features", Results: s.results, Spec: sp}
	var b strings.Builder
	if err := report.Text(&b, rep, report.TextOptions{}); err != nil {
		return err
	}
	s.report, s.exit = b.String(), 0
	if rep.Failed() {
		s.exit = 1
	}
	return nil
}

func (s *selfRun) runAll(ctx context.Context, tune func()) error {
	if s.impl == nil {
		return fmt.Errorf("no implementation for the runner: start the scenario with a fake or an HTTP implementation")
	}
	if tune != nil {
		tune()
	}
	vs, err := s.fakeCorpus()
	if err != nil {
		return err
	}
	return s.run(ctx, vs)
}

// runChoice runs one echo vector at an implementation-defined point whose
// only allowed answer, for value, is the input.
func (s *selfRun) runChoice(ctx context.Context, choice, value string) error {
	input := json.RawMessage(`{"text":"a"}`)
	v := &vectors.Vector{
		ID: "echo.echo/choice", Op: "echo.echo", Description: "echo at a choice",
		Requirements: []string{"PROTO-HELLO-004"}, Input: input,
		Expect: vectors.Expect{Choice: choice, Outputs: map[string]json.RawMessage{value: input}},
	}
	return s.run(ctx, []*vectors.Vector{v})
}

func (s *selfRun) selfFailf(format string, args ...any) error {
	return fmt.Errorf(format+"\n    report:\n%s", append(args, indent(s.report))...)
}

func indent(text string) string {
	if len(text) > 4000 {
		text = text[:4000] + "…"
	}
	return "      " + strings.ReplaceAll(strings.TrimRight(text, "\n"), "\n", "\n      ")
}

func (s *selfRun) outcomeOf(id, want string) error {
	for _, res := range s.results {
		if res.Vector.ID == id {
			if string(res.Outcome) != want {
				return s.selfFailf("the outcome of %s is %s (%s), want %s", id, res.Outcome, res.Detail, want)
			}
			return nil
		}
	}
	return s.selfFailf("no result for %s", id)
}

func (s *selfRun) everyOutcome(want string) error {
	if len(s.results) == 0 {
		return s.selfFailf("no vector was run")
	}
	for _, res := range s.results {
		if string(res.Outcome) != want {
			return s.selfFailf("the outcome of %s is %s (%s), want %s", res.Vector.ID, res.Outcome, res.Detail, want)
		}
	}
	return nil
}

// countOutcomes checks that exactly n results have outcome want.
func (s *selfRun) countOutcomes(n int, want string) error {
	var got []string
	for _, res := range s.results {
		if string(res.Outcome) == want {
			got = append(got, res.Vector.ID+" ("+res.Detail+")")
		}
	}
	if len(got) != n {
		return s.selfFailf("%d outcomes are %s, want %d: %s", len(got), want, n, strings.Join(got, "; "))
	}
	return nil
}

func (s *selfRun) ranVectors(n int) error {
	if len(s.results) != n {
		return s.selfFailf("%d vectors were run, want %d", len(s.results), n)
	}
	return nil
}

func (s *selfRun) exitCode(want int) error {
	if s.exit != want {
		return s.selfFailf("the exit code is %d, want %d", s.exit, want)
	}
	return nil
}

func (s *selfRun) reportShows(text string) error {
	t, err := quoted(text)
	if err != nil {
		return err
	}
	if !strings.Contains(s.report, t) {
		return s.selfFailf("the report does not show %q", t)
	}
	return nil
}

func (s *selfRun) reportShowsRequest(req, id string) error {
	if err := s.reportShows(req); err != nil {
		return err
	}
	i := slices.IndexFunc(s.results, func(r runner.Result) bool { return r.Vector.ID == id })
	if i < 0 {
		return s.selfFailf("no result for %s", id)
	}
	line, err := runner.RequestLine(s.results[i].Request)
	if err != nil {
		return err
	}
	return s.reportShows(marshalString(strings.TrimSuffix(line, "\n")))
}

func (s *selfRun) expectOutput(out string) error {
	v, err := jsonValue(out)
	s.expected = v
	return err
}

// comparison compares an actual output with the expected one; want is the
// comparison's name, or "" for any but a match.
func (s *selfRun) comparison(out, want string) error {
	got, diffs, err := runner.Compare(s.expected, json.RawMessage(out))
	if err != nil {
		return err
	}
	switch {
	case want == "" && got == runner.Match:
		return fmt.Errorf("Compare(%s, %s) = match, want a difference", s.expected, out)
	case want != "" && got.String() != want:
		return fmt.Errorf("Compare(%s, %s) = %v %q, want %s", s.expected, out, got, diffs, want)
	}
	return nil
}

func (s *selfRun) post(ctx context.Context, d *godog.DocString) error {
	if s.server == nil {
		return fmt.Errorf("no HTTP server: start the scenario with the reference served over HTTP")
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.server.URL, strings.NewReader(d.Content))
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	s.status = resp.StatusCode
	s.body, err = io.ReadAll(io.LimitReader(resp.Body, maxRawOutput))
	if err != nil {
		return err
	}
	// A single answer is also the answer the generic steps check.
	var one protocol.Response
	s.sc.resp, s.sc.op, s.sc.req = nil, "(http)", json.RawMessage(d.Content)
	if json.Unmarshal(s.body, &one) == nil {
		s.sc.resp = &one
	}
	return nil
}

func (s *selfRun) httpStatus(want int) error {
	if s.status != want {
		return fmt.Errorf("the HTTP status is %d, want %d; body %s", s.status, want, s.body)
	}
	return nil
}

var idList = regexp.MustCompile(`\s*(?:,|\band\b)\s*`)

// batchIDs checks a batch answer: an array of n answers whose ids are the
// listed JSON values, in any order.
func (s *selfRun) batchIDs(n int, list string) error {
	var answers []struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal(s.body, &answers); err != nil {
		return fmt.Errorf("the body is not an array of answers: %v; body %s", err, s.body)
	}
	if len(answers) != n {
		return fmt.Errorf("the body holds %d answers, want %d; body %s", len(answers), n, s.body)
	}
	var got, want []string
	for _, a := range answers {
		got = append(got, Compact(a.ID))
	}
	for _, id := range idList.Split(strings.TrimSpace(list), -1) {
		v, err := jsonValue(id)
		if err != nil {
			return err
		}
		want = append(want, Compact(v))
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		return fmt.Errorf("the answers carry the ids %v, want %v", got, want)
	}
	return nil
}
