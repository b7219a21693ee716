package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/conform-suite/conform/fuzz"
	"github.com/conform-suite/conform/internal/await"
	"github.com/conform-suite/conform/internal/fakeimpl"
	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/reference"
	"github.com/conform-suite/conform/runner"
)

// fuzzFaultEnv makes the test binary, run with -test.run of
// TestFuzzFaultyHelper, serve the reference with one fault over stdio.
const fuzzFaultEnv = "CONFORM_TEST_FUZZ_FAULT"

// replayFault is the reference except that selref.replay appends a space to
// its text.
type replayFault struct{}

func (replayFault) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	resp, err := reference.InProcess{}.Call(ctx, req)
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

// sendTurnLiar is the reference except for the refusals of
// quote.send_turn: those with a code of swap get the code it maps to, and
// with random set every one gets a code made up for the occasion.
type sendTurnLiar struct {
	swap   map[string]string
	random bool
}

func (l sendTurnLiar) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	resp, err := reference.InProcess{}.Call(ctx, req)
	if err != nil || req.Op != "quote.send_turn" || resp.Output == nil {
		return resp, err
	}
	var out struct {
		Rejected *struct{ Code string }
	}
	if json.Unmarshal(resp.Output, &out) != nil || out.Rejected == nil {
		return resp, nil
	}
	code, ok := l.swap[out.Rejected.Code]
	if l.random {
		code, ok = fmt.Sprintf("LIAR_%08X", rand.Uint32()), true
	}
	if ok {
		resp.Output, _ = json.Marshal(map[string]map[string]string{"rejected": {"code": code}})
	}
	return resp, nil
}

func (sendTurnLiar) Close() error { return nil }

// fuzzFaults are the faulty implementations TestFuzzFaultyHelper serves, by
// the value of fuzzFaultEnv.
var fuzzFaults = map[string]runner.Implementation{
	"1": replayFault{},
	// quote.send_turn refuses an empty input with the code of an over-long
	// one, or the reverse (two faults of one op).
	"empty-as-too-long": sendTurnLiar{swap: map[string]string{"QUOTE_INPUT_EMPTY": "QUOTE_INPUT_TOO_LONG"}},
	"too-long-as-empty": sendTurnLiar{swap: map[string]string{"QUOTE_INPUT_TOO_LONG": "QUOTE_INPUT_EMPTY"}},
	"random-code":       sendTurnLiar{random: true},
	"all-unsupported":   allUnsupported{},
	"hang-normalize":    hangNormalize{},
}

// hangEnv names the pipe hangNormalize writes to as it begins to hang.
const hangEnv = "CONFORM_TEST_HANG_PIPE"

// hangNormalize is the reference, except that it never answers
// quote.normalize: it writes to the pipe hangEnv names and waits forever.
type hangNormalize struct{}

func (hangNormalize) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	if req.Op == "quote.normalize" {
		if f, err := os.OpenFile(os.Getenv(hangEnv), os.O_WRONLY, 0); err == nil {
			f.Write([]byte("hanging\n"))
			f.Close()
		}
		select {}
	}
	return reference.InProcess{}.Call(ctx, req)
}

func (hangNormalize) Close() error { return nil }

// allUnsupported lists every op in its hello and answers each as
// unsupported.
type allUnsupported struct{}

func (allUnsupported) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	if req.Op == "hello" {
		return reference.InProcess{}.Call(ctx, req)
	}
	return protocol.Response{ID: req.ID, Error: &protocol.Error{Kind: "unsupported", Message: "not here"}}, nil
}

func (allUnsupported) Close() error { return nil }

// TestFuzzFaultyHelper is not a test: with fuzzFaultEnv set it is the
// faulty implementation of the fuzz tests that name it.
func TestFuzzFaultyHelper(t *testing.T) {
	if os.Getenv(fuzzFaultEnv) == "" {
		t.Skip("helper process for TestFuzzFindsAndReplays")
	}
	impl, ok := fuzzFaults[os.Getenv(fuzzFaultEnv)]
	if !ok {
		os.Exit(3)
	}
	protocol.ServeStdio(context.Background(), impl, os.Stdin, os.Stdout, 0)
	os.Exit(0)
}

// faultyCommand returns the --stdio command of the faulty implementation
// named fault.
func faultyCommand(t *testing.T, fault string) string {
	t.Setenv(fuzzFaultEnv, fault)
	return quoteArg(os.Args[0]) + " -test.run=^TestFuzzFaultyHelper$"
}

func TestFuzzUsageErrors(t *testing.T) {
	tests := []struct {
		args   []string
		stderr string
	}{
		{[]string{"fuzz", "--no-such-flag"}, "conform: hint: see 'conform fuzz -h'"},
		{[]string{"fuzz", "extra"}, `conform: error: unexpected argument "extra"`},
		{[]string{"fuzz", "--count", "-1"}, "conform: error: --time, --count and --parallel take non-negative"},
		{[]string{"fuzz", "--parallel", "-1"}, "conform: error: --time, --count and --parallel take non-negative"},
		{[]string{"fuzz", "--shrink", "0"}, "--timeout and --shrink positive ones"},
		{[]string{"fuzz", "--out", ""}, "conform: error: --out"},
		{[]string{"fuzz", "--stdio", "a", "--http", "http://x"}, "at most one of"},
		{[]string{"fuzz", "--count", "5", "--op", "quote.nothing"}, `the oracle does not answer op "quote.nothing"`},
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
	srv := httptest.NewServer(protocol.ServeOptions{MaxBody: 1 << 20}.Handler(replayFault{}))
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

// sendTurnFindings returns the reference codes of the quote.send_turn
// vector files under dir, one per file.
func sendTurnFindings(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "quote", "quote.send_turn-fuzz-*.json"))
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		i := strings.Index(string(data), `"code": "`)
		if i < 0 {
			t.Fatalf("%s: no expected refusal code:\n%s", name, data)
		}
		code, _, _ := strings.Cut(string(data[i+len(`"code": "`):]), `"`)
		codes = append(codes, code)
	}
	slices.Sort(codes)
	return codes
}

// TestFuzzTwoWrongCodeFaults fuzzes one wrong-code fault of quote.send_turn
// and then another into the same directory: the second is written as a
// finding of its own, not reported as already there.
func TestFuzzTwoWrongCodeFaults(t *testing.T) {
	out := t.TempDir()
	args := []string{"fuzz", "--op", "quote.send_turn", "--count", "300", "--seed", "1", "--shrink", "300", "--out", out}
	first := faultyCommand(t, "empty-as-too-long")
	code, stdout, stderr := conform(t, "", append(args, "--stdio", first)...)
	if code != ExitFailed || !strings.Contains(stdout, "1 vector file written") {
		t.Fatalf("first fault: exit %d, want %d and one file written\nstdout:\n%s\nstderr:\n%s", code, ExitFailed, stdout, stderr)
	}
	second := faultyCommand(t, "too-long-as-empty")
	code, stdout, stderr = conform(t, "", append(args, "--stdio", second)...)
	if code != ExitFailed || !strings.Contains(stdout, "1 vector file written") || !strings.Contains(stdout, "0 already there") {
		t.Fatalf("second fault: exit %d, want %d, one file written and none already there\nstdout:\n%s\nstderr:\n%s", code, ExitFailed, stdout, stderr)
	}
	if got, want := sendTurnFindings(t, out), []string{"QUOTE_INPUT_EMPTY", "QUOTE_INPUT_TOO_LONG"}; !slices.Equal(got, want) {
		t.Errorf("files for the reference codes %v, want %v", got, want)
	}
	if code, stdout, _ := conform(t, "", "run", "--vectors", out); code != ExitOK {
		t.Errorf("conform run --vectors on the reference = exit %d, want 0\n%s", code, stdout)
	}
	for _, cmd := range []string{first, second} {
		code, stdout, _ := conform(t, "", "run", "--vectors", out, "--stdio", cmd)
		if code != ExitFailed || !strings.Contains(stdout, "1 failed") {
			t.Errorf("conform run --vectors --stdio %s = exit %d, want %d and one failure\n%s", cmd, code, ExitFailed, stdout)
		}
	}
}

// TestFuzzRandomCodeLiar fuzzes an implementation that answers every
// refusal of quote.send_turn with a random code: at most one file per code
// it answered, for 8 codes and one for any other (fuzz's maxCodes),
// however many runs diverge.
func TestFuzzRandomCodeLiar(t *testing.T) {
	out := t.TempDir()
	liar := faultyCommand(t, "random-code")
	code, stdout, stderr := conform(t, "", "fuzz", "--stdio", liar, "--op", "quote.send_turn", "--count", "300", "--seed", "4", "--shrink", "200", "--out", out)
	if code != ExitFailed {
		t.Fatalf("conform fuzz = exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, ExitFailed, stdout, stderr)
	}
	codes := sendTurnFindings(t, out)
	if len(codes) == 0 || len(codes) > 9 || strings.Count(stdout, "answered rejected:another code") > 1 {
		t.Errorf("%d files (reference codes %v): want at most 9, one for each of 8 codes the liar answered and one for the others\n%s", len(codes), codes, stdout)
	}
	if code, stdout, _ := conform(t, "", "run", "--vectors", out, "--stdio", liar); code != ExitFailed {
		t.Errorf("conform run --vectors on the liar = exit %d, want %d\n%s", code, ExitFailed, stdout)
	}
	if code, stdout, _ := conform(t, "", "run", "--vectors", out); code != ExitOK {
		t.Errorf("conform run --vectors on the reference = exit %d, want 0\n%s", code, stdout)
	}
}

// shellWords runs line through sh with conform defined as a function that
// prints its arguments, and returns them.
func shellWords(t *testing.T, line string) []string {
	t.Helper()
	cmd := exec.Command("sh", "-c", `conform() { printf '%s\0' "$@"; }; `+line)
	cmd.Dir = t.TempDir()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("sh -c %q: %v", line, err)
	}
	if left, _ := os.ReadDir(cmd.Dir); len(left) > 0 {
		t.Errorf("sh -c %q left %s behind: a word was run as a command", line, left[0].Name())
	}
	return strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
}

func TestFuzzShellArgRoundTrips(t *testing.T) {
	for _, s := range []string{"plain", "", "two words", "it's", `say "hi"`, "$(touch /tmp/x)", "`id`", "a;b&c|d", "*?[x]", "~user",
		"tab\there", "new\nline", `back\slash`, "-flag", "é 😀", "$HOME", "'", "''", `\'`, "!x", "#c", "a=b", "{a,b}"} {
		if got := shellWords(t, "conform "+shellQuote(s)); len(got) != 1 || got[0] != s {
			t.Errorf("shellQuote(%q) = %s reads back as %q", s, shellQuote(s), got)
		}
	}
}

// TestFuzzReplayLineIsQuoted fuzzes through a command and into a directory
// whose names hold spaces, quotes and $(): the printed replay line, run by
// sh, gives back exactly the directory and the command, and replays.
func TestFuzzReplayLineIsQuoted(t *testing.T) {
	tricky := filepath.Join(t.TempDir(), `it's "a" $(touch pwned) dir`)
	if err := os.Mkdir(tricky, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(tricky, "the $(helper) 'bin'")
	if err := os.Symlink(os.Args[0], bin); err != nil {
		t.Fatal(err)
	}
	t.Setenv(fuzzFaultEnv, "1")
	cmd := quoteArg(bin) + ` "-test.run=^TestFuzzFaultyHelper$"`
	out := filepath.Join(tricky, "find ings")
	code, stdout, stderr := conform(t, "", "fuzz", "--stdio", cmd, "--op", "selref.replay", "--count", "200", "--seed", "2", "--out", out)
	if code != ExitFailed {
		t.Fatalf("conform fuzz = exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, ExitFailed, stdout, stderr)
	}
	i := strings.Index(stdout, "\nreplay: ")
	if i < 0 {
		t.Fatalf("no replay line:\n%s", stdout)
	}
	line, _, _ := strings.Cut(stdout[i+len("\nreplay: "):], "\n")
	got := shellWords(t, line)
	if want := []string{"run", "--vectors", out, "--stdio", cmd}; !slices.Equal(got, want) {
		t.Fatalf("replay line %s reads back as %q, want %q", line, got, want)
	}
	if code, stdout, _ := conform(t, "", got...); code != ExitFailed {
		t.Errorf("the replay line's command = exit %d, want %d\n%s", code, ExitFailed, stdout)
	}
}

// TestFuzzJudgedNothingFails: an implementation that answers every op as
// unsupported, though its hello lists them, is not a pass.
func TestFuzzJudgedNothingFails(t *testing.T) {
	code, stdout, stderr := conform(t, "", "fuzz", "--stdio", faultyCommand(t, "all-unsupported"), "--count", "50", "--seed", "1", "--out", t.TempDir())
	if code != ExitFailed || !strings.Contains(stderr, "no input was judged") {
		t.Errorf("conform fuzz = exit %d, want %d and 'no input was judged'\nstdout:\n%s\nstderr:\n%s", code, ExitFailed, stdout, stderr)
	}
}

// TestFuzzInterruptedFails: a fuzz run stopped by Ctrl-C (or SIGTERM, or
// SIGHUP) did not make the run asked for, so even when it found nothing it
// is no passing verdict. The signal is sent once the run has said that
// fuzzing began (its first progress line), so it is caught by the run, not
// by start-up.
func TestFuzzInterruptedFails(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			serve := "env " + mainEnv + "=1 " + quoteArg(os.Args[0]) + " serve --stdio"
			cmd := exec.Command(os.Args[0], "fuzz", "--stdio", serve, "--time", "10m", "--op", "quote.normalize", "--out", t.TempDir())
			cmd.Env = append(os.Environ(), mainEnv+"=1")
			var stdout strings.Builder
			cmd.Stdout = &stdout
			stderrPipe, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			stderr, began, rest := await.Line(stderrPipe, "conform: fuzz: ")
			if !began {
				cmd.Wait()
				t.Fatalf("the fuzz run ended without saying that fuzzing began; stderr %q", stderr)
			}
			cmd.Process.Signal(sig)
			tail, _ := io.ReadAll(rest)
			cmd.Wait()
			all := stderr + string(tail)
			if code := cmd.ProcessState.ExitCode(); code != ExitFailed || !strings.Contains(all, "interrupted after") {
				t.Fatalf("a fuzz run stopped by %v = exit %d, stderr %q, stdout %q; want exit 1 saying it was interrupted", sig, code, all, stdout.String())
			}
		})
	}
}

// distinctFound is a progress line of conform fuzz that counts a finding.
var distinctFound = regexp.MustCompile(`\([1-9][0-9]* distinct\)`)

// TestFuzzStoppedKeepsFindings: a fuzz run stopped by a signal after it
// found a divergence writes that finding as a vector file, whichever of the
// stopping signals it got. The signal is sent once a progress line counts
// the finding.
func TestFuzzStoppedKeepsFindings(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			faulty := "env -u " + mainEnv + " " + fuzzFaultEnv + "=1 " + quoteArg(os.Args[0]) + " -test.run=^TestFuzzFaultyHelper$"
			out := t.TempDir()
			cmd := exec.Command(os.Args[0], "fuzz", "--stdio", faulty, "--op", "selref.replay", "--time", "10m", "--seed", "2", "--out", out)
			cmd.Env = append(os.Environ(), mainEnv+"=1")
			var stdout strings.Builder
			cmd.Stdout = &stdout
			stderrPipe, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			var read strings.Builder
			br := bufio.NewReader(stderrPipe)
			for {
				line, err := br.ReadString('\n')
				read.WriteString(line)
				if distinctFound.MatchString(line) {
					break
				}
				if err != nil {
					cmd.Wait()
					t.Fatalf("the fuzz run ended before it counted a finding; stderr %q", read.String())
				}
			}
			cmd.Process.Signal(sig)
			io.Copy(io.Discard, br)
			cmd.Wait()
			files, _ := filepath.Glob(filepath.Join(out, "selref", "*.json"))
			if code := cmd.ProcessState.ExitCode(); code != ExitFailed || len(files) == 0 {
				t.Errorf("a fuzz run stopped by %v after a finding = exit %d, %d vector files; want exit 1 and the finding written\nstdout:\n%s", sig, code, len(files), stdout.String())
			}
		})
	}
}

// TestFuzzEnvelopesFindsNullID fuzzes the envelopes of a port whose typed
// envelope decoder answers every wrong envelope with id null: the run
// exits 1 with envelope findings, each written as a feature file that
// 'conform features --dir' runs, failing on the port and passing on the
// reference.
func TestFuzzEnvelopesFindsNullID(t *testing.T) {
	port := self(t, fakeimpl.EnvelopeNullID)
	out := t.TempDir()
	code, stdout, stderr := conform(t, "", "fuzz", "--envelopes", "--stdio", port, "--count", "300", "--seed", "3", "--out", out)
	if code != ExitFailed || !strings.Contains(stdout, "envelope no op: the id null") || !strings.Contains(stdout, "replay: conform features --dir") {
		t.Fatalf("conform fuzz --envelopes = exit %d, want %d and a finding of the id null\nstdout:\n%s\nstderr:\n%s", code, ExitFailed, stdout, stderr)
	}
	files, _ := filepath.Glob(filepath.Join(out, "envelope", "*.feature"))
	if len(files) == 0 {
		t.Fatalf("no feature file written:\n%s", stdout)
	}
	// The same seed writes the same scenarios again, kept as they are.
	if code, again, _ := conform(t, "", "fuzz", "--envelopes", "--stdio", port, "--count", "300", "--seed", "3", "--out", out); code != ExitFailed || strings.Count(again, "scenario:") != len(files) {
		t.Errorf("a second run = exit %d, %d scenarios, want %d:\n%s", code, strings.Count(again, "scenario:"), len(files), again)
	}
	if after, _ := filepath.Glob(filepath.Join(out, "envelope", "*.feature")); len(after) != len(files) {
		t.Errorf("a second run wrote %d files, want the %d kept", len(after), len(files))
	}
	code, stdout, stderr = conform(t, "", "features", "--dir", out, "--stdio", port, "--format", "progress")
	if code != ExitFailed {
		t.Errorf("conform features --dir on the port = exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, ExitFailed, stdout, stderr)
	}
	code, stdout, stderr = conform(t, "", "features", "--dir", out, "--format", "progress")
	if code != ExitOK {
		t.Errorf("conform features --dir on the reference = exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, ExitOK, stdout, stderr)
	}
	// Every scenario fails on the port: each is a finding of its own.
	for _, f := range files {
		if code, stdout, _ := conform(t, "", "features", "--dir", out, "--stdio", port, "--format", "progress", filepath.Join("envelope", filepath.Base(f))); code != ExitFailed {
			t.Errorf("%s passes on the port (exit %d):\n%s", f, code, stdout)
		}
	}
}
