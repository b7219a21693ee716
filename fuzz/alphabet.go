package fuzz

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"

	"github.com/conform-suite/conform/spec"
)

// The alphabets the generators and mutators draw characters from: one per
// class of the platform tables (spec/platform.go), each with the class's
// members by the spec, its nearest non-members, and every point where a
// built-in the tables list for it disagrees with the spec. The data is
// alphabet_data.gen.go, written by 'make alphabets' from the tables
// (AlphabetSource); a test holds it to them.

// An alphabet is one class's characters, or for the classes over inputs
// (parse, elements, a line splitter's behaviours) its words.
type alphabet struct {
	class, kind           string
	members, near, points runeSet
	// memberWords, nearWords and pointWords are a parse class's
	// spellings, the element names of the elements class, and a split
	// class's probe strings (spec.SplitProbes).
	memberWords, nearWords, pointWords []string
	// images maps a fold class's points to the ASCII text a built-in
	// matches them to ("s" for U+017F).
	images map[rune]string
}

// alphabetRow is one line of alphabet_data.gen.go: the ranges in the
// notation of spec.PlatformRow.Members, images as "017F=s" pairs.
type alphabetRow struct {
	class, kind                        string
	members, near, points              string
	memberWords, nearWords, pointWords []string
	images                             []string
}

// A runeSet is sorted, disjoint ranges of code points.
type runeSet [][2]rune

func (s runeSet) contains(c rune) bool {
	_, ok := slices.BinarySearchFunc(s, c, func(g [2]rune, c rune) int {
		switch {
		case c < g[0]:
			return 1
		case c > g[1]:
			return -1
		}
		return 0
	})
	return ok
}

// pick returns a code point of s: a range first, then a code point in it,
// so that a lone point beside a range of thousands is as likely as the
// range; every code point of s can come.
func (s runeSet) pick(r *rand.Rand) rune {
	g := pickOne(r, s)
	return g[0] + rune(r.IntN(int(g[1]-g[0])+1))
}

// alphabets returns every class's alphabet, by class id, read once when
// first asked for (not at start-up: every conform command would pay it).
var alphabets = sync.OnceValue(func() map[string]*alphabet {
	out := map[string]*alphabet{}
	for _, row := range alphabetRows {
		a, err := row.read()
		if err != nil {
			panic(err) // the generated data is part of the program
		}
		out[a.class] = a
	}
	return out
})

func (row alphabetRow) read() (*alphabet, error) {
	a := &alphabet{class: row.class, kind: row.kind, memberWords: row.memberWords, nearWords: row.nearWords, pointWords: row.pointWords}
	for _, f := range []struct {
		text string
		set  *runeSet
	}{{row.members, &a.members}, {row.near, &a.near}, {row.points, &a.points}} {
		rs, err := spec.ParseRanges(f.text)
		if err != nil {
			return nil, fmt.Errorf("fuzz: alphabet %s: %v", row.class, err)
		}
		*f.set = rs
	}
	for _, im := range row.images {
		k, v, _ := strings.Cut(im, "=")
		rs, err := spec.ParseRanges(k)
		if err != nil || len(rs) != 1 || rs[0][0] != rs[0][1] {
			return nil, fmt.Errorf("fuzz: alphabet %s: bad image %q", row.class, im)
		}
		if a.images == nil {
			a.images = map[rune]string{}
		}
		a.images[rs[0][0]] = v
	}
	return a, nil
}

// The parts of an alphabet, for draw: a disagreement point half of the
// time (where ports go wrong), a member or a nearest non-member the rest.
const (
	partPoint = iota
	partMember
	partNear
)

// pick returns one character (as a string) or word of a.
func (a *alphabet) pick(r *rand.Rand) string {
	for {
		part := partPoint
		if r.IntN(2) == 0 {
			part = partMember + r.IntN(2)
		}
		set := [...]runeSet{a.points, a.members, a.near}[part]
		words := [...][]string{a.pointWords, a.memberWords, a.nearWords}[part]
		// A part with both takes either, by their sizes' order of magnitude.
		switch {
		case len(set) > 0 && (len(words) == 0 || r.IntN(2) == 0):
			return string(set.pick(r))
		case len(words) > 0:
			return pickOne(r, words)
		}
	}
}

// testOnlyDraw, when set, is called with every draw's class and result and
// returns what the draw gives instead: a test forces a point with it, and
// sees which classes an op's generator draws from.
var testOnlyDraw func(class, s string) string

// draw returns a character or word of the class's alphabet. It is how every
// generator and mutator takes a character of a class.
func draw(r *rand.Rand, class string) string {
	a := alphabets()[class]
	if a == nil {
		panic("fuzz: no alphabet for class " + class) // a generator names a class the tables do not have
	}
	s := a.pick(r)
	if testOnlyDraw != nil {
		s = testOnlyDraw(class, s)
	}
	return s
}

// The classes of characters a string of one kind of field draws from: the
// white space and trim sets and the address controls (spaceClasses); every
// class over code points (charClasses), for text whose characters matter to
// some op.
var (
	spaceClasses = []string{"quote.space", "quote.trim", "marker.space", "selref.label", "selref.trim", "selref.control"}
	charClasses  = []string{"quote.space", "quote.trim", "marker.space", "selref.label", "selref.trim", "selref.control",
		"quote.digit", "marker.digit", "marker.user-origin", "selref.scheme", "quote.json", "quote.path", "quote.query", "marker.line"}
)

// drawSpace returns a character of a white space, trim or control class.
func drawSpace(r *rand.Rand) string { return draw(r, pickOne(r, spaceClasses)) }

// drawChar returns a character of any class over code points.
func drawChar(r *rand.Rand, classes []string) string {
	for {
		if s := draw(r, pickOne(r, classes)); len([]rune(s)) == 1 || len(classes) == 1 {
			return s
		}
	}
}

// foldInto returns s with one letter replaced by a point of a fold class
// whose ASCII image is that letter (U+017F for an s), or the point put in
// front when s has no such letter: the comparison without regard to ASCII
// case meets it where a built-in's full case folding would match it.
func foldInto(r *rand.Rand, class, s string) string {
	c := draw(r, class)
	img := ""
	if rs := []rune(c); len(rs) == 1 {
		img = alphabets()[class].images[rs[0]]
	}
	if img != "" {
		if i := strings.Index(strings.ToLower(s), strings.ToLower(img)); i >= 0 {
			return s[:i] + c + s[i+len(img):]
		}
	}
	return c + s
}

// edgeRunes are the characters every format counts or checks at an edge of
// its encoding, whatever the class: the largest rune before the surrogates
// and the first after, U+FFFD, the last BMP rune and the first astral one,
// the last code point, CJK (3 bytes, 1 unit), astral (4 bytes, 2 units),
// combining marks and the private-use marker characters.
var edgeRunes = []rune("\ud7ff\ue000\ufffd\uffff\U00010000\U0010ffff引用文本漢字😀🎉𝄞𠀋\u0301\u0308\u200d\ue200\ue201\ue202")

// loneSurrogates are UTF-16 strings no UTF-8 text holds.
var loneSurrogates = [][]uint16{{0xd83d}, {0xde00}, {0xde00, 0xd83d}}
