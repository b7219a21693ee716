package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeFeature writes one feature file into a fresh directory.
func writeFeature(t *testing.T, name, src string) string {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

const passing = `Feature: f
  Scenario: a link read back
    Given an implementation under test
    When a client reads the href "t3-citation://v1/a/b/c?text=q&start=0&end=1&prefix=&suffix="
    Then the citation's text is "q"
`

func TestFeatures(t *testing.T) {
	t.Setenv(mainEnv, "1")
	serve := quoteArg(os.Args[0]) + " serve --stdio"
	good := writeFeature(t, "x/good.feature", passing)
	bad := writeFeature(t, "x/bad.feature", strings.Replace(passing, `is "q"`, `is "not q"`, 1))
	undefined := writeFeature(t, "x/undefined.feature", passing+"    And nobody defined this step\n")
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string
	}{
		{"embedded, one path", []string{"features", "--format", "progress", "--no-color", "selref"}, ExitOK, "scenarios ("},
		{"embedded over stdio", []string{"features", "--format", "progress", "--no-color", "--stdio", serve, "features/marker/locate.feature"}, ExitOK, "passed)"},
		{"tags", []string{"features", "--format", "progress", "--no-color", "--tags", "@SELREF-LABEL-004"}, ExitOK, "4 scenarios (4 passed)"},
		{"from a directory", []string{"features", "--dir", good, "--format", "pretty", "--no-color"}, ExitOK, "1 scenario (1 passed)"},
		{"a failing scenario", []string{"features", "--dir", bad, "--format", "progress", "--no-color"}, ExitFailed, "1 failed"},
		{"strict: an undefined step", []string{"features", "--dir", undefined, "--format", "progress", "--no-color"}, ExitFailed, "undefined"},
		{"junit", []string{"features", "--dir", good, "--format", "junit"}, ExitOK, "<testsuites"},
		{"cucumber", []string{"features", "--dir", good, "--format", "cucumber"}, ExitOK, `"keyword": "Feature"`},
	}
	for _, tt := range tests {
		code, stdout, stderr := conform(t, "", tt.args...)
		if code != tt.code || !strings.Contains(stdout, tt.stdout) {
			t.Errorf("%s: conform %q = exit %d, want %d with %q in\n%s%s", tt.name, tt.args, code, tt.code, tt.stdout, stdout, stderr)
		}
	}
}

func TestFeaturesUsage(t *testing.T) {
	tests := []struct {
		args   []string
		stderr string
	}{
		{[]string{"features", "--format", "nope"}, "unknown format"},
		{[]string{"features", "no/such/dir"}, `no feature file or directory "no/such/dir"`},
		{[]string{"features", "--stdio", "x", "--http", "http://127.0.0.1:1/"}, "at most one"},
		{[]string{"features", "--http", "ftp://x"}, "not an http"},
		{[]string{"features", "--stdio", quoteArg(filepath.Join(t.TempDir(), "missing"))}, "cannot start the implementation"},
	}
	for _, tt := range tests {
		code, _, stderr := conform(t, "", tt.args...)
		if code != ExitUsage || !strings.Contains(stderr, tt.stderr) || !strings.Contains(stderr, "conform: error:") {
			t.Errorf("conform %q = exit %d, %q; want exit %d and %q", tt.args, code, stderr, ExitUsage, tt.stderr)
		}
	}
}

func TestCoverage(t *testing.T) {
	code, stdout, stderr := conform(t, "", "coverage")
	if code != ExitOK || !strings.Contains(stdout, "QUOTE-LINK-001") || !strings.Contains(stdout, "PROTO-") || !strings.Contains(stdout, " of ") {
		t.Errorf("conform coverage = exit %d\n%s%s", code, stdout, stderr)
	}
	code, stdout, _ = conform(t, "", "coverage", "-v")
	if code != ExitOK || !strings.Contains(stdout, "    vector   quote.parse/") || !strings.Contains(stdout, "    scenario quote/link.feature:") {
		t.Errorf("conform coverage -v = exit %d, want vectors and scenarios listed\n%s", code, stdout)
	}
	code, stdout, _ = conform(t, "", "coverage", "--json")
	var r struct {
		Requirements []struct {
			ID, Level string
			Vectors   []string
			Scenarios []string
		}
		Unexercised []string
	}
	if err := json.Unmarshal([]byte(stdout), &r); err != nil || code != ExitOK || len(r.Requirements) == 0 || len(r.Unexercised) != 0 {
		t.Errorf("conform coverage --json = exit %d, %v: %d requirements, unexercised %q", code, err, len(r.Requirements), r.Unexercised)
	}
	if !strings.Contains(stdout, `"seeds"`) || !strings.Contains(stdout, `"out_of_scope"`) {
		t.Errorf("conform coverage --json: no seeds with out_of_scope lists")
	}
	code, stdout, _ = conform(t, "", "coverage")
	if code != ExitOK || !strings.Contains(stdout, "seed 002 \"Selection Reference") || !strings.Contains(stdout, "    cited        \"truncate to 200 characters\": SELREF-LABEL-005 SELREF-LABEL-006") || !strings.Contains(stdout, "    out of scope \"No compaction protection in v1.\": selref.md:") {
		t.Errorf("conform coverage: want seed 002's cited and out-of-scope statements listed\n%s", stdout)
	}
	if code, _, stderr := conform(t, "", "coverage", "extra"); code != ExitUsage || !strings.Contains(stderr, "unexpected argument") {
		t.Errorf("conform coverage extra = exit %d, %q", code, stderr)
	}
}

// TestFeaturesReplayLine: the summary's replay line of a failed scenario is
// a command that runs that scenario alone (an outline with all its rows),
// against the same implementation, and fails it again.
func TestFeaturesReplayLine(t *testing.T) {
	t.Setenv(liarEnv, "surrogate")
	liar := quoteArg(os.Args[0])
	code, stdout, stderr := conform(t, "", "features", "--stdio", liar, "--format", "progress", "--no-color", "--tags", "@QUOTE-ANCHOR-002")
	i := strings.Index(stdout, "    replay: ")
	if code != ExitFailed || i < 0 {
		t.Fatalf("features against the surrogate liar = exit %d, want 1 and a replay line\n%s%s", code, stdout, stderr)
	}
	line := strings.TrimPrefix(stdout[i:i+strings.IndexByte(stdout[i:], '\n')], "    replay: ")
	args := shellWords(t, line)
	if len(args) < 4 || args[0] != "features" || args[1] != "--stdio" || args[2] != liar || !strings.HasPrefix(args[len(args)-1], "quote/anchor.feature:") {
		t.Fatalf("replay line %q reads as %q, want conform features --stdio LIAR quote/anchor.feature:LINE", line, args)
	}
	path := args[len(args)-1]
	code, again, stderr := conform(t, "", append(append(args[:len(args)-1:len(args)-1], "--format", "progress", "--no-color"), path)...)
	if code != ExitFailed || !strings.Contains(again, "1 scenario (1 failed)") || !strings.Contains(again, line) {
		t.Errorf("conform %q = exit %d, want 1 with the one scenario failing again and the same replay line\n%s%s", args, code, again, stderr)
	}
}
