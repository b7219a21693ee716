package platformtest

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/conform-suite/conform/spec"
	"github.com/conform-suite/conform/vectors"
)

// recorder is a TB that keeps what a check reports.
type recorder struct{ errors []string }

func (r *recorder) Helper()                         {}
func (r *recorder) Logf(format string, args ...any) {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recorder) Fatal(args ...any)                 { panic(fmt.Sprint(args...)) }
func (r *recorder) Fatalf(format string, args ...any) { panic(fmt.Sprintf(format, args...)) }

// normalize answers quote.normalize as the spec does with membership
// taken from space: each run of members becomes one space.
func normalize(space *func(rune) bool) Answer {
	return func(op string, input json.RawMessage) string {
		var in struct{ Text string }
		if err := json.Unmarshal(input, &in); err != nil {
			return "error: " + err.Error()
		}
		var b strings.Builder
		run := false
		for _, r := range in.Text {
			if (*space)(r) {
				if !run {
					b.WriteByte(' ')
				}
				run = true
				continue
			}
			run = false
			b.WriteRune(r)
		}
		return b.String()
	}
}

// quoteSpace is the spec's quote.space.
func quoteSpace(r rune) bool {
	return r >= 9 && r <= 13 || r == ' ' || r == 0xA0 || r == 0x1680 || r >= 0x2000 && r <= 0x200A ||
		r == 0x2028 || r == 0x2029 || r == 0x202F || r == 0x205F || r == 0x3000 || r == 0xFEFF
}

func vector(id, text string) *vectors.Vector {
	in, _ := json.Marshal(map[string]string{"text": text})
	return &vectors.Vector{ID: "quote.normalize/" + id, Op: "quote.normalize", Input: in, Tags: []string{"platform"}}
}

// With vectors of quote.normalize that hold one point only, the check
// names every other point of quote.space in that op; with that point
// listed (in the op or in every op), it calls the entry stale; and it
// names a class of the package's ops left without a hook.
func TestCheckNamesWhatNoVectorShows(t *testing.T) {
	space := quoteSpace
	hooks := []Site{{Class: "quote.space", Name: "normalize", Rule: "QUOTE-ANCHOR-004", Ops: []string{"quote.normalize"}, Install: toggle(&space)}}
	vs := []*vectors.Vector{vector("nel", "a\u0085\u0085b")}
	r := &recorder{}
	check(r, vs, nil, []string{"quote.normalize"}, normalize(&space), hooks)
	joined := strings.Join(r.errors, "\n")
	in := "quote.space in quote.normalize at the site normalize (QUOTE-ANCHOR-004): no vector shows the point "
	if strings.Contains(joined, in+"U+0085=") || !strings.Contains(joined, in+"U+001C=member") || !strings.Contains(joined, in+"U+00A0=not a member") {
		t.Errorf("the check reported:\n%s\nwant U+001C and U+00A0 named in quote.normalize, U+0085 not", joined)
	}
	r = &recorder{}
	stale := []Unobservable{{Class: "quote.space", Site: "normalize", Op: "quote.normalize", Point: "U+0085=member", Rule: "made up", Line: 1},
		{Class: "quote.space", Site: "*", Op: "*", Point: "U+0085=member", Rule: "made up", Line: 2}}
	check(r, vs, stale, []string{"quote.normalize"}, normalize(&space), hooks)
	if joined := strings.Join(r.errors, "\n"); !strings.Contains(joined, ":1: quote.space normalize quote.normalize U+0085=member is listed as unobservable, but quote.normalize/nel shows it") ||
		!strings.Contains(joined, ":2: quote.space * * U+0085=member is listed as unobservable, but quote.normalize/nel shows it") {
		t.Errorf("the check reported:\n%s\nwant both stale entries named", joined)
	}
	r = &recorder{}
	check(r, vs, nil, []string{"quote.normalize", "quote.format"}, normalize(&space), hooks)
	if joined := strings.Join(r.errors, "\n"); !strings.Contains(joined, "quote.path applies to quote.format, but the package gives the check no variable") {
		t.Errorf("the check reported:\n%s\nwant quote.path named as left without a hook", joined)
	}
}

// toggle installs the spec's class held by v with the points read as
// their built-in reads them.
func toggle(v *func(rune) bool) Install {
	return func(ps []spec.Point) func() {
		old := *v
		*v = Toggle(old, ps)
		return func() { *v = old }
	}
}

// normalizeOrBlank answers quote.normalize as normalize does, but answers
// "blank" for a text that blank, the class of a second site, finds
// whitespace only: an op that applies one class through two rules.
func normalizeOrBlank(space, blank *func(rune) bool) Answer {
	norm := normalize(space)
	return func(op string, input json.RawMessage) string {
		var in struct{ Text string }
		if err := json.Unmarshal(input, &in); err != nil {
			return "error: " + err.Error()
		}
		if strings.TrimFunc(in.Text, *blank) == "" {
			return "blank"
		}
		return norm(op, input)
	}
}

// With two sites of quote.space in one op and vectors that show a point
// through the first site only, the check names the point at the second
// site: toggling a class at every site at once would let the first site's
// vector hide it. A site that serves an op outside its class, two sites of
// one name and an op left without a site are named too.
func TestCheckNamesASiteNoVectorShows(t *testing.T) {
	space, blank := quoteSpace, quoteSpace
	sites := []Site{
		{Class: "quote.space", Name: "normalize", Rule: "QUOTE-ANCHOR-004", Ops: []string{"quote.normalize"}, Install: toggle(&space)},
		{Class: "quote.space", Name: "blank", Rule: "QUOTE-ANCHOR-014", Ops: []string{"quote.normalize"}, Install: toggle(&blank)},
	}
	// U+0085 inside a word: the normalization shows it, the blank check
	// cannot (the text holds letters).
	vs := []*vectors.Vector{vector("nel", "a\u0085\u0085b")}
	r := &recorder{}
	check(r, vs, nil, []string{"quote.normalize"}, normalizeOrBlank(&space, &blank), sites)
	joined := strings.Join(r.errors, "\n")
	want := "quote.space in quote.normalize at the site blank (QUOTE-ANCHOR-014): no vector shows the point U+0085=member"
	if !strings.Contains(joined, want) || strings.Contains(joined, "at the site normalize (QUOTE-ANCHOR-004): no vector shows the point U+0085=") {
		t.Errorf("the check reported:\n%s\nwant U+0085 named at the site blank only", joined)
	}
	// A vector of U+0085 alone shows it at the blank site as well.
	vs = append(vs, vector("nel-alone", "\u0085"))
	r = &recorder{}
	check(r, vs, nil, []string{"quote.normalize"}, normalizeOrBlank(&space, &blank), sites)
	if joined := strings.Join(r.errors, "\n"); strings.Contains(joined, "point U+0085=") {
		t.Errorf("the check reported:\n%s\nwant U+0085 shown at both sites", joined)
	}
	r = &recorder{}
	bad := append(slices.Clone(sites), Site{Class: "quote.space", Name: "blank", Install: toggle(&blank)},
		Site{Class: "quote.space", Name: "parse", Ops: []string{"quote.format", "quote.dom_text"}, Install: toggle(&blank)})
	check(r, vs, nil, []string{"quote.normalize", "quote.parse"}, normalizeOrBlank(&space, &blank), bad)
	joined = strings.Join(r.errors, "\n")
	for _, w := range []string{"the class quote.space has two sites named blank", "the site parse of quote.space serves quote.dom_text, which is no op of the class",
		"quote.trim applies to", "quote.space in quote.parse (no site of the package serves the op): no vector shows the point U+0085=member"} {
		if !strings.Contains(joined, w) {
			t.Errorf("the check reported:\n%s\nwant %q", joined, w)
		}
	}
}

// A class that is not the spec's fails the comparison over Unicode.
func TestSameSetFailsAnotherSet(t *testing.T) {
	r := &recorder{}
	SameSet(r, "quote.space", func(r rune) bool { return quoteSpace(r) || r == 0x85 })
	if len(r.errors) != 1 || !strings.Contains(r.errors[0], "U+0085") {
		t.Errorf("SameSet with U+0085 added reported %q, want one error naming U+0085", r.errors)
	}
	r = &recorder{}
	SameSet(r, "quote.space", quoteSpace)
	if len(r.errors) != 0 {
		t.Errorf("SameSet of the spec's set reported %q", r.errors)
	}
}

// The split reading of each probe point gives the built-in's lines on its
// probe.
func TestSplitReadsEachProbe(t *testing.T) {
	classes, err := spec.PlatformClasses()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range classes {
		if c.Kind != spec.KindSplit {
			continue
		}
		for _, b := range c.Builtins {
			ps, err := spec.Disagreements(c, b)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range ps {
				split, ok := Split(p)
				if !ok {
					t.Errorf("%s %s: no split reads the point %s", c.ID, b, PointKey(p))
					continue
				}
				if p.Rune >= 0 {
					if got := split("a" + string(p.Rune) + "b"); len(got) != 2 && p.Builtin == "ends a line" {
						t.Errorf("%s %s: the reading of %s splits a%sb into %q", c.ID, b, PointKey(p), string(p.Rune), got)
					}
					continue
				}
				got, _ := json.Marshal(append([]string{}, split(spec.SplitProbes[p.Input])...))
				if string(got) != p.Builtin {
					t.Errorf("%s %s: the reading of %s gives %s on its probe", c.ID, b, PointKey(p), got)
				}
			}
		}
	}
}
