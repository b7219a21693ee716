package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/conform-suite/conform/internal/fakeimpl"
)

// CLI manners: what a user who slips is told.
func TestCLIManners(t *testing.T) {
	for _, tt := range []struct {
		args []string
		code int
		want []string // in stdout and stderr together
	}{
		// fuzz -h gives fuzz's own restart budget as the default.
		{[]string{"fuzz", "-h"}, ExitOK, []string{"restarted (default 1000)", "comma separated: --op a,b"}},
		// -h says that --op and --suite take comma-separated lists.
		{[]string{"run", "-h"}, ExitOK, []string{"or comma separated (--op quote.parse,marker.strip)"}},
		// A value given to --require-ops after a space is taken for an argument: the hint shows '='.
		{[]string{"run", "--require-ops", "quote.parse"}, ExitUsage, []string{`unexpected argument "quote.parse"`, "--require-ops takes a value only after '=': --require-ops=quote.parse"}},
		// A misspelt op of --require-ops= is reported against that flag, not --op.
		{[]string{"run", "--require-ops=marker.strp"}, ExitUsage, []string{`--require-ops="marker.strp": no vector of the corpus has this op`}},
		{[]string{"features", "--require-ops=marker.strp"}, ExitUsage, []string{`--require-ops="marker.strp": no vector of the corpus has this op`}},
		// A profile name that could not be read back (nor be a file name in
		// the working directory) is refused before anything runs.
		{[]string{"fuzz", "--oracle", "true", "--record-profile", "../x"}, ExitUsage, []string{`--record-profile: profile "../x": want a name of lower-case letters`}},
		// Flags may follow arguments; after "--" everything is an argument.
		{[]string{"explain", "quote.parse/comment-ascii-at-limit", "--vectors", "/nonexistent"}, ExitUsage, []string{"--vectors /nonexistent: not a directory"}},
		{[]string{"features", "nofile.feature", "--format", "bogus"}, ExitUsage, []string{`--format: unknown format "bogus"`}},
		{[]string{"explain", "--", "--vectors"}, ExitUsage, []string{`no vector has the id "--vectors"`}},
		// explain given a requirement, or an op, says where to look.
		{[]string{"explain", "QUOTE-LINK-002"}, ExitUsage, []string{"QUOTE-LINK-002 is a requirement: 'conform list --req QUOTE-LINK-002' lists its vectors"}},
		{[]string{"explain", "marker.strip"}, ExitUsage, []string{"'conform list --id '*marker.strip*'' lists the"}},
		// A value of a selection flag that selects nothing on its own is
		// refused, though other values of the flag select something.
		{[]string{"run", "--id", "quote.parse/*", "--id", "quote.prase/*"}, ExitUsage, []string{`--id "quote.prase/*": no vector id of the corpus matches this pattern`}},
		{[]string{"list", "--tag", "astral", "--tag", "astrall"}, ExitUsage, []string{`--tag "astrall": no vector of the corpus has this tag (tags: ascii, astral,`}},
		{[]string{"run", "--req", "QUOTE-LINK-002", "--req", "QUOTE-LNK-003"}, ExitUsage, []string{`--req "QUOTE-LNK-003": no vector of the corpus names this requirement`}},
		{[]string{"run", "--req", "NOPE-"}, ExitUsage, []string{`--req "NOPE-": no vector of the corpus names this requirement`}},
		{[]string{"run", "--parallel", "-1"}, ExitUsage, []string{"--parallel -1: give a positive number, or 0 for 4 per CPU"}},
		{[]string{"run", "--batch", "0"}, ExitUsage, []string{"--batch 0: give a positive number"}},
		// A choice no vector depends on would change nothing.
		{[]string{"run", "--choice", "case=upper"}, ExitUsage, []string{"--choice case: no vector of the corpus depends on an implementation-defined choice"}},
		// A selection of no scenario is bad usage, as an empty selection of vectors.
		{[]string{"features", "--tags", "@marker"}, ExitUsage, []string{"no scenario matches the selection (--tags @marker)", "whole ids only"}},
		{[]string{"features", "marker/strip.feature:3"}, ExitUsage, []string{"no scenario matches the selection (marker/strip.feature:3)"}},
		// Reports of features that would interleave, or could not be
		// written, are refused before any scenario runs.
		{[]string{"features", "--format", "pretty,progress"}, ExitUsage, []string{"--format: pretty and progress both write to standard output: give one of them a file (progress:FILE)"}},
		{[]string{"features", "--format", "junit:a.xml,cucumber:a.xml"}, ExitUsage, []string{"junit and cucumber both write to a.xml: give each a file of its own"}},
		{[]string{"features", "--format", "progress,junit:"}, ExitUsage, []string{`"junit:": give a file after the colon`}},
		{[]string{"features", "--format", "junit:/dev/null/x.xml"}, ExitUsage, []string{"conform: error: --format junit:/dev/null/x.xml: /dev/null is not a directory"}},
		// run's reports: none written over another, each file checked
		// before the implementation is started.
		{[]string{"run", "--json", "-", "--tap", "-"}, ExitUsage, []string{"--json and --tap both write to standard output: give each a file of its own"}},
		{[]string{"run", "--text", "-", "--junit", "-"}, ExitUsage, []string{"--text and --junit both write to standard output"}},
		{[]string{"run", "--stdio", "sleep 3600", "--json", "/dev/null/a.json"}, ExitUsage, []string{"conform: error: --json: /dev/null is not a directory"}},
		// fuzz's --out is checked before fuzzing, not when a finding is written.
		{[]string{"fuzz", "--count", "1", "--out", "/dev/null/findings"}, ExitUsage, []string{"conform: error: --out /dev/null/findings: /dev/null is not a directory"}},
		{[]string{"features", "-h"}, ExitOK, []string{"--tags"}},
		{[]string{"doctor", "-h"}, ExitOK, []string{"Usage: conform doctor"}},
		{[]string{"serve", "-h"}, ExitOK, []string{"Usage: conform serve"}},
		{[]string{"list", "-h"}, ExitOK, []string{"Usage: conform list"}},
		{[]string{"export", "-h"}, ExitOK, []string{"Usage: conform export"}},
		{[]string{"fuzzkit", "-h"}, ExitOK, []string{"Usage: conform fuzzkit"}},
		{[]string{"report", "-h"}, ExitOK, []string{"Usage: conform report"}},
		{[]string{"coverage", "-h"}, ExitOK, []string{"Usage: conform coverage"}},
		// An implementation that never answers hello (here one that never
		// reads) gets the hint that stdout must be flushed; the bound is the
		// hello's own, one second at the least.
		{[]string{"run", "--stdio", "sleep 3600", "--timeout", "1ms"}, ExitUsage, []string{"no answer to hello", "must flush each answer line"}},
	} {
		code, stdout, stderr := conform(t, "", tt.args...)
		if strings.HasSuffix(tt.args[len(tt.args)-1], "-h") {
			// The prose of -h (before the flags) is wrapped at 80 columns.
			prose, _, _ := strings.Cut(stdout, "\nFlags:")
			for _, l := range strings.Split(prose, "\n")[1:] { // the usage line may be long
				if len([]rune(l)) > 80 {
					t.Errorf("conform %q: a line of %d characters in the help: %q", tt.args, len([]rune(l)), l)
				}
			}
		}
		out := stdout + stderr
		if code != tt.code {
			t.Errorf("conform %q = exit %d, want %d\n%s", tt.args, code, tt.code, out)
		}
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("conform %q: no %q in\n%s", tt.args, w, out)
			}
		}
	}
}

// An error of many problems (a vectors directory of bad files) is printed
// a problem a line, the first twenty, then how many more there are.
func TestErrorOfManyLines(t *testing.T) {
	dir := t.TempDir()
	for i := range 25 {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("v%02d.json", i)), []byte(`{"x": 1}`), 0o644)
	}
	code, _, stderr := conform(t, "", "run", "--vectors", dir)
	lines := strings.Split(strings.TrimRight(stderr, "\n"), "\n")
	if code != ExitUsage || len(lines) != 21 {
		t.Fatalf("exit %d, %d lines, want %d and 21:\n%s", code, len(lines), ExitUsage, stderr)
	}
	for i, l := range lines[:20] {
		if want := fmt.Sprintf("conform: error: vectors: v%02d.json: ", i); !strings.HasPrefix(l, want) {
			t.Errorf("line %d = %q, want it to begin %q", i+1, l, want)
		}
	}
	if lines[20] != "conform: error: … and 5 more" {
		t.Errorf("last line = %q", lines[20])
	}
}

// --choice names a choice some vector depends on and one of its values;
// the value picks the output the vector is judged against.
func TestChoiceFlag(t *testing.T) {
	dir := echoDir(t)
	vec := `{"op":"echo.echo","description":"Echo, by a choice.","vectors":[{"id":"echo.echo/by-choice","description":"echo by choice","requirements":["PROTO-FRAME-001"],"input":{"text":"a"},"expect":{"choice":"echo-case","outputs":{"same":{"text":"a"},"upper":{"text":"A"}}}}]}`
	if err := os.WriteFile(filepath.Join(dir, "echo", "choice.json"), []byte(vec), 0o644); err != nil {
		t.Fatal(err)
	}
	impl := self(t, fakeimpl.Echo)
	for _, tt := range []struct {
		choice string
		code   int
		want   string
	}{
		{"echo-case=same", ExitOK, "1 passed, 0 failed"},
		{"echo-case=upper", ExitFailed, "0 passed, 1 failed"},
		{"echo-case=lower", ExitUsage, "--choice echo-case=lower: no vector of the corpus has an output for this value (values: same, upper)"},
		{"case=same", ExitUsage, "--choice case: no vector of the corpus depends on this choice (choices: echo-case)"},
	} {
		code, stdout, stderr := conform(t, "", "run", "--vectors", dir, "--stdio", impl, "--id", "echo.echo/by-choice", "--choice", tt.choice)
		if code != tt.code || !strings.Contains(stdout+stderr, tt.want) {
			t.Errorf("run --choice %s = exit %d, want %d and %q in\n%s%s", tt.choice, code, tt.code, tt.want, stdout, stderr)
		}
	}
}

// A report sent to standard output keeps it to itself: the human report,
// not asked for with --text, goes to standard error.
func TestReportToStdout(t *testing.T) {
	code, stdout, stderr := conform(t, "", "run", "--op", "quote.normalize", "--json", "-")
	var rep struct{ Results []json.RawMessage }
	if err := json.Unmarshal([]byte(stdout), &rep); code != ExitOK || err != nil || len(rep.Results) == 0 {
		t.Errorf("run --json - = exit %d, stdout not a JSON report (%v):\n%s", code, err, stdout)
	}
	if !strings.HasSuffix(stderr, " passed, 0 failed\n") {
		t.Errorf("run --json -: the human report is not on standard error:\n%s", stderr)
	}
}

// Checking a report's file before the run changes nothing there: a run
// whose implementation cannot start keeps the last report.
func TestReportFileKeptWhenRunCannotStart(t *testing.T) {
	p := filepath.Join(t.TempDir(), "last.json")
	if err := os.WriteFile(p, []byte("the last report\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := conform(t, "", "run", "--stdio", "sh -c 'exit 3'", "--json", p)
	if got, _ := os.ReadFile(p); code != ExitUsage || string(got) != "the last report\n" {
		t.Errorf("run against an implementation that cannot start = exit %d, the report file holds %q\n%s", code, got, stderr)
	}
	if code, _, stderr := conform(t, "", "run", "--json", filepath.Dir(p)); code != ExitUsage || !strings.Contains(stderr, "is a directory") {
		t.Errorf("run --json DIR = exit %d\n%s", code, stderr)
	}
}
