package quote

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// FormatHref serializes c as a t3-citation URI (spec/quote-link.md,
// "Formatter"). It refuses, with an *[Error], every citation that the parser
// would not give back unchanged, so that Parse(FormatHref(c)) == c whenever
// FormatHref succeeds.
func FormatHref(c Citation) (string, error) {
	if err := checkFormattable(c); err != nil {
		return "", err
	}
	return formatValid(c), nil
}

// FormatLink serializes c as the Markdown link [Assistant quote](href).
func FormatLink(c Citation) (string, error) {
	href, err := FormatHref(c)
	if err != nil {
		return "", err
	}
	return "[" + Label + "](" + href + ")", nil
}

// checkFormattable applies the formatter's checks in the specified order:
// unpaired surrogates, version, ids (untrimmed first), then the value checks
// shared with the parser.
func checkFormattable(c Citation) *Error {
	for _, f := range c.strings() {
		if !utf8.ValidString(f.value) {
			// A Go string carries an unpaired surrogate only as bytes that
			// are not well-formed UTF-8.
			return fail(CodeUnpairedSurrogate, f.name)
		}
	}
	if c.Version != 1 {
		return fail(CodeVersion, "version")
	}
	for _, f := range c.ids() {
		if f.value != trimWith(f.value, idCheckClass) {
			return fail(CodeIDWhitespace, f.name)
		}
	}
	if err := c.checkHead(); err != nil {
		return err
	}
	for _, f := range []struct {
		name  string
		value int64
	}{{"start", c.Start}, {"end", c.End}} {
		if f.value < 0 || f.value > MaxOffset {
			return fail(CodeOffsetRange, f.name)
		}
	}
	return c.checkTail()
}

type namedString struct{ name, value string }

func (c *Citation) ids() []namedString {
	return []namedString{{"environmentId", c.EnvironmentID}, {"threadId", c.ThreadID}, {"messageId", c.MessageID}}
}

func (c *Citation) strings() []namedString {
	s := append(c.ids(), namedString{"text", c.Text}, namedString{"prefix", c.Prefix}, namedString{"suffix", c.Suffix})
	if c.Comment != nil {
		s = append(s, namedString{"comment", *c.Comment})
	}
	return s
}

// checkHead checks the ids, text and comment of a citation whose ids are
// already trimmed.
func (c *Citation) checkHead() *Error {
	for _, f := range c.ids() {
		switch {
		case f.value == "":
			return fail(CodeIDEmpty, f.name)
		case f.value == "." || f.value == "..":
			return fail(CodeDotSegment, f.name)
		case UTF16Len(f.value) > MaxIDLength:
			return fail(CodeIDTooLong, f.name)
		}
	}
	switch {
	case isBlank(c.Text, textBlankClass):
		return fail(CodeTextEmpty, "text")
	case UTF16Len(c.Text) > MaxTextLength:
		return fail(CodeTextTooLong, "text")
	case c.Comment != nil && UTF16Len(*c.Comment) > MaxCommentLength:
		return fail(CodeCommentTooLong, "comment")
	}
	return nil
}

// checkTail checks the order of offsets already known to be in range, then
// the context.
func (c *Citation) checkTail() *Error {
	if c.End <= c.Start {
		return fail(CodeOffsetOrder, "end")
	}
	if UTF16Len(c.Prefix) > MaxContextLength {
		return fail(CodeContextTooLong, "prefix")
	}
	if UTF16Len(c.Suffix) > MaxContextLength {
		return fail(CodeContextTooLong, "suffix")
	}
	return nil
}

// formatValid serializes a citation that passed checkFormattable.
func formatValid(c Citation) string {
	var b strings.Builder
	n := len(HrefPrefix) + len(c.EnvironmentID) + len(c.ThreadID) + len(c.MessageID) + len(c.Text) + len(c.Prefix) + len(c.Suffix) + 22
	if c.Comment != nil {
		n += len(*c.Comment)
	}
	b.Grow(3 * n) // an escaped byte takes at most 3
	b.WriteString(HrefPrefix)
	percentClass(&b, c.EnvironmentID, false)
	b.WriteByte('/')
	percentClass(&b, c.ThreadID, false)
	b.WriteByte('/')
	percentClass(&b, c.MessageID, false)
	b.WriteString("?text=")
	percentClass(&b, c.Text, true)
	b.WriteString("&start=")
	b.WriteString(strconv.FormatInt(c.Start, 10))
	b.WriteString("&end=")
	b.WriteString(strconv.FormatInt(c.End, 10))
	b.WriteString("&prefix=")
	percentClass(&b, c.Prefix, true)
	b.WriteString("&suffix=")
	percentClass(&b, c.Suffix, true)
	if c.Comment != nil {
		b.WriteString("&comment=")
		percentClass(&b, *c.Comment, true)
	}
	return b.String()
}

const upperHex = "0123456789ABCDEF"

// escape appends s percent-encoded as UTF-8 with upper-case hex digits. In a
// path segment only A-Z a-z 0-9 - _ . ~ stay literal; in a query value (form)
// A-Z a-z 0-9 * - . _ stay literal and a space becomes '+'.
func escape(b *strings.Builder, s string, form bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '_', c == '.':
			b.WriteByte(c)
		case c == '~' && !form, c == '*' && form:
			b.WriteByte(c)
		case c == ' ' && form:
			b.WriteByte('+')
		default:
			b.WriteByte('%')
			b.WriteByte(upperHex[c>>4])
			b.WriteByte(upperHex[c&15])
		}
	}
}
