package cli

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/conform-suite/conform/internal/fakeimpl"
	"github.com/conform-suite/conform/internal/schemaset"
	"github.com/conform-suite/conform/vectors"
)

// conform runs the command line in process.
func conform(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Main(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// echoDir writes the fake implementations' echo corpus to a directory.
func echoDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, f := range fakeimpl.Corpus() {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// self is the test binary as a --stdio command; the fake mode comes from the
// environment, which the child inherits.
func self(t *testing.T, mode string) string {
	t.Setenv(fakeimpl.Env, mode)
	return quoteArg(os.Args[0])
}

func quoteArg(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		args   []string
		code   int
		stderr string
	}{
		{nil, ExitUsage, "Usage:"},
		{[]string{"frobnicate"}, ExitUsage, `conform: error: unknown command "frobnicate"`},
		{[]string{"run", "--no-such-flag"}, ExitUsage, "conform: hint: see 'conform run -h'"},
		{[]string{"run", "extra"}, ExitUsage, `conform: error: unexpected argument "extra"`},
		{[]string{"run", "--shard", "3/2"}, ExitUsage, "conform: error: --shard"},
		{[]string{"run", "--id", "[", "--vectors", "."}, ExitUsage, "conform: error: --id"},
		{[]string{"run", "--stdio", "a", "--http", "http://x"}, ExitUsage, "at most one of"},
		// An empty target (an unset variable) would judge the reference.
		{[]string{"run", "--stdio", ""}, ExitUsage, "--stdio was given an empty value"},
		{[]string{"run", "--http= "}, ExitUsage, "--http was given an empty value"},
		{[]string{"features", "--spawn", ""}, ExitUsage, "own reference"},
		{[]string{"doctor", "--stdio", "\t"}, ExitUsage, "--stdio was given an empty value"},
		{[]string{"fuzz", "--oracle", ""}, ExitUsage, "without an oracle, the reference's answers are expected"},
		{[]string{"serve", "--http", ""}, ExitUsage, "--http was given an empty value"},
		{[]string{"run", "--junit", ""}, ExitUsage, "--junit was given an empty value"},
		{[]string{"fuzz", "--out=", "--count", "1"}, ExitUsage, "give --out a value, or leave the flag out"},
		{[]string{"features", "--tags", "not @slow"}, ExitUsage, "is not a tag; write @a,@b"},
		{[]string{"features", "--tags", "@a&&"}, ExitUsage, "--tags \"@a&&\""},
		{[]string{"run", "--stdio", "'unterminated"}, ExitUsage, "unterminated ' quote"},
		{[]string{"run", "--http", "localhost:1"}, ExitUsage, "not an http:// or https:// URL"},
		{[]string{"run", "--vectors", "/no/such/dir"}, ExitUsage, "not a directory"},
		{[]string{"run", "--choice", "novalue"}, ExitUsage, "want NAME=VALUE"},
		{[]string{"run", "--expectations", "/no/such/file"}, ExitUsage, "--expectations"},
		{[]string{"explain"}, ExitUsage, "explain takes one vector id"},
		{[]string{"serve"}, ExitUsage, "give --stdio or --http ADDR"},
		{[]string{"serve", "--stdio", "--http", ":0"}, ExitUsage, "give one of --stdio and --http"},
		{[]string{"run", "--timeout", "-1s"}, ExitUsage, "--timeout -1s: give a positive duration"},
		{[]string{"run", "--timeout", "0s"}, ExitUsage, "--timeout 0s: give a positive duration"},
		{[]string{"features", "--exit-within", "-1s"}, ExitUsage, "--exit-within -1s: give a positive duration"},
		{[]string{"run", "--restarts", "-1"}, ExitUsage, "--restarts -1"},
		{[]string{"run", "--max-line", "0"}, ExitUsage, "--max-line 0"},
		{[]string{"run", "--suite", "qoute"}, ExitUsage, `--suite "qoute": no vector of the corpus is in this suite (suites: marker, quote, selref)`},
		{[]string{"list", "--op", "quote.prase"}, ExitUsage, `--op "quote.prase": no vector of the corpus has this op`},
	}
	for _, tt := range tests {
		code, _, stderr := conform(t, "", tt.args...)
		if code != tt.code || !strings.Contains(stderr, tt.stderr) {
			t.Errorf("conform %q = exit %d, stderr %q; want exit %d, stderr containing %q", tt.args, code, stderr, tt.code, tt.stderr)
		}
	}
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"--help"}, {"run", "-h"}, {"list", "--help"}, {"explain", "-h"}, {"doctor", "-h"}, {"serve", "-h"}} {
		code, stdout, stderr := conform(t, "", args...)
		if code != ExitOK || !strings.Contains(stdout+stderr, "Usage") {
			t.Errorf("conform %q = exit %d, output %q; want exit 0 and a usage text", args, code, stdout+stderr)
		}
	}
	// conform help COMMAND is that command's own help.
	for _, cmd := range []string{"run", "features", "profile", "version"} {
		code, stdout, _ := conform(t, "", "help", cmd)
		if code != ExitOK || !strings.HasPrefix(stdout, "Usage: conform "+cmd+" ") {
			t.Errorf("conform help %s = exit %d, output beginning %.60q; want %s's own help", cmd, code, stdout, cmd)
		}
	}
}

func TestRunFakes(t *testing.T) {
	dir := echoDir(t)
	tests := []struct {
		mode     string
		args     []string
		code     int
		last     string
		contains []string
	}{
		{fakeimpl.Echo, nil, ExitOK, "9 passed, 0 failed", nil},
		{fakeimpl.Wrong, nil, ExitFailed, "8 passed, 1 failed", []string{
			"FAIL        echo.echo/wrong-answer",
			"  requires: PROTO-FRAME-001 (MUST)",
			`  request:  {"id":2,"op":"echo.echo","input":{"text":"b"}}`,
			`    $.text: want "b", got "wrong"`,
		}},
		{fakeimpl.Hang, []string{"--timeout", "2s"}, ExitFailed, "8 passed, 1 failed", []string{"TIMEOUT     echo.echo/hang", "no answer within 2s"}},
		{fakeimpl.NonJSON, []string{"--parallel", "1"}, ExitFailed, "8 passed, 1 failed", []string{"PROTOCOL    echo.echo/garbage"}},
		{fakeimpl.UnknownID, []string{"--parallel", "1"}, ExitFailed, "8 passed, 1 failed", []string{"PROTOCOL    echo.echo/bad-id"}},
		{fakeimpl.HugeLine, []string{"--parallel", "1", "--max-line", "1000000"}, ExitFailed, "8 passed, 1 failed", []string{"PROTOCOL    echo.echo/huge-answer", "longer than the limit of 1000000 bytes"}},
		{fakeimpl.StderrFlood, nil, ExitOK, "9 passed, 0 failed", nil},
		{fakeimpl.Unsupported, nil, ExitFailed, "0 passed, 0 failed, 9 skipped", []string{"outcomes: 9 unsupported", "verdict: failed: nothing was judged"}},
		{fakeimpl.ErrorAnswer, nil, ExitFailed, "8 passed, 1 failed", []string{"ERROR       echo.echo/internal-error"}},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			args := append([]string{"run", "--vectors", dir, "--stdio", self(t, tt.mode)}, tt.args...)
			code, stdout, stderr := conform(t, "", args...)
			if code != tt.code || lastLine(stdout) != tt.last {
				t.Fatalf("conform run (%s) = exit %d, last line %q; want exit %d, %q\nstdout:\n%s\nstderr:\n%s", tt.mode, code, lastLine(stdout), tt.code, tt.last, stdout, stderr)
			}
			for _, want := range tt.contains {
				if !strings.Contains(stdout, want) {
					t.Errorf("conform run (%s) output lacks %q:\n%s", tt.mode, want, stdout)
				}
			}
		})
	}
}

func TestRunCrashRestarts(t *testing.T) {
	dir := echoDir(t)
	t.Setenv(fakeimpl.EnvN, "3")
	t.Setenv(fakeimpl.EnvFile, filepath.Join(t.TempDir(), "crashed"))
	code, stdout, _ := conform(t, "", "run", "--vectors", dir, "--parallel", "1", "--stdio", self(t, fakeimpl.CrashOnce))
	if code != ExitFailed || lastLine(stdout) != "8 passed, 1 failed" || !strings.Contains(stdout, "CRASH       echo.echo/wrong-answer") || !strings.Contains(stdout, "| fake: boom on request 3") {
		t.Errorf("conform run (crash on request 3) = exit %d:\n%s", code, stdout)
	}
}

func TestRunCannotStart(t *testing.T) {
	dir := echoDir(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + ln.Addr().String() + "/"
	ln.Close()
	for _, args := range [][]string{
		{"--stdio", self(t, fakeimpl.ExitAtStart)},
		{"--stdio", filepath.Join(t.TempDir(), "no-such-program")},
		{"--http", refused},
		{"--spawn", filepath.Join(t.TempDir(), "no-such-program")},
	} {
		code, stdout, stderr := conform(t, "", append([]string{"run", "--vectors", dir}, args...)...)
		if code != ExitUsage || !strings.Contains(stderr, "conform: error: cannot start the implementation") {
			t.Errorf("conform run %q = exit %d, stderr %q, stdout %q; want exit 2 and 'cannot start'", args, code, stderr, stdout)
		}
	}
	_, _, stderr := conform(t, "", "run", "--vectors", dir, "--stdio", self(t, fakeimpl.ExitAtStart))
	if !strings.Contains(stderr, "cannot initialise") {
		t.Errorf("the error for a child that exits at start lacks its stderr: %q", stderr)
	}
}

func TestExpectations(t *testing.T) {
	dir := echoDir(t)
	tmp := t.TempDir()
	cmd := self(t, fakeimpl.Wrong)
	written := filepath.Join(tmp, "known.txt")
	code, _, _ := conform(t, "", "run", "--vectors", dir, "--stdio", cmd, "--write-expectations", written)
	if code != ExitFailed {
		t.Fatalf("first run exit %d, want 1", code)
	}
	data, err := os.ReadFile(written)
	if err != nil || !strings.Contains(string(data), "echo.echo/wrong-answer  # fail: $.text") {
		t.Fatalf("written expectations = %q, %v", data, err)
	}
	code, stdout, _ := conform(t, "", "run", "--vectors", dir, "--stdio", cmd, "--expectations", written)
	if code != ExitOK || lastLine(stdout) != "8 passed, 0 failed, 1 skipped" {
		t.Errorf("run with its own expectations = exit %d, %q; want 0", code, lastLine(stdout))
	}
	// The same file against a correct implementation: the entry is an xpass.
	code, stdout, _ = conform(t, "", "run", "--vectors", dir, "--stdio", self(t, fakeimpl.Echo), "--expectations", written)
	if code != ExitFailed || !strings.Contains(stdout, "XPASS       echo.echo/wrong-answer") {
		t.Errorf("run with a fixed vector listed = exit %d:\n%s", code, stdout)
	}
	stale := filepath.Join(tmp, "stale.txt")
	os.WriteFile(stale, []byte("echo.echo/renamed-long-ago  # old name\n"), 0o644)
	code, stdout, _ = conform(t, "", "run", "--vectors", dir, "--stdio", self(t, fakeimpl.Echo), "--expectations", stale)
	// The 9 vectors all pass; the stale entry is no vector: it has its own
	// line and fails the run, but the totals count the corpus only.
	if code != ExitFailed || !strings.Contains(stdout, "STALE       echo.echo/renamed-long-ago") || lastLine(stdout) != "9 passed, 0 failed" ||
		!strings.Contains(stdout, "\nverdict: failed: 1 stale expectation entry (names no vector)\n") {
		t.Errorf("run with a stale entry = exit %d:\n%s", code, stdout)
	}
}

func TestReportFiles(t *testing.T) {
	dir := echoDir(t)
	out := t.TempDir()
	p := func(name string) string { return filepath.Join(out, name) }
	code, _, stderr := conform(t, "", "run", "--vectors", dir, "--stdio", self(t, fakeimpl.Wrong),
		"--json", p("r.json"), "--junit", p("r.xml"), "--tap", p("r.tap"), "--markdown", p("r.md"), "--text", p("r.txt"))
	if code != ExitFailed {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	for name, want := range map[string]string{
		"r.json": `"suite_version"`, "r.xml": `<testsuites name="conform" tests="9" failures="1"`,
		"r.tap": "TAP version 13\n1..9\n", "r.md": "| `echo.echo/wrong-answer` | fail |", "r.txt": "8 passed, 1 failed\n",
	} {
		data, err := os.ReadFile(p(name))
		if err != nil || !strings.Contains(string(data), want) {
			t.Errorf("%s = %q, %v; want it to contain %q", name, data, err, want)
		}
	}
	set, err := schemaset.Load()
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(p("r.json"))
	if err := set.Validate("report.schema.json", "", data); err != nil {
		t.Errorf("r.json does not validate against report.schema.json: %v", err)
	}
}

func TestSelectionFlags(t *testing.T) {
	dir := echoDir(t)
	code, stdout, _ := conform(t, "", "list", "--vectors", dir, "--ids", "--id", "echo.echo/h*")
	if code != ExitOK || stdout != "echo.echo/hang\necho.echo/huge-answer\n" {
		t.Errorf("list --id 'echo.echo/h*' = exit %d, %q", code, stdout)
	}
	var shards []string
	for _, s := range []string{"1/2", "2/2"} {
		_, out, _ := conform(t, "", "list", "--vectors", dir, "--ids", "--shard", s)
		shards = append(shards, out)
	}
	if n := strings.Count(shards[0], "\n") + strings.Count(shards[1], "\n"); n != 9 || shards[0] == shards[1] {
		t.Errorf("shards 1/2 and 2/2 = %q and %q, want 9 distinct vectors in all", shards[0], shards[1])
	}
	code, stdout, _ = conform(t, "", "run", "--vectors", dir, "--stdio", self(t, fakeimpl.Wrong), "--op", "echo.echo", "--id", "*/plain", "--id", "*/astral")
	if code != ExitOK || lastLine(stdout) != "2 passed, 0 failed" {
		t.Errorf("run with two --id = exit %d, %q", code, lastLine(stdout))
	}
	// Each flag selects something, together nothing.
	code, _, stderr := conform(t, "", "run", "--suite", "marker", "--op", "quote.parse")
	if code != ExitUsage || !strings.Contains(stderr, "no vectors to run") {
		t.Errorf("run with an empty selection = exit %d, %q; want 2", code, stderr)
	}
}

func TestExplain(t *testing.T) {
	dir := echoDir(t)
	code, stdout, _ := conform(t, "", "explain", "--vectors", dir, "echo.echo/astral")
	for _, want := range []string{
		"vector:      echo.echo/astral",
		"PROTO-FRAME-001 (MUST, spec/protocol.md:",
		"request line (send it to the implementation on one line of stdin):\n" + `{"id":1,"op":"echo.echo","input":{"text":"😀 and 中"}}` + "\n",
	} {
		if code != ExitOK || !strings.Contains(stdout, want) {
			t.Errorf("explain = exit %d, output lacks %q:\n%s", code, want, stdout)
		}
	}
	code, _, stderr := conform(t, "", "explain", "--vectors", dir, "astral")
	if code != ExitUsage || !strings.Contains(stderr, "did you mean echo.echo/astral?") {
		t.Errorf("explain astral = exit %d, stderr %q; want 2 and a hint", code, stderr)
	}
}

// TestServeStdioAndDoctor runs 'conform serve --stdio' as a child of
// 'conform run' and 'conform doctor'.
func TestServeStdioAndDoctor(t *testing.T) {
	t.Setenv(mainEnv, "1")
	serve := quoteArg(os.Args[0]) + " serve --stdio"
	dir := echoDir(t)
	// The reference does not offer echo.echo: every vector is unsupported,
	// nothing is judged and the run fails.
	code, stdout, stderr := conform(t, "", "run", "--vectors", dir, "--stdio", serve)
	if code != ExitFailed || lastLine(stdout) != "0 passed, 0 failed, 9 skipped" || !strings.Contains(stdout, "implementation: conform-reference") || !strings.Contains(stderr, "nothing was judged") {
		t.Errorf("run of echo vectors against serve --stdio = exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr = conform(t, "", "run", "--op", "selref.replay", "--stdio", serve, "--require-ops", "--require-codes")
	if code != ExitOK || !strings.HasSuffix(lastLine(stdout), " passed, 0 failed") {
		t.Errorf("run of selref.replay against serve --stdio = exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, stderr = conform(t, "", "doctor", "--vectors", dir, "--pings", "20", "--stdio", serve)
	if code != ExitOK || !strings.Contains(stdout, "ok   hello: conform-reference") || !strings.Contains(stdout, "ok   unknown op") || !strings.Contains(stdout, "time per request") {
		t.Errorf("doctor against serve --stdio = exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, _ = conform(t, "", "doctor", "--vectors", dir, "--pings", "0", "--stdio", self(t, fakeimpl.Wrong))
	if code != ExitOK {
		t.Errorf("doctor against a wrong but well-formed implementation = exit %d\n%s", code, stdout)
	}
}

func TestServeStdioInProcess(t *testing.T) {
	in := `{"id":1,"op":"hello","input":{"protocol":1}}` + "\n" + `{"id":"x","op":"conform.nope","input":{}}` + "\n"
	code, stdout, _ := conform(t, in, "serve", "--stdio")
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if code != ExitOK || len(lines) != 2 || !strings.HasPrefix(lines[0], `{"id":1,"output":{"protocol":1,`) || !strings.Contains(lines[1], `"kind":"unsupported"`) {
		t.Errorf("serve --stdio = exit %d, %q", code, stdout)
	}
}

func TestLoopbackAddr(t *testing.T) {
	for in, want := range map[string]string{":8080": "127.0.0.1:8080", "[]:8080": "127.0.0.1:8080", "8080": "127.0.0.1:8080", "0.0.0.0:80": "0.0.0.0:80", "[::1]:9": "[::1]:9", "localhost:1": "localhost:1"} {
		if got, err := loopbackAddr(in); got != want || err != nil {
			t.Errorf("loopbackAddr(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"127.0.0.1:", "[::1", "a:b:c"} {
		if got, err := loopbackAddr(in); err == nil {
			t.Errorf("loopbackAddr(%q) = %q, want an error", in, got)
		}
	}
	// A URL where an address belongs: the error gives the address.
	if _, err := loopbackAddr("http://127.0.0.1:8080/"); err == nil || err.Error() != "give the address to listen on (127.0.0.1:8080), not a http:// URL" {
		t.Errorf("loopbackAddr of a URL: %v", err)
	}
}

func TestSplitCommand(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"python3 adapter.py", []string{"python3", "adapter.py"}},
		{"  a   b  ", []string{"a", "b"}},
		{`a "b c" 'd e'`, []string{"a", "b c", "d e"}},
		{`a 'it'\''s'`, []string{"a", "it's"}},
		{`a\ b`, []string{"a b"}},
		{`a ""`, []string{"a", ""}},
		{`node "x\"y"`, []string{"node", `x"y`}},
	}
	for _, tt := range tests {
		got, err := splitCommand(tt.in)
		if err != nil || strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
			t.Errorf("splitCommand(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "   ", `a "b`, `a 'b`, `a\`} {
		if _, err := splitCommand(bad); err == nil {
			t.Errorf("splitCommand(%q) = nil error, want one", bad)
		}
	}
}

// TestExplainRecordedAndErrorVectors: explain shows what a vector expecting
// a protocol error expects, and every answer a real system is recorded to
// give, taken from the embedded corpus itself.
func TestExplainRecordedAndErrorVectors(t *testing.T) {
	corpus, err := vectors.Load(vectors.FS())
	if err != nil {
		t.Fatal(err)
	}
	var errVec, recVec *vectors.Vector
	for _, v := range corpus.Vectors() {
		if errVec == nil && v.Expect.Error != nil {
			errVec = v
		}
		if recVec == nil && len(v.Divergences) > 0 {
			recVec = v
		}
	}
	if errVec == nil || recVec == nil {
		t.Fatal("the corpus has no vector expecting an error, or none recording a divergence")
	}
	code, out, _ := conform(t, "", "explain", errVec.ID)
	if want := "expected answer: a protocol error of kind " + errVec.Expect.Error.Kind; code != ExitOK || !strings.Contains(out, want) {
		t.Errorf("explain %s = exit %d, output lacks %q:\n%s", errVec.ID, code, want, out)
	}
	code, out, _ = conform(t, "", "explain", recVec.ID)
	for _, d := range recVec.Divergences {
		if want := "recorded answer of " + d.System + " (graded under --profile " + d.System + "): " + d.Reason; code != ExitOK || !strings.Contains(out, want) {
			t.Errorf("explain %s = exit %d, output lacks %q:\n%s", recVec.ID, code, want, out)
		}
	}
}
