package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProfileFileRoundTrip: a built-in profile exported as a profile file
// grades every vector as the built-in profile does; a file of a team's own
// (a vector of its own and a record on a corpus vector) changes exactly
// what it records; a file with mistakes is refused with every mistake
// named.
func TestProfileFileRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for _, system := range []string{"seed", "t3code", "vance"} {
		file := filepath.Join(dir, system+".json")
		if code, _, stderr := conform(t, "", "profile", "export", system, "--out", file); code != ExitOK {
			t.Fatalf("profile export %s = exit %d\n%s", system, code, stderr)
		}
		builtIn, fromFile := filepath.Join(dir, system+"-builtin.json"), filepath.Join(dir, system+"-file.json")
		conform(t, "", "run", "--profile", system, "--json", builtIn, "--text", os.DevNull)
		conform(t, "", "run", "--profile-file", file, "--json", fromFile, "--text", os.DevNull)
		a, b := readJSONReport(t, builtIn), readJSONReport(t, fromFile)
		if a.Profile != system || b.Profile != system || a.Totals != b.Totals || len(a.Results) != len(b.Results) {
			t.Fatalf("%s: built-in profile %s %+v, from the file %s %+v", system, a.Profile, a.Totals, b.Profile, b.Totals)
		}
		for i := range a.Results {
			if a.Results[i].ID != b.Results[i].ID || a.Results[i].Outcome != b.Results[i].Outcome {
				t.Errorf("%s: %s %s under the built-in profile, %s %s from the file", system, a.Results[i].ID, a.Results[i].Outcome, b.Results[i].ID, b.Results[i].Outcome)
			}
		}
	}

	// A team's own profile: the reference "diverges" on one corpus vector
	// it answers right (recorded with another answer) and on a vector of
	// the file, so both fail under it while the rest passes.
	own := filepath.Join(dir, "own.json")
	os.WriteFile(own, []byte(`{"profile": "incumbent", "records": [
  {"vector": "quote.normalize/own-vector", "reason": "the incumbent keeps tabs", "output": {"text": "a\tb"}},
  {"vector": "quote.parse/minimal-valid", "reason": "the incumbent refuses it", "output": {"rejected": {"code": "X"}}}],
 "vectors": [{"op": "quote.normalize", "description": "own", "vectors": [{"id": "quote.normalize/own-vector", "description": "a tab",
   "requirements": ["QUOTE-ANCHOR-004"], "input": {"text": "a\tb"}, "expect": {"output": {"text": "a b"}}}]}]}`), 0o644)
	code, stdout, stderr := conform(t, "", "run", "--profile-file", own, "--op", "quote.normalize,quote.parse")
	for _, want := range []string{"FAIL        quote.normalize/own-vector", "ACCEPTED-WRONGLY quote.parse/minimal-valid", "profile: incumbent (2 vectors graded against the answers recorded for incumbent"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("run --profile-file own.json: no %q\n%s%s", want, lastLines(stdout, 12), stderr)
		}
	}
	if code != ExitFailed || !strings.HasSuffix(stdout, " 2 failed\n") {
		t.Errorf("run --profile-file own.json = exit %d, want 1 with 2 failures\n%s", code, lastLines(stdout, 3))
	}

	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"profile": "incumbent", "records": [
  {"vector": "quote.parse/no-such-vector", "reason": "x", "output": {}},
  {"vector": "quote.parse/minimal-valid", "reason": "", "output": {}, "error": {"kind": "internal"}}]}`), 0o644)
	code, _, stderr = conform(t, "", "run", "--profile-file", bad)
	for _, want := range []string{`no vector "quote.parse/no-such-vector"`, "give exactly one of output and error"} {
		if code != ExitUsage || !strings.Contains(stderr, want) {
			t.Errorf("run --profile-file bad.json = exit %d: no %q in\n%s", code, want, stderr)
		}
	}
	if code, _, stderr := conform(t, "", "run", "--profile-file", own, "--profile", "vance"); code != ExitUsage || !strings.Contains(stderr, "not both") {
		t.Errorf("--profile with --profile-file = exit %d\n%s", code, stderr)
	}
}
