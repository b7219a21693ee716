package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/conform-suite/conform/internal/await"
	"github.com/conform-suite/conform/internal/fakeimpl"
	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/reference"
	"github.com/conform-suite/conform/vectors"
)

// codelessEnv makes the test binary a liar: it proxies the reference over
// stdio but strips the code from every refusal it answers.
const codelessEnv = "CONFORM_TEST_CODELESS"

// codeless is the reference with the code of every refusal removed.
type codeless struct{ reference.InProcess }

func (c codeless) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	resp, err := c.InProcess.Call(ctx, req)
	if err != nil || resp.Output == nil {
		return resp, err
	}
	var out map[string]json.RawMessage
	if json.Unmarshal(resp.Output, &out) != nil {
		return resp, nil
	}
	for _, key := range []string{"rejected", "dropped"} {
		var ref map[string]json.RawMessage
		if json.Unmarshal(out[key], &ref) == nil && ref != nil {
			delete(ref, "code")
			out[key], _ = json.Marshal(ref)
		}
	}
	resp.Output, _ = json.Marshal(out)
	return resp, nil
}

func serveCodeless() int {
	if err := protocol.ServeStdio(context.Background(), codeless{}, os.Stdin, os.Stdout, protocol.DefaultMaxLine); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// junitTotals parses a JUnit report and checks that its totals match its
// test cases: tests, failures, errors and skipped, at both levels.
func junitTotals(t *testing.T, data []byte) (tests, failures, errors, skipped int) {
	t.Helper()
	type tc struct {
		Name    string    `xml:"name,attr"`
		Failure *struct{} `xml:"failure"`
		Error   *struct{} `xml:"error"`
		Skipped *struct{} `xml:"skipped"`
	}
	type suite struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Errors   int    `xml:"errors,attr"`
		Skipped  int    `xml:"skipped,attr"`
		Cases    []tc   `xml:"testcase"`
	}
	var doc struct {
		XMLName xml.Name `xml:"testsuites"`
		Tests   int      `xml:"tests,attr"`
		Fail    int      `xml:"failures,attr"`
		Errs    int      `xml:"errors,attr"`
		Skip    int      `xml:"skipped,attr"`
		Suites  []suite  `xml:"testsuite"`
	}
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("the JUnit report is not XML: %v\n%s", err, data)
	}
	for _, s := range doc.Suites {
		var n, f, e, sk int
		for _, c := range s.Cases {
			n++
			switch {
			case c.Failure != nil:
				f++
			case c.Error != nil:
				e++
			case c.Skipped != nil:
				sk++
			}
		}
		if n != s.Tests || f != s.Failures || e != s.Errors || sk != s.Skipped {
			t.Errorf("JUnit suite %s says tests=%d failures=%d errors=%d skipped=%d; its cases hold %d, %d, %d, %d", s.Name, s.Tests, s.Failures, s.Errors, s.Skipped, n, f, e, sk)
		}
		tests, failures, errors, skipped = tests+n, failures+f, errors+e, skipped+sk
	}
	if tests != doc.Tests || failures != doc.Fail || errors != doc.Errs || skipped != doc.Skip {
		t.Errorf("JUnit testsuites says tests=%d failures=%d errors=%d skipped=%d; its cases hold %d, %d, %d, %d", doc.Tests, doc.Fail, doc.Errs, doc.Skip, tests, failures, errors, skipped)
	}
	return tests, failures, errors, skipped
}

// jsonReport is a JSON report as the CLI's tests read it: the document as
// written, read independently of report.ReadJSON.
type jsonReport struct {
	Profile string
	Totals  struct {
		Total, Passed, Failed, Skipped, Interrupted, Codeless int
	}
	Verdict struct {
		Passed   bool
		Problems []string
	}
	Results []struct {
		ID, Op, Outcome, Detail, Codeless string
		Required                          bool
		Requirements                      []string
		Recorded                          *struct{ System, Reason string }
	}
	CodelessRefusals []struct{ ID, Outcome, Member, Code string } `json:"codeless_refusals"`
}

func readJSONReport(t *testing.T, path string) jsonReport {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r jsonReport
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return r
}

// TestLiarEmptyHello: an implementation whose hello offers no op is judged
// on nothing; that is no pass.
func TestLiarEmptyHello(t *testing.T) {
	dir := echoDir(t)
	out := t.TempDir()
	p := func(name string) string { return filepath.Join(out, name) }
	code, stdout, stderr := conform(t, "", "run", "--vectors", dir, "--stdio", self(t, fakeimpl.Unsupported),
		"--junit", p("a.xml"), "--json", p("a.json"), "--tap", p("a.tap"), "--markdown", p("a.md"))
	if code != ExitFailed || lastLine(stdout) != "0 passed, 0 failed, 9 skipped" ||
		!strings.Contains(stderr, "conform: error: nothing was judged: none of the 9 vectors passed or failed (9 unsupported); the implementation's hello lists no op") {
		t.Errorf("run against an empty hello = exit %d, last line %q, stderr %q; want exit 1, 9 skipped, nothing judged", code, lastLine(stdout), stderr)
	}
	if !strings.Contains(stdout, "verdict: failed: nothing was judged") {
		t.Errorf("the text report does not say nothing was judged:\n%s", stdout)
	}
	data, _ := os.ReadFile(p("a.xml"))
	if n, f, e, s := junitTotals(t, data); n != 10 || f != 1 || e != 0 || s != 9 {
		t.Errorf("JUnit totals = %d tests, %d failures, %d errors, %d skipped; want 10, 1 (the verdict), 0, 9", n, f, e, s)
	}
	r := readJSONReport(t, p("a.json"))
	if r.Verdict.Passed || len(r.Verdict.Problems) != 1 || r.Totals.Passed != 0 || r.Totals.Skipped != 9 || r.Totals.Failed != 0 {
		t.Errorf("JSON report verdict %+v, totals %+v", r.Verdict, r.Totals)
	}
	tap, _ := os.ReadFile(p("a.tap"))
	if !strings.Contains(string(tap), "1..10\n") || strings.Count(string(tap), "# SKIP unsupported\n") != 9 || !strings.Contains(string(tap), "not ok 10 - conform: nothing was judged") {
		t.Errorf("TAP report:\n%s", tap)
	}
	md, _ := os.ReadFile(p("a.md"))
	if !strings.HasPrefix(string(md), "## conform: failed\n") || !strings.Contains(string(md), "**Failed: nothing was judged") {
		t.Errorf("Markdown report:\n%s", md)
	}

	// --require-ops: every vector fails, as unsupported (the text report
	// gives the op one line).
	code, stdout, _ = conform(t, "", "run", "--vectors", dir, "--stdio", self(t, fakeimpl.Unsupported), "--require-ops", "--junit", p("b.xml"), "--json", p("b.json"))
	if code != ExitFailed || lastLine(stdout) != "0 passed, 9 failed" || !strings.Contains(stdout, "UNSUPPORTED echo.echo: 9 vectors, the op is not listed in hello; failed under --require-ops\n") {
		t.Errorf("run --require-ops against an empty hello = exit %d\n%s", code, stdout)
	}
	data, _ = os.ReadFile(p("b.xml"))
	if n, f, e, s := junitTotals(t, data); n != 9 || f != 9 || e != 0 || s != 0 {
		t.Errorf("JUnit totals under --require-ops = %d tests, %d failures, %d errors, %d skipped; want 9, 9, 0, 0", n, f, e, s)
	}
	r = readJSONReport(t, p("b.json"))
	for _, res := range r.Results {
		if res.Outcome != "unsupported" || !res.Required {
			t.Errorf("--require-ops: %s = %s (required %v), want unsupported and required", res.ID, res.Outcome, res.Required)
		}
	}
	// --require-ops=OP names the ops; a name the corpus lacks is bad usage.
	code, stdout, _ = conform(t, "", "run", "--vectors", dir, "--stdio", self(t, fakeimpl.Unsupported), "--require-ops=echo.echo")
	if code != ExitFailed || lastLine(stdout) != "0 passed, 9 failed" {
		t.Errorf("run --require-ops=echo.echo = exit %d, %q", code, lastLine(stdout))
	}
	code, _, stderr = conform(t, "", "run", "--vectors", dir, "--stdio", self(t, fakeimpl.Unsupported), "--require-ops=echo.ehco")
	if code != ExitUsage || !strings.Contains(stderr, `--require-ops="echo.ehco": no vector of the corpus`) {
		t.Errorf("run --require-ops=echo.ehco = exit %d, %q; want 2", code, stderr)
	}
	// A correct implementation offering every op passes the gate.
	code, stdout, _ = conform(t, "", "run", "--vectors", dir, "--stdio", self(t, fakeimpl.Echo), "--require-ops", "--require-codes")
	if code != ExitOK || lastLine(stdout) != "9 passed, 0 failed" {
		t.Errorf("gate against a correct implementation = exit %d, %q", code, lastLine(stdout))
	}
}

// TestLiarEmptyHelloWholeCorpus is the empty hello against the embedded
// corpus: every vector is skipped and the run fails.
func TestLiarEmptyHelloWholeCorpus(t *testing.T) {
	corpus, err := vectors.Load(vectors.FS())
	if err != nil {
		t.Fatal(err)
	}
	n := len(corpus.Vectors())
	code, stdout, stderr := conform(t, "", "run", "--stdio", self(t, fakeimpl.Unsupported))
	if want := fmt.Sprintf("0 passed, 0 failed, %d skipped", n); code != ExitFailed || lastLine(stdout) != want || !strings.Contains(stderr, "nothing was judged") {
		t.Errorf("run of the corpus against an empty hello = exit %d, %q, stderr %q; want exit 1, %q", code, lastLine(stdout), stderr, want)
	}
}

// refusalsWithCode counts the corpus's vectors whose expected output is a
// refusal carrying a code.
func refusalsWithCode(t *testing.T) int {
	corpus, err := vectors.Load(vectors.FS())
	if err != nil {
		t.Fatal(err)
	}
	has := func(out json.RawMessage) bool {
		var o map[string]map[string]any
		json.Unmarshal(out, &o)
		return o["rejected"]["code"] != nil || o["dropped"]["code"] != nil
	}
	n := 0
	for _, v := range corpus.Vectors() {
		if v.Expect.Output != nil && has(v.Expect.Output) {
			n++
		}
		for _, out := range v.Expect.Outputs {
			if has(out) {
				t.Fatalf("%s: a refusal keyed by a choice; count it by the reference's choice", v.ID)
			}
		}
	}
	if n == 0 {
		t.Fatal("the corpus has no refusal with a code")
	}
	return n
}

// TestLiarCodeless: a proxy of the reference that strips every refusal's
// code passes by default (PROTO-REJECT-002's MAY), every report counts and
// lists its refusals, and --require-codes fails them.
func TestLiarCodeless(t *testing.T) {
	want := refusalsWithCode(t)
	t.Setenv(codelessEnv, "1")
	liar := quoteArg(os.Args[0])
	out := t.TempDir()
	p := func(name string) string { return filepath.Join(out, name) }
	code, stdout, stderr := conform(t, "", "run", "--stdio", liar, "--json", p("a.json"), "--junit", p("a.xml"), "--tap", p("a.tap"), "--markdown", p("a.md"))
	line := fmt.Sprintf("%d refusals passed without a code", want)
	if code != ExitOK || !strings.Contains(stdout, "codes: "+line) || !strings.Contains(stdout, "CODELESS    refusals without the code") {
		t.Fatalf("run against the codeless proxy = exit %d, want 0 and %q\n%s\n%s", code, line, stdout[max(0, len(stdout)-2000):], stderr)
	}
	r := readJSONReport(t, p("a.json"))
	if r.Totals.Codeless != want || len(r.CodelessRefusals) != want || r.Totals.Failed != 0 || !r.Verdict.Passed {
		t.Errorf("JSON: totals %+v, %d codeless refusals listed; want %d", r.Totals, len(r.CodelessRefusals), want)
	}
	for _, c := range r.CodelessRefusals {
		if c.Outcome != "pass" || c.Code == "" {
			t.Errorf("JSON codeless refusal %+v: want a pass naming the expected code", c)
		}
	}
	data, _ := os.ReadFile(p("a.xml"))
	junitTotals(t, data)
	if n := strings.Count(string(data), "refusal passed without a code"); n != want {
		t.Errorf("JUnit names %d codeless refusals, want %d", n, want)
	}
	tap, _ := os.ReadFile(p("a.tap"))
	if n := strings.Count(string(tap), "# refusal passed without a code"); n != want || !strings.Contains(string(tap), "# "+line) {
		t.Errorf("TAP names %d codeless refusals, want %d and %q", n, want, line)
	}
	md, _ := os.ReadFile(p("a.md"))
	if !strings.Contains(string(md), line) {
		t.Errorf("Markdown lacks %q", line)
	}

	code, stdout, _ = conform(t, "", "run", "--stdio", liar, "--require-codes", "--json", p("b.json"))
	r = readJSONReport(t, p("b.json"))
	if code != ExitFailed || r.Totals.Failed != want || r.Totals.Codeless != want || !strings.HasSuffix(lastLine(stdout), fmt.Sprintf(", %d failed", want)) {
		t.Errorf("run --require-codes against the codeless proxy = exit %d, totals %+v, last line %q; want exit 1 and %d failed", code, r.Totals, lastLine(stdout), want)
	}
	if !strings.Contains(stdout, "got no code (--require-codes)") {
		t.Errorf("the failures do not say what is missing")
	}
	// The reference itself gives every code: the gate passes it.
	code, stdout, _ = conform(t, "", "run", "--require-ops", "--require-codes")
	if code != ExitOK || strings.Contains(stdout, "without a code") {
		t.Errorf("the gate against the reference = exit %d, %q", code, lastLine(stdout))
	}
}

// TestInterrupted stops a run while a vector hangs, with each of the
// signals that stop a command (SIGINT from a terminal, SIGTERM from
// timeout(1), a container runtime or a CI system's cancel, SIGHUP from a
// closed terminal): the vectors not judged are interrupted, not crashes, the
// run fails, its JSON report is written, and no process of the
// implementation is left.
func TestInterrupted(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			interrupted(t, sig)
		})
	}
}

func interrupted(t *testing.T, sig syscall.Signal) {
	dir := echoDir(t)
	// The fake writes to this pipe as it begins to hang.
	hanging := await.NewPipe(t)
	report := filepath.Join(t.TempDir(), "r.json")
	// The child conform runs the fake, which alone gets the fake's
	// environment.
	marker := fakeimpl.EnvFile + "=" + hanging.Path
	fake := "env " + fakeimpl.Env + "=" + fakeimpl.Hang + " " + fakeimpl.EnvFile + "=" + quoteArg(hanging.Path) + " " + quoteArg(os.Args[0])
	cmd := exec.Command(os.Args[0], "run", "--vectors", dir, "--parallel", "1", "--timeout", "10m", "--json", report, "--stdio", fake)
	stdout, stderr, err := signalWhenHanging(t, cmd, hanging, sig)
	code := cmd.ProcessState.ExitCode()
	if code != ExitFailed || !strings.Contains(stderr.String(), "conform: error: the run was interrupted: 6 of 9 vectors were not judged") {
		t.Fatalf("a run stopped by %v = exit %d (%v), stderr %q", sig, code, err, stderr.String())
	}
	if got := lastLine(stdout.String()); got != "3 passed, 0 failed, 6 interrupted" {
		t.Errorf("last line %q, want 3 passed, 0 failed, 6 interrupted", got)
	}
	r := readJSONReport(t, report)
	want := map[string]string{"plain": "pass", "wrong-answer": "pass", "astral": "pass"}
	for _, res := range r.Results {
		w := want[strings.TrimPrefix(res.ID, "echo.echo/")]
		if w == "" {
			w = "interrupted"
		}
		if res.Outcome != w {
			t.Errorf("%s = %s, want %s", res.ID, res.Outcome, w)
		}
	}
	if r.Totals.Interrupted != 6 || r.Verdict.Passed {
		t.Errorf("JSON totals %+v, verdict %+v", r.Totals, r.Verdict)
	}
	if pids := processesWith(marker); len(pids) > 0 {
		t.Errorf("processes of the implementation left after conform ended: %v", pids)
	}
}

// signalWhenHanging runs cmd (a conform command, with mainEnv set), sends
// it sig once its implementation writes to hanging, and returns what it
// printed and what Wait returned.
func signalWhenHanging(t *testing.T, cmd *exec.Cmd, hanging *await.Pipe, sig syscall.Signal) (stdout, stderr *bytes.Buffer, err error) {
	t.Helper()
	cmd.Env = append(os.Environ(), mainEnv+"=1")
	stdout, stderr = new(bytes.Buffer), new(bytes.Buffer)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waited, ended := await.Exit(cmd)
	if _, err := hanging.Wait(await.Context(t), ended); err != nil {
		cmd.Process.Kill()
		<-waited
		t.Fatalf("the implementation never began to hang: %v\n%s%s", err, stdout, stderr)
	}
	cmd.Process.Signal(sig)
	return stdout, stderr, <-waited
}

// processesWith returns the processes whose environment holds the entry
// marker (this user's; none where there is no /proc).
func processesWith(marker string) []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err == nil && slices.Contains(strings.Split(string(env), "\x00"), marker) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// TestLiarFeaturesEmptyHello runs scenarios against an implementation whose
// hello offers no op: every scenario is skipped, none passed, and the run
// fails; JUnit marks them skipped with totals that add up.
func TestLiarFeaturesEmptyHello(t *testing.T) {
	fake := self(t, fakeimpl.Unsupported)
	out := t.TempDir()
	xmlPath := filepath.Join(out, "f.xml")
	code, stdout, stderr := conform(t, "", "features", "--stdio", fake, "--no-color", "--format", "progress,junit:"+xmlPath, "selref")
	m := regexp.MustCompile(`(?m)^(\d+) scenarios \(`).FindStringSubmatch(stdout)
	n := 0
	if m != nil {
		n, _ = strconv.Atoi(m[1])
	}
	if n == 0 {
		t.Fatalf("no scenario count in\n%s", stdout)
	}
	if code != ExitFailed || !strings.Contains(stdout, fmt.Sprintf("\n%d scenarios (%d skipped)\n", n, n)) ||
		!strings.Contains(stderr, fmt.Sprintf("conform: error: nothing was judged: all %d scenarios were skipped (", n)) ||
		!strings.Contains(stderr, ": the implementation does not offer selref.ingest") {
		t.Errorf("features against an empty hello = exit %d, want 1, %d skipped and nothing judged\n%s\n%s", code, n, stdout, stderr)
	}
	data, err := os.ReadFile(xmlPath)
	if err != nil {
		t.Fatal(err)
	}
	if tests, f, e, s := junitTotals(t, data); tests != n || f != 0 || e != 0 || s != n {
		t.Errorf("JUnit totals = %d tests, %d failures, %d errors, %d skipped; want %d, 0, 0, %d", tests, f, e, s, n, n)
	}
	if strings.Contains(string(data), `status="passed"`) {
		t.Errorf("JUnit reports a skipped scenario as passed")
	}

	code, stdout, _ = conform(t, "", "features", "--stdio", fake, "--no-color", "--format", "junit", "--require-ops", "selref")
	if tests, f, e, s := junitTotals(t, []byte(stdout)); code != ExitFailed || tests != n || f != n || e != 0 || s != 0 {
		t.Errorf("features --require-ops = exit %d, JUnit %d tests, %d failures, %d errors, %d skipped; want exit 1, %d failures", code, tests, f, e, s, n)
	}
	if !strings.Contains(stdout, "--require-ops requires it") {
		t.Errorf("the failures do not name --require-ops")
	}
	// The reference offers every op: the gate passes it.
	code, stdout, _ = conform(t, "", "features", "--no-color", "--format", "progress", "--require-ops", "selref")
	if code != ExitOK || !strings.Contains(stdout, fmt.Sprintf("\n%d scenarios (%d passed)\n", n, n)) {
		t.Errorf("features --require-ops against the reference = exit %d\n%s", code, stdout)
	}
}

// TestDoctorNoHello: doctor checks the answer of an implementation that does
// not know hello rather than counting it as a pass unseen.
func TestDoctorNoHello(t *testing.T) {
	dir := echoDir(t)
	code, stdout, _ := conform(t, "", "doctor", "--vectors", dir, "--pings", "0", "--stdio", self(t, fakeimpl.NoHello))
	if code != ExitOK || !strings.Contains(stdout, "ok   hello: answered error kind unsupported; every op is assumed offered (PROTO-HELLO-003)") {
		t.Errorf("doctor against an implementation without hello = exit %d\n%s", code, stdout)
	}
	code, stdout, _ = conform(t, "", "doctor", "--vectors", dir, "--pings", "0", "--stdio", self(t, fakeimpl.NoHelloBad))
	if code != ExitFailed || !strings.Contains(stdout, "FAIL hello: answered error kind unsupported") || !strings.Contains(stdout, "message") {
		t.Errorf("doctor against a malformed unsupported answer to hello = exit %d, want 1 and a FAIL\n%s", code, stdout)
	}
}

// TestFeaturesStopped stops conform features while a scenario's request
// hangs, with each stopping signal: the run fails, its JUnit report is
// written and well-formed, and no process of the implementation is left.
func TestFeaturesStopped(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			hanging := await.NewPipe(t)
			marker := hangEnv + "=" + hanging.Path
			impl := "env -u " + mainEnv + " " + fuzzFaultEnv + "=hang-normalize " + quoteArg(marker) + " " + quoteArg(os.Args[0]) + " -test.run=^TestFuzzFaultyHelper$"
			junit := filepath.Join(t.TempDir(), "f.xml")
			cmd := exec.Command(os.Args[0], "features", "--stdio", impl, "--timeout", "10m", "--no-color", "--format", "progress,junit:"+junit, "quote/anchor.feature")
			stdout, stderr, _ := signalWhenHanging(t, cmd, hanging, sig)
			if code := cmd.ProcessState.ExitCode(); code != ExitFailed {
				t.Errorf("features stopped by %v = exit %d, want 1\n%s%s", sig, code, stdout.String(), stderr.String())
			}
			data, err := os.ReadFile(junit)
			if err != nil || xml.Unmarshal(data, new(struct{})) != nil || !bytes.Contains(data, []byte("<testcase")) {
				t.Errorf("features stopped by %v: no well-formed JUnit report (%v)\n%s", sig, err, data)
			}
			if pids := processesWith(marker); len(pids) > 0 {
				t.Errorf("processes of the implementation left after conform ended: %v", pids)
			}
		})
	}
}
