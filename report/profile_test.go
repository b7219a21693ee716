package report

import (
	"bytes"
	"context"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/conform-suite/conform/internal/fixture"
	"github.com/conform-suite/conform/runner"
)

// TestReportsNameTheProfile renders a run under t3code's profile in every
// format: each names the profile, and the JSON report validates.
func TestReportsNameTheProfile(t *testing.T) {
	vs, err := fixture.ProfileVectors()
	if err != nil {
		t.Fatal(err)
	}
	r := &runner.Runner{Impl: fixture.Scripted{"1": `{"output":{"x":1}}`, "2": `{"error":{"kind":"internal","message":""}}`, "3": `{"output":{"rejected":{}}}`, "4": `{"output":{"citation":{"text":"b"}}}`}, Profile: "t3code", Parallel: 1}
	rep := &runner.Report{SuiteVersion: runner.SuiteVersion, Transport: "test", Results: r.Run(context.Background(), vs), Profile: "t3code"}
	const detail = "3 vectors graded against the answers recorded for t3code, the others against the specification"
	var text, js, junit, tap, md bytes.Buffer
	Text(&text, rep, TextOptions{})
	JSON(&js, rep)
	JUnit(&junit, rep)
	TAP(&tap, rep)
	Markdown(&md, rep)
	for _, c := range []struct {
		name string
		out  string
		want []string
	}{
		{"text", text.String(), []string{"profile: t3code (" + detail + ")", "  recorded: graded against the answer recorded for t3code: r1"}},
		{"json", js.String(), []string{`"profile": "t3code"`, `"recorded":{"system":"t3code","reason":"r1"}`}},
		{"junit", junit.String(), []string{`<property name="profile" value="t3code"></property>`}},
		{"tap", tap.String(), []string{"# profile: t3code (" + detail + ")"}},
		{"markdown", md.String(), []string{"Profile **t3code**: " + detail + "."}},
	} {
		for _, w := range c.want {
			if !strings.Contains(c.out, w) {
				t.Errorf("%s report lacks %q:\n%s", c.name, w, c.out)
			}
		}
	}
	if err := fixture.Validate("report.schema.json", js.Bytes()); err != nil {
		t.Errorf("JSON report: %v", err)
	}
	var suites JUnitSuites
	if err := xml.Unmarshal(junit.Bytes(), &suites); err != nil {
		t.Fatal(err)
	}
	rep.Profile = ""
	text.Reset()
	Text(&text, rep, TextOptions{})
	if !strings.Contains(text.String(), "profile: spec (every vector graded against the specification)") {
		t.Errorf("the default profile is not named:\n%s", text.String())
	}
}
