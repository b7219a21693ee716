package fuzz

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"pgregory.net/rapid"

	"github.com/conform-suite/conform/reference"
	"github.com/conform-suite/conform/reference/selref"
)

// Properties of spec/selref.md over the reference, with oracles written
// independently of reference/selref: a regular expression for the collapse,
// unicode/utf16 for the cap, the unicode package for the classes.

// selrefFragments bias generated strings toward the characters the spec
// treats specially.
var selrefFragments = []string{
	"a", "Z", "x", " ", "  ", "\t", "\n", "\r\n", "\v", "\f", "\x00", "\x01", "\x1b", "\x7f",
	"\u0085", "\u009b", "\u00a0", "\u1680", "\u2003", "\u200a", "\u200b", "\u2028", "\u2029", "\u202f",
	"\u3000", "\ufeff", "\ufffd", "\u2026", "\u2014", "\"", "\\", "😀", "漢", "é",
	"vance:", "VANCE:", "vance:/apps/x?entry=a%2F1", "https:", "HTTPS://", "http://", "mailto:",
	"javascript:", "data:", "//", ":", "example.com/", "%", "|", "[",
}

// selrefString draws a string made of fragments, sometimes long enough to
// reach the 200-unit cap, or an arbitrary string.
func selrefString(t *rapid.T, label string) string {
	return rapid.OneOf(
		rapid.Custom(func(t *rapid.T) string {
			return strings.Join(rapid.SliceOfN(rapid.SampledFrom(selrefFragments), 0, 40).Draw(t, "parts"), "")
		}),
		rapid.Custom(func(t *rapid.T) string {
			n := rapid.IntRange(190, 210).Draw(t, "n")
			return strings.Repeat(rapid.SampledFrom([]string{"x", "漢", "😀", "x "}).Draw(t, "unit"), n) +
				rapid.SampledFrom(selrefFragments).Draw(t, "tail")
		}),
		rapid.String(),
	).Draw(t, label)
}

// selrefReference draws a reference whose addresses often start with an
// allowed prefix, so that accepted references are common.
func selrefReference(t *rapid.T) selref.Reference {
	prefixed := func(label string, prefixes ...string) string {
		p := rapid.SampledFrom(append(prefixes, "")).Draw(t, label+"Prefix")
		return p + selrefString(t, label)
	}
	return selref.Reference{
		Label:    selrefString(t, "label"),
		VanceURI: prefixed("vanceUri", "vance:", " vance:/a?entry="),
		URL:      prefixed("url", "https://", "HTTP://", "mailto:", "\thttps:"),
	}
}

var (
	oracleSpace  = regexp.MustCompile(`[\p{Cc}\s\x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}]+`)
	oracleScheme = regexp.MustCompile(`^(?i:https?|mailto):`)
)

// oracleLabel computes the hardened label from the spec's words alone.
func oracleLabel(s string) string {
	s = string([]rune(s)) // each invalid UTF-8 byte becomes U+FFFD, as in encoding/json
	s = strings.Trim(oracleSpace.ReplaceAllString(s, " "), " ")
	u := utf16.Encode([]rune(s))
	if len(u) <= 200 {
		return s
	}
	u = u[:200]
	if 0xD800 <= u[199] && u[199] < 0xDC00 {
		u = u[:199] // the high half of a pair split by the cut
	}
	return strings.TrimRight(string(utf16.Decode(u)), " ") + "…"
}

func addressControl(r rune) bool { return unicode.IsControl(r) || r == 0x2028 || r == 0x2029 }

// checkIngest asserts every property of an ingest result.
func checkIngest(t interface{ Fatalf(string, ...any) }, raw selref.Reference) {
	got, err := selref.Ingest(raw)
	if err != nil {
		if _, ok := errors.AsType[*selref.Error](err); !ok {
			t.Fatalf("Ingest(%+v) error %v is not a *selref.Error", raw, err)
		}
		return
	}
	if again, err := selref.Ingest(got); err != nil || again != got {
		t.Fatalf("Ingest(Ingest(%+v)) = %+v, %v, want %+v (not idempotent)", raw, again, err, got)
	}
	if want := oracleLabel(raw.Label); got.Label != want {
		t.Fatalf("Ingest(%+v).Label = %q, want %q", raw, got.Label, want)
	}
	if n := len(utf16.Encode([]rune(got.Label))); n > 201 || got.Label == "" {
		t.Fatalf("Ingest(%+v).Label = %q, %d units, want 1 to 201", raw, got.Label, n)
	}
	if got.VanceURI == "" && got.URL == "" {
		t.Fatalf("Ingest(%+v) = %+v, want at least one address", raw, got)
	}
	for _, s := range []string{got.Label, got.VanceURI, got.URL} {
		if !utf8.ValidString(s) {
			t.Fatalf("Ingest(%+v) = %+v, holds invalid UTF-8 %q", raw, got, s)
		}
	}
	if got.URL != "" && (!oracleScheme.MatchString(got.URL) || strings.IndexFunc(got.URL, addressControl) >= 0) {
		t.Fatalf("Ingest(%+v).URL = %q, want an http, https or mailto url without control characters", raw, got.URL)
	}
	if got.VanceURI != "" && (!strings.HasPrefix(got.VanceURI, "vance:") || strings.IndexFunc(got.VanceURI, addressControl) >= 0) {
		t.Fatalf("Ingest(%+v).VanceURI = %q, want vance: without control characters", raw, got.VanceURI)
	}
}

func TestSelrefIngestProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) { checkIngest(t, selrefReference(t)) })
}

// lineBreaks are the Unicode mandatory breaks (UAX #14 BK, CR, LF, NL) and
// the paragraph separator.
const lineBreaks = "\n\v\f\r\u0085\u2028\u2029"

func TestSelrefReplayLineHasNoLineBreak(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		body, ref := selrefString(t, "body"), selrefReference(t)
		got := selref.Replay(body, ref)
		if got == body {
			return
		}
		line, ok := strings.CutPrefix(got, body)
		if body != "" {
			line, ok = strings.CutPrefix(line, "\n\n")
		}
		if !ok || !strings.HasPrefix(line, selref.Header+` "`) {
			t.Fatalf("Replay(%q, %+v) = %q, want the body, a blank line and the header", body, ref, got)
		}
		if i := strings.IndexAny(line, lineBreaks); i >= 0 {
			t.Fatalf("Replay(%q, %+v) line = %q, holds a line break at byte %d", body, ref, line, i)
		}
	})
}

func TestSelrefReplayWithoutAddressHasNoLine(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		body, label := selrefString(t, "body"), selrefString(t, "label")
		blank := rapid.SampledFrom([]string{"", " ", "\t\n", "\u00a0"}).Draw(t, "blank")
		ref := selref.Reference{Label: label, VanceURI: blank, URL: rapid.SampledFrom([]string{"", blank}).Draw(t, "url")}
		if got := selref.Replay(body, ref); got != body {
			t.Fatalf("Replay(%q, %+v) = %q, want the body alone", body, ref, got)
		}
	})
}

func TestSelrefReplayRendersIngest(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		body, raw := selrefString(t, "body"), selrefReference(t)
		ref, err := selref.Ingest(raw)
		if err != nil {
			return
		}
		if a, b := selref.Replay(body, raw), selref.Replay(body, ref); a != b {
			t.Fatalf("Replay(%q, %+v) = %q, but Replay of its ingested form = %q", body, raw, a, b)
		}
	})
}

// FuzzIngest is seeded from every selref.ingest vector. Besides the
// properties of checkIngest, the op adapter and the Go API agree.
func FuzzIngest(f *testing.F) {
	n := 0
	for _, in := range selrefInputs(f, "selref.ingest") {
		var m map[string]*string
		if err := json.Unmarshal(in, &m); err != nil {
			f.Fatalf("selref.ingest input %s: %v", in, err)
		}
		f.Add(deref(m["label"]), deref(m["vanceUri"]), deref(m["url"]))
		n++
	}
	if n == 0 {
		f.Fatal("no selref.ingest vector loaded as a seed")
	}
	f.Fuzz(func(t *testing.T, label, vanceURI, url string) {
		raw := selref.Reference{Label: label, VanceURI: vanceURI, URL: url}
		checkIngest(t, raw)
		in, _ := json.Marshal(map[string]string{"label": label, "vanceUri": vanceURI, "url": url})
		out, err := reference.Handle("selref.ingest", in)
		if err != nil {
			t.Fatalf("Handle(selref.ingest, %s) error %v", in, err)
		}
		got := canonical(out)
		var want any
		// The JSON encoding of the input replaced invalid UTF-8 as the spec
		// does, so the Go API sees the same strings.
		var dec struct{ Label, VanceURI, URL string }
		_ = json.Unmarshal(in, &dec)
		if r, err := selref.Ingest(selref.Reference{Label: dec.Label, VanceURI: dec.VanceURI, URL: dec.URL}); err != nil {
			want = map[string]any{"dropped": map[string]string{"code": string(err.(*selref.Error).Code)}}
		} else {
			m := map[string]string{"label": r.Label}
			if r.VanceURI != "" {
				m["vanceUri"] = r.VanceURI
			}
			if r.URL != "" {
				m["url"] = r.URL
			}
			want = map[string]any{"reference": m}
		}
		if w := canonical(want); w != got {
			t.Fatalf("Handle(selref.ingest, %s) = %s, want %s", in, got, w)
		}
	})
}

// FuzzReplay is seeded from every selref.replay vector whose reference is an
// object; the replay line never holds a line break.
func FuzzReplay(f *testing.F) {
	n := 0
	for _, in := range selrefInputs(f, "selref.replay") {
		var m struct {
			Body      string
			Reference map[string]any
		}
		if json.Unmarshal(in, &m) != nil {
			continue // a reference that is not an object
		}
		str := func(k string) string { s, _ := m.Reference[k].(string); return s }
		f.Add(m.Body, str("label"), str("vanceUri"), str("url"))
		n++
	}
	if n == 0 {
		f.Fatal("no selref.replay vector loaded as a seed")
	}
	f.Fuzz(func(t *testing.T, body, label, vanceURI, url string) {
		ref := selref.Reference{Label: label, VanceURI: vanceURI, URL: url}
		got := selref.Replay(body, ref)
		if _, err := selref.Ingest(ref); err != nil {
			if got != body {
				t.Fatalf("Replay(%q, %+v) = %q, want the body alone", body, ref, got)
			}
			return
		}
		if i := strings.LastIndex(got, selref.Header); i < 0 || strings.ContainsAny(got[i:], lineBreaks) {
			t.Fatalf("Replay(%q, %+v) = %q, want one line after the body", body, ref, got)
		}
	})
}

// selrefInputs returns the input of every vector of op in the corpus.
func selrefInputs(f *testing.F, op string) []json.RawMessage {
	return opInputs(f, op)
}

// canonical renders v as JSON with object members sorted.
func canonical(v any) string {
	data, _ := json.Marshal(v)
	var generic any
	_ = json.Unmarshal(data, &generic)
	data, _ = json.Marshal(generic)
	return string(data)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// asciiPunct is CommonMark's ASCII punctuation: the characters a backslash
// escapes.
const asciiPunct = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

// cmText reads CommonMark inline text made only of ordinary characters and
// backslash escapes, up to the first unescaped stop character. It fails on
// any other unescaped ASCII punctuation, which could open markup.
func cmText(s string, stop byte) (text, rest string, ok bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && strings.IndexByte(asciiPunct, s[i+1]) >= 0:
			i++
			b.WriteByte(s[i])
		case stop != 0 && c == stop:
			return b.String(), s[i:], true
		case c < 0x80 && strings.IndexByte(asciiPunct, c) >= 0:
			return "", "", false
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), "", stop == 0
}

// cmDestination reads a pointy-bracket link destination at the start of s
// in both orders renderers use: character references decoded before
// backslash escapes are removed, and both in one pass. Both must agree.
func cmDestination(s string) (dest, rest string, ok bool) {
	if !strings.HasPrefix(s, "<") {
		return "", "", false
	}
	end := -1
	for i := 1; i < len(s); i++ {
		if s[i] == '\\' {
			i++
			continue
		}
		if s[i] == '<' || s[i] == '\n' {
			return "", "", false
		}
		if s[i] == '>' {
			end = i
			break
		}
	}
	if end < 0 {
		return "", "", false
	}
	raw := s[1:end]
	unescape := func(x string) string {
		var b strings.Builder
		for i := 0; i < len(x); i++ {
			if x[i] == '\\' && i+1 < len(x) && strings.IndexByte(asciiPunct, x[i+1]) >= 0 {
				i++
			}
			b.WriteByte(x[i])
		}
		return b.String()
	}
	if strings.Contains(strings.ReplaceAll(raw, "&amp;", ""), "&") {
		return "", "", false // a reference other than &amp; could be decoded
	}
	entitiesFirst := unescape(strings.ReplaceAll(raw, "&amp;", "&"))
	onePass := strings.ReplaceAll(unescape(strings.ReplaceAll(raw, "&amp;", "\x00")), "\x00", "&")
	if entitiesFirst != onePass {
		return "", "", false
	}
	return onePass, s[end+1:], true
}

// TestSelrefBubbleReadsBack reads every bubble back with the CommonMark
// rules for backslash escapes, character references and pointy-bracket
// destinations (written here, independently of reference/selref): the
// visible label is the ingested label, the links are the ingested
// addresses, and nothing else in the bubble can be markup.
func TestSelrefBubbleReadsBack(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		raw := selrefReference(t)
		if rapid.Bool().Draw(t, "punctuation") {
			raw.Label += rapid.StringOf(rapid.SampledFrom([]rune(asciiPunct+"↳·↗ x\n"))).Draw(t, "tail")
		}
		got := selref.Bubble(raw)
		ref, err := selref.Ingest(raw)
		if err != nil {
			if got != "" {
				t.Fatalf("Bubble(%+v) = %q, want no bubble for a dropped reference", raw, got)
			}
			return
		}
		rest, ok := strings.CutPrefix(got, "↳ ")
		fail := func(why string) { t.Fatalf("Bubble(%+v) = %q: %s", raw, got, why) }
		if !ok {
			fail("does not open with ↳ and a space")
		}
		var label, vance string
		if ref.VanceURI != "" {
			if rest, ok = strings.CutPrefix(rest, "["); !ok {
				fail("the label is not a link")
			}
			if label, rest, ok = cmText(rest, ']'); !ok {
				fail("the link text holds unescaped markup")
			}
			if rest, ok = strings.CutPrefix(rest, "]("); !ok {
				fail("no destination after the link text")
			}
			if vance, rest, ok = cmDestination(rest); !ok {
				fail("the vanceUri destination does not read back")
			}
			if rest, ok = strings.CutPrefix(rest, ")"); !ok {
				fail("the link is not closed")
			}
		} else {
			before, after, found := strings.Cut(rest, " · [↗](")
			if label, _, ok = cmText(before, 0); !ok {
				fail("the plain label holds unescaped markup")
			}
			rest = ""
			if found {
				rest = " · [↗](" + after
			}
		}
		var url string
		if ref.URL != "" {
			if rest, ok = strings.CutPrefix(rest, " · [↗]("); !ok {
				fail("no arrow for the url")
			}
			if url, rest, ok = cmDestination(rest); !ok {
				fail("the url destination does not read back")
			}
			if rest, ok = strings.CutPrefix(rest, ")"); !ok {
				fail("the arrow link is not closed")
			}
		}
		if rest != "" || label != ref.Label || vance != ref.VanceURI || url != ref.URL {
			fail(fmt.Sprintf("reads back as label %q, vanceUri %q, url %q, rest %q; want %+v", label, vance, url, rest, ref))
		}
	})
}
