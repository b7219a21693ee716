package main

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestPrepare: the target, the helpers it reaches in other test files (a
// type with its method, a var) are gathered into one file; an unrelated
// test, its helper and an external test package are dropped; testing.TB
// becomes the local interface, and only the imports still used remain.
func TestPrepare(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a_test.go": `package p

import (
	"strings"
	"testing"
)

FUNC FuzzX(f *testing.F) {
	f.Add(seed(f))
	f.Fuzz(func(t *testing.T, s string) { check(t, strings.TrimSpace(s)) })
}

func TestOther(t *testing.T) { unrelated() }
`,
		"b_test.go": `package p

import (
	"os"
	"testing"
)

type box struct{ n int }

const (
	one = iota + 1
	two
)

func (b *box) grow() { b.n++ }

var start = box{}

func seed(t testing.TB) string { t.Helper(); return "x" }

func check(t *testing.T, s string) { b := start; b.grow(); b.n += two; if s == "" { t.Fatal(b.n) } }

func unrelated() { os.Exit(0) }
`,
		"c_test.go": "package p_test\n\nimport \"testing\"\n\nfunc TestExt(t *testing.T) {}\n",
	}
	for name, src := range files {
		// FUNC: no line of this file declares a fuzz target, which the
		// target listing of scripts/fuzz-libfuzzer.sh would pick up.
		src = strings.ReplaceAll(src, "FUNC ", "func ")
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := prepare(dir, "FuzzX"); err != nil {
		t.Fatal(err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(left) != 1 || filepath.Base(left[0]) != "zz_libfuzzer_FuzzX_test.go" {
		t.Fatalf("files left: %v, want only zz_libfuzzer_FuzzX_test.go", left)
	}
	src, _ := os.ReadFile(left[0])
	f, err := parser.ParseFile(token.NewFileSet(), left[0], src, 0)
	if err != nil {
		t.Fatalf("prepared file does not parse: %v\n%s", err, src)
	}
	var imports []string
	for _, imp := range f.Imports {
		imports = append(imports, imp.Path.Value)
	}
	text := string(src)
	for _, want := range []string{"func FuzzX(", "func seed(t libfuzzerTB)", "func check(", "type box struct", "func (b *box) grow()", "var start = box{}", "\ttwo\n", "type libfuzzerTB interface"} {
		if !strings.Contains(text, want) {
			t.Errorf("prepared file lacks %q:\n%s", want, text)
		}
	}
	for _, unwanted := range []string{"TestOther", "unrelated", "TestExt", "t testing.TB"} {
		if strings.Contains(text, unwanted) {
			t.Errorf("prepared file holds %q:\n%s", unwanted, text)
		}
	}
	slices.Sort(imports)
	if !slices.Equal(imports, []string{`"strings"`, `"testing"`}) || !strings.Contains(text, "\t\"strings\"\n") {
		t.Errorf("imports %v, want strings and testing only", imports)
	}
}
