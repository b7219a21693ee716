package marker

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"testing"

	"github.com/conform-suite/conform/internal/jsonv"
	"github.com/conform-suite/conform/internal/platformtest"
	"github.com/conform-suite/conform/reference/internal/opkit"
	"github.com/conform-suite/conform/spec"
)

// classSites are the sites of each class of the suite: the variable of
// each rule that applies the class (locate.go). The digits are read by
// three rules: a marker's line number (digitClass), a locator's line
// numbers (lineNumberClass) and a pointer's array index (indexClass).
// A marker's line number is read by digitClass alone (MARKER-GRAMMAR-005),
// so no site of marker.line-number serves the ops that read markers.
var classSites = append([]platformtest.Site{
	{Class: "marker.digit", Name: "marker", Rule: "MARKER-GRAMMAR-005", Ops: []string{"marker.strip", "marker.stream", "marker.artifact"}, Install: func(ps []spec.Point) func() {
		old := digitClass
		digitClass = platformtest.Toggle(old, ps)
		return func() { digitClass = old }
	}},
	{Class: "marker.digit", Name: "line-number", Rule: "MARKER-LOCATE-007", Ops: []string{"marker.locate"}, Install: func(ps []spec.Point) func() {
		old := lineNumberClass
		lineNumberClass = func(s string) (int, bool) { return old(platformtest.Digit(s, ps[0])) }
		return func() { lineNumberClass = old }
	}},
	{Class: "marker.digit", Name: "index", Rule: "MARKER-LOCATE-004", Ops: []string{"marker.locate"}, Install: func(ps []spec.Point) func() {
		old := indexClass
		indexClass = func(s string) (int, bool) { return old(platformtest.Digit(s, ps[0])) }
		return func() { indexClass = old }
	}},
	{Class: "marker.line-number", Name: "locator", Rule: "MARKER-LOCATE-007", Ops: []string{"marker.locate"}, Install: func(ps []spec.Point) func() {
		p := ps[0]
		old := lineNumberClass
		lineNumberClass = func(s string) (int, bool) {
			if s != p.Input {
				return old(s)
			}
			v, ok := platformtest.Int(p)
			if !ok || v < 1 || v > 1<<40 {
				return -1, ok // a number that designates no line
			}
			return int(v), true
		}
		return func() { lineNumberClass = old }
	}},
}, platformtest.OneSite(classHooks)...)

// classHooks installs each class of the suite applied through one rule,
// the spec's with one point read as a built-in reads it.
var classHooks = map[string]platformtest.Install{
	"marker.space": func(ps []spec.Point) func() {
		old := notSpaceClass
		notSpaceClass = platformtest.Toggle(old, ps)
		return func() { notSpaceClass = old }
	},
	"marker.line": func(ps []spec.Point) func() {
		p := ps[0]
		old := lineClass
		split, ok := platformtest.Split(p)
		if !ok {
			panic("marker: no line split reads the point " + platformtest.PointKey(p))
		}
		lineClass = split
		return func() { lineClass = old }
	},
	"marker.index": func(ps []spec.Point) func() {
		p := ps[0]
		old := indexClass
		indexClass = func(s string) (int, bool) {
			if s != p.Input {
				return old(s)
			}
			v, ok := platformtest.Int(p)
			if !ok || v < 0 || v > 1<<40 {
				return 0, false
			}
			return int(v), true
		}
		return func() { indexClass = old }
	},
	"marker.user-origin": func(ps []spec.Point) func() {
		p := ps[0]
		old := prefixCaseClass
		prefixCaseClass = func(s, prefix string) bool {
			_, ok := platformtest.FoldLen(s, prefix, p)
			return ok
		}
		return func() { prefixCaseClass = old }
	},
}

// Every point where a built-in a port would use disagrees with one of the
// suite's classes changes the answer to some vector of an op applying the
// class, or is listed as unobservable with the rule that masks it.
func TestPlatformPointsAreObservable(t *testing.T) {
	answer := platformtest.Answerer(func(op string, v *jsonv.Value) (any, error) { return Ops[op](v) }, opkit.Parse)
	platformtest.Check(t, slices.Sorted(maps.Keys(Ops)), answer, classSites)
}

// The suite's classes are the spec's, at every code point and probe.
func TestClassesAreTheSpecs(t *testing.T) {
	platformtest.SameSet(t, "marker.space", func(r rune) bool { return !notSpaceClass(r) })
	platformtest.SameSet(t, "marker.line", func(r rune) bool { return len(lineClass("a"+string(r)+"b")) == 2 })
	platformtest.SameFold(t, "marker.user-origin", prefixCaseClass)
	platformtest.SameForms(t, "marker.digit", func(r rune) string {
		if digitClass(r) {
			return string(r) // a digit's value is the ASCII digit itself
		}
		return "not a digit"
	})
	// A line number the reference reads but no line has (0, a leading
	// zero, more than 9 digits) is the class's refused spelling: both
	// designate no line.
	platformtest.SameInputs(t, "marker.line-number", func(s string) string {
		if n, ok := lineNumberClass(s); ok && n >= 1 && n <= 999_999_999 {
			return strconv.Itoa(n)
		}
		return "refused"
	}, "1", "9", "999999999")
	// An index past 10^18 designates no element of any array, refused or
	// read.
	platformtest.SameInputs(t, "marker.index", func(s string) string {
		if n, ok := indexClass(s); ok {
			return strconv.Itoa(n)
		}
		if want, _ := spec.SpecInputAnswer(platformtest.Class(t, "marker.index"), s); len(want) > 18 {
			return want
		}
		return "refused"
	}, "0", "1", "10")
	line := platformtest.Class(t, "marker.line")
	for name, probe := range spec.SplitProbes {
		want, err := spec.SpecInputAnswer(line, name)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(append([]string{}, lineClass(probe)...))
		if string(got) != want {
			t.Errorf("lineClass(%q) = %s, the spec's lines are %s", probe, got, want)
		}
	}
	// The observability check's reading of the spec's split, unchanged,
	// is the reference's.
	for _, s := range []string{"", "a", "a\n", "a\r\n", "a\r", "\n", "\r\n", "a\n\nb", "a\rb\r\nc\n", "\u2028\v\f\u0085", "a\r\r\n"} {
		if got, want := platformtest.SpecSplit(s), lineClass(s); !slices.Equal(got, want) {
			t.Errorf("platformtest.SpecSplit(%q) = %q, lineClass gives %q", s, got, want)
		}
	}
}
