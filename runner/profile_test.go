package runner

import (
	"context"
	"strings"
	"testing"

	"github.com/conform-suite/conform/internal/fixture"
)

func outcomes(results []Result) map[string]string {
	m := map[string]string{}
	for _, r := range results {
		m[r.Vector.ID] = r.Kind()
	}
	return m
}

// TestProfileGrading runs two implementations under the default profile and
// under t3code's: one that answers exactly as recorded for t3code passes
// everything under that profile and fails exactly the vectors recording a
// divergence under the default one; one that answers the specification does
// the opposite.
func TestProfileGrading(t *testing.T) {
	vs, err := fixture.ProfileVectors()
	if err != nil {
		t.Fatal(err)
	}
	asRecorded := fixture.Scripted{
		"1": `{"output": {"citation": {"text": "\udc00"}}}`,
		"2": `{"error": {"kind": "internal", "message": "another message"}}`,
		"3": `{"output": {"rejected": {"code": "QUOTE_ANY"}}}`, // a code where the record has none
		"4": `{"output": {"citation": {"text": "b"}}}`,
	}
	asSpec := fixture.Scripted{
		"1": `{"output": {"rejected": {"code": "QUOTE_SCHEME"}}}`,
		"2": `{"output": {"rejected": {"code": "QUOTE_SCHEME"}}}`,
		"3": `{"output": {"citation": {"text": "a"}}}`,
		"4": `{"output": {"citation": {"text": "b"}}}`,
	}
	wrongError := fixture.Scripted{
		"1": `{"output": {"citation": {"text": "\udc01"}}}`, // not the recorded lone surrogate
		"2": `{"error": {"kind": "bad_request", "message": "m"}}`,
		"3": `{"output": {"citation": {"text": "a"}}}`,
		"4": `{"output": {"citation": {"text": "c"}}}`,
	}
	for _, tc := range []struct {
		name    string
		impl    fixture.Scripted
		profile string
		want    map[string]string
	}{
		{"recorded under t3code", asRecorded, "t3code", map[string]string{"quote.parse/out": "pass", "quote.parse/err": "pass", "quote.parse/refuses": "pass", "quote.parse/plain": "pass"}},
		{"recorded under spec", asRecorded, "", map[string]string{"quote.parse/out": "accepted-wrongly", "quote.parse/err": "error", "quote.parse/refuses": "rejected-wrongly", "quote.parse/plain": "pass"}},
		{"recorded under vance", asRecorded, "vance", map[string]string{"quote.parse/out": "accepted-wrongly", "quote.parse/err": "error", "quote.parse/refuses": "rejected-wrongly", "quote.parse/plain": "pass"}},
		{"spec under spec", asSpec, "spec", map[string]string{"quote.parse/out": "pass", "quote.parse/err": "pass", "quote.parse/refuses": "pass", "quote.parse/plain": "pass"}},
		{"spec under t3code", asSpec, "t3code", map[string]string{"quote.parse/out": "rejected-wrongly", "quote.parse/err": "fail", "quote.parse/refuses": "accepted-wrongly", "quote.parse/plain": "pass"}},
		{"wrong under t3code", wrongError, "t3code", map[string]string{"quote.parse/out": "fail", "quote.parse/err": "fail", "quote.parse/refuses": "accepted-wrongly", "quote.parse/plain": "fail"}},
	} {
		r := &Runner{Impl: tc.impl, Profile: tc.profile, Parallel: 1}
		got := outcomes(r.Run(context.Background(), vs))
		for id, want := range tc.want {
			if got[id] != want {
				t.Errorf("%s: %s = %s, want %s", tc.name, id, got[id], want)
			}
		}
	}
	r := &Runner{Impl: wrongError, Profile: "t3code", Parallel: 1}
	res := r.Run(context.Background(), vs)
	if d := res[1].Diffs; len(d) != 1 || !strings.Contains(d[0], "want error kind internal (the answer recorded for t3code), got error kind bad_request") {
		t.Errorf("diffs of a wrong error kind = %q", d)
	}
	if res[1].Recorded == nil || res[1].Recorded.Reason != "r2" || res[3].Recorded != nil {
		t.Errorf("Recorded = %v, %v: want r2's record, then none", res[1].Recorded, res[3].Recorded)
	}
}

func TestCheckProfile(t *testing.T) {
	for _, ok := range []string{"", "spec", "seed", "t3code", "vance"} {
		if err := CheckProfile(ok); err != nil {
			t.Errorf("CheckProfile(%q) = %v", ok, err)
		}
	}
	err := CheckProfile("t3")
	if err == nil || !strings.Contains(err.Error(), `unknown profile "t3" (known: spec, seed, t3code, vance)`) {
		t.Errorf("CheckProfile(t3) = %v", err)
	}
}
