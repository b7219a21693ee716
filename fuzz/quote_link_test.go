package fuzz

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf16"

	"pgregory.net/rapid"

	"github.com/conform-suite/conform/reference/quote"
	"github.com/conform-suite/conform/spec"
)

// Properties of the quote link codec (spec/quote-link.md).
//
// The round trip Parse(FormatHref(c)) == c is claimed for valid citations
// (QUOTE-LINK-002) whose ids carry no surrounding whitespace. Excluded, and
// why:
//   - ids with leading or trailing whitespace: the parser trims ids, so the
//     formatter refuses them (QUOTE_ID_WHITESPACE) rather than lose it;
//   - ids of "." or "..": a URL library removes such segments, so both sides
//     refuse them (QUOTE_DOT_SEGMENT);
//   - unpaired surrogates: a Go string cannot hold one except as ill-formed
//     UTF-8, which the formatter refuses (QUOTE_UNPAIRED_SURROGATE);
//   - out-of-range values (lengths over a limit, offsets outside
//     0..2^53-1 or not increasing): refused by the formatter with the
//     parser's code.
// Each exclusion has vectors in vectors/quote/format*.json.

// quoteAlphabet mixes the characters that matter to the codec: reserved
// URI characters, form-encoding specials, whitespace of every kind (and
// look-alikes that are not whitespace), CJK, astral and U+FFFD.
var quoteAlphabet = []rune("aZ09-_.~*!'()+&=%#?/:@;[]\\\" \t\n\r\u000b\u00a0\u1680\u2000\u200a\u2028\u3000\ufeff\u0085\u180e\u200b中é\U0001F600\U00010000\ufffd\u007f\u0000")

func quoteString(minRunes, maxRunes int) *rapid.Generator[string] {
	return rapid.StringOfN(rapid.SampledFrom(quoteAlphabet), minRunes, maxRunes, -1)
}

// quoteID draws an id that is valid and already trimmed.
var quoteID = quoteString(1, 40).Filter(func(s string) bool {
	return s == quote.TrimSpace(s) && s != "." && s != ".."
})

// quoteValidCitation draws a citation that QUOTE-LINK-002 calls valid.
var quoteValidCitation = rapid.Custom(func(t *rapid.T) quote.Citation {
	c := quote.Citation{
		Version:       1,
		EnvironmentID: quoteID.Draw(t, "env"),
		ThreadID:      quoteID.Draw(t, "thread"),
		MessageID:     quoteID.Draw(t, "message"),
		Text:          quoteString(1, 200).Filter(func(s string) bool { return quote.TrimSpace(s) != "" }).Draw(t, "text"),
		Comment:       rapid.Ptr(quoteString(0, 200), true).Draw(t, "comment"),
		Prefix:        quoteString(0, 16).Draw(t, "prefix"),
		Suffix:        quoteString(0, 16).Draw(t, "suffix"),
	}
	c.Start = rapid.Int64Range(0, quote.MaxOffset-1).Draw(t, "start")
	c.End = rapid.Int64Range(c.Start+1, quote.MaxOffset).Draw(t, "end")
	return c
})

func TestQuoteFormatParseRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := quoteValidCitation.Draw(t, "citation")
		href, err := quote.FormatHref(c)
		if err != nil {
			t.Fatalf("FormatHref(%+v) = %v, want an href", c, err)
		}
		got, err := quote.Parse(href)
		if err != nil {
			t.Fatalf("Parse(%q) = %v, want %+v", href, err, c)
		}
		if !reflect.DeepEqual(got, c) {
			t.Fatalf("Parse(FormatHref(c)) = %+v, want %+v", got, c)
		}
		for i := 0; i < len(href); i++ {
			if href[i] < 0x21 || href[i] > 0x7e {
				t.Fatalf("FormatHref(%+v) = %q: byte %d is not printable ASCII", c, href, i)
			}
		}
	})
}

// quoteCodes returns the rejection codes of the spec's table.
func quoteCodes(t testing.TB) map[string]bool {
	s, err := spec.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	codes := map[string]bool{}
	for _, c := range s.Codes {
		if strings.HasPrefix(c.Code, "QUOTE_") {
			codes[c.Code] = true
		}
	}
	return codes
}

// quoteCheckParse asserts what holds for any input: Parse returns either a
// citation that formats and parses back to itself, or an *quote.Error whose
// code is in the spec's table, never both and never neither.
func quoteCheckParse(t interface{ Fatalf(string, ...any) }, codes map[string]bool, href string) {
	c, err := quote.Parse(href)
	if err != nil {
		var e *quote.Error
		if !errors.As(err, &e) || !codes[string(e.Code)] {
			t.Fatalf("Parse(%q) error = %v, want an *quote.Error with a code of the spec", href, err)
		}
		if !reflect.DeepEqual(c, quote.Citation{}) {
			t.Fatalf("Parse(%q) = %+v with error %v, want the zero Citation", href, c, err)
		}
		return
	}
	again, err := quote.FormatHref(c)
	if err != nil {
		t.Fatalf("FormatHref(Parse(%q)) = %v, want the accepted citation to format", href, err)
	}
	if back, err := quote.Parse(again); err != nil || !reflect.DeepEqual(back, c) {
		t.Fatalf("Parse(FormatHref(Parse(%q))) = %+v, %v, want %+v", href, back, err, c)
	}
}

// quoteMutate applies a few random edits to s, favouring the characters that
// carry the href's structure.
func quoteMutate(t *rapid.T, s string) string {
	pieces := []string{"%", "%2", "%ZZ", "%2e", "%ED%A0%80", "&", "=", "#", "/", ".", "..", "+", "?", "@", ":", " ", "\t",
		"&text=q", "&comment=", "&%63omment=x", "&start=", "-", "0", "9007199254740992", "中", "\U0001F600", "\xed\xa0\xbd"}
	n := rapid.IntRange(0, 4).Draw(t, "edits")
	for range n {
		i := rapid.IntRange(0, len(s)).Draw(t, "at")
		switch rapid.IntRange(0, 2).Draw(t, "edit") {
		case 0:
			s = s[:i] + rapid.SampledFrom(pieces).Draw(t, "insert") + s[i:]
		case 1:
			j := rapid.IntRange(i, min(len(s), i+8)).Draw(t, "to")
			s = s[:i] + s[j:]
		default:
			j := rapid.IntRange(i, min(len(s), i+12)).Draw(t, "to")
			s = s[:j] + s[i:j] + s[j:]
		}
	}
	return s
}

func TestQuoteParseIsTotal(t *testing.T) {
	codes := quoteCodes(t)
	rapid.Check(t, func(t *rapid.T) {
		var href string
		switch rapid.IntRange(0, 2).Draw(t, "kind") {
		case 0:
			href = rapid.String().Draw(t, "href")
		case 1:
			href = "t3-citation://" + quoteString(0, 60).Draw(t, "rest")
		default:
			c := quoteValidCitation.Draw(t, "citation")
			h, err := quote.FormatHref(c)
			if err != nil {
				t.Fatalf("FormatHref(%+v) = %v", c, err)
			}
			href = quoteMutate(t, h)
		}
		quoteCheckParse(t, codes, href)
	})
}

// quoteProseTokens can be assembled into near-miss links but never into a valid
// one: no token supplies the required query fields.
var quoteProseTokens = []string{"[Assistant quote](", "[assistant quote](", "t3-citation://v1/", "t3-citation://v2/", "a/b/c",
	"a/b/c?text=q)", ")", "(", "[", "]", "!", "\\", " ", "\n", "x", "中", "\U0001F600", "\xed\xa0\xbd"}

var quoteProse = rapid.Custom(func(t *rapid.T) string {
	return strings.Join(rapid.SliceOfN(rapid.SampledFrom(quoteProseTokens), 0, 8).Draw(t, "tokens"), "")
})

func TestQuoteCollectFindsFormattedLinks(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 4).Draw(t, "links")
		var (
			text strings.Builder
			want []quote.Link
		)
		text.WriteString(quoteProse.Draw(t, "prose"))
		for range n {
			c := quoteValidCitation.Draw(t, "citation")
			link, err := quote.FormatLink(c)
			if err != nil {
				t.Fatalf("FormatLink(%+v) = %v", c, err)
			}
			start := len(utf16.Encode([]rune(text.String())))
			text.WriteString(link)
			want = append(want, quote.Link{Start: start, End: start + len(link), Source: link, Citation: c})
			text.WriteString(quoteProse.Draw(t, "prose"))
		}
		got := quote.Collect(text.String())
		if len(got) == 0 && len(want) == 0 {
			return
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Collect(%q) = %+v, want %+v", text.String(), got, want)
		}
	})
}

// quoteVectorInputs returns the decoded inputs of every vector of op.
// Under -test.fuzz they are thinned (opInputs).
func quoteVectorInputs[T any](t testing.TB, op string) []T {
	var ins []T
	for _, raw := range opInputs(t, op) {
		var in T
		if err := json.Unmarshal(raw, &in); err != nil {
			t.Fatalf("%s input %s: %v", op, raw, err)
		}
		ins = append(ins, in)
	}
	return ins
}

func FuzzParse(f *testing.F) {
	for _, in := range quoteVectorInputs[struct{ Href string }](f, "quote.parse") {
		f.Add(in.Href)
	}
	codes := quoteCodesOnce()
	f.Fuzz(func(t *testing.T, href string) {
		quoteCheckParse(t, codes, href)
	})
}

func FuzzCollect(f *testing.F) {
	for _, in := range quoteVectorInputs[struct{ Text string }](f, "quote.collect") {
		f.Add(in.Text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		units := utf16.Encode([]rune(text))
		end := -1
		for _, l := range quote.Collect(text) {
			if l.Start < end || l.End <= l.Start || l.End > len(units) {
				t.Fatalf("Collect(%q): link at %d..%d overlaps or leaves the text", text, l.Start, l.End)
			}
			end = l.End
			if got := string(utf16.Decode(units[l.Start:l.End])); got != l.Source {
				t.Fatalf("Collect(%q): text at %d..%d is %q, want the source %q", text, l.Start, l.End, got, l.Source)
			}
			href := strings.TrimSuffix(strings.TrimPrefix(l.Source, "[Assistant quote]("), ")")
			if c, err := quote.Parse(href); err != nil || !reflect.DeepEqual(c, l.Citation) {
				t.Fatalf("Collect(%q): Parse(%q) = %+v, %v, want %+v", text, href, c, err, l.Citation)
			}
		}
	})
}
