package fuzz

import (
	"bytes"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/conform-suite/conform/internal/jsonv"
	"github.com/conform-suite/conform/spec"
)

// TestAlphabets holds alphabet_data.gen.go to the platform tables (make
// alphabets writes it again when they change), and checks that every point
// where a built-in of a class disagrees with the spec (spec.Disagreements,
// the oracle) is in the class's alphabet, one alphabet per class.
func TestAlphabets(t *testing.T) {
	t.Parallel()
	type key struct{ class, builtin string }
	points := map[key][]spec.Point{}
	disagree := func(c spec.Class, k string) ([]spec.Point, error) {
		ps, ok := points[key{c.ID, k}]
		if !ok {
			var err error
			if ps, err = spec.Disagreements(c, k); err != nil {
				return nil, err
			}
			points[key{c.ID, k}] = ps
		}
		return ps, nil
	}
	want, err := alphabetSource(disagree)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile("alphabet_data.gen.go"); err != nil || !bytes.Equal(got, want) {
		t.Errorf("alphabet_data.gen.go (%v) is not what the platform tables give: run make alphabets", err)
	}
	classes, err := spec.PlatformClasses()
	if err != nil {
		t.Fatal(err)
	}
	if len(alphabets()) != len(classes) {
		t.Errorf("%d alphabets for %d classes", len(alphabets()), len(classes))
	}
	for _, c := range classes {
		a := alphabets()[c.ID]
		if a == nil {
			t.Errorf("class %s has no alphabet", c.ID)
			continue
		}
		for _, k := range c.Builtins {
			ps, err := disagree(c, k)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range ps {
				in := p.Input
				if p.Rune < 0 && c.Kind == spec.KindSplit {
					in = spec.SplitProbes[p.Input]
				}
				if !a.holds(in) {
					t.Errorf("class %s: the alphabet lacks %q, where %s answers %s and the spec %s", c.ID, in, k, p.Builtin, p.Spec)
				}
			}
		}
	}
}

// TestGeneratorsReachEveryPoint shows that every point of every class's
// alphabet (so every point where a built-in disagrees, by
// TestAlphabetsHoldEveryPoint) is reachable by the generator of each op
// the class applies to: with each draw of the class forced to give the
// point, some generated input of the op holds it (raw, or percent-encoded
// where an href carries it). A generator that does not draw from the
// class, or drops a point it drew, fails.
func TestGeneratorsReachEveryPoint(t *testing.T) {
	classes, err := spec.PlatformClasses()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range classes {
		for _, op := range c.Ops {
			for _, miss := range unreachable(inputGens[op], c.ID, 400) {
				t.Errorf("%s: the generator never writes %q of class %s's alphabet", op, miss, c.ID)
			}
		}
	}
}

// TestReachabilityCatchesALiar: a generator of quote.normalize that drops
// U+001C (which Python's str.isspace takes for white space) after drawing
// it fails the check, on that point alone.
func TestReachabilityCatchesALiar(t *testing.T) {
	gen := inputGens["quote.normalize"]
	liar := func(r *rand.Rand) *jsonv.Value {
		v := gen(r)
		units := v.Get("text").CodeUnits()
		return jobj("text", junits(slices.DeleteFunc(slices.Clone(units), func(u uint16) bool { return u == 0x1c })))
	}
	if miss := unreachable(gen, "quote.space", 400); len(miss) > 0 {
		t.Fatalf("the true generator misses %q", miss)
	}
	if miss := unreachable(liar, "quote.space", 400); !slices.Equal(miss, []string{"\x1c"}) {
		t.Fatalf("the liar that drops U+001C: unreachable = %q, want exactly U+001C", miss)
	}
}

// unreachable returns the points of class's alphabet that gen never writes
// with every draw of the class forced to give the point, in the inputs of
// the first 8 of seeds seeds whose inputs draw from the class at all.
// Long ranges of points (quote.json's) are checked at their ends and at a
// few points inside.
func unreachable(gen inputGen, class string, seeds int) []string {
	defer func() { testOnlyDraw = nil }()
	// The seeds whose inputs draw from the class at all.
	var drawing []uint64
	testOnlyDraw = func(c, s string) string {
		if c == class {
			drawing = append(drawing, 0)
		}
		return s
	}
	var seedsDrawing []uint64
	for i := uint64(0); i < uint64(seeds) && len(seedsDrawing) < 8; i++ {
		drawing = drawing[:0]
		gen(rand.New(rand.NewPCG(i, 7)))
		if len(drawing) > 0 {
			seedsDrawing = append(seedsDrawing, i)
		}
	}
	var miss []string
	for _, p := range alphabetSample(alphabets()[class]) {
		testOnlyDraw = func(c, s string) string {
			if c == class {
				return p
			}
			return s
		}
		if !slices.ContainsFunc(seedsDrawing, func(i uint64) bool { return holdsText(gen(rand.New(rand.NewPCG(i, 7))), p) }) {
			miss = append(miss, p)
		}
	}
	return miss
}

// alphabetSample lists an alphabet's points, members and nearest
// non-members and its words; a range over 256 code points is given by its
// ends and eight points between.
func alphabetSample(a *alphabet) []string {
	var out []string
	r := rand.New(rand.NewPCG(1, 1))
	for _, set := range []runeSet{a.points, a.members, a.near} {
		for _, g := range set {
			if g[1]-g[0] <= 256 {
				for c := g[0]; c <= g[1]; c++ {
					out = append(out, string(c))
				}
				continue
			}
			out = append(out, string(g[0]), string(g[1]))
			for range 8 {
				out = append(out, string(g[0]+rune(r.IntN(int(g[1]-g[0])))))
			}
		}
	}
	return slices.Concat(out, a.pointWords, a.memberWords, a.nearWords)
}

// holdsText reports whether a string of v (or a member name) holds p as it
// is, percent-encoded, or form-encoded.
func holdsText(v *jsonv.Value, p string) bool {
	forms := []string{p, percentEscape(p, ""), hrefFormEscape(p)}
	for _, n := range walkNodes(v, nil) {
		texts := []string{}
		if n.Type == jsonv.String {
			texts = append(texts, string(utf16.Decode(n.CodeUnits())))
		}
		for _, m := range n.Members {
			texts = append(texts, string(utf16.Decode(m.Name)))
		}
		for _, s := range texts {
			if slices.ContainsFunc(forms, func(f string) bool { return strings.Contains(s, f) }) {
				return true
			}
		}
	}
	return false
}

// holds reports whether s is one of a's characters or words.
func (a *alphabet) holds(s string) bool {
	if rs := []rune(s); len(rs) == 1 && (a.points.contains(rs[0]) || a.members.contains(rs[0]) || a.near.contains(rs[0])) {
		return true
	}
	return slices.Contains(a.pointWords, s) || slices.Contains(a.memberWords, s) || slices.Contains(a.nearWords, s)
}
