package features

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/conform-suite/conform/internal/safetext"
	"github.com/cucumber/godog"
)

// engineFeature has one scenario per way a step can go wrong, and
// scenarios after them that must still run.
const engineFeature = `Feature: the engine
  Scenario: undefined
    Given an implementation under test
    When nothing is defined for this
    Then the input is accepted

  Scenario: ambiguous
    When a step two definitions match

  Scenario: panics
    When the step panics
    Then the input is accepted

  Scenario: runs after the panic
    When "test.echo" is called with {"a": 1}
    Then the output member "a" is 1

  Scenario Outline: rows <n>
    When the count is <n>
    Then the count was <want>

    Examples:
      | n | want |
      | 1 | 1    |
      | 2 | 3    |

  Scenario: skips
    When the step skips
    Then the input is accepted

  Scenario: answers with an invisible character
    When "test.echo" is called with {"a": "x\uFEFF"}
    Then the output member "a" is "x"

  Scenario: fails with a terminal escape
    When the step fails with a terminal escape
`

// TestEngine runs steps that are undefined, ambiguous, panic, fail or skip
// through godog: each fails (or skips) its own scenario, the run goes on,
// and conform's summary lists every failure again, with the line that
// replays it and nothing invisible printed raw.
func TestEngine(t *testing.T) {
	more := func(sc *godog.ScenarioContext, _ *scenario) {
		count := 0
		sc.Step(`^a step two definitions match$`, func() error { return nil })
		sc.Step(`^a step (\w+) definitions match$`, func(string) error { return nil })
		sc.Step(`^the count is (\d+)$`, func(n int) error { count = n; return nil })
		sc.Step(`^the count was (\d+)$`, func(ctx context.Context, want int) error {
			if count != want {
				return fmt.Errorf("count %d, want %d", count, want)
			}
			return nil
		})
		sc.Step(`^the step panics$`, func() error { panic("boom") })
		sc.Step(`^the step skips$`, func() error { return fmt.Errorf("%w: told to", errSkip) })
		steps{sc}.Step(`^the step fails with a terminal escape$`, func() error {
			return errors.New("the implementation said \x1b]0;pwned\x07 \u0085\u200b\u009b")
		})
	}
	var out bytes.Buffer
	var got []scenarioStatus
	var tally Tally
	status := Run(Options{Impl: fake{}, FS: fstest.MapFS{"e.feature": {Data: []byte(engineFeature)}}, Format: "progress", NoColors: true,
		Output: &out, statuses: &got, Tally: &tally, more: more, Replay: "conform features --stdio 'x'"})
	want := []scenarioStatus{
		{"e.feature: undefined", "failed", "undefined: step is undefined: nothing is defined for this"},
		{"e.feature: ambiguous", "failed", "ambiguous: ambiguous step definition, step text: a step two definitions match\n    matches:\n        ^a step two definitions match$\n        ^a step (\\w+) definitions match$"},
		{"e.feature: panics", "failed", "failed: boom"},
		{"e.feature: runs after the panic", "passed", ""},
		{"e.feature: rows 1", "passed", ""},
		{"e.feature: rows 2", "failed", "failed: count 2, want 3"},
		{"e.feature: skips", "skipped", "told to"},
	}
	if status != StatusFailed {
		t.Errorf("status %d, want %d", status, StatusFailed)
	}
	if len(got) != len(want)+2 {
		t.Fatalf("%d scenarios, want %d: %+v\n%s", len(got), len(want)+2, got, out.String())
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("scenario %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
	if tally.Line() != "9 scenarios (2 passed, 6 failed, 1 skipped)" {
		t.Errorf("tally %q", tally.Line())
	}
	report := out.String()
	for _, line := range []string{
		"failed:\n  e.feature:2: undefined\n    step: nothing is defined for this\n",
		"    replay: conform features --stdio 'x' e.feature:2\n",
		"  e.feature:25: rows 2\n    step: the count was 3\n    failed: count 2, want 3\n    replay: conform features --stdio 'x' e.feature:18\n",
		"skipped (told to): 1\n  e.feature:27: skips\n",
		"9 scenarios (2 passed, 6 failed, 1 skipped)\nprofile: spec\n",
		`the implementation said \x1b]0;pwned\x07 \u0085\u200b\u009b`,
		`want "x", got "x\ufeff"`,
	} {
		if !strings.Contains(report, line) {
			t.Errorf("the summary lacks %q:\n%s", line, report)
		}
	}
	// godog's own summary is not written: it counts the skipped scenario
	// as passed and offers Go snippets for the undefined step.
	for _, line := range []string{"3 passed", "InitializeScenario"} {
		if strings.Contains(report, line) {
			t.Errorf("the report holds godog's summary (%q):\n%s", line, report)
		}
	}
	// Nothing an implementation or a step wrote reaches the output raw:
	// neither godog's lines (pretty prints each failed step's error) nor
	// the summary's.
	var pretty bytes.Buffer
	Run(Options{Impl: fake{}, FS: fstest.MapFS{"e.feature": {Data: []byte(engineFeature)}}, Format: "pretty", NoColors: true, Output: &pretty, more: more})
	if !strings.Contains(pretty.String(), `said \x1b]0;pwned`) {
		t.Errorf("the pretty report does not show the step's error:\n%s", pretty.String())
	}
	for _, line := range strings.Split(report+pretty.String(), "\n") {
		// (godog prints the stack of a panic, its frames indented by tabs)
		if !safetext.Safe(strings.ReplaceAll(line, "\t", "  ")) {
			t.Errorf("the report prints a line raw: %q", line)
		}
	}
}

// TestPrettyNamesNoStepDefinition checks that the pretty format, colored or
// not, keeps the location of each scenario but not godog's comment after
// each step naming its Go definition (every step would name the one line
// that registers them all), and that conform's summary still ends it.
func TestPrettyNamesNoStepDefinition(t *testing.T) {
	for _, noColors := range []bool{true, false} {
		var out bytes.Buffer
		feature := "Feature: echo\n\n  Scenario: echoes\n    Given an implementation under test\n" +
			"    When \"test.echo\" is called with {\"a\": 1}\n    Then the output member \"a\" is 1\n"
		Run(Options{Impl: fake{}, FS: fstest.MapFS{"e.feature": {Data: []byte(feature)}}, Format: "pretty", NoColors: noColors, Output: &out})
		text := out.String()
		for _, bad := range []string{"makeFuncStub", "harness.go", ".go:"} {
			if strings.Contains(text, bad) {
				t.Errorf("colors %v: the pretty report names a step definition (%q):\n%s", !noColors, bad, text)
			}
		}
		if !strings.Contains(text, "# e.feature:3") || !strings.Contains(text, "1 scenario (1 passed)") {
			t.Errorf("colors %v: the pretty report lost the scenarios' locations:\n%s", !noColors, text)
		}
		if !strings.HasSuffix(text, "profile: spec\n") {
			t.Errorf("colors %v: the pretty report does not end with conform's summary:\n%s", !noColors, text)
		}
	}
}

// TestEngineFormats checks the formats godog is given: pretty and progress
// end with conform's summary, which is added alone when nothing else writes
// on the run's output.
func TestEngineFormats(t *testing.T) {
	for in, want := range map[string]string{
		"progress":                   "conform-progress",
		"pretty,junit:r.xml":         "conform-pretty,conform-junit:r.xml",
		"junit":                      "conform-junit",
		"cucumber":                   "cucumber",
		"conform:s.txt,progress":     "conform:s.txt,conform-progress",
		"junit:r.xml":                "conform-junit:r.xml,conform",
		"cucumber:c.json,conform":    "cucumber:c.json,conform",
		"progress:p.txt,junit:r.xml": "conform-progress:p.txt,conform-junit:r.xml,conform",
	} {
		if got, err := engineFormats(in); got != want || err != nil {
			t.Errorf("engineFormats(%q) = %q, %v, want %q", in, got, err, want)
		}
	}
}
