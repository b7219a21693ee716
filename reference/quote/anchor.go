package quote

// This file implements quote anchoring, spec/quote-anchor.md: whitespace
// normalization, capturing a selection as a selector, and resolving a
// selector against a text again. Everything is measured in UTF-16 code units
// of the rendered-text stream; the work is done on []uint16 so that an astral
// character counts 2 and a surrogate pair is never split.
//
// A Go string cannot hold a lone surrogate. Per the spec (QUOTE-ANCHOR-002),
// a lone surrogate counts as U+FFFD, one code unit, which is what
// encoding/json and a range loop over an ill-formed string produce anyway.

import (
	"errors"
	"math/bits"
	"slices"
	"unicode/utf16"
	"unicode/utf8"
)

// Selector is a text-quote selector: the exact selected excerpt, its range
// in the normalized rendered-text stream, and up to 32 code units of
// normalized context on each side.
type Selector struct {
	Text   string `json:"text"`
	Start  int    `json:"start"`
	End    int    `json:"end"`
	Prefix string `json:"prefix"`
	Suffix string `json:"suffix"`
}

// Rejection codes of Select, spec/quote-anchor.md "Rejection codes".
const (
	CodeSelectionOutOfRange      Code = "QUOTE_SELECTION_OUT_OF_RANGE"
	CodeSelectionReversed        Code = "QUOTE_SELECTION_REVERSED"
	CodeSelectionEmpty           Code = "QUOTE_SELECTION_EMPTY"
	CodeSelectionSplitsSurrogate Code = "QUOTE_SELECTION_SPLITS_SURROGATE"
	CodeSelectionBlank           Code = "QUOTE_SELECTION_BLANK"
	CodeSelectionTooLong         Code = "QUOTE_SELECTION_TOO_LONG"
)

// Answers of Resolve that are not a match, and not refusals either: the
// quote.resolve op answers them as outcomes. Callers branch on them with
// errors.Is.
var (
	ErrAmbiguous = errors.New("quote: quote is ambiguous")
	ErrNotFound  = errors.New("quote: quote not found")
)

const (
	// contextUnits is the longest prefix or suffix Select captures.
	contextUnits = 32
	// selectionMaxUnits is the longest excerpt Select accepts: the limit a
	// citation's text has (QUOTE-ANCHOR-015).
	selectionMaxUnits = 8000
)

// isSpace reports whether u is one of the 25 code points of JavaScript's \s
// (QUOTE-ANCHOR-003). All of them are in the BMP, so one code unit suffices.
func isSpace(u uint16) bool { return spaceClass(rune(u)) }

func isHigh(u uint16) bool { return u >= 0xD800 && u <= 0xDBFF }
func isLow(u uint16) bool  { return u >= 0xDC00 && u <= 0xDFFF }

// splitsPair reports whether offset i of u falls between the two halves of
// a surrogate pair.
func splitsPair(u []uint16, i int) bool {
	return i > 0 && i < len(u) && isHigh(u[i-1]) && isLow(u[i])
}

// anchorUnits returns s as UTF-16 code units. When normalize is set, each
// run of whitespace becomes one U+0020.
func anchorUnits(s string, normalize bool) []uint16 {
	u := make([]uint16, 0, len(s))
	inRun := false
	for i := 0; i < len(s); i++ {
		if b := s[i]; b < 0x80 { // ASCII fast path
			if normalize && isSpace(uint16(b)) {
				if !inRun {
					u = append(u, ' ')
				}
				inRun = true
				continue
			}
			u = append(u, uint16(b))
			inRun = false
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size - 1
		if normalize && r <= 0xFFFF && isSpace(uint16(r)) {
			if !inRun {
				u = append(u, ' ')
			}
			inRun = true
			continue
		}
		u = utf16.AppendRune(u, r)
		inRun = false
	}
	return u
}

// normalizedLen returns the length in code units of the normalization of u.
func normalizedLen(u []uint16) int {
	n, inRun := 0, false
	for _, c := range u {
		space := isSpace(c)
		if !space || !inRun {
			n++
		}
		inRun = space
	}
	return n
}

// blank reports whether u holds nothing but whitespace, as the class of
// one site (selectBlankClass, quoteBlankClass) has it.
func blank(u []uint16, class func(rune) bool) bool {
	return !slices.ContainsFunc(u, func(c uint16) bool { return !class(rune(c)) })
}

// Normalize collapses each maximal run of whitespace (the 25 code points of
// JavaScript's \s) to one U+0020. It does not trim, fold case or apply any
// Unicode normalization.
func Normalize(s string) string { return text16(anchorUnits(s, true)) }

// Select captures the selection text[start:end], with start and end raw
// offsets in UTF-16 code units of the rendered text, as a selector. It
// refuses, with an *Error, a selection that is out of range, reversed,
// empty, splits a surrogate pair, holds only whitespace or is longer than
// 8,000 code units, checked in that order.
func Select(text string, start, end int) (Selector, error) {
	return SelectNarrowed(text, start, end, nil)
}

// SelectNarrowed is Select for a selection whose ends may lie at the empty
// boundary of a neighbouring block, as a triple click leaves them
// (QUOTE-ANCHOR-036). breaks are the offsets in text of the line feeds that
// the rendered-text stream inserted for block boundaries and <br>
// (QUOTE-ANCHOR-008), in increasing order; the caller has checked that each
// is a line feed of text. Once the range is known to be in the text and
// forward, it is narrowed past the breaks at its edges, which hold no
// selected text, and then captured as Select captures it.
func SelectNarrowed(text string, start, end int, breaks []int) (Selector, error) {
	t := anchorUnits(text, false)
	refuse := func(code Code) (Selector, error) {
		return Selector{}, fail(code, "selection")
	}
	switch {
	case start < 0 || end < 0 || start > len(t) || end > len(t):
		return refuse(CodeSelectionOutOfRange)
	case start > end:
		return refuse(CodeSelectionReversed)
	}
	isBreak := func(i int) bool { _, ok := slices.BinarySearch(breaks, i); return ok }
	for start < end && isBreak(start) {
		start++
	}
	for end > start && isBreak(end-1) {
		end--
	}
	switch {
	case start == end:
		return refuse(CodeSelectionEmpty)
	case splitsPair(t, start) || splitsPair(t, end):
		return refuse(CodeSelectionSplitsSurrogate)
	case blank(t[start:end], selectBlankClass):
		return refuse(CodeSelectionBlank)
	case end-start > selectionMaxUnits:
		return refuse(CodeSelectionTooLong)
	}
	nStart := normalizedLen(t[:start])
	if start > 0 && selectRunClass(rune(t[start-1])) && selectRunClass(rune(t[start])) {
		// The selection starts inside a whitespace run: it takes the
		// run's single space with it (QUOTE-ANCHOR-018).
		nStart--
	}
	nEnd := normalizedLen(t[:end])
	n := anchorUnits(text, true)
	from := max(0, nStart-contextUnits)
	if splitsPair(n, from) {
		from++
	}
	to := min(len(n), nEnd+contextUnits)
	if splitsPair(n, to) {
		to--
	}
	return Selector{
		Text:   text16(t[start:end]),
		Start:  nStart,
		End:    nEnd,
		Prefix: text16(n[from:nStart]),
		Suffix: text16(n[nEnd:to]),
	}, nil
}

func text16(u []uint16) string { return string(utf16.Decode(u)) }

// Resolve finds sel's quote in text and returns its range in the normalized
// stream of text, or ErrAmbiguous or ErrNotFound.
//
// The quote, prefix and suffix are normalized like text. An occurrence of
// the quote (overlapping ones count) matches its context when the prefix
// ends right where it starts and the suffix begins right where it ends; an
// empty side always matches, a side cut short by the document's edge never
// does. One context-matching occurrence is the match. Two or more are
// ambiguous. With none, a quote that occurs exactly once still matches,
// one that occurs several times is ambiguous, and one that never occurs is
// not found. A quote that is empty or whitespace only is not found.
//
// sel.Start and sel.End are not read. Checking the saved offsets first, as
// the spec allows (QUOTE-ANCHOR-032), can never change the answer: valid
// saved offsets whose text and context match denote a context-matching
// occurrence, which the search finds too; they cannot break a tie between
// two such occurrences (QUOTE-ANCHOR-029), and they are ignored otherwise.
func Resolve(text string, sel Selector) (start, end int, err error) {
	// The quote is blank before normalization exactly when it is after
	// (QUOTE-ANCHOR-004 maps whitespace to whitespace); it is tested as
	// given, as a port tests it.
	if isBlank(sel.Text, quoteBlankClass) {
		return 0, 0, ErrNotFound
	}
	q := anchorUnits(sel.Text, true)
	n := anchorUnits(text, true)
	qEnds, count := occurrenceEnds(n, q)
	switch count {
	case 0:
		return 0, 0, ErrNotFound
	case 1:
		// The only occurrence is the answer whether its context matches
		// or not, so the context need not be looked at.
		e := qEnds.first()
		return e - len(q), e, nil
	}
	// Every check is word-parallel over sets of end offsets, one linear
	// search per side, so that neither many occurrences nor a long context
	// makes the resolver quadratic (QUOTE-ANCHOR-035).
	prefix := anchorUnits(sel.Prefix, true)
	suffix := anchorUnits(sel.Suffix, true)
	var prefixEnds, suffixEnds bitset
	if len(prefix) > 0 {
		prefixEnds, _ = occurrenceEnds(n, prefix)
	}
	if len(suffix) > 0 {
		suffixEnds, _ = occurrenceEnds(n, suffix)
	}
	matches, match := 0, 0
	for w, word := range qEnds {
		// Bit j of word is an occurrence ending at e = 64w+j and starting
		// at e-len(q): its prefix ends at e-len(q), its suffix at
		// e+len(suffix).
		if prefixEnds != nil {
			word &= prefixEnds.window(64*w - len(q))
		}
		if suffixEnds != nil {
			word &= suffixEnds.window(64*w + len(suffix))
		}
		if word == 0 {
			continue
		}
		if matches == 0 {
			match = 64*w + bits.TrailingZeros64(word) - len(q)
		}
		if matches += bits.OnesCount64(word); matches > 1 {
			return 0, 0, ErrAmbiguous
		}
	}
	if matches == 1 {
		return match, match + len(q), nil
	}
	return 0, 0, ErrAmbiguous // several occurrences, no context match
}

// occurrenceEnds returns the end offsets of every occurrence of pat in
// text, overlapping ones included, as a set over 0..len(text), and their
// number. It runs the Knuth-Morris-Pratt automaton: O(len(text)+len(pat))
// whatever the input, where comparing pat afresh at every offset costs
// O(len(text)*len(pat)). pat is not empty.
//
// Both slices come from well-formed strings, so an occurrence can neither
// start nor end inside a surrogate pair: pat would have to begin with a low
// surrogate or end with a high one, which a well-formed pat cannot.
func occurrenceEnds(text, pat []uint16) (bitset, int) {
	set := newBitset(len(text) + 1)
	// border[i] is the length of the longest proper border of pat[:i+1].
	border := make([]int, len(pat))
	for i, k := 1, 0; i < len(pat); i++ {
		for k > 0 && pat[i] != pat[k] {
			k = border[k-1]
		}
		if pat[i] == pat[k] {
			k++
		}
		border[i] = k
	}
	count, k := 0, 0
	for i := 0; i < len(text); i++ {
		if k == 0 {
			// Nothing is matched: skip to the next unit that can start
			// an occurrence, a loop as tight as a plain pass.
			for i < len(text) && text[i] != pat[0] {
				i++
			}
			if i == len(text) {
				break
			}
		}
		c := text[i]
		for k > 0 && c != pat[k] {
			k = border[k-1]
		}
		if c == pat[k] {
			k++
		}
		if k == len(pat) {
			set.set(i + 1)
			count++
			k = border[k-1]
		}
	}
	return set, count
}

// bitset is a fixed-size set of small non-negative integers.
type bitset []uint64

func newBitset(n int) bitset { return make(bitset, (n+63)/64) }
func (b bitset) set(i int)   { b[i/64] |= 1 << (i % 64) }
func (b bitset) word(w int) uint64 {
	if w < 0 || w >= len(b) {
		return 0
	}
	return b[w]
}

// window returns the 64 members i..i+63 of b as bits 0..63; i may be
// negative, and members outside the set are 0.
func (b bitset) window(i int) uint64 {
	switch {
	case i <= -64:
		return 0
	case i < 0:
		return b.word(0) << -i
	}
	w, off := i/64, uint(i%64)
	if off == 0 {
		return b.word(w)
	}
	return b.word(w)>>off | b.word(w+1)<<(64-off)
}

// first returns the smallest member of b, or -1.
func (b bitset) first() int {
	for w, word := range b {
		if word != 0 {
			return 64*w + bits.TrailingZeros64(word)
		}
	}
	return -1
}
