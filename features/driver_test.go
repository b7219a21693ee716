package features

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
)

// driverFeature has one scenario per way a step can go wrong in conform's
// own runner, and scenarios after them that must still run.
const driverFeature = `Feature: the runner
  Scenario: undefined
    Given an implementation under test
    When nothing is defined for this
    Then the input is accepted

  Scenario: ambiguous
    When a step two definitions match

  Scenario: not a number
    When the count is 99999999999999999999

  Scenario: too few groups
    When a step wants two values

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
`

// TestDriverFailures checks what conform's runner makes of steps that are
// undefined, ambiguous, cannot take their arguments or panic: each fails its
// own scenario, and the run goes on to the next.
func TestDriverFailures(t *testing.T) {
	more := func(sc *registry) {
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
		sc.Step(`^a step wants (\w+) values$`, func(a, b string) error { return nil })
		sc.Step(`^the step panics$`, func() error { panic("boom") })
		sc.Step(`^the step skips$`, func() error { return fmt.Errorf("%w: told to", errSkip) })
	}
	var out bytes.Buffer
	var got []outcome
	opts := Options{Impl: fake{}, FS: fstest.MapFS{"r.feature": {Data: []byte(driverFeature)}}, Format: "progress", NoColors: true, Output: &out, outcomes: &got}
	status := run(opts, func(h *harness, opts Options, paths []string) int {
		h.more = more
		return drive(h, opts, paths)
	})
	want := []outcome{
		{"r.feature: undefined", "failed", "undefined: step is undefined: nothing is defined for this"},
		{"r.feature: ambiguous", "failed", "ambiguous: ambiguous step definition, step text: a step two definitions match\n    matches:\n        ^a step two definitions match$\n        ^a step (\\w+) definitions match$"},
		{"r.feature: not a number", "failed", `failed: cannot convert argument 0: "99999999999999999999" to int: strconv.ParseInt: parsing "99999999999999999999": value out of range`},
		{"r.feature: too few groups", "failed", `failed: the step definition ^a step wants (\w+) values$ expects 2 arguments, the step gives 1`},
		{"r.feature: panics", "failed", "failed: boom"},
		{"r.feature: runs after the panic", "passed", ""},
		{"r.feature: rows 1", "passed", ""},
		{"r.feature: rows 2", "failed", "failed: count 2, want 3"},
		{"r.feature: skips", "skipped", "told to"},
	}
	if status != StatusFailed {
		t.Errorf("status %d, want %d", status, StatusFailed)
	}
	if len(got) != len(want) {
		t.Fatalf("%d scenarios, want %d: %+v\n%s", len(got), len(want), got, out.String())
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("scenario %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
	// One character per step: the steps after a failed one are skipped,
	// an undefined one is undefined wherever it stands.
	if first, _, _ := strings.Cut(out.String(), " "); first != ".U-AFFF-.....F--" {
		t.Errorf("progress line %q, want %q\n%s", first, ".U-AFFF-.....F--", out.String())
	}
	for _, line := range []string{"9 scenarios (2 passed, 6 failed, 1 skipped)\n", "16 steps (6 passed, 4 failed, 1 ambiguous, 1 undefined, 4 skipped)\n"} {
		if !strings.Contains(out.String(), line) {
			t.Errorf("the report lacks %q:\n%s", line, out.String())
		}
	}
}
