package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/conform-suite/conform/spec"
)

// swiftRows are the Swift built-ins, which cannot run here: each set is derived from the
// definition its documentation gives, with Go's Unicode tables (unicode.Version, which the test
// checks is the spec's UnicodeVersion).
func swiftRows(in inputs) []*raw {
	d := func(key, name, kind, note string) *raw {
		return newRaw("swift:"+key, "swift", name, "documented", "documented", kind, note+" (derived with the tables of Unicode "+unicode.Version+")")
	}
	in2 := func(ts ...*unicode.RangeTable) func(rune, string) bool {
		return func(c rune, _ string) bool { return unicode.In(c, ts...) }
	}
	newline := func(c rune) bool { return 0x0A <= c && c <= 0x0D || c == 0x85 || c == 0x2028 || c == 0x2029 }
	digits := d("CharacterSet.decimalDigits", "s.unicodeScalars.allSatisfy(CharacterSet.decimalDigits.contains)", spec.KindDigit,
		"CharacterSet.decimalDigits: the characters of General Category Nd; a digit's value is its place in its run of ten")
	digitValues(digits, func(c rune) bool { return unicode.Is(unicode.Nd, c) })
	intSyntax := regexp.MustCompile(`^[+-]?[0-9]+$`)
	lines := d("split(whereSeparator:isNewline)", "s.split(whereSeparator: \\.isNewline)", spec.KindSplit,
		"Character.isNewline: U+000A to U+000D, U+0085, U+2028, U+2029 and CR LF, which is one Character; split omits empty subsequences by default")
	for c := rune(0x0A); c <= 0x2029; c++ {
		if newline(c) {
			lines.points[c] = ""
		}
	}
	for n, s := range spec.SplitProbes {
		lines.lines[n] = strings.FieldsFunc(strings.ReplaceAll(s, "\r\n", "\n"), newline)
	}
	pathAllowed := "!$&'()*+,-./:;=@_~"
	return []*raw{
		setRow(d("Character.isWhitespace", "c.isWhitespace", spec.KindSet, "Character.isWhitespace: the Unicode property White_Space"), in2(unicode.White_Space)),
		setRow(d("CharacterSet.whitespaces", "s.trimmingCharacters(in: .whitespaces)", spec.KindStrip,
			"CharacterSet.whitespaces: General Category Zs and U+0009"), func(c rune, _ string) bool { return c == 9 || unicode.Is(unicode.Zs, c) }),
		setRow(d("CharacterSet.whitespacesAndNewlines", "s.trimmingCharacters(in: .whitespacesAndNewlines)", spec.KindStrip,
			"CharacterSet.whitespacesAndNewlines: General Category Z*, U+000A to U+000D and U+0085, and U+0009 of .whitespaces"),
			func(c rune, _ string) bool {
				return c == 9 || 0x0A <= c && c <= 0x0D || c == 0x85 || unicode.Is(unicode.Z, c)
			}),
		setRow(d("CharacterSet.controlCharacters", "s.rangeOfCharacter(from: .controlCharacters)", spec.KindSet,
			"CharacterSet.controlCharacters: General Category Cc and Cf"), in2(unicode.Cc, unicode.Cf)),
		lines,
		digits,
		parseRow(d("Int(String)", "Int(s)", spec.KindParse, "Int.init?(_ description: String): an optional + or - and one or more of 0-9, in the range of a 64-bit Int"),
			in.Spellings, func(s string) (int64, error) {
				if !intSyntax.MatchString(s) {
					return 0, fmt.Errorf("not an Int")
				}
				return strconv.ParseInt(s, 10, 64)
			}),
		foldRow(d("String.lowercased", "a.lowercased() == b.lowercased()", spec.KindFold,
			"String.lowercased(): the Unicode lowercase mapping (of SpecialCasing's, only U+0130 maps a single code point, to non-ASCII)"),
			viaCase(func(s string) string {
				if s == "\u0130" {
					return "i\u0307"
				}
				return strings.ToLower(s)
			})),
		formRow(d("JSONEncoder", "JSONEncoder().encode(s)", spec.KindEscape,
			"JSONEncoder: \"/\" written as \"\\/\" unless the output formatting has .withoutEscapingSlashes; the documentation gives no other form, so the others are taken as the spec's"),
			unicode.MaxRune, func(s string) string {
				if s == "/" {
					return `\/`
				}
				r := []rune(s)[0]
				if r == '<' || r == '>' || r == '&' {
					return s
				}
				return spec.JSONStringForm(r)
			}),
		formRow(d("urlPathAllowed", "s.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)", spec.KindPercent,
			"CharacterSet.urlPathAllowed: the characters of a URL's path (RFC 3986 pchar and \"/\": ALPHA, DIGIT, "+pathAllowed+"), every other byte as % and two upper-case hexadecimal digits"),
			0x7F, allowed(pathAllowed)),
		formRow(d("urlQueryAllowed", "s.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed)", spec.KindPercent,
			"CharacterSet.urlQueryAllowed: the characters of a URL's query (RFC 3986 pchar, \"/\" and \"?\": ALPHA, DIGIT, "+pathAllowed+"?), every other byte as % and two upper-case hexadecimal digits"),
			0x7F, allowed(pathAllowed+"?")),
	}
}

func allowed(extra string) func(string) string {
	return func(s string) string {
		r := []rune(s)[0]
		if 'A' <= r && r <= 'Z' || 'a' <= r && r <= 'z' || '0' <= r && r <= '9' || strings.ContainsRune(extra, r) {
			return s
		}
		return spec.ExpandForm(spec.FormBytesUpper, r)
	}
}
