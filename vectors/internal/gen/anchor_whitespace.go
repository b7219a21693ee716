package main

// Generators of the whitespace vectors of quote anchoring
// (spec/quote-anchor.md, QUOTE-ANCHOR-003): one vector per code point of
// JavaScript's \s, and one per near-miss that is not whitespace, for each of
// quote.normalize, quote.select and quote.resolve. Expected outputs are built
// from the spec's list, never by calling the reference.

import (
	"fmt"
	"strings"
)

// anchorSpaces are the 25 whitespace code points, as the spec lists them.
var anchorSpaces = []rune{
	0x0009, 0x000A, 0x000B, 0x000C, 0x000D, 0x0020, 0x00A0, 0x1680,
	0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A,
	0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF,
}

// anchorNearMisses look like whitespace to some definitions, not to \s.
var anchorNearMisses = []rune{0x0085, 0x180E, 0x200B}

func init() {
	registerGen("quote/normalize-whitespace.gen.json", "quote.normalize",
		"Each whitespace code point, doubled, becomes one space; each near-miss stays.", genNormalizeWhitespace)
	registerGen("quote/select-whitespace.gen.json", "quote.select",
		"A selection starting inside a run of each whitespace code point, and after each near-miss.", genSelectWhitespace)
	registerGen("quote/resolve-whitespace.gen.json", "quote.resolve",
		"A space in the quote matches each whitespace code point of the text and no near-miss.", genResolveWhitespace)
}

// anchorVectors adds to cf a vector for each whitespace code point, then
// for each near-miss, whose description, input and expected output vector
// gives from the code point and whether it is whitespace.
func anchorVectors(cf *genFile, req string, vector func(r rune, space bool) (string, any, any)) {
	add := func(r rune, space bool) {
		id, tag := fmt.Sprintf("u%04x-is-whitespace", r), "whitespace"
		if !space {
			id, tag = fmt.Sprintf("u%04x-is-not-whitespace", r), "near-miss"
		}
		d, in, want := vector(r, space)
		cf.add(id, d, []string{"QUOTE-ANCHOR-003", req}, []string{tag}, in, want)
	}
	for _, r := range anchorSpaces {
		add(r, true)
	}
	for _, r := range anchorNearMisses {
		add(r, false)
	}
}

func genNormalizeWhitespace(cf *genFile) {
	anchorVectors(cf, "QUOTE-ANCHOR-004", func(r rune, space bool) (string, any, any) {
		in := map[string]any{"text": "a" + string(r) + string(r) + "b"}
		if !space {
			return fmt.Sprintf("two U+%04X between letters are kept", r), in, in
		}
		return fmt.Sprintf("two U+%04X between letters become one space", r), in, map[string]any{"text": "a b"}
	})
}

// genSelectWhitespace selects from the second of two equal code points to
// the end of "ab" w w "cd": inside a run for whitespace, so the selection
// takes the run's space (QUOTE-ANCHOR-018); after an ordinary character
// otherwise.
func genSelectWhitespace(cf *genFile) {
	anchorVectors(cf, "QUOTE-ANCHOR-018", func(r rune, space bool) (string, any, any) {
		w := string(r)
		in := map[string]any{"text": "ab" + w + w + "cd", "start": 3, "end": 6}
		if !space {
			return fmt.Sprintf("starting on the second U+%04X is not adjusted", r), in,
				map[string]any{"selector": map[string]any{"text": w + "cd", "start": 3, "end": 6, "prefix": "ab" + w, "suffix": ""}}
		}
		return fmt.Sprintf("starting on the second U+%04X of a run takes the run's space", r), in,
			map[string]any{"selector": map[string]any{"text": w + "cd", "start": 2, "end": 5, "prefix": "ab", "suffix": ""}}
	})
}

// genResolveWhitespace looks for "one two" in a text where the space is
// each code point in turn: found at 0..7 for whitespace, not found for a
// near-miss.
func genResolveWhitespace(cf *genFile) {
	anchorVectors(cf, "QUOTE-ANCHOR-024", func(r rune, space bool) (string, any, any) {
		in := map[string]any{"text": "one" + strings.Repeat(string(r), 2) + "two",
			"selector": map[string]any{"text": "one two", "start": 0, "end": 7, "prefix": "", "suffix": ""}}
		if !space {
			return fmt.Sprintf("two U+%04X in the text do not match a space", r), in, map[string]any{"match": nil, "reason": "not_found"}
		}
		return fmt.Sprintf("two U+%04X in the text match one space of the quote", r), in, map[string]any{"match": map[string]any{"start": 0, "end": 7}}
	})
}
