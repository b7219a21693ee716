package runner

import (
	"bytes"
	"strings"
	"testing"

	"github.com/conform-suite/conform/internal/fixture"
)

func TestParseExpectations(t *testing.T) {
	in := "# known failures\n\nquote.parse/duplicate-text  # issue 12: we keep the first\nmarker.strip/astral-offset\n"
	e, err := ParseExpectations(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []Expectation{{"quote.parse/duplicate-text", "issue 12: we keep the first", 3}, {"marker.strip/astral-offset", "", 4}}
	if len(e.Entries) != len(want) {
		t.Fatalf("ParseExpectations() = %+v, want %+v", e.Entries, want)
	}
	for i := range want {
		if e.Entries[i] != want[i] {
			t.Errorf("entry %d = %+v, want %+v", i, e.Entries[i], want[i])
		}
	}
	for _, bad := range []string{"a b # two words\n", "x/y\nx/y # again\n"} {
		if _, err := ParseExpectations(strings.NewReader(bad)); err == nil {
			t.Errorf("ParseExpectations(%q) = nil error, want one", bad)
		}
	}
}

func TestExpectationsApply(t *testing.T) {
	vs := fixture.Vectors()
	results := []Result{
		{Vector: vs[0], Outcome: Fail},        // listed: xfail
		{Vector: vs[1], Outcome: Pass},        // listed: xpass
		{Vector: vs[2], Outcome: Fail},        // not listed: fail
		{Vector: vs[3], Outcome: Unsupported}, // listed: stays unsupported
		{Vector: vs[4], Outcome: Crash},       // listed: xfail
	}
	e, err := ParseExpectations(strings.NewReader(
		vs[0].ID + " # known\n" + vs[1].ID + " # fixed since\n" + vs[3].ID + "\n" + vs[4].ID + "\nquote.parse/gone # renamed\n"))
	if err != nil {
		t.Fatal(err)
	}
	stale := e.Apply(results, vs)
	want := []Outcome{XFail, XPass, Fail, Unsupported, XFail}
	for i, w := range want {
		if results[i].Outcome != w {
			t.Errorf("%s: outcome %s, want %s", results[i].Vector.ID, results[i].Outcome, w)
		}
	}
	if len(stale) != 1 || stale[0].ID != "quote.parse/gone" {
		t.Errorf("Apply stale = %+v, want only quote.parse/gone", stale)
	}
	rep := &Report{Results: results, Stale: stale}
	tot := rep.Totals()
	// fail + xpass fail; unsupported and 2 xfail skip; the stale entry is
	// counted apart from the 5 vectors, and fails the run.
	if tot.Total != 5 || tot.Passed != 0 || tot.Failed != 2 || tot.Skipped != 3 || tot.Stale != 1 {
		t.Errorf("Totals() = %+v, want 5 vectors: 0 passed, 2 failed, 3 skipped; 1 stale", tot)
	}
	if !(&Report{Results: []Result{{Vector: results[0].Vector, Outcome: Pass}}, Stale: stale}).Failed() {
		t.Errorf("a run whose only fault is a stale entry did not fail")
	}
}

func TestWriteExpectationsRoundTrip(t *testing.T) {
	vs := fixture.Vectors()
	results := []Result{
		{Vector: vs[0], Outcome: Fail, Comparison: AcceptedWrongly, Diffs: []string{"$: want {\"rejected\":{}}, got {}"}},
		{Vector: vs[1], Outcome: Pass},
		{Vector: vs[2], Outcome: Timeout, Detail: "no answer within 1s"},
		{Vector: vs[3], Outcome: Unsupported},
	}
	var b bytes.Buffer
	if err := WriteExpectations(&b, results); err != nil {
		t.Fatal(err)
	}
	e, err := ParseExpectations(&b)
	if err != nil {
		t.Fatalf("ParseExpectations(WriteExpectations()) = %v\n%s", err, b.String())
	}
	var got []string
	for _, x := range e.Entries {
		got = append(got, x.ID+" | "+x.Reason)
	}
	want := []string{"quote.format/plain | timeout: no answer within 1s", "quote.parse/duplicate-text | accepted-wrongly: $: want {\"rejected\":{}}, got {}"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("written entries:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Applying the written file to the same results leaves no failure.
	stale := e.Apply(results, vs)
	rep := &Report{Results: results, Stale: stale}
	if rep.Failed() {
		t.Errorf("the run still fails after applying its own expectations: %+v", rep.Totals())
	}
}
