package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestLedgerParts reads both parts of the checked-in ledger: every entry has
// a reason, and no mutant is in both parts.
func TestLedgerParts(t *testing.T) {
	eq, err := Equivalents("equivalent.txt")
	if err != nil {
		t.Fatal(err)
	}
	unj, err := Equivalents("unjudgeable.txt")
	if err != nil {
		t.Fatal(err)
	}
	for id := range unj {
		if eq[id] != "" {
			t.Errorf("%s is in both equivalent.txt and unjudgeable.txt", id)
		}
	}
	// A missing part is empty, not an error.
	if m, err := Equivalents(filepath.Join(t.TempDir(), "none.txt")); err != nil || len(m) != 0 {
		t.Errorf("Equivalents(missing file) = %v, %v, want an empty part", m, err)
	}
}

// TestSummaryCountsUnjudgeableAsNotKilled: 6 killed, 2 equivalent, 2
// unjudgeable make a kill rate of 6/8, and the report shows both counts and
// where the verdicts came from.
func TestSummaryCountsUnjudgeableAsNotKilled(t *testing.T) {
	var all []*Entry
	add := func(n int, st Status, eq, unj string, cached bool) {
		for range n {
			all = append(all, &Entry{Mutation: &Mutation{ID: "x", File: "reference/f.go", Kind: "k"}, Result: Result{Status: st}, Judged: true, Cached: cached, Equivalent: eq, Unjudgeable: unj})
		}
	}
	add(6, Killed, "", "", true)
	add(2, Survived, "same answers", "", false)
	add(2, Survived, "", "only a capacity", false)
	s := Summarize(all, &Options{Workers: 2, EqCheck: time.Second}, time.Second, 0, nil)
	s.Commit, s.GoVersion = "abc123", "go1.26"
	if got := s.KillRate(); got != 75 {
		t.Errorf("KillRate() = %v, want 75 (unjudgeable count as not killed)", got)
	}
	if len(s.Survivors) != 0 || s.Equivalent != 2 || s.Unjudgeable != 2 {
		t.Errorf("survivors %d, equivalent %d, unjudgeable %d; want 0, 2, 2", len(s.Survivors), s.Equivalent, s.Unjudgeable)
	}
	md := s.Markdown()
	for _, want := range []string{"| commit | abc123 |", "| Go | go1.26 |", "| unjudgeable through protocol v1 (tools/mutants/unjudgeable.txt; not killed) | 2 |",
		"| verdicts judged afresh by this run | 4 |", "| verdicts taken from the cache | 6 |", "**75.0%**"} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q", want)
		}
	}
}

// TestTimeoutOfASlowMutant: an unjudgeable mutant killed by a judging
// command's time bound is counted as unjudgeable and contradicts no ledger
// entry; killed by a wrong answer, or listed as equivalent, it does.
func TestTimeoutOfASlowMutant(t *testing.T) {
	entry := func(id string, r Result, eq, unj string) *Entry {
		return &Entry{Mutation: &Mutation{ID: id, File: "reference/f.go", Kind: "k"}, Result: r, Judged: true, Equivalent: eq, Unjudgeable: unj}
	}
	timedOut := Result{Status: Killed, Detail: "conform run: timeout after 30s", TimedOut: true}
	all := []*Entry{
		entry("slow", timedOut, "", "only the time"),
		entry("wrong", Result{Status: Killed, Detail: "conform run: exit status 1"}, "", "only the time"),
		entry("eq-slow", timedOut, "same answers", ""),
		entry("killed", Result{Status: Killed}, "", ""),
	}
	settleSlow(all)
	s := Summarize(all, &Options{Workers: 2}, time.Second, 0, nil)
	if s.Unjudgeable != 1 || s.Counts[Killed] != 3 || s.KillRate() != 75 {
		t.Errorf("unjudgeable %d, killed %d, rate %v; want 1, 3, 75", s.Unjudgeable, s.Counts[Killed], s.KillRate())
	}
	if md := s.Markdown(); !strings.Contains(md, "only the time (this run: conform run: timeout after 30s)") {
		t.Errorf("the unjudgeable table does not say the slow mutant timed out:\n%s", md)
	}
	problems := verdictProblems(&Options{Equivalent: "eq.txt", Unjudgeable: "unj.txt"}, all)
	var ids []string
	for _, p := range problems {
		ids = append(ids, strings.Fields(p)[2])
	}
	if !slices.Equal(ids, []string{"wrong,", "eq-slow,"}) {
		t.Errorf("problems %q, want the unjudgeable one killed by an answer and the equivalent one timed out", problems)
	}
}

// TestJudgeKey: the judge key changes with a vector file, a feature file, the
// runner's comparison, the judging command line and the Go version, and not
// with the ledger or a test file.
func TestJudgeKey(t *testing.T) {
	root := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("vectors/quote/parse.json", `{"op":"quote.parse"}`)
	write("features/a.feature", "Feature: a\n")
	write("runner/compare.go", "package runner\n")
	write("tools/mutants/equivalent.txt", "a:b:c:1  # why\n")
	key := func() string {
		k, err := JudgeKey(root, "conform run", "go1.26")
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	base := key()
	if key() != base {
		t.Fatal("JudgeKey is not stable")
	}
	changes := []struct {
		rel, text string
		changes   bool
	}{
		{"vectors/quote/parse.json", `{"op":"quote.parse","x":1}`, true},
		{"features/a.feature", "Feature: b\n", true},
		{"runner/compare.go", "package runner // looser\n", true},
		{"tools/mutants/equivalent.txt", "a:b:c:2  # why\n", false},
		{"runner/compare_test.go", "package runner\n", false},
	}
	for _, c := range changes {
		before := key()
		write(c.rel, c.text)
		if after := key(); (after != before) != c.changes {
			t.Errorf("writing %s: key changed %v, want %v", c.rel, after != before, c.changes)
		}
	}
	// Deleting a vector file changes it too.
	before := key()
	if err := os.Remove(filepath.Join(root, "vectors/quote/parse.json")); err != nil {
		t.Fatal(err)
	}
	if key() == before {
		t.Error("deleting a vector file left the judge key unchanged")
	}
	k1, _ := JudgeKey(root, "conform run", "go1.26")
	k2, _ := JudgeKey(root, "conform run --looser", "go1.26")
	k3, _ := JudgeKey(root, "conform run", "go1.27")
	if k1 == k2 || k1 == k3 {
		t.Error("the judge key ignores the command line or the Go version")
	}
}

// TestEquivalenceCheck plants two mutants of quote.normalize, builds conform
// with each, and fuzzes each against the unmutated conform: the one that
// answers differently fails the check, the one that only adds a statement
// without effect passes it.
func TestEquivalenceCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("builds conform three times")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	const file = "reference/quote/anchor_ops.go"
	src, err := os.ReadFile(filepath.Join(root, file))
	if err != nil {
		t.Fatal(err)
	}
	loc := regexp.MustCompile(`func normalizeOp\([^)]*\) \(any, error\) \{\n`).FindIndex(src)
	if loc == nil {
		t.Fatalf("%s has no normalizeOp", file)
	}
	at := loc[1]
	planted := func(text string) *Mutation {
		return &Mutation{ID: "planted", File: file, Edits: []Edit{{Start: at, End: at, Text: text}}}
	}
	ctx := context.Background()
	// A sample of 300 inputs each way: the full check (make mutants) fuzzes
	// for -eqcheck each way.
	j := &Judge{Root: root, Tmp: t.TempDir(), Timeout: 10 * time.Minute, EqCheck: time.Second, EqCount: 300}
	dir := filepath.Join(j.Tmp, "baseline")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if j.baseline, err = j.build(ctx, dir, ""); err != nil {
		t.Fatal(err)
	}
	build := func(worker int, m *Mutation) (string, string) {
		wdir := filepath.Join(j.Tmp, "w", string(rune('a'+worker)))
		if err := os.MkdirAll(wdir, 0o755); err != nil {
			t.Fatal(err)
		}
		mutated := filepath.Join(wdir, filepath.Base(file))
		ov, _ := Overlay(filepath.Join(root, file), mutated)
		if err := os.WriteFile(mutated, m.Apply(src), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(wdir, "overlay.json"), ov, 0o644); err != nil {
			t.Fatal(err)
		}
		bin, err := j.build(ctx, wdir, filepath.Join(wdir, "overlay.json"))
		if err != nil {
			t.Fatalf("build: %v", err)
		}
		return wdir, bin
	}
	wdir, bin := build(0, planted("\tif input != nil {\n\t\treturn map[string]string{\"text\": \"planted\"}, nil\n\t}\n"))
	if msg := j.Equivalence(ctx, wdir, bin, file, ""); msg == "" {
		t.Error("a mutant of quote.normalize that answers every input with a fixed text passed the equivalence check")
	}
	wdir, bin = build(1, planted("\t_ = input != nil\n"))
	if msg := j.Equivalence(ctx, wdir, bin, file, ""); msg != "" {
		t.Errorf("a mutant that changes no answer failed the equivalence check: %s", msg)
	}
}

// TestPartialReportSaysSo: a run restricted by -run says in its header that
// it is partial, names the regexp and the files it judged, leaves the
// unselected mutants out of its tables, and labels its kill rate as one over
// what it judged; a run over every mutant says so and has no such label.
func TestPartialReportSaysSo(t *testing.T) {
	mk := func(id, file string, st Status, cached bool) *Entry {
		return &Entry{Mutation: &Mutation{ID: id, File: file, Kind: "k"}, Result: Result{Status: st}, Judged: true, Cached: cached}
	}
	// The selected file's mutants: 3 killed (1 from the cache), 1 survived.
	// The other file's are not judged: a restricted run leaves them alone.
	all := []*Entry{
		mk("a/one.go:f:k:1", "reference/a/one.go", Killed, true),
		mk("a/one.go:f:k:2", "reference/a/one.go", Killed, false),
		mk("a/one.go:f:k:3", "reference/a/one.go", Killed, false),
		mk("a/one.go:f:k:4", "reference/a/one.go", Survived, false),
		{Mutation: &Mutation{ID: "b/two.go:g:k:1", File: "reference/b/two.go", Kind: "k"}},
		{Mutation: &Mutation{ID: "b/two.go:g:k:2", File: "reference/b/two.go", Kind: "k"}},
	}
	o := &Options{Workers: 1, EqCheck: time.Second, Run: regexp.MustCompile(`^a/one\.go:`)}
	s := Summarize(all, o, time.Second, 0, nil)
	s.Commit, s.GoVersion = "abc123", "go1.26"
	if !s.Partial() || s.NotSelected != 2 || s.Judged() != 4 || s.NotJudged != 0 {
		t.Fatalf("Partial %v, not selected %d, judged %d, not judged %d; want true, 2, 4, 0", s.Partial(), s.NotSelected, s.Judged(), s.NotJudged)
	}
	md := s.Markdown()
	for _, want := range []string{
		"**This run was partial: only the 4 of 6 mutants whose id matches `^a/one\\.go:`. Its figures",
		"| scope of this run | partial: only the 4 of 6 mutants whose id matches `^a/one\\.go:` |",
		"| files judged by this run (1) | reference/a/one.go |",
		"| left out by -run (not judged) | 2 |",
		"| verdicts judged afresh by this run | 3 |",
		"| verdicts taken from the cache | 1 |",
		"| **kill rate over the 4 mutants judged by this run only** (killed / (compiled − equivalent)) | **75.0%** |",
		"| reference/a/one.go | 4 | 0 | 3 | 0 | 0 | 1 |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("partial report lacks %q", want)
		}
	}
	for _, unwanted := range []string{"kill rate over every mutant", "reference/b/two.go |", "| scope of this run | every mutant"} {
		if strings.Contains(md, unwanted) {
			t.Errorf("partial report says %q", unwanted)
		}
	}
	if line := s.Line(); !strings.Contains(line, "partial") || !strings.Contains(line, "kill rate over the 4 judged") {
		t.Errorf("summary line %q does not say the run was partial", line)
	}

	// A budget that runs out makes a run partial too.
	all[4].Judged, all[5].Judged = false, false
	b := Summarize(all, &Options{Workers: 1, EqCheck: time.Second, Budget: time.Minute}, time.Second, 0, nil)
	if !b.Partial() || b.NotJudged != 2 || !strings.Contains(b.Markdown(), "the budget of 1m0s ran out with 2 of them not judged") {
		t.Errorf("a run stopped by its budget is not reported as partial: %s", b.Scope())
	}

	// Every mutant judged: the scope says so and the kill rate is the whole suite's.
	all = all[:4]
	f := Summarize(all, &Options{Workers: 1, EqCheck: time.Second}, time.Second, 0, nil)
	fmd := f.Markdown()
	if f.Partial() || !strings.Contains(fmd, "| scope of this run | every mutant (4) |") || !strings.Contains(fmd, "**kill rate over every mutant**") || strings.Contains(fmd, "partial") {
		t.Errorf("a run over every mutant is not reported as whole:\n%s", fmd[:min(len(fmd), 1500)])
	}
}

// TestNoRateOverNothing: a run that judged no killable mutant shows no
// kill rate, rather than 100% of nothing.
func TestNoRateOverNothing(t *testing.T) {
	s := &Summary{Options: &Options{}, Counts: map[Status]int{}}
	if line := s.Line(); strings.Contains(line, "%") || !strings.Contains(line, "none (no mutant was judged") {
		t.Errorf("Line() = %q, want no rate", line)
	}
}

// TestJudgeRootsHoldTheBinary: a package of the module that the conform
// command links but no judge root holds could change the verdicts without
// changing the cache key.
func TestJudgeRootsHoldTheBinary(t *testing.T) {
	const module = "github.com/conform-suite/conform/"
	cmd := exec.Command("go", "list", "-deps", "./cmd/conform")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for pkg := range strings.Lines(string(out)) {
		rel, ok := strings.CutPrefix(strings.TrimSpace(pkg), module)
		if !ok {
			continue
		}
		held := false
		for _, root := range judgeRoots {
			if rel == root || strings.HasPrefix(rel, root+"/") {
				held = true
			}
		}
		if !held {
			t.Errorf("the conform command links %s, which no judge root holds", rel)
		}
	}
}
