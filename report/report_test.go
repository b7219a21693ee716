package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/conform-suite/conform/fuzz"
	"github.com/conform-suite/conform/internal/fixture"
	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/runner"
	"github.com/conform-suite/conform/spec"
	"github.com/conform-suite/conform/vectors"
)

// sampleReport has one result of every outcome, a stale entry and a spec.
func sampleReport(t *testing.T) *runner.Report {
	vs := fixture.Vectors()
	req := func(i int) protocol.Request {
		return protocol.Request{ID: protocol.IntID(int64(i + 1)), Op: vs[i%len(vs)].Op, Input: json.RawMessage(`{"text": "a\u00e9😀"}`)}
	}
	results := []runner.Result{
		{Vector: vs[0], Outcome: runner.Pass, Duration: time.Millisecond},
		{Vector: vs[1], Outcome: runner.Fail, Comparison: runner.AcceptedWrongly, Diffs: []string{`$: want {"rejected":{"code":"X"}}, got {"citation":{}}`}, Expected: json.RawMessage(`{"rejected":{"code":"X"}}`), Actual: json.RawMessage(`{"citation":{}}`)},
		{Vector: vs[2], Outcome: runner.Unsupported, Detail: "not in hello"},
		{Vector: vs[3], Outcome: runner.Crash, Detail: "the implementation died (exit status 3)", Stderr: "panic: boom\n| and <xml> & \"quotes\""},
		{Vector: vs[4], Outcome: runner.Timeout, Detail: "no answer within 1s"},
		{Vector: vs[0], Outcome: runner.ProtocolErr, Detail: "not JSON"},
		{Vector: vs[1], Outcome: runner.Errored, Detail: "internal: oops"},
		{Vector: vs[2], Outcome: runner.XFail, Original: runner.Fail, Reason: "issue 4 # hash"},
		{Vector: vs[3], Outcome: runner.XPass, Original: runner.Pass, Reason: "fixed"},
	}
	for i := range results {
		results[i].Request = req(i)
	}
	s, err := spec.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	return &runner.Report{
		SuiteVersion:   runner.SuiteVersion,
		Implementation: &protocol.Hello{Protocol: 1, Name: "sample", Version: "1.2", Language: "go", Ops: []string{"quote.parse"}},
		Transport:      "stdio: ./impl",
		Started:        time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		Duration:       1500 * time.Millisecond,
		Results:        results,
		Stale:          []runner.Expectation{{ID: "quote.parse/gone", Reason: "renamed", Line: 9}},
		Spec:           s,
	}
}

func TestText(t *testing.T) {
	r := sampleReport(t)
	var b bytes.Buffer
	if err := Text(&b, r, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	// pass; fail, crash, timeout, protocol, error and xpass fail;
	// unsupported and xfail are skipped; the stale entry is not a vector and
	// has its own line.
	if last := lines[len(lines)-1]; last != "1 passed, 6 failed, 2 skipped" {
		t.Errorf("last line = %q, want %q", last, "1 passed, 6 failed, 2 skipped")
	}
	if l := lines[len(lines)-2]; l != "verdict: failed: 1 stale expectation entry (names no vector)" {
		t.Errorf("line before the last = %q, want the stale entry's line", l)
	}
	for _, want := range []string{
		"ACCEPTED-WRONGLY quote.parse/lone-surrogate",
		"  requires: QUOTE-LINK-020",
		`  request:  {"id":2,"op":"quote.parse","input":{"text":"a\u00e9😀"}}`,
		`    $: want {"rejected":{"code":"X"}}, got {"citation":{}}`,
		"    | panic: boom",
		"STALE       quote.parse/gone (expectations line 9)",
		"implementation: sample 1.2 (go), protocol 1, over stdio: ./impl",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("Text() lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains("\n"+out, "\nPASS ") {
		t.Errorf("Text() without Verbose lists a passing vector:\n%s", out)
	}
}

func TestJSONValidates(t *testing.T) {
	var b bytes.Buffer
	if err := JSON(&b, sampleReport(t)); err != nil {
		t.Fatal(err)
	}
	if err := fixture.Validate("report.schema.json", b.Bytes()); err != nil {
		t.Fatalf("JSON() does not match report.schema.json: %v\n%s", err, b.String())
	}
	var got struct {
		Totals struct{ Total, Passed, Failed, Skipped, Stale int }
	}
	json.Unmarshal(b.Bytes(), &got)
	if got.Totals.Total != 9 || got.Totals.Passed != 1 || got.Totals.Failed != 6 || got.Totals.Skipped != 2 || got.Totals.Stale != 1 {
		t.Errorf("JSON() totals = %+v, want 9 vectors: 1 passed, 6 failed, 2 skipped; 1 stale", got.Totals)
	}
}

func TestJUnit(t *testing.T) {
	var b bytes.Buffer
	if err := JUnit(&b, sampleReport(t)); err != nil {
		t.Fatal(err)
	}
	var got JUnitSuites
	if err := xml.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatalf("JUnit() is not XML: %v\n%s", err, b.String())
	}
	// failures: fail, xpass, the stale entry; errors: crash, timeout,
	// protocol, error; skipped: unsupported, xfail.
	if got.Tests != 10 || got.Failures != 3 || got.Errors != 4 || got.Skipped != 2 {
		t.Errorf("JUnit() counts tests=%d failures=%d errors=%d skipped=%d, want 10, 3, 4, 2", got.Tests, got.Failures, got.Errors, got.Skipped)
	}
}

func TestTAP(t *testing.T) {
	var b bytes.Buffer
	if err := TAP(&b, sampleReport(t)); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.HasPrefix(out, "TAP version 13\n1..10\n") {
		t.Errorf("TAP() starts %q, want the version and a plan of 10", out[:min(len(out), 30)])
	}
	ok, notOK := 0, 0
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(l, "ok "):
			ok++
		case strings.HasPrefix(l, "not ok "):
			if !strings.Contains(l, "# TODO") {
				notOK++
			}
		}
	}
	if ok != 2 || notOK != 7 {
		t.Errorf("TAP() has %d ok and %d failing points, want 2 and 7:\n%s", ok, notOK, out)
	}
	if !strings.Contains(out, `# TODO issue 4 \# hash`) {
		t.Errorf("TAP() does not escape '#' in a TODO reason:\n%s", out)
	}
}

func TestMarkdown(t *testing.T) {
	var b bytes.Buffer
	if err := Markdown(&b, sampleReport(t)); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"## conform: failed", "| crash | 1 |", "| `quote.parse/lone-surrogate` | accepted-wrongly |", "**Failed: 1 stale expectation entry (names no vector).**", "1 passed, 6 failed, 2 skipped\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("Markdown() lacks %q:\n%s", want, out)
		}
	}
}

func TestRequirementsRollUp(t *testing.T) {
	r := sampleReport(t)
	got := map[string]runner.Outcome{}
	for _, rr := range r.Requirements() {
		got[rr.ID] = rr.Outcome
	}
	// QUOTE-LINK-012 has a pass and a protocol outcome; QUOTE-LINK-001 an
	// unsupported and an xfail.
	want := map[string]runner.Outcome{"QUOTE-LINK-012": runner.Fail, "QUOTE-LINK-001": runner.Fail, "SELREF-INGEST-003": runner.Fail}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("Requirements()[%s] = %s, want %s", id, got[id], w)
		}
	}
}

// TestShortenStrings: a long string keeps a head and a tail of whole
// characters and escapes around a count of what was left out; short
// strings and everything outside strings stay as written.
func TestShortenStrings(t *testing.T) {
	long := strings.Repeat(`\u00e9%E4`, 100) + strings.Repeat("é", 100)
	line := `{"id":1,"op":"quote.parse","input":{"short":"a\"b","long":"` + long + `","after":true}}`
	got := shortenStrings(line, 40)
	m := regexp.MustCompile(`^\{"id":1,"op":"quote.parse","input":\{"short":"a\\"b","long":"(.*)…\((\d+) bytes\)…(.*)","after":true\}\}$`).FindStringSubmatch(got)
	if m == nil {
		t.Fatalf("shortenStrings = %s", got)
	}
	n, _ := strconv.Atoi(m[2])
	if m[1]+long[len(m[1]):len(m[1])+n]+m[3] != long || len(m[1]) > 20 || len(m[3]) > 10 || len(m[1]) == 0 || len(m[3]) == 0 {
		t.Errorf("head %q, %d bytes left out, tail %q: not the string's own head and tail within the bounds", m[1], n, m[3])
	}
	if !strings.HasSuffix(m[1], `%E4`) || !strings.HasPrefix(m[3], "é") {
		t.Errorf("the cut splits an escape or a character: head %q, tail %q", m[1], m[3])
	}
	if got := shortenStrings(`{"a":"short","b":[1,2]}`, 40); got != `{"a":"short","b":[1,2]}` {
		t.Errorf("a line without long strings became %s", got)
	}
}

// TestFuzzSummaryCounts: the summary's first line says how many inputs
// were skipped and how many stayed inconclusive, and only when some were.
func TestFuzzSummaryCounts(t *testing.T) {
	for _, tt := range []struct {
		stats      fuzz.Stats
		want, lack []string
	}{
		{fuzz.Stats{Execs: 10, Skipped: 2, Inconclusive: 3}, []string{", 2 inputs skipped", ", 3 inputs inconclusive (in flight each time another input hung or crashed the implementation)"}, nil},
		{fuzz.Stats{Execs: 10}, []string{": 1 op, 10 executions in"}, []string{"skipped", "inconclusive", "shrinking"}},
		{fuzz.Stats{Execs: 1, Shrinks: 40}, []string{": 1 op, 1 execution in", "(0/s) and 40 more while shrinking"}, nil},
		{fuzz.Stats{Execs: 3, Skipped: 1, Inconclusive: 1}, []string{", 1 input skipped", ", 1 input inconclusive"}, nil},
	} {
		var b strings.Builder
		Fuzz(&b, FuzzRun{Report: &fuzz.Report{Stats: tt.stats, Ops: []string{"quote.parse"}}, Seed: 1, Transport: "stdio: x"})
		first, _, _ := strings.Cut(b.String(), "\n")
		for _, w := range tt.want {
			if !strings.Contains(first, w) {
				t.Errorf("%+v: the first line lacks %q: %s", tt.stats, w, first)
			}
		}
		for _, w := range tt.lack {
			if strings.Contains(first, w) {
				t.Errorf("%+v: the first line says %q: %s", tt.stats, w, first)
			}
		}
	}
}

// Counts of one are in the singular.
func TestTextOneVector(t *testing.T) {
	rep := &runner.Report{Results: []runner.Result{{Vector: &vectors.Vector{ID: "t/a", Op: "t.op"}, Outcome: runner.Pass}}}
	var b strings.Builder
	if err := Text(&b, rep, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "outcomes: 1 pass (conform , 1 vector, ") {
		t.Errorf("the outcomes line of one vector is not singular:\n%s", b.String())
	}
}

// A requirement's text is written once in the text report, at the first
// failure that names it; an entry of the JUnit report stands alone and
// gives it every time.
func TestRequirementTextOnce(t *testing.T) {
	r := rollupReport(t) // t/b1 and t/b2 both fail TEST-R-002
	var text, junit bytes.Buffer
	if err := Text(&text, r, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := JUnit(&junit, r); err != nil {
		t.Fatal(err)
	}
	full := "requires: TEST-R-002 (MUST NOT) An implementation MUST NOT do b."
	if n := strings.Count(text.String(), full); n != 1 {
		t.Errorf("the text report gives TEST-R-002's text %d times, want 1:\n%s", n, text.String())
	}
	if n := strings.Count(text.String(), "requires: TEST-R-002 (MUST NOT, text above)"); n != 1 {
		t.Errorf("the text report refers to TEST-R-002's text above %d times, want 1:\n%s", n, text.String())
	}
	if n := strings.Count(junit.String(), full); n != 2 {
		t.Errorf("the JUnit report gives TEST-R-002's text %d times, want 2", n)
	}
}
