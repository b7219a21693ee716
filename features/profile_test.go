package features

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"
	"testing/fstest"
)

// profileFeature has a scenario every profile judges, an outline with one
// agreeing row and a block of rows tagged for t3code, and a scenario tagged
// for vance whose expectation the fake does not meet.
const profileFeature = `Feature: profiles
  Background:
    Given an implementation under test

  Scenario: judged everywhere
    Given the input member "text" is "a"
    When "test.echo" is called
    Then the output member "text" is "a"

  Scenario Outline: echo
    Given the input member "text" is "<in>"
    When "test.echo" is called
    Then the output member "text" is "<in>"

    Examples:
      | in |
      | b  |

    @divergence:t3code
    Examples:
      | in |
      | c  |
      | d  |

  @divergence:vance
  Scenario: vance differs
    Given the input member "text" is "e"
    When "test.echo" is called
    Then the output member "text" is "f"
`

// TestFeaturesProfile runs the feature under each profile: a scenario or
// row tagged for the profile's system is diverging, never passed or failed,
// and every report names the profile.
func TestFeaturesProfile(t *testing.T) {
	fsys := fstest.MapFS{"p.feature": {Data: []byte(profileFeature)}}
	run := func(profile, format string) (int, Tally, string) {
		var out bytes.Buffer
		var tally Tally
		status := Run(Options{Impl: fake{}, FS: fsys, Format: format, Output: &out, NoColors: true, Tally: &tally, Profile: profile})
		return status, tally, out.String()
	}
	// The default profile judges every scenario: vance's fails (it
	// expects what vance answers), the others pass.
	status, tally, _ := run("", "progress")
	if status != StatusFailed || tally.Passed != 4 || tally.Failed != 1 || len(tally.Diverging) != 0 {
		t.Errorf("spec: status %d, tally %+v; want 4 passed, 1 failed, none diverging", status, tally)
	}
	// Under vance's profile its scenario is diverging, not failed: the run
	// passes.
	status, tally, out := run("vance", "progress")
	if status != StatusOK || tally.Passed != 4 || tally.Failed != 0 || tally.Skipped != 0 || len(tally.Diverging) != 1 {
		t.Errorf("vance: status %d, tally %+v; want 4 passed, 1 diverging", status, tally)
	}
	for _, want := range []string{"5 scenarios (4 passed, 1 diverging)\n", "profile: vance\n", "diverging (tagged @divergence:vance, not judged):\n  p.feature: vance differs\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("vance: the report lacks %q:\n%s", want, out)
		}
	}
	// Under t3code's profile its two rows are diverging; vance's scenario
	// is judged, and fails.
	status, tally, out = run("t3code", "progress")
	if status != StatusFailed || tally.Passed != 2 || tally.Failed != 1 || len(tally.Diverging) != 2 {
		t.Errorf("t3code: status %d, tally %+v; want 2 passed, 1 failed, 2 diverging", status, tally)
	}
	if !strings.Contains(out, "  p.feature: echo (2 rows)\n") || !strings.Contains(out, "profile: t3code\n") {
		t.Errorf("t3code: the report does not list the diverging rows:\n%s", out)
	}
	// The JUnit report fails only vance's scenario, counts the diverging
	// rows as skipped, names the profile, and stays one XML document: the
	// summary is not added after it.
	_, _, out = run("t3code", "junit")
	for _, want := range []string{`<property name="profile" value="t3code"></property>`, `status="diverging"`, `skipped="2"`, `failures="1"`} {
		if !strings.Contains(out, want) {
			t.Errorf("t3code junit lacks %s:\n%s", want, out)
		}
	}
	if err := xml.Unmarshal([]byte(out), new(struct{})); err != nil || strings.Contains(out, "profile:") {
		t.Errorf("t3code junit is not one XML document (%v):\n%s", err, out)
	}
	_, _, out = run("", "progress")
	if !strings.Contains(out, "profile: spec\n") {
		t.Errorf("spec: the report does not name the profile:\n%s", out)
	}
	// A run where everything is diverging judged nothing.
	var tl Tally
	if s := Run(Options{Impl: fake{}, FS: fsys, Format: "progress", Output: &bytes.Buffer{}, Tally: &tl, Profile: "vance", Tags: "@divergence:vance"}); s != StatusFailed || !strings.Contains(tl.NothingJudged(), "1: diverging under the profile") {
		t.Errorf("only diverging: status %d, %q", s, tl.NothingJudged())
	}
	if s := Run(Options{Impl: fake{}, FS: fsys, Output: &bytes.Buffer{}, Profile: "acme"}); s != StatusOptions {
		t.Errorf("unknown profile: status %d, want %d", s, StatusOptions)
	}
}
