package fuzz

import (
	"strings"
	"testing"

	"github.com/conform-suite/conform/runner"
)

// TestKnownClassesGeneralise measures, on the inputs fuzzing found against
// the real systems (the corpus's fuzz-t3code and fuzz-vance vectors, from
// shared/facts/observed), whether a divergence class reaches past the
// input recorded: for each such vector, whether the system's other
// records (the profile without it) already hold its class. A class that
// held only its own input would explain nothing new.
func TestKnownClassesGeneralise(t *testing.T) {
	c := corpusOf(t)
	for _, system := range []string{"t3code", "vance"} {
		counts := map[string]int{}
		for _, v := range c.Vectors() {
			if sig := recordedClass(v, system); sig != "" {
				counts[sig]++
			}
		}
		observed, explained := 0, 0
		for _, v := range c.Vectors() {
			if !strings.Contains(v.ID, "/fuzz-"+system+"-") {
				continue
			}
			sig := recordedClass(v, system)
			if sig == "" {
				continue
			}
			observed++
			if counts[sig] > 1 {
				explained++
			}
		}
		t.Logf("%s: %d of %d fuzz-found divergences are explained by the profile's other records (%d classes in all)", system, explained, observed, len(counts))
		if observed == 0 || explained*10 < observed*6 {
			t.Errorf("%s: %d of %d fuzz-found divergences explained by the other records, want at least 60%%", system, explained, observed)
		}
	}
}

// TestProfileKnownDivergences fuzzes the comment refuser (every href
// holding a comment refused with one code) under a profile that records
// that behaviour on two vectors of the corpus only: the fuzzer meets it on
// many new inputs and counts every one as known, making no finding; a
// second, new divergence of the same op is still found.
func TestProfileKnownDivergences(t *testing.T) {
	c := corpusOf(t)
	profile := []byte(`{"profile": "incumbent", "records": [
  {"vector": "quote.parse/comment-present", "reason": "refuses comments", "output": {"rejected": {"code": "QUOTE_COMMENT_UNSUPPORTED"}}},
  {"vector": "quote.parse/duplicate-comment-field", "reason": "refuses comments", "output": {"rejected": {"code": "QUOTE_COMMENT_UNSUPPORTED"}}}]}`)
	name, err := c.ApplyProfile("incumbent.json", profile)
	if err != nil {
		t.Fatal(err)
	}
	known := Known(c, name)
	if len(known) != 2 {
		t.Fatalf("Known = %v, want the two records' classes", known)
	}
	run := func(impl runner.Implementation) *Report { return parseRun(t, 3, Config{Impl: impl, Known: known}) }
	rep := run(commentRefuser{})
	hits := 0
	for _, n := range rep.Known {
		hits += n
	}
	if len(rep.Findings) != 0 || hits < 100 {
		t.Errorf("the recorded behaviour: %d findings, %d known hits; want none and the behaviour met again and again", len(rep.Findings), hits)
	}
	rep = run(commentRefuser{zeroStart: true})
	if len(rep.Findings) != 1 || !strings.Contains(rep.Findings[0].Signature, "$.citation.start=value") {
		var sigs []string
		for _, f := range rep.Findings {
			sigs = append(sigs, f.Signature)
		}
		t.Errorf("a new divergence besides the recorded one: findings %q, want the start alone", sigs)
	}
}
