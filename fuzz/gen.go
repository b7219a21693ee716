package fuzz

import (
	"maps"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/conform-suite/conform/internal/jsonv"
	"github.com/conform-suite/conform/spec"
)

// An inputGen builds one input for its op from r. It knows the op's format:
// it writes valid citations, links, prompts, marker streams and references
// most of the time, and near misses the rest of the time.
type inputGen func(r *rand.Rand) *jsonv.Value

// inputGens maps an op to its generator (each suite's file adds its own).
// Ops without one are fuzzed by mutating their vectors' inputs only.
var inputGens = map[string]inputGen{}

// Characters that the suites count differently: ASCII (1 byte, 1 UTF-16
// unit, 1 rune), CJK (3 bytes, 1 unit, 1 rune), astral (4 bytes, 2 units,
// 1 rune). The characters of the spec's classes (white space, trim sets,
// controls, digits, letters that fold to ASCII, escapes) come from the
// alphabets (alphabet.go), and the edges of the encodings from edgeRunes.
var (
	genASCII  = []rune("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~")
	genPunct  = []rune(".,;:!?'\"()[]{}<>&%+=/#*\\|$@^`")
	genCJK    = []rune("引用文本漢字中国語")
	genAstral = []rune("😀🎉𝄞𠀋🙂")
)

// The punctuation of the Unicode tables the spec pins (spec/data), for the
// snap set of marker offsets: the whole set of Unicode 15.0.0, and its edge,
// the runes whose snapping an implementation on another version's tables
// gets wrong (the runes that entered the set in 14.0 and 15.0, those that
// enter Po, Pe or Pf after it) and the exceptions that never snap.
var punctPinned, punctEdge = func() (pinned, edge []rune) {
	pinned, err := spec.SnapSet(spec.UnicodeVersion)
	if err != nil {
		panic(err) // the embedded data is part of the program
	}
	p, err := spec.Punctuation()
	if err != nil {
		panic(err)
	}
	seen := map[rune]bool{}
	for v := range p {
		set, err := spec.SnapSet(v)
		if err != nil {
			panic(err)
		}
		for _, r := range append(spec.Without(set, pinned), spec.Without(pinned, set)...) {
			seen[r] = true
		}
	}
	for _, r := range spec.SnapExceptions {
		seen[r] = true
	}
	return pinned, slices.Sorted(maps.Keys(seen))
}()

// genPunctRune returns a punctuation rune: ASCII half the time, else one
// of the pinned snap set or, as often, of its edge between Unicode
// versions.
func genPunctRune(r *rand.Rand) rune {
	switch r.IntN(4) {
	case 0:
		return pickOne(r, punctEdge)
	case 1:
		return pickOne(r, punctPinned)
	}
	return pickOne(r, genPunct)
}

// Boundary lengths of the suites' limits, in their own units: quote
// context 32, selref label 200, ids 512, selref addresses 1000, marker hold
// 4096, quote and comment 8000.
var boundaryLens = []int{31, 32, 33, 199, 200, 201, 511, 512, 513, 999, 1000, 1001, 4095, 4096, 4097, 7999, 8000, 8001}

func pickOne[T any](r *rand.Rand, s []T) T { return s[r.IntN(len(s))] }

// genWord returns a short run of characters, mostly ASCII, now and then
// one of a class's alphabet or an encoding's edge.
func genWord(r *rand.Rand) string {
	var b strings.Builder
	for range 1 + r.IntN(8) {
		switch r.IntN(24) {
		case 0:
			b.WriteRune(pickOne(r, genCJK))
		case 1:
			b.WriteRune(pickOne(r, genAstral))
		case 2:
			b.WriteRune(pickOne(r, edgeRunes))
		case 3:
			b.WriteString(drawChar(r, charClasses))
		default:
			b.WriteRune(pickOne(r, genASCII[:52]))
		}
	}
	return b.String()
}

// genProse returns up to n words separated by white space runs and
// punctuation, now and then with white space of a class at either end.
func genProse(r *rand.Rand, n int) string {
	var b strings.Builder
	if r.IntN(10) == 0 {
		b.WriteString(drawSpace(r))
	}
	for i := range 1 + r.IntN(n) {
		if i > 0 {
			switch r.IntN(12) {
			case 0:
				b.WriteString(drawSpace(r))
				b.WriteString(drawSpace(r))
			case 1:
				b.WriteString(". ")
			case 2:
				b.WriteRune(genPunctRune(r))
			case 3:
				b.WriteString(drawSpace(r))
			case 4:
				b.WriteString("\n")
			default:
				b.WriteByte(' ')
			}
		}
		b.WriteString(genWord(r))
	}
	if r.IntN(10) == 0 {
		b.WriteString(drawSpace(r))
	}
	return b.String()
}

// genWild returns a string drawn from every class, for fields whose content
// does not matter to the format.
func genWild(r *rand.Rand, n int) string {
	var b strings.Builder
	for range r.IntN(n + 1) {
		switch r.IntN(6) {
		case 0:
			b.WriteRune(pickOne(r, genASCII))
		case 1:
			b.WriteRune(pickOne(r, genPunct))
		case 2, 3:
			b.WriteRune(pickOne(r, edgeRunes))
		default:
			b.WriteString(drawChar(r, charClasses))
		}
	}
	return b.String()
}

// genSized returns a string of exactly n units of the unit the caller counts:
// ASCII, CJK or astral characters; with astral and an odd n the last unit is
// ASCII.
func genSized(r *rand.Rand, n int) string {
	switch r.IntN(3) {
	case 0:
		return strings.Repeat("a", n)
	case 1:
		return strings.Repeat(string(pickOne(r, genCJK)), n)
	}
	return strings.Repeat(string(pickOne(r, genAstral)), n/2) + strings.Repeat("a", n%2)
}

// genMaybe returns v with probability num/den, else nil (an absent member).
func genMaybe(r *rand.Rand, num, den int, v *jsonv.Value) *jsonv.Value {
	if r.IntN(den) < num {
		return v
	}
	return nil
}

// units16 returns the length of s in UTF-16 code units.
func units16(s string) int { return len(jsonv.UnitsOf(s)) }
