package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"
	"time"

	"github.com/conform-suite/conform/internal/fixture"
	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/runner"
)

// Four requests of one op, sent at once, each 2s: the suite took 2s of
// wall-clock time, not 8s; a second op's requests 1s apart, 0.5s each, span
// 1.5s.
func TestJUnitSuiteTimeIsWallClock(t *testing.T) {
	vs := fixture.Vectors()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var results []runner.Result
	for range 4 {
		results = append(results, runner.Result{Vector: vs[0], Outcome: runner.Pass, Started: t0, Duration: 2 * time.Second})
	}
	other := vs[len(vs)-1]
	if other.Op == vs[0].Op {
		t.Fatalf("testVectors has one op only")
	}
	results = append(results,
		runner.Result{Vector: other, Outcome: runner.Pass, Started: t0.Add(10 * time.Second), Duration: 500 * time.Millisecond},
		runner.Result{Vector: other, Outcome: runner.Pass, Started: t0.Add(11 * time.Second), Duration: 500 * time.Millisecond})
	r := &runner.Report{Results: results, Duration: 12 * time.Second}
	var b bytes.Buffer
	if err := JUnit(&b, r); err != nil {
		t.Fatal(err)
	}
	var got JUnitSuites
	if err := xml.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{vs[0].Op: "2.000000", other.Op: "1.500000"}
	for _, s := range got.Suites {
		if s.Time != want[s.Name] {
			t.Errorf("suite %s time = %s, want %s", s.Name, s.Time, want[s.Name])
		}
	}
}

// Every report carries the identity: JSON as an object, text and Markdown
// as a line, JUnit as properties of each suite.
func TestReportsCarryIdentity(t *testing.T) {
	r := sampleReport(t)
	digest := "sha256:" + strings.Repeat("ab", 32)
	r.Conform = runner.NewIdentity(digest)
	var js bytes.Buffer
	if err := JSON(&js, r); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Conform runner.Identity `json:"conform"`
	}
	if err := json.Unmarshal(js.Bytes(), &got); err != nil || got.Conform.CorpusDigest != digest || got.Conform.Protocol != protocol.Version || got.Conform.Version == "" {
		t.Errorf("JSON conform = %+v, %v", got.Conform, err)
	}
	var text, md, junit bytes.Buffer
	Text(&text, r, TextOptions{})
	Markdown(&md, r)
	JUnit(&junit, r)
	if !strings.Contains(text.String(), "\nidentity: conform ") || !strings.Contains(text.String(), "corpus "+digest+"\n") {
		t.Errorf("text report lacks the identity line:\n%s", text.String())
	}
	if !strings.Contains(md.String(), "Run by conform ") || !strings.Contains(md.String(), digest) {
		t.Errorf("Markdown report lacks the identity:\n%s", md.String())
	}
	if n := strings.Count(junit.String(), `<property name="corpus_digest" value="`+digest+`">`); n != strings.Count(junit.String(), "<testsuite ") || n == 0 {
		t.Errorf("JUnit: %d corpus_digest properties for %d suites", n, strings.Count(junit.String(), "<testsuite "))
	}
}
