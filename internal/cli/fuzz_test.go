package cli

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/conform-suite/conform/fuzz"
	"github.com/conform-suite/conform/runner"
)

// fuzzFaultEnv makes the test binary, run with -test.run of
// TestFuzzFaultyHelper, serve the reference with one fault over stdio.
const fuzzFaultEnv = "CONFORM_TEST_FUZZ_FAULT"

// replayFault is the reference except that selref.replay appends a space to
// its text.
type replayFault struct{}

func (replayFault) Call(ctx context.Context, req runner.Request) (runner.Response, error) {
	resp, err := runner.InProcess{}.Call(ctx, req)
	if err != nil || req.Op != "selref.replay" || resp.Output == nil {
		return resp, err
	}
	var out map[string]any
	if json.Unmarshal(resp.Output, &out) == nil {
		if s, ok := out["text"].(string); ok {
			out["text"] = s + " "
			resp.Output, _ = json.Marshal(out)
		}
	}
	return resp, nil
}

func (replayFault) Close() error { return nil }

// TestFuzzFaultyHelper is not a test: with fuzzFaultEnv set it is the
// faulty implementation of TestFuzzFindsAndReplays.
func TestFuzzFaultyHelper(t *testing.T) {
	if os.Getenv(fuzzFaultEnv) == "" {
		t.Skip("helper process for TestFuzzFindsAndReplays")
	}
	runner.ServeStdio(context.Background(), replayFault{}, os.Stdin, os.Stdout, 0)
	os.Exit(0)
}

func TestFuzzUsageErrors(t *testing.T) {
	tests := []struct {
		args   []string
		stderr string
	}{
		{[]string{"fuzz", "--no-such-flag"}, "conform: hint: see 'conform fuzz -h'"},
		{[]string{"fuzz", "extra"}, `conform: error: unexpected argument "extra"`},
		{[]string{"fuzz", "--count", "-1"}, "conform: error: --time and --count"},
		{[]string{"fuzz", "--out", ""}, "conform: error: --out"},
		{[]string{"fuzz", "--stdio", "a", "--http", "http://x"}, "at most one of"},
		{[]string{"fuzz", "--count", "5", "--op", "quote.nothing"}, `the reference does not answer op "quote.nothing"`},
		{[]string{"fuzz", "--count", "5", "--stdio", "/no/such/program"}, "cannot start the implementation"},
	}
	for _, tt := range tests {
		code, _, stderr := conform(t, "", tt.args...)
		if code != ExitUsage || !strings.Contains(stderr, tt.stderr) {
			t.Errorf("conform %q = exit %d, stderr %q; want exit %d, stderr containing %q", tt.args, code, stderr, ExitUsage, tt.stderr)
		}
	}
}

func TestFuzzSelfCheckAgrees(t *testing.T) {
	out := t.TempDir()
	code, stdout, stderr := conform(t, "", "fuzz", "--count", "300", "--seed", "1", "--out", out)
	if code != ExitOK || !strings.Contains(stdout, "no divergences") || !strings.Contains(stdout, "seed 1") {
		t.Errorf("conform fuzz (self-check) = exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

// TestFuzzFindsAndReplays fuzzes a faulty implementation over stdio: the
// run exits 1, writes a vector file, and that file fails on the faulty
// implementation and passes on the reference.
func TestFuzzFindsAndReplays(t *testing.T) {
	t.Setenv(fuzzFaultEnv, "1")
	faulty := quoteArg(os.Args[0]) + " -test.run=^TestFuzzFaultyHelper$"
	out := t.TempDir()
	code, stdout, stderr := conform(t, "", "fuzz", "--stdio", faulty, "--op", "selref.replay", "--count", "200", "--seed", "2", "--out", out)
	if code != ExitFailed || !strings.Contains(stdout, "mismatch selref.replay") {
		t.Fatalf("conform fuzz = exit %d, want %d and a selref.replay mismatch\nstdout:\n%s\nstderr:\n%s", code, ExitFailed, stdout, stderr)
	}
	files, _ := filepath.Glob(filepath.Join(out, "selref", "selref.replay-fuzz-mismatch-*.json"))
	if len(files) != 1 {
		t.Fatalf("vector files %v, want one selref.replay mismatch", files)
	}
	if !strings.Contains(stdout, "replay: conform run --vectors") {
		t.Errorf("summary without a replay line:\n%s", stdout)
	}
	if code, stdout, _ := conform(t, "", "run", "--vectors", out); code != ExitOK {
		t.Errorf("conform run --vectors on the reference = exit %d, want 0\n%s", code, stdout)
	}
	if code, stdout, _ := conform(t, "", "run", "--vectors", out, "--stdio", faulty); code != ExitFailed {
		t.Errorf("conform run --vectors on the faulty implementation = exit %d, want 1\n%s", code, stdout)
	}
}

func TestFuzzProgress(t *testing.T) {
	s := fuzz.Stats{Execs: 500, Divergent: 7, Findings: 2, Elapsed: 5 * time.Second, Duration: 20 * time.Second}
	tests := []struct {
		name string
		tty  bool
		want []string
	}{
		{"terminal", true, []string{"\r\x1b[K[######..................]  25%", "500 execs", "7 divergences (2 distinct)", "100/s", "15s left"}},
		{"plain", false, []string{"conform: fuzz: 500 execs, 7 divergences (2 distinct), 100/s, 15s left\n"}},
	}
	for _, tt := range tests {
		var b strings.Builder
		p := &fuzzProgress{w: &b, tty: tt.tty}
		p.update(s)
		p.done()
		for _, w := range tt.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s: progress %q, want it to contain %q", tt.name, b.String(), w)
			}
		}
	}
	// A count bound estimates the time left from the rate.
	var b strings.Builder
	p := &fuzzProgress{w: &b}
	p.update(fuzz.Stats{Execs: 250, Elapsed: time.Second, Count: 1000})
	if !strings.Contains(b.String(), "3s left") {
		t.Errorf("progress %q, want 3s left", b.String())
	}
}

// TestFuzzOverHTTP fuzzes the reference served over HTTP, faulty in
// selref.replay: found, and replayable over HTTP.
func TestFuzzOverHTTP(t *testing.T) {
	srv := httptest.NewServer(runner.HTTPHandler(replayFault{}, 1<<20))
	defer srv.Close()
	out := t.TempDir()
	code, stdout, stderr := conform(t, "", "fuzz", "--http", srv.URL, "--op", "selref.replay", "--op", "selref.ingest", "--count", "300", "--seed", "3", "--out", out)
	if code != ExitFailed || !strings.Contains(stdout, "mismatch selref.replay") || strings.Contains(stdout, "selref.ingest (") {
		t.Fatalf("conform fuzz --http = exit %d, want %d and only a selref.replay finding\nstdout:\n%s\nstderr:\n%s", code, ExitFailed, stdout, stderr)
	}
	if code, stdout, _ := conform(t, "", "run", "--vectors", out, "--http", srv.URL); code != ExitFailed {
		t.Errorf("conform run --vectors over HTTP = exit %d, want 1\n%s", code, stdout)
	}
}
