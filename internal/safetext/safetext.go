// Package safetext renders text that conform did not write (an
// implementation's hello, error messages, stderr, answers; an HTTP server's
// status text) for humans: on a terminal, in a report file, in a CI job page.
//
// Text renders as itself except for the characters a terminal or a
// renderer acts on or hides, which render as escapes:
//
//   - C0 controls, DEL and C1 controls (U+0000-001F, U+007F-009F): \n, \r,
//     \t, \xNN for the other bytes below 0x80 (\x1b for ESC), \u0085 for C1;
//     so no escape sequence (OSC, CSI) reaches a terminal and no newline
//     starts a line of its own;
//   - format characters (Unicode category Cf: the bidi embeddings,
//     overrides and isolates U+202A-202E and U+2066-2069, the marks U+200E,
//     U+200F and U+061C, the zero-width U+200B-200D and U+2060, the byte
//     order mark U+FEFF, soft hyphen U+00AD, tag characters) and the line
//     and paragraph separators U+2028 and U+2029: as \uXXXX (\U00XXXXXX above
//     U+FFFF); a zero-width joiner inside an emoji sequence is escaped too,
//     since conformance reports are about exact code points;
//   - each byte of invalid UTF-8: as \xNN.
//
// A backslash is not escaped: text that already holds "\x1b" as four
// characters reads the same as an escaped ESC. Every escape is ASCII, so
// rendered text holds no character that a terminal, a bidi algorithm or a
// Markdown or HTML renderer treats specially other than printable ones.
package safetext

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/conform-suite/conform/internal/jsonv"
)

// Dangerous reports whether r renders as an escape: a control, a format
// character, or a line or paragraph separator.
func Dangerous(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r < 0x7f:
		return false
	case r == 0x2028, r == 0x2029:
		return true
	}
	return unicode.Is(unicode.Cf, r)
}

// Safe reports whether s renders as itself: valid UTF-8 without a
// dangerous character.
func Safe(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsFunc(s, Dangerous)
}

// Text renders s for humans, on one line (see the package comment).
func Text(s string) string { return escape(s, false) }

// JSON renders JSON text for humans: like Text, except that every escape
// is a JSON one (\u001b, \u007f, \u202e), so that JSON text whose strings
// held dangerous characters stays valid JSON denoting the same value.
// (Invalid UTF-8 still renders as \xNN: it was not JSON text.)
func JSON(s string) string { return escape(s, true) }

// escape renders s with Text's escapes, or with JSON ones when json is set.
func escape(s string, json bool) string {
	if Safe(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case !json && (r < 0x20 || r == 0x7f):
			fmt.Fprintf(&b, `\x%02x`, r)
		case !json && Dangerous(r) && r > 0xffff:
			fmt.Fprintf(&b, `\U%08x`, r)
		case json && Dangerous(r) && r > 0xffff:
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(&b, `\u%04x\u%04x`, r1, r2)
		case Dangerous(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// IndentJSON renders JSON text for humans on several lines: indented with
// json.Indent, each line starting with prefix, every dangerous character
// of its strings an escape as with JSON, so that it is still JSON of the
// same value. Text that is not JSON, and a value nested more than
// MaxIndentDepth levels deep (indenting costs its depth on every line, so a
// deep answer would grow with the square of its depth), render with JSON
// on one line.
func IndentJSON(raw []byte, prefix, indent string) string {
	var c, b bytes.Buffer
	if err := json.Compact(&c, raw); err != nil {
		return prefix + JSON(string(raw))
	}
	if _, depth := jsonv.Measure(c.Bytes()); depth > MaxIndentDepth {
		return prefix + JSON(c.String())
	}
	if err := json.Indent(&b, []byte(JSON(c.String())), prefix, indent); err != nil {
		return prefix + JSON(c.String())
	}
	return prefix + b.String()
}

// MaxIndentDepth is the deepest nesting IndentJSON indents.
const MaxIndentDepth = 16

// Head is the longest prefix of s of at most n bytes that does not cut a
// UTF-8 sequence.
func Head(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Thousands writes n with a comma between groups of three digits:
// 1,048,576.
func Thousands(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && c != '-' && s[i-1] != '-' && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Clip renders s with Text and cuts the result to at most max bytes (at a
// character boundary), saying how many bytes of s were left out.
func Clip(s string, max int) string {
	t := Text(s)
	if len(t) <= max {
		return t
	}
	return Head(t, max) + fmt.Sprintf("… (%d bytes in all)", len(s))
}

// CodeSpan renders s as a Markdown code span: the text rendered with Text,
// between backtick fences longer than any run of backticks inside it, so
// that nothing in it is a link, an image, emphasis or HTML. In a table
// cell (cell true), '|' is escaped as GitHub Flavored Markdown requires
// even inside a code span.
func CodeSpan(s string, cell bool) string {
	t := Text(s)
	if cell {
		// A table row splits at a '|' that no odd run of backslashes
		// escapes: a backslash right before a '|' becomes \x5c, and every
		// '|' gets one.
		t = strings.ReplaceAll(t, `\|`, `\x5c|`)
		t = strings.ReplaceAll(t, "|", `\|`)
	}
	longest := 0
	for _, run := range strings.FieldsFunc(t, func(r rune) bool { return r != '`' }) {
		longest = max(longest, len(run))
	}
	fence := strings.Repeat("`", longest+1)
	if t == "" {
		return "` `"
	}
	if t[0] == '`' || t[len(t)-1] == '`' || (t[0] == ' ' && t[len(t)-1] == ' ') {
		t = " " + t + " "
	}
	return fence + t + fence
}

// Tail renders the last n lines of multi-line text (a stderr tail), each
// with Clip to max bytes, after a "[N earlier lines]" line when some were
// left out.
func Tail(s string, n, max int) []string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	lines := strings.Split(s, "\n")
	var out []string
	if len(lines) > n {
		out = append(out, fmt.Sprintf("[%d earlier lines]", len(lines)-n))
		lines = lines[len(lines)-n:]
	}
	for _, l := range lines {
		out = append(out, Clip(l, max))
	}
	return out
}
