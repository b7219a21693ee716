package selref

import "strings"

// The marks of the history bubble (SELREF-BUBBLE-003): U+21B3 DOWNWARDS ARROW
// WITH TIP RIGHTWARDS opens it, U+00B7 MIDDLE DOT separates the external
// link, whose text is U+2197 NORTH EAST ARROW.
const (
	BubbleOpen   = "\u21b3 "
	BubbleDot    = " \u00b7 "
	BubbleArrow  = "\u2197"
	markdownMeta = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
)

// Bubble renders the reference shown below a user message in the chat, as
// CommonMark (spec/selref.md, "History bubble"):
//
//	↳ [<label>](<vanceUri>) · [↗](<url>)
//
// The stored reference is untrusted and is ingested again; when ingest drops
// it, the bubble is empty. The label is link text when a vanceUri survives
// and plain text otherwise; every ASCII punctuation character of it is
// backslash-escaped, so no link, image, emphasis, code span, entity or HTML
// can come out of a label, and the rendered text is the label itself. An
// address is written as a pointy-bracket destination with '\', '<' and '>'
// backslash-escaped and '&' written as "&amp;", so that it resolves to the
// address exactly as stored.
func Bubble(stored Reference) string {
	ref, err := Ingest(stored)
	if err != nil {
		return ""
	}
	var b strings.Builder
	b.WriteString(BubbleOpen)
	if ref.VanceURI != "" {
		b.WriteByte('[')
		b.WriteString(EscapeText(ref.Label))
		b.WriteString("](")
		b.WriteString(Destination(ref.VanceURI))
		b.WriteByte(')')
	} else {
		b.WriteString(EscapeText(ref.Label))
	}
	if ref.URL != "" {
		b.WriteString(BubbleDot)
		b.WriteString("[" + BubbleArrow + "](")
		b.WriteString(Destination(ref.URL))
		b.WriteByte(')')
	}
	return b.String()
}

// EscapeText returns s with a backslash before every ASCII punctuation
// character (SELREF-BUBBLE-004). In CommonMark such an escape always stands
// for the character itself, so the result renders as s and opens no inline
// construct.
func EscapeText(s string) string {
	return escapeSet(s, markdownMeta)
}

// Destination returns a CommonMark link destination that resolves to addr
// exactly: addr between '<' and '>', with '\', '<' and '>' backslash-escaped
// and '&' written as the character reference "&amp;" (SELREF-BUBBLE-005).
// A backslash does not keep '&' from starting a character reference in a
// destination with every renderer (some decode references before they
// remove escapes), while "&amp;" is decoded to '&' by all of them. addr
// holds no line break (ingest refuses address controls).
func Destination(addr string) string {
	return "<" + strings.ReplaceAll(escapeSet(addr, `\<>`), "&", "&amp;") + ">"
}

func escapeSet(s, set string) string {
	if !strings.ContainsAny(s, set) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for _, r := range s {
		if r < 0x80 && strings.ContainsRune(set, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
