package main

import (
	"encoding/json"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/conform-suite/conform/internal/await"
)

// small holds one site for each kind of mutation, and the sites that are
// left alone (capacity hints, panic messages, Error methods, len of a
// constant).
const small = `package small

import (
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

const (
	Max   = 8
	Label = "ab"
)

func utf16Len(s string) int { return len(utf16.Encode([]rune(s))) }

func check(s string, r rune) bool {
	if len(s) > Max {
		return false
	}
	if r > 0xFFFF {
		r--
	}
	return utf8.RuneCountInString(s) <= 2 && s[0] == 'a'
}

func order(xs []int, s string) ([]uint16, int, bool) {
	slices.SortFunc(xs, func(a, b int) int { return a - b })
	var sb strings.Builder
	sb.Grow(len(s) + 3)
	if s == "" {
		panic("empty: " + string(rune(1)))
	}
	if s == "x" {
		return nil, 0, false // a failure's other results are never read
	}
	switch {
	case utf16Len(s) != utf16.RuneLen('x'):
		return utf16.AppendRune(nil, 'x'), 1, true
	}
	return make([]uint16, len(Label), 1+len(s)), 0, true
}

type LocError struct{ Code, Offset int }

func fail(s string) (int, error) {
	if s == "" {
		return 0, &LocError{Code: 1 + 1, Offset: -1}
	}
	return 1, nil
}

func (*LocError) Error() string { return string(rune(2 + 3)) }
`

// wantSmall is every mutation of small: id, then the mutated text. The
// oracle is the list of mutation kinds in mutate.go, applied by hand.
var wantSmall = [][2]string{
	{"small.go:Max:int-inc:1", "9"},
	{"small.go:Max:int-dec:1", "7"},
	{"small.go:utf16Len:bytes-runes:1", runeCounter + "(utf16.Encode([]rune(s)))"}, // the compiler discards it
	{"small.go:utf16Len:bytes-units:1", unitCounter + "(utf16.Encode([]rune(s)))"},
	{"small.go:check:drop-guard:1", "if false && (len(s) > Max)"},
	{"small.go:check:gt-ge:1", "len(s) >= Max"},
	{"small.go:check:bytes-runes:1", runeCounter + "(s)"},
	{"small.go:check:bytes-units:1", unitCounter + "(s)"},
	{"small.go:check:drop-surrogate:1", "if false && (r > 0xFFFF)"},
	{"small.go:check:gt-ge:2", "r >= 0xFFFF"},
	{"small.go:check:int-inc:1", "0x10000"},
	{"small.go:check:int-dec:1", "0xFFFE"},
	{"small.go:check:and-or:1", "utf8.RuneCountInString(s) <= 2 || s[0] == 'a'"},
	{"small.go:check:le-lt:1", "utf8.RuneCountInString(s) < 2"},
	{"small.go:check:runes-bytes:1", "len(s)"},
	{"small.go:check:runes-units:1", unitCounter + "(s)"},
	{"small.go:check:int-inc:2", "3"},
	{"small.go:check:int-dec:2", "1"},
	{"small.go:check:char-inc:1", "('a'+1)"},
	{"small.go:check:char-dec:1", "('a'-1)"},
	{"small.go:check:eq-ne:1", "s[0] != 'a'"},
	{"small.go:check:int-inc:3", "1"},
	{"small.go:check:int-dec:3", "(-1)"},
	{"small.go:order:drop-sort:1", "_, _ = xs, func(a, b int) int { return a - b }"},
	{"small.go:order:flip-sort:1", "parameters a and b swapped"},
	{"small.go:order:drop-guard:1", `if false && (s == "")`},
	{"small.go:order:eq-ne:1", `s != ""`},
	{"small.go:order:drop-guard:2", `if false && (s == "x")`},
	{"small.go:order:eq-ne:2", `s != "x"`},
	{"small.go:order:drop-case:1", "case false && (utf16Len(s) != utf16.RuneLen('x'))"},
	{"small.go:order:ne-eq:1", "utf16Len(s) == utf16.RuneLen('x')"},
	{"small.go:order:units-bytes:1", "len(s)"},
	{"small.go:order:units-runes:1", runeCounter + "(s)"},
	{"small.go:order:rune-width-one:1", "min(1, utf16.RuneLen('x'))"},
	{"small.go:order:append-unit:1", "append(nil, uint16('x'))"},
	{"small.go:order:int-inc:1", "2"},
	{"small.go:order:int-dec:1", "0"},
	{"small.go:order:int-inc:2", "1"},
	{"small.go:order:int-dec:2", "(-1)"},
	{"small.go:fail:drop-guard:1", `if false && (s == "")`},
	{"small.go:fail:eq-ne:1", `s != ""`},
	{"small.go:fail:int-inc:1", "2"}, // the code of an error is answered; its offset is not
	{"small.go:fail:int-dec:1", "0"},
	{"small.go:fail:int-inc:2", "2"},
	{"small.go:fail:int-dec:2", "0"},
	{"small.go:fail:int-inc:3", "2"}, // return 1, nil
	{"small.go:fail:int-dec:3", "0"},
}

func generateSmall(t *testing.T) []*Mutation {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "small.go", small, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg := &Package{Consts: map[string]bool{}, Helpers: map[string]bool{}}
	pkg.Scan(f)
	ms, err := Generate("small.go", []byte(small), pkg)
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

func TestGenerate(t *testing.T) {
	ms := generateSmall(t)
	var got [][2]string
	for _, m := range ms {
		got = append(got, [2]string{m.ID, m.Mutated})
	}
	if !slices.Equal(got, wantSmall) {
		for i := range max(len(got), len(wantSmall)) {
			var g, w [2]string
			if i < len(got) {
				g = got[i]
			}
			if i < len(wantSmall) {
				w = wantSmall[i]
			}
			if g != w {
				t.Errorf("Generate(small)[%d] = %q, want %q", i, g, w)
			}
		}
	}
}

func TestApplyKeepsValidGo(t *testing.T) {
	for _, m := range generateSmall(t) {
		out := string(m.Apply([]byte(small)))
		if out == small {
			t.Errorf("%s: Apply changed nothing", m.ID)
		}
		if _, err := parser.ParseFile(token.NewFileSet(), "m.go", out, 0); err != nil {
			t.Errorf("%s: Apply gives source that does not parse: %v", m.ID, err)
		}
	}
	// The sort flip swaps the comparison's parameters.
	for _, m := range generateSmall(t) {
		if m.Kind == KindFlipSort {
			if out := string(m.Apply([]byte(small))); !strings.Contains(out, "func(b, a int) int { return a - b }") {
				t.Errorf("%s: Apply(small) = %s, want the parameters swapped", m.ID, out)
			}
		}
	}
}

func TestEquivalents(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		text string
		want map[string]string
		ok   bool
	}{
		{"# comment\n\na:b:c:1  # same answer\n", map[string]string{"a:b:c:1": "same answer"}, true},
		{"a:b:c:1\n", nil, false},                   // no reason
		{"a:b:c:1 # x\na:b:c:1 # y\n", nil, false},  // listed twice
		{"a:b:c:1 a:b:c:2 # two ids\n", nil, false}, // one id per line
		{"a:b:c:1 # reason # with a hash\n", map[string]string{"a:b:c:1": "reason # with a hash"}, true},
	}
	for i, tt := range tests {
		p := filepath.Join(dir, "eq.txt")
		if err := os.WriteFile(p, []byte(tt.text), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := Equivalents(p)
		if (err == nil) != tt.ok || tt.ok && !equalMaps(got, tt.want) {
			t.Errorf("%d: Equivalents(%q) = %v, %v, want %v (ok %v)", i, tt.text, got, err, tt.want, tt.ok)
		}
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestOverlayBuild builds a tiny program through an overlay made by
// Overlay, and checks that the mutated file, not the original, was built.
func TestOverlayBuild(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	dir := t.TempDir()
	orig := filepath.Join(dir, "main.go")
	src := "package main\n\nimport \"os\"\n\nfunc main() {\n\tif len(os.Args) > 1 {\n\t\treturn\n\t}\n\tos.Exit(3)\n}\n"
	files := map[string]string{"go.mod": "module tiny\n\ngo 1.26\n", "main.go": src}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pkg := &Package{Consts: map[string]bool{}, Helpers: map[string]bool{}}
	ms, err := Generate("main.go", []byte(src), pkg)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(ms, func(m *Mutation) bool { return m.Kind == KindDropGuard })
	if i < 0 {
		t.Fatalf("Generate(main.go) = %d mutations, want a drop-guard", len(ms))
	}
	mutated := filepath.Join(dir, "mutated", "main.go")
	if err := os.MkdirAll(filepath.Dir(mutated), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(mutated, ms[i].Apply([]byte(src)), 0o644); err != nil {
		t.Fatal(err)
	}
	ov, err := Overlay(orig, mutated)
	if err != nil {
		t.Fatal(err)
	}
	var decoded struct{ Replace map[string]string }
	if err := json.Unmarshal(ov, &decoded); err != nil || decoded.Replace[orig] != mutated || len(decoded.Replace) != 1 {
		t.Fatalf("Overlay(%q, %q) = %s, want one Replace entry", orig, mutated, ov)
	}
	ovPath := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(ovPath, ov, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := await.Context(t)
	j := &Judge{Root: dir}
	bin, err := j.buildPackage(ctx, dir, ovPath, ".", "tiny")
	if err != nil {
		t.Fatalf("build with overlay: %v", err)
	}
	// With an argument the original exits 0; the mutant, its guard
	// dropped, exits 3.
	err = exec.CommandContext(ctx, bin, "x").Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 3 {
		t.Errorf("mutated program with an argument: %v, want exit status 3 (the guard dropped)", err)
	}
}

// TestProgressLine: off a terminal every verdict is a line of its own and
// nothing is redrawn; on one, a routine verdict only redraws the line.
func TestProgressLine(t *testing.T) {
	var pipe, tty strings.Builder
	progressLine(&pipe, false, "[1/2] killed    a", true)
	progressLine(&pipe, false, "[2/2] survived  b", false)
	if got := pipe.String(); got != "[1/2] killed    a\n[2/2] survived  b\n" {
		t.Errorf("off a terminal: %q", got)
	}
	progressLine(&tty, true, "[1/2] killed    a", true)
	progressLine(&tty, true, "[2/2] survived  b", false)
	if got := tty.String(); got != "\r\x1b[K[1/2] killed    a\r\x1b[K[2/2] survived  b\n" {
		t.Errorf("on a terminal: %q", got)
	}
}
