package features

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/conform-suite/conform/internal/fakeimpl"
	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/reference"
	"github.com/conform-suite/conform/runner"
	"github.com/cucumber/godog"
)

// fake is a small implementation for the harness's own tests. It offers
// the test.* ops only; wrong makes test.echo answer a changed output.
type fake struct{ wrong bool }

func (f fake) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	resp := protocol.Response{ID: req.ID}
	var in struct {
		Code string `json:"code"`
	}
	switch req.Op {
	case "hello":
		resp.Output = json.RawMessage(`{"protocol":1,"name":"fake","version":"0","language":"go","ops":["test.echo","test.refuse","test.drop"]}`)
	case "test.echo":
		resp.Output = req.Input
		if f.wrong {
			resp.Output = json.RawMessage(`{"text":"changed"}`)
		}
	case "test.refuse":
		if err := json.Unmarshal(req.Input, &in); err != nil {
			return resp, err
		}
		resp.Output = json.RawMessage(`{"rejected":{"code":"` + in.Code + `","message":"no"}}`)
	case "test.drop":
		resp.Output = json.RawMessage(`{"dropped":{"code":"DROPPED"}}`)
	default:
		resp.Error = &protocol.Error{Kind: "unsupported", Message: "unknown op"}
	}
	return resp, nil
}

func (fake) Close() error { return nil }

// fakeServe is a small line server for the raw steps: it answers hello,
// refuses other ops as unsupported and lines that are not JSON as bad
// requests. With dup set it answers every request twice; with strID it
// turns every id into a string.
func fakeServe(dup, strID bool) ServeRaw {
	return func(ctx context.Context, r io.Reader, w io.Writer) error {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			var req protocol.Request
			var answer string
			switch {
			case json.Unmarshal(sc.Bytes(), &req) != nil:
				answer = `{"id":null,"error":{"kind":"bad_request","message":"not JSON"}}`
			case strID:
				answer = fmt.Sprintf(`{"id":%q,"output":{}}`, req.ID)
			case req.Op == "hello":
				answer = fmt.Sprintf(`{"id":%s,"output":{"protocol":1,"name":"f","version":"0","language":"go","ops":[]}}`, req.ID)
			default:
				answer = fmt.Sprintf(`{"id":%s,"error":{"kind":"unsupported","message":"no"}}`, req.ID)
			}
			fmt.Fprintln(w, answer)
			if dup {
				fmt.Fprintln(w, answer)
			}
		}
		return sc.Err()
	}
}

// TestHarnessRaw runs the raw protocol steps against fakeServe, and checks
// that faulty servers fail them.
func TestHarnessRaw(t *testing.T) {
	if got := runLogged(t, Options{Impl: fake{}, Raw: fakeServe(false, false), FS: os.DirFS("testdata"), Paths: []string{"raw.feature"}, Format: "progress", NoColors: true}); got != StatusOK {
		t.Errorf("raw.feature: status %d, want %d", got, StatusOK)
	}
	for _, tt := range []struct {
		name string
		raw  Raw
	}{{"answers twice", fakeServe(true, false)}, {"ids turned into strings", fakeServe(false, true)}} {
		var out bytes.Buffer
		if got := Run(Options{Impl: fake{}, Raw: tt.raw, FS: os.DirFS("testdata"), Paths: []string{"raw.feature"}, Format: "progress", Output: &out, NoColors: true}); got != StatusFailed {
			t.Errorf("%s: Run(raw.feature) = %d, want %d\n%s", tt.name, got, StatusFailed, out.String())
		}
	}
	var out bytes.Buffer
	// Without a raw transport every scenario is skipped: nothing is judged,
	// and that fails the run.
	var tally Tally
	if got := Run(Options{Impl: fake{}, FS: os.DirFS("testdata"), Paths: []string{"raw.feature"}, Format: "progress", Output: &out, NoColors: true, Tally: &tally}); got != StatusFailed || !strings.Contains(out.String(), "\n4 scenarios (4 skipped)\n") {
		t.Errorf("Run(raw.feature without Raw) = %d, want %d with every scenario skipped\n%s", got, StatusFailed, out.String())
	}
	if tally.Scenarios != 4 || tally.Skipped != 4 || tally.Judged() != 0 || !strings.Contains(tally.NothingJudged(), "4: no raw transport to send protocol lines") {
		t.Errorf("tally %+v, %q", tally, tally.NothingJudged())
	}
}

// TestBlankLineStep: the step that sends a line spelt with escapes fails an
// implementation that answers a blank line (fakeServe answers every line)
// and one that takes a line of U+00A0 for a blank one, and passes the
// reference (PROTO-FRAME-008).
func TestBlankLineStep(t *testing.T) {
	const blank = `Feature: f
  Scenario: s
    When it is sent the line "\u0020\t" and then the request line:
      """
      {"id":5,"op":"hello","input":{"protocol":1}}
      """
    Then the answer is one line of UTF-8 JSON
    And the answer's id is 5
`
	nbsp := strings.NewReplacer(`\u0020\t`, `\u00a0`, "Then the answer is one line of UTF-8 JSON\n    And the answer's id is 5",
		"Then answer 1 has error kind \"bad_request\"\n    And answer 2's id is 5").Replace(blank)
	// skipsNBSP answers as fakeServe does, but drops a line of U+00A0 as if it were blank.
	skipsNBSP := ServeRaw(func(ctx context.Context, r io.Reader, w io.Writer) error {
		in, _ := io.ReadAll(r)
		return fakeServe(false, false)(ctx, strings.NewReader(strings.ReplaceAll(string(in), "\u00a0\n", "")), w)
	})
	for _, tt := range []struct {
		name, feature string
		raw           Raw
		want          int
	}{
		{"blank, reference", blank, InProcessRaw(), StatusOK},
		{"blank, answered", blank, fakeServe(false, false), StatusFailed},
		{"U+00A0, reference", nbsp, InProcessRaw(), StatusOK},
		{"U+00A0, skipped", nbsp, skipsNBSP, StatusFailed},
	} {
		var out bytes.Buffer
		fsys := fstest.MapFS{"f.feature": {Data: []byte(tt.feature)}}
		if got := Run(Options{Impl: fake{}, Raw: tt.raw, FS: fsys, Format: "progress", Output: &out, NoColors: true}); got != tt.want {
			t.Errorf("%s: Run = %d, want %d\n%s", tt.name, got, tt.want, out.String())
		}
	}
}

// TestHarnessRawStdio runs the raw protocol steps against fakeServe over
// stdio: the scenarios share one process, but for the one that ends its
// input, and an answer too many is caught in the scenario that caused it.
func TestHarnessRawStdio(t *testing.T) {
	starts := filepath.Join(t.TempDir(), "starts")
	raw := func(mode string) StdioRaw {
		return StdioRaw{Command: []string{os.Args[0]}, Env: []string{serveEnv + "=" + mode, startsEnv + "=" + starts}}
	}
	opts := Options{Impl: fake{}, Raw: raw("fake"), FS: os.DirFS("testdata"), Paths: []string{"raw.feature"}, Format: "progress", NoColors: true}
	if got := runLogged(t, opts); got != StatusOK {
		t.Errorf("raw.feature over stdio: status %d, want %d", got, StatusOK)
	}
	data, err := os.ReadFile(starts)
	if n := strings.Count(string(data), "\n"); err != nil || n != 2 {
		t.Errorf("raw.feature started %d processes (%v), want 2: one shared, one whose input ends", n, err)
	}
	for _, mode := range []string{"dup", "strid"} {
		var statuses []scenarioStatus
		var out bytes.Buffer
		opts := Options{Impl: fake{}, Raw: raw(mode), FS: os.DirFS("testdata"), Paths: []string{"raw.feature"}, Format: "progress", NoColors: true, Output: &out, statuses: &statuses}
		if got := Run(opts); got != StatusFailed {
			t.Errorf("%s: Run(raw.feature) = %d, want %d\n%s", mode, got, StatusFailed, out.String())
		}
		if mode == "dup" && (len(statuses) != 4 || statuses[2].Status != "failed" || !strings.Contains(statuses[2].Detail, "want each of")) {
			t.Errorf("dup: the pipelined scenario does not fail on the answers given twice: %+v\n%s", statuses, out.String())
		}
	}
}

// TestHarnessRawStdioDaemon: the run ends although each process left a
// child holding its output (the shared session's reader must not wait for
// that output to close). The scenarios on the shared process pass; the one
// that ends the input fails, since the output did not end with the process.
func TestHarnessRawStdioDaemon(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	t.Cleanup(func() { w.Close() })
	hold := fmt.Sprintf("/proc/%d/fd/%d", os.Getpid(), r.Fd())
	if _, err := os.Stat(hold); err != nil {
		t.Skipf("no /proc to share a pipe through: %v", err)
	}
	raw := StdioRaw{Command: []string{os.Args[0]}, Env: []string{serveEnv + "=daemon", holdEnv + "=" + hold}}
	var statuses []scenarioStatus
	opts := Options{Impl: fake{}, Raw: raw, FS: os.DirFS("testdata"), Paths: []string{"raw.feature"}, Format: "progress", NoColors: true,
		Output: logOutput(t), statuses: &statuses}
	if got := Run(opts); got != StatusFailed {
		t.Errorf("raw.feature against a process leaving a daemon: status %d, want %d", got, StatusFailed)
	}
	var passed []string
	for _, st := range statuses {
		if st.Status == "passed" {
			passed = append(passed, st.Name)
		}
	}
	if len(statuses) != 4 || len(passed) != 3 || statuses[3].Status != "failed" || !strings.Contains(statuses[3].Detail, "WaitDelay") {
		t.Errorf("statuses %+v, want the three scenarios on the shared process passed and the one ending the input failed", statuses)
	}
}

// TestHarness runs the harness's own scenarios, which exercise every generic
// step, against the fake implementation.
func TestHarness(t *testing.T) {
	if got := runLogged(t, Options{Impl: fake{}, FS: os.DirFS("testdata"), Paths: []string{"harness.feature"}, Format: "progress", NoColors: true}); got != StatusOK {
		t.Errorf("harness.feature: status %d, want %d", got, StatusOK)
	}
}

// TestHarnessFails checks that each kind of bad scenario fails the run:
// godog's strict mode and the steps' own checks.
func TestHarnessFails(t *testing.T) {
	tests := []struct {
		name, scenario string
		impl           fake
	}{
		{"undefined step", `When nothing is defined for this`, fake{}},
		{"wrong member", `When "test.echo" is called with {"a": 1}
    Then the output member "a" is 2`, fake{}},
		{"missing member", `When "test.echo" is called with {"a": 1}
    Then the output member "b" is 1`, fake{}},
		{"wrong output", `When "test.echo" is called with {"text": "x"}
    Then the output member "text" is "x"`, fake{wrong: true}},
		{"extra member", `When "test.echo" is called with {"a": 1, "b": 2}
    Then the output is {"a": 1}`, fake{}},
		{"wrong code", `When "test.refuse" is called with {"code": "A"}
    Then the input is rejected with code "B"`, fake{}},
		{"accepted wrongly", `When "test.echo" is called with {}
    Then the input is rejected`, fake{}},
		{"rejected wrongly", `When "test.refuse" is called with {"code": "A"}
    Then the input is accepted`, fake{}},
		{"dropped is not rejected", `When "test.drop" is called with {}
    Then the input is rejected`, fake{}},
		{"wrong error kind", `When "test.nothing" is called with {}
    Then the answer has error kind "internal"`, fake{}},
		{"error is not an output", `When "test.nothing" is called with {}
    Then the output member "a" is 1`, fake{}},
		{"bad length", `When "test.echo" is called with {"a": [1]}
    Then the output member "a" has 2 elements`, fake{}},
		{"no call", `Then the input is accepted`, fake{}},
		{"bad json", `When "test.echo" is called with {"a": }`, fake{}},
		{"whole input then member", `Given the input is {"a": 1}
    And the input member "b" is 2`, fake{}},
		{"surrogate in literal", `Given the input member "a" is:
      """
      \u{D800}
      """`, fake{}},
		{"a wrong fake passes", `Given the fake implementation "wrong"
    When the runner runs every vector
    Then every outcome is "pass"`, fake{}},
		{"a crash is not a timeout", `Given the fake implementation "crash" that crashes on its request 3
    When the runner runs every vector
    Then the outcome of "echo.echo/wrong-answer" is "timeout"`, fake{}},
		{"a right exit code", `Given the fake implementation "echo"
    When the runner runs every vector
    Then the exit code is 1`, fake{}},
		{"a different code matches", `Given the comparison of expected output '{"rejected":{"code":"X"}}'
    Then the actual output '{"rejected":{"code":"Y"}}' matches`, fake{}},
	}
	for _, tt := range tests {
		src := "Feature: f\n  Scenario: s\n    " + tt.scenario + "\n"
		fsys := fstest.MapFS{"f.feature": {Data: []byte(src)}}
		t.Run(tt.name, func(t *testing.T) {
			opts := withRunnerSteps(Options{Impl: tt.impl, FS: fsys, Format: "progress", NoColors: true})
			if got := runLogged(t, opts); got != StatusFailed {
				t.Errorf("Run(%q) = %d, want %d", tt.scenario, got, StatusFailed)
			}
		})
	}
}

func TestCheckFormat(t *testing.T) {
	for _, f := range []string{"pretty", "progress", "junit", "cucumber", "conform", "progress,junit:out.xml"} {
		if err := CheckFormat(f); err != nil {
			t.Errorf("CheckFormat(%q) = %v, want nil", f, err)
		}
	}
	for _, f := range []string{"", "nope", "pretty,nope:x", "events", "base"} {
		if err := CheckFormat(f); err == nil {
			t.Errorf("CheckFormat(%q) = nil, want an error", f)
		}
	}
}

// TestCheckTags holds CheckTags to godog's tag syntax: what godog reads as
// written passes; an empty term (which stops godog), a lone "~" (which
// selects everything) and another syntax's words (which select nothing)
// are refused, and Run refuses them before godog sees them.
func TestCheckTags(t *testing.T) {
	for _, e := range []string{"", "@a", "a", "~@a", "@a,@b", "@a && ~@b", "@divergence:t3code", "@a&&@b,~@c", " @a , @b "} {
		if err := CheckTags(e); err != nil {
			t.Errorf("CheckTags(%q) = %v, want nil", e, err)
		}
	}
	for _, e := range []string{",", "@a,", "@a&&", "&&@a", "~", "@", "~@", "not @a", "@a and @b", "@a or @b", "@a && (@b)x y", "@a&&&@b", "@a@b"} {
		if err := CheckTags(e); err == nil {
			t.Errorf("CheckTags(%q) = nil, want an error", e)
		}
	}
	var out bytes.Buffer
	if got := Run(Options{Impl: reference.InProcess{}, Tags: "@a&&", Output: &out}); got != StatusOptions {
		t.Errorf("Run with tags %q = %d, want %d (StatusOptions)\n%s", "@a&&", got, StatusOptions, out.String())
	}
}

// TestRunnerScenarios runs the scenarios about conform's own runner
// (features/runner) with the fakes.
func TestRunnerScenarios(t *testing.T) {
	opts := withRunnerSteps(Options{Impl: reference.InProcess{}, FS: RunnerFS(), Format: "progress", NoColors: true})
	if got := runLogged(t, opts); got != StatusOK {
		t.Errorf("Run(runner) = %d, want %d", got, StatusOK)
	}
}

// TestEmbedded checks that every .feature file of the tree is embedded.
func TestEmbedded(t *testing.T) {
	var disk, embedded []string
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() && d.Name() == "testdata" {
			if err == nil {
				err = filepath.SkipDir
			}
			return err
		}
		if filepath.Ext(p) == ".feature" {
			disk = append(disk, filepath.ToSlash(p))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, fsys := range []fs.FS{FS(), RunnerFS()} {
		err = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
			if err == nil && filepath.Ext(p) == ".feature" {
				embedded = append(embedded, p)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	slices.Sort(disk)
	slices.Sort(embedded)
	if !slices.Equal(disk, embedded) {
		t.Errorf("embedded features = %q, want every feature on disk %q", embedded, disk)
	}
}

// logOutput returns a writer for the formatters' output that goes to the
// test log, at the end of the test, when the test failed.
func logOutput(t *testing.T) io.Writer {
	var buf bytes.Buffer
	t.Cleanup(func() {
		if t.Failed() {
			t.Log(buf.String())
		}
	})
	return &buf
}

// serveEnv makes the test binary serve on stdio: the reference ("stdio"),
// as `conform serve --stdio` does, or fakeServe ("fake", "dup" answering
// every line twice, "strid" turning ids into strings). startsEnv names a
// file to which each such process adds a line when it starts.
const (
	serveEnv  = "CONFORM_FEATURES_SERVE"
	startsEnv = "CONFORM_FEATURES_STARTS"
	holdEnv   = "CONFORM_FEATURES_HOLD" // "daemon": the pipe whose end ends its child
)

// TestMain lets the test binary play an implementation: the reference over
// stdio (serveEnv) or one of the fake implementations (fakeimpl.Env).
func TestMain(m *testing.M) {
	fakeimpl.MaybeRun()
	if mode := os.Getenv(serveEnv); mode != "" {
		if f := os.Getenv(startsEnv); f != "" {
			starts, _ := os.OpenFile(f, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
			fmt.Fprintln(starts, os.Getpid())
			starts.Close()
		}
		serve := func(ctx context.Context, r io.Reader, w io.Writer) error {
			return protocol.ServeStdio(ctx, reference.InProcess{}, r, w, 0)
		}
		switch mode {
		case "orphan":
			// A child that holds its parent's output after the parent is
			// gone, as a daemon started by an implementation would: until
			// the test closes its end of a pipe, whose other end holdEnv
			// names (/proc/PID/fd/N). The test's end closes when the test
			// does, so the child never outlives it.
			if hold, err := os.Open(os.Getenv(holdEnv)); err == nil {
				io.Copy(io.Discard, hold)
			}
			os.Exit(0)
		case "daemon":
			child := exec.Command(os.Args[0])
			child.Env = append(os.Environ(), serveEnv+"=orphan", startsEnv+"=")
			child.Stdout = os.Stdout
			if err := child.Start(); err != nil {
				os.Exit(3)
			}
			serve = fakeServe(false, false)
		case "fake":
			serve = fakeServe(false, false)
		case "dup":
			serve = fakeServe(true, false)
		case "strid":
			serve = fakeServe(false, true)
		}
		if err := serve(context.Background(), os.Stdin, os.Stdout); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestReference runs every embedded scenario against the reference, in
// process and over stdio (the test binary serving it).
func TestReference(t *testing.T) {
	t.Run("in-process", func(t *testing.T) {
		opts := Options{Impl: reference.InProcess{}, Raw: InProcessRaw(), Format: "progress", NoColors: true}
		if got := runLogged(t, opts); got != StatusOK {
			t.Errorf("Run(in-process) = %d, want %d", got, StatusOK)
		}
	})
	t.Run("stdio", func(t *testing.T) {
		env := []string{serveEnv + "=stdio"}
		impl := runner.NewStdio(os.Args[0])
		impl.Env = append(os.Environ(), env...)
		defer impl.Close()
		opts := Options{Impl: impl, Raw: StdioRaw{Command: []string{os.Args[0]}, Env: env},
			Format: "progress", NoColors: true}
		if got := runLogged(t, opts); got != StatusOK {
			t.Errorf("Run(stdio) = %d, want %d", got, StatusOK)
		}
	})
}

// fakes is how this package's tests start the fakes: this test binary
// plays internal/fakeimpl's (TestMain calls fakeimpl.MaybeRun).
func fakes() *selfTest {
	return &selfTest{
		Fake:   []string{os.Args[0]},
		Corpus: fakeimpl.Corpus(),
		Env: func(mode, crashAt, marker string) []string {
			env := []string{fakeimpl.Env + "=" + mode, fakeimpl.EnvFile + "=" + marker}
			if crashAt != "" {
				env = append(env, fakeimpl.EnvN+"="+crashAt)
			}
			return env
		},
		Concurrent: []string{fakeimpl.Reverse, fakeimpl.CrashHolding},
	}
}

// withRunnerSteps adds the step definitions of the scenarios about the
// runner (selftest_test.go) to opts.
func withRunnerSteps(opts Options) Options {
	st := fakes()
	opts.more = func(sc *godog.ScenarioContext, s *scenario) { registerSelfTest(sc, s, st) }
	return opts
}

// runLogged runs opts with its report going to the test log when the test
// fails, and fails t when no scenario ran. It returns the status.
func runLogged(t *testing.T, opts Options) int {
	t.Helper()
	var statuses []scenarioStatus
	opts.statuses, opts.Output = &statuses, logOutput(t)
	status := Run(opts)
	if len(statuses) == 0 {
		t.Errorf("no scenario ran")
	}
	return status
}
