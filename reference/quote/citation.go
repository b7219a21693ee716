package quote

import (
	"strings"
	"unicode/utf16"
)

// Citation is a version 1 assistant citation: the source of a quoted excerpt
// and a text-quote selector for it. Its JSON form uses the field names and the
// member order of the specification (provider expansion depends on the order).
type Citation struct {
	Version       int     `json:"version"`
	EnvironmentID string  `json:"environmentId"`
	ThreadID      string  `json:"threadId"`
	MessageID     string  `json:"messageId"`
	Text          string  `json:"text"`
	Comment       *string `json:"comment,omitempty"`
	Start         int64   `json:"start"`
	End           int64   `json:"end"`
	Prefix        string  `json:"prefix"`
	Suffix        string  `json:"suffix"`
}

// Serialized form and limits (spec/quote-link.md). Lengths are UTF-16 code
// units.
const (
	Label      = "Assistant quote"   // the literal link label
	HrefPrefix = "t3-citation://v1/" // the constant start of every formatted href

	MaxHrefLength    = 160_000
	MaxIDLength      = 512
	MaxTextLength    = 8_000
	MaxCommentLength = 8_000
	MaxContextLength = 32
	MaxOffset        = 1<<53 - 1 // the largest safe integer
)

// UTF16Len returns the length of s in UTF-16 code units: 2 for a character
// above U+FFFF, 1 for any other, and 1 for each byte that is not part of
// well-formed UTF-8 (it stands for U+FFFD).
func UTF16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// IsSpace reports whether r is whitespace in the sense of the specification:
// the 25 code points of JavaScript's String.prototype.trim and \s, namely
// U+0009-U+000D, U+0020, U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029,
// U+202F, U+205F, U+3000 and U+FEFF. U+0085, U+180E and U+200B are not.
func IsSpace(r rune) bool {
	switch {
	case r >= 0x09 && r <= 0x0D, r == 0x20:
		return true
	case r < 0xA0:
		return false
	case r == 0xA0, r == 0x1680, r >= 0x2000 && r <= 0x200A, r == 0x2028, r == 0x2029,
		r == 0x202F, r == 0x205F, r == 0x3000, r == 0xFEFF:
		return true
	}
	return false
}

// TrimSpace returns s without its leading and trailing whitespace, as
// defined by [IsSpace].
func TrimSpace(s string) string { return trimWith(s, idTrimClass) }

// trimWith is TrimSpace with the whitespace of the class variable of one
// site.
func trimWith(s string, class func(rune) bool) string { return strings.TrimFunc(s, class) }

// The platform classes of the quote suite, each applied through variables
// that only tests replace (by a platform built-in's reading, to show that
// the vectors tell the two apart), one variable for each rule (site) that
// applies the class, since a port may reach for a built-in at one of them
// only. Whitespace, tested (QUOTE-ANCHOR-003):
//   - spaceClass: the runs normalization collapses, in normalize, select
//     (the normalized offsets and context) and resolve (QUOTE-ANCHOR-004);
//   - selectBlankClass: the blank selection select refuses (QUOTE-ANCHOR-014);
//   - selectRunClass: the run a selection starts inside (QUOTE-ANCHOR-018);
//   - quoteBlankClass: the blank quote resolve does not find (QUOTE-ANCHOR-025);
//   - linkEndClass: the whitespace that ends the collector's href (QUOTE-LINK-060);
//   - textBlankClass: the blank text a parser and formatter refuse (QUOTE-LINK-040).
//
// Whitespace, trimmed:
//   - idTrimClass: a parsed id (QUOTE-LINK-036), by TrimSpace;
//   - idCheckClass: an id the formatter refuses untrimmed (QUOTE-LINK-014);
//   - commentTrimClass: a comment being set (QUOTE-COMPOSE-001);
//   - submitTrimClass: a composer's prompt (QUOTE-COMPOSE-031);
//   - inputTrimClass: a provider turn's input (QUOTE-COMPOSE-034);
//   - expandedTrimClass: its expanded text (QUOTE-COMPOSE-035).
//
// offsetClass reads an href's offset (its digits and its spelling,
// QUOTE-LINK-044), percentClass percent-encodes a path segment or a query
// value (QUOTE-LINK-010, QUOTE-LINK-011), jsonClass writes a JSON string of
// the expansion block (QUOTE-COMPOSE-016).
var (
	spaceClass        = IsSpace
	selectBlankClass  = IsSpace
	selectRunClass    = IsSpace
	quoteBlankClass   = IsSpace
	linkEndClass      = IsSpace
	textBlankClass    = IsSpace
	idTrimClass       = IsSpace
	idCheckClass      = IsSpace
	commentTrimClass  = IsSpace
	submitTrimClass   = IsSpace
	inputTrimClass    = IsSpace
	expandedTrimClass = IsSpace
	offsetClass       = parseOffset
	percentClass      = escape
	jsonClass         = writeJSONString
)

// isBlank reports whether s is empty or whitespace only, as the class of
// one site (textBlankClass, quoteBlankClass) has it.
func isBlank(s string, class func(rune) bool) bool { return strings.TrimFunc(s, class) == "" }
