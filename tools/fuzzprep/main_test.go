package main

import (
	"go/parser"
	"go/token"
	"os"
	"os/exec"
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

// writeModule writes files (path -> text) under a new temporary directory.
func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestListIsWhatGoTestLists: in a throwaway module with declarations that
// only look like targets (one quoted in a raw string, one in a comment, a
// method, a name go test does not take, one in a file behind a build tag,
// one under testdata/) list gives exactly the "PKGDIR TARGET" pairs that go
// test -list '^Fuzz' gives, sorted by target.
func TestListIsWhatGoTestLists(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test -list on a throwaway module")
	}
	root := writeModule(t, map[string]string{
		"go.mod": "module example.test/list\n\ngo 1.26\n",
		"a/a.go": "package a\n",
		"a/a_test.go": "package a\n\nimport \"testing\"\n\n" +
			"func FuzzZeta(f *testing.F) { f.Fuzz(func(t *testing.T, s string) {}) }\n\n" +
			"func Fuzz(f *testing.F) { f.Fuzz(func(t *testing.T, s string) {}) }\n\n" +
			"func Fuzzy(s string) string { return s }\n\n" +
			"type m struct{}\n\nfunc (m) FuzzMethod(f *testing.F) {}\n\n" +
			"// func FuzzCommented(f *testing.F) {}\n\n" +
			"var quoted = `\nfunc FuzzQuoted(f *testing.F) {\n}\n`\n",
		"a/tagged_test.go":     "//go:build sometag\n\npackage a\n\nimport \"testing\"\n\nfunc FuzzTagged(f *testing.F) {}\n",
		"b/c/c.go":             "package c\n",
		"b/c/c_test.go":        "package c\n\nimport \"testing\"\n\nfunc Fuzz_Under(f *testing.F) { f.Fuzz(func(t *testing.T, b []byte) {}) }\n",
		"a/testdata/x_test.go": "package x\n\nimport \"testing\"\n\nfunc FuzzInTestdata(f *testing.F) {}\n",
	})
	var out strings.Builder
	if err := list(root, &out); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "test", "-list", "^Fuzz", "./...")
	cmd.Dir = root
	goOut, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test -list: %v\n%s", err, goOut)
	}
	var want []string
	var names []string
	for line := range strings.SplitSeq(string(goOut), "\n") {
		if strings.HasPrefix(line, "Fuzz") {
			names = append(names, line)
		} else if pkg, ok := strings.CutPrefix(line, "ok  \texample.test/list/"); ok {
			pkg, _, _ = strings.Cut(pkg, "\t")
			for _, n := range names {
				want = append(want, pkg+" "+n)
			}
			names = nil
		}
	}
	slices.SortFunc(want, func(a, b string) int {
		return strings.Compare(strings.Fields(a)[1], strings.Fields(b)[1])
	})
	if len(want) != 3 { // Fuzz, FuzzZeta, Fuzz_Under: the oracle itself is checked
		t.Fatalf("go test -list gave %q, want three targets", want)
	}
	if got, want := out.String(), strings.Join(want, "\n")+"\n"; got != want {
		t.Fatalf("list gave:\n%s\ngo test -list gives:\n%s", got, want)
	}
}

// TestListRefusesWhatTheBuildCannotTell: a target name declared in two
// packages (both would be built into $OUT/NAME), and a target in an
// external test package (which prepare leaves out), are errors naming them.
func TestListRefusesWhatTheBuildCannotTell(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"duplicate", map[string]string{
			"p/p_test.go": "package p\n\nimport \"testing\"\n\nfunc FuzzSame(f *testing.F) {}\n",
			"q/q_test.go": "package q\n\nimport \"testing\"\n\nfunc FuzzSame(f *testing.F) {}\n",
		}, "fuzz target FuzzSame is declared in both p and q"},
		{"external", map[string]string{
			"p/p.go":      "package p\n",
			"p/x_test.go": "package p_test\n\nimport \"testing\"\n\nfunc FuzzOutside(f *testing.F) {}\n",
		}, "p/x_test.go: fuzz target FuzzOutside is in an external test package"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.files["go.mod"] = "module example.test/refuse\n\ngo 1.26\n"
			root := writeModule(t, tc.files)
			var out strings.Builder
			err := list(root, &out)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("list: %v (output %q), want an error with %q", err, out.String(), tc.want)
			}
			if out.Len() != 0 {
				t.Fatalf("list wrote %q before failing", out.String())
			}
		})
	}
}
