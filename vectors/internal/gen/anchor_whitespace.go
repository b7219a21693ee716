package main

// Generators of the whitespace vectors of quote anchoring
// (spec/quote-anchor.md, QUOTE-ANCHOR-003): one vector per code point of
// JavaScript's \s, and one per near-miss that is not whitespace, for each of
// quote.normalize, quote.select and quote.resolve. Expected outputs are built
// from the spec's list, never by calling the reference.

import (
	"fmt"
	"strings"

	"github.com/conform-suite/conform/vectors"
	"github.com/conform-suite/conform/vectors/internal/vectorkit"
)

// anchorSpaces are the 25 whitespace code points, as the spec lists them.
var anchorSpaces = []rune{
	0x0009, 0x000A, 0x000B, 0x000C, 0x000D, 0x0020, 0x00A0, 0x1680,
	0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A,
	0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF,
}

// anchorNearMisses look like whitespace to some definitions, not to \s.
var anchorNearMisses = []rune{0x0085, 0x180E, 0x200B}

// anchorCase is one generated code point with whether it is whitespace.
type anchorCase struct {
	r     rune
	space bool
}

func anchorCases() []anchorCase {
	var cs []anchorCase
	for _, r := range anchorSpaces {
		cs = append(cs, anchorCase{r, true})
	}
	for _, r := range anchorNearMisses {
		cs = append(cs, anchorCase{r, false})
	}
	return cs
}

// vector builds the generated vector of c for op.
func (c anchorCase) vector(op, desc string, reqs []string, input, want any) *vectors.Vector {
	if c.space {
		return vectorkit.Vector(op, fmt.Sprintf("u%04x-is-whitespace", c.r), desc, reqs, []string{"whitespace"}, input, want)
	}
	return vectorkit.Vector(op, fmt.Sprintf("u%04x-is-not-whitespace", c.r), desc, reqs, []string{"near-miss"}, input, want)
}

func init() {
	vectorkit.Register("quote/normalize-whitespace.gen.json", genNormalizeWhitespace)
	vectorkit.Register("quote/select-whitespace.gen.json", genSelectWhitespace)
	vectorkit.Register("quote/resolve-whitespace.gen.json", genResolveWhitespace)
}

func genNormalizeWhitespace() (*vectors.File, error) {
	f := &vectors.File{Op: "quote.normalize", Description: "Each whitespace code point, doubled, becomes one space; each near-miss stays."}
	for _, c := range anchorCases() {
		w := string(c.r)
		in, want := "a"+w+w+"b", "a b"
		desc := fmt.Sprintf("two U+%04X between letters become one space", c.r)
		if !c.space {
			want = in
			desc = fmt.Sprintf("two U+%04X between letters are kept", c.r)
		}
		f.Vectors = append(f.Vectors, c.vector(f.Op, desc, []string{"QUOTE-ANCHOR-003", "QUOTE-ANCHOR-004"},
			map[string]any{"text": in}, map[string]any{"text": want}))
	}
	return f, nil
}

// genSelectWhitespace selects from the second of two equal code points to
// the end of "ab" w w "cd": inside a run for whitespace, so the selection
// takes the run's space (QUOTE-ANCHOR-018); after an ordinary character
// otherwise.
func genSelectWhitespace() (*vectors.File, error) {
	f := &vectors.File{Op: "quote.select", Description: "A selection starting inside a run of each whitespace code point, and after each near-miss."}
	for _, c := range anchorCases() {
		w := string(c.r)
		sel := map[string]any{"text": w + "cd", "start": 2, "end": 5, "prefix": "ab", "suffix": ""}
		desc := fmt.Sprintf("starting on the second U+%04X of a run takes the run's space", c.r)
		if !c.space {
			sel = map[string]any{"text": w + "cd", "start": 3, "end": 6, "prefix": "ab" + w, "suffix": ""}
			desc = fmt.Sprintf("starting on the second U+%04X is not adjusted", c.r)
		}
		f.Vectors = append(f.Vectors, c.vector(f.Op, desc, []string{"QUOTE-ANCHOR-003", "QUOTE-ANCHOR-018"},
			map[string]any{"text": "ab" + w + w + "cd", "start": 3, "end": 6}, map[string]any{"selector": sel}))
	}
	return f, nil
}

// genResolveWhitespace looks for "one two" in a text where the space is
// each code point in turn: found at 0..7 for whitespace, not found for a
// near-miss.
func genResolveWhitespace() (*vectors.File, error) {
	f := &vectors.File{Op: "quote.resolve", Description: "A space in the quote matches each whitespace code point of the text and no near-miss."}
	for _, c := range anchorCases() {
		text := "one" + strings.Repeat(string(c.r), 2) + "two"
		var want any = map[string]any{"match": map[string]any{"start": 0, "end": 7}}
		desc := fmt.Sprintf("two U+%04X in the text match one space of the quote", c.r)
		if !c.space {
			want = map[string]any{"match": nil, "reason": "not_found"}
			desc = fmt.Sprintf("two U+%04X in the text do not match a space", c.r)
		}
		sel := map[string]any{"text": "one two", "start": 0, "end": 7, "prefix": "", "suffix": ""}
		f.Vectors = append(f.Vectors, c.vector(f.Op, desc, []string{"QUOTE-ANCHOR-003", "QUOTE-ANCHOR-024"},
			map[string]any{"text": text, "selector": sel}, want))
	}
	return f, nil
}
