package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
	"time"
)

// The call graph sends the equivalence check of a mutant to the ops that
// can show it: a function of quote.dom_text's HTML walk to that op alone
// (a mutant there once passed a check spread over all 16 quote ops), the
// marker scan to the three ops that strip, a shared helper to every op
// that uses it.
func TestReachOps(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	r, err := buildReach(root)
	if err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string][]string{
		"quote/anchor_dom.go:excluded":   {"quote.dom_text"},
		"marker/strip.go:Strip":          {"marker.artifact", "marker.strip"},
		"marker/grammar.go:machine.step": {"marker.artifact", "marker.stream", "marker.strip"},
		"marker/ops.go:locateOp":         {"marker.locate"},
	} {
		if got := r[key]; !slices.Equal(got, want) {
			t.Errorf("ops reaching %s = %v, want %v", key, got, want)
		}
	}
	if len(r) < 100 {
		t.Errorf("the graph knows %d functions of the reference; want them all", len(r))
	}
}

// quote/anchor_dom.go:excluded:and-or:1 (an element named svg excluded
// outside the SVG namespace too) passed the equivalence check when it was
// spread over every quote op. Built without the vector that kills it, the
// mutant fails the check now that it fuzzes the ops the call graph finds
// reaching excluded: quote.dom_text alone. The count keeps the run short;
// make mutants fuzzes for -eqcheck each way.
func TestEquivalenceCheckFindsTheMathMLSvgMutant(t *testing.T) {
	if testing.Short() {
		t.Skip("builds conform twice")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	replace := func(rel string, edit func([]byte) []byte) (orig, repl string) {
		orig = filepath.Join(root, filepath.FromSlash(rel))
		src, err := os.ReadFile(orig)
		if err != nil {
			t.Fatal(err)
		}
		out := edit(src)
		if bytes.Equal(out, src) {
			t.Fatalf("%s: the edit changed nothing", rel)
		}
		repl = filepath.Join(tmp, filepath.Base(rel))
		if err := os.WriteFile(repl, out, 0o644); err != nil {
			t.Fatal(err)
		}
		return orig, repl
	}
	vecOrig, vecRepl := replace("vectors/quote/dom_text.json", func(b []byte) []byte {
		return regexp.MustCompile(`(?m)^    \{"id": "quote\.dom_text/mathml-svg-is-not-the-svg-root".*\n`).ReplaceAll(b, nil)
	})
	srcOrig, srcRepl := replace("reference/quote/anchor_dom.go", func(b []byte) []byte {
		return bytes.Replace(b, []byte(`n.Namespace == "svg" && n.Data == excludedSVG`), []byte(`n.Namespace == "svg" || n.Data == excludedSVG`), 1)
	})
	overlay := func(name string, pairs map[string]string) string {
		data, err := json.Marshal(struct{ Replace map[string]string }{pairs})
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(tmp, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ctx := context.Background()
	j := &Judge{Root: root, Tmp: tmp, Timeout: 10 * time.Minute, EqCheck: time.Second, EqCount: 2000}
	for _, d := range []string{"base", "mutant"} {
		if err := os.MkdirAll(filepath.Join(tmp, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if j.baseline, err = j.build(ctx, filepath.Join(tmp, "base"), overlay("base.json", map[string]string{vecOrig: vecRepl})); err != nil {
		t.Fatal(err)
	}
	bin, err := j.build(ctx, filepath.Join(tmp, "mutant"), overlay("mutant.json", map[string]string{vecOrig: vecRepl, srcOrig: srcRepl}))
	if err != nil {
		t.Fatal(err)
	}
	if ops := j.opsFor("reference/quote/anchor_dom.go", "excluded"); !slices.Equal(ops, []string{"--op", "quote.dom_text"}) {
		t.Fatalf("the check fuzzes %v; want quote.dom_text alone", ops)
	}
	if msg := j.Equivalence(ctx, filepath.Join(tmp, "mutant"), bin, "reference/quote/anchor_dom.go", "excluded"); msg == "" {
		t.Error("the MathML svg mutant passed the equivalence check without its vector")
	}
}

// A generated file of the reference (the snap set's table) is data: it is
// not mutated, and every hand-written file is.
func TestCollectLeavesGeneratedFiles(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	sources, err := Collect(root)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, s := range sources {
		paths = append(paths, s.Path)
	}
	if slices.Contains(paths, "reference/marker/snapset.go") || !slices.Contains(paths, "reference/marker/strip.go") {
		t.Errorf("Collect = %v; want reference/marker/strip.go and not the generated snapset.go", paths)
	}
}
