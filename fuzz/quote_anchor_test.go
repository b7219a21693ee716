package fuzz

// Properties and fuzz targets of quote anchoring, spec/quote-anchor.md. The
// oracle is a naive resolver written from the spec's text in this file: it
// compares at every offset, so it is slow but obviously right.

import (
	"encoding/json"
	"errors"
	"math"
	"regexp"
	"strconv"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"pgregory.net/rapid"

	"github.com/conform-suite/conform/reference/quote"
)

// jsSpace is JavaScript's \s as the spec lists it (QUOTE-ANCHOR-003).
var jsSpace = regexp.MustCompile("[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+")

// oracleNormalize is the spec's normalization as a regular expression.
func oracleNormalize(s string) []uint16 {
	return utf16.Encode([]rune(jsSpace.ReplaceAllString(s, " ")))
}

func equal16(a, b []uint16) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// contextAt reports whether prefix ends at s and suffix starts at e in n,
// an empty side always matching (QUOTE-ANCHOR-027).
func contextAt(n, prefix, suffix []uint16, s, e int) bool {
	return (len(prefix) == 0 || s >= len(prefix) && equal16(n[s-len(prefix):s], prefix)) &&
		(len(suffix) == 0 || e+len(suffix) <= len(n) && equal16(n[e:e+len(suffix)], suffix))
}

// oracleResolve follows QUOTE-ANCHOR-025 to QUOTE-ANCHOR-031 literally.
// It returns the match start, or -1 with the reason.
func oracleResolve(text string, sel quote.Selector) (int, string) {
	n, q := oracleNormalize(text), oracleNormalize(sel.Text)
	if len(q) == 0 || len(q) == 1 && q[0] == ' ' {
		return -1, "not_found"
	}
	p, x := oracleNormalize(sel.Prefix), oracleNormalize(sel.Suffix)
	var all, ctx []int
	for s := 0; s+len(q) <= len(n); s++ {
		if equal16(n[s:s+len(q)], q) {
			all = append(all, s)
			if contextAt(n, p, x, s, s+len(q)) {
				ctx = append(ctx, s)
			}
		}
	}
	switch {
	case len(ctx) == 1:
		return ctx[0], ""
	case len(ctx) > 1:
		return -1, "ambiguous"
	case len(all) == 1:
		return all[0], ""
	case len(all) > 1:
		return -1, "ambiguous"
	}
	return -1, "not_found"
}

// resolveAnswer runs the reference and returns the match start, or -1 with
// the reason; it fails t on an end inconsistent with the quote.
func resolveAnswer(t tb, text string, sel quote.Selector) (int, string) {
	t.Helper()
	start, end, err := quote.Resolve(text, sel)
	switch {
	case errors.Is(err, quote.ErrAmbiguous):
		return -1, "ambiguous"
	case errors.Is(err, quote.ErrNotFound):
		return -1, "not_found"
	case err != nil:
		t.Fatalf("Resolve(%q, %+v) = error %v, want a match or a reason", text, sel, err)
	}
	if want := start + len(oracleNormalize(sel.Text)); end != want {
		t.Fatalf("Resolve(%q, %+v) = %d..%d, want end %d", text, sel, start, end, want)
	}
	n := oracleNormalize(text)
	if splits(n, start) || splits(n, end) {
		t.Fatalf("Resolve(%q, %+v) = %d..%d splits a surrogate pair", text, sel, start, end)
	}
	return start, ""
}

// splits reports whether offset i of u falls between a high and a low surrogate.
func splits(u []uint16, i int) bool {
	return i > 0 && i < len(u) && u[i-1] >= 0xD800 && u[i-1] <= 0xDBFF && u[i] >= 0xDC00 && u[i] <= 0xDFFF
}

// wellFormed reports whether u starts and ends on character boundaries.
func wellFormed(u []uint16) bool {
	return len(u) == 0 || !(u[0] >= 0xDC00 && u[0] <= 0xDFFF) && !(u[len(u)-1] >= 0xD800 && u[len(u)-1] <= 0xDBFF)
}

// checkSelector checks the properties every captured selector has: its
// offsets and context never split a pair, the context is at most 32 units
// and sits right around the normalized quote, and resolving it on the same
// text gives the same range back whenever the quote with its context
// occurs once, or ambiguous when it occurs more often.
func checkSelector(t tb, text string, start, end int, sel quote.Selector) {
	t.Helper()
	n := oracleNormalize(text)
	q, p, x := oracleNormalize(sel.Text), utf16.Encode([]rune(sel.Prefix)), utf16.Encode([]rune(sel.Suffix))
	raw := utf16.Encode([]rune(text))
	if got := utf16.Encode([]rune(sel.Text)); !equal16(got, raw[start:end]) {
		t.Fatalf("Select(%q, %d, %d).Text = %q, want the raw excerpt", text, start, end, sel.Text)
	}
	if sel.Start < 0 || sel.End > len(n) || sel.Start >= sel.End || !equal16(n[sel.Start:sel.End], q) {
		t.Fatalf("Select(%q, %d, %d) = %+v: N[start:end] is not the normalized quote %q", text, start, end, sel, string(utf16.Decode(q)))
	}
	if splits(n, sel.Start) || splits(n, sel.End) || !wellFormed(p) || !wellFormed(x) {
		t.Fatalf("Select(%q, %d, %d) = %+v splits a surrogate pair", text, start, end, sel)
	}
	if len(p) > 32 || len(x) > 32 || !contextAt(n, p, x, sel.Start, sel.End) {
		t.Fatalf("Select(%q, %d, %d) = %+v: context longer than 32 units or not around the quote", text, start, end, sel)
	}
	occurrences := 0
	for s := 0; s+len(q) <= len(n); s++ {
		if equal16(n[s:s+len(q)], q) && contextAt(n, p, x, s, s+len(q)) {
			occurrences++
		}
	}
	got, reason := resolveAnswer(t, text, sel)
	switch {
	case occurrences == 1 && got != sel.Start:
		t.Fatalf("Resolve(%q, %+v) = %d %s, want %d: the quote with its context occurs once", text, sel, got, reason, sel.Start)
	case occurrences > 1 && reason != "ambiguous":
		t.Fatalf("Resolve(%q, %+v) = %d %s, want ambiguous: the quote with its context occurs %d times", text, sel, got, reason, occurrences)
	}
}

// checkSelect runs Select: a refusal carries a code, and a selector has the
// properties checkSelector checks (on texts short enough for its quadratic
// oracle).
func checkSelect(t tb, text string, start, end int) {
	t.Helper()
	sel, err := quote.Select(text, start, end)
	if err != nil {
		if se, ok := errors.AsType[*quote.Error](err); !ok || se.Code == "" {
			t.Fatalf("Select(%q, %d, %d) = %v, want an *Error with a code", text, start, end, err)
		}
		return
	}
	if len(text) <= 4096 {
		checkSelector(t, text, start, end, sel)
	}
}

// anchorText draws texts from a small alphabet, so that quotes recur, with
// whitespace runs, an emoji, CJK and a combining mark.
func anchorText() *rapid.Generator[string] {
	pieces := []string{"a", "b", "ab", "ana", " ", "  ", "\t", "\n", "\u00a0", "\u3000", "\u200b",
		"\U0001F600", "\U0001F600\U0001F600\U0001F600\U0001F600", "\u6f22", "e\u0301", "."}
	return rapid.Custom(func(t *rapid.T) string {
		parts := rapid.SliceOfN(rapid.SampledFrom(pieces), 0, 50).Draw(t, "pieces")
		s := ""
		for _, p := range parts {
			s += p
		}
		return s
	})
}

func TestSelectThenResolveProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		text := anchorText().Draw(t, "text")
		n := len(utf16.Encode([]rune(text)))
		// Mostly a forward selection inside the text; sometimes anything.
		start := rapid.IntRange(0, n).Draw(t, "start")
		end := rapid.IntRange(start, n).Draw(t, "end")
		if rapid.IntRange(0, 9).Draw(t, "wild") == 0 {
			start, end = rapid.IntRange(-2, n+2).Draw(t, "wild start"), rapid.IntRange(-2, n+2).Draw(t, "wild end")
		}
		checkSelect(t, text, start, end)
	})
}

// TestSelectContextProperty draws long texts of emoji and letters, so that
// the 32-unit context windows often fall inside a surrogate pair.
func TestSelectContextProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		parts := rapid.SliceOfN(rapid.SampledFrom([]string{"a", "\U0001F600", " "}), 34, 120).Draw(t, "pieces")
		text := ""
		for _, p := range parts {
			text += p
		}
		n := len(utf16.Encode([]rune(text)))
		start := rapid.IntRange(0, n).Draw(t, "start")
		end := rapid.IntRange(start, n).Draw(t, "end")
		checkSelect(t, text, start, end)
	})
}

func TestResolveAgreesWithOracleProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		text := anchorText().Draw(t, "text")
		sel := quote.Selector{
			Text:   anchorText().Draw(t, "quote"),
			Prefix: rapid.SampledFrom([]string{"", "a", "b", " ", "ab ", "\U0001F600", "n"}).Draw(t, "prefix"),
			Suffix: rapid.SampledFrom([]string{"", "a", "b", " ", " a", "\U0001F600", "s"}).Draw(t, "suffix"),
			Start:  rapid.Int().Draw(t, "start"),
			End:    rapid.Int().Draw(t, "end"),
		}
		got, reason := resolveAnswer(t, text, sel)
		want, wantReason := oracleResolve(text, sel)
		if got != want || reason != wantReason {
			t.Fatalf("Resolve(%q, %+v) = %d %q, want %d %q", text, sel, got, reason, want, wantReason)
		}
		// Deterministic, and the saved offsets never change the answer.
		sel.Start, sel.End = sel.End, math.MinInt
		if again, againReason := resolveAnswer(t, text, sel); again != got || againReason != reason {
			t.Fatalf("Resolve(%q, %+v) = %d %q, then %d %q", text, sel, got, reason, again, againReason)
		}
	})
}

func TestNormalizeAgreesWithOracleProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.String().Draw(t, "s")
		if got, want := quote.Normalize(s), string(utf16.Decode(oracleNormalize(s))); got != want {
			t.Fatalf("Normalize(%q) = %q, want %q", s, got, want)
		}
	})
}

// anchorSeeds returns the decoded inputs of every vector of op.
func anchorSeeds(t testing.TB, op string) []json.RawMessage {
	return opInputs(t, op)
}

// seedInt converts a vector's offset to an int, saturating.
func seedInt(n json.Number) int {
	f, _ := strconv.ParseFloat(string(n), 64)
	return int(max(min(f, 1<<40), -1<<40))
}

// seedText cuts a long vector text to its first 4 KiB (on a character
// boundary): the fuzzing engine stalls on mutating the 64 KiB texts of the
// performance vectors, which the vector tests run whole anyway.
func seedText(s string) string {
	const limit = 4096
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}

func FuzzSelect(f *testing.F) {
	for _, in := range anchorSeeds(f, "quote.select") {
		var v struct {
			Text       string
			Start, End json.Number
		}
		if err := json.Unmarshal(in, &v); err != nil {
			f.Fatal(err)
		}
		text := seedText(v.Text)
		end := seedInt(v.End)
		if text != v.Text {
			end = min(end, len(utf16.Encode([]rune(text))))
		}
		f.Add(text, seedInt(v.Start), end)
	}
	f.Fuzz(func(t *testing.T, text string, start, end int) {
		checkSelect(t, text, start, end)
	})
}

func FuzzResolve(f *testing.F) {
	for _, in := range anchorSeeds(f, "quote.resolve") {
		var v struct {
			Text     string
			Selector struct{ Text, Prefix, Suffix string }
		}
		if err := json.Unmarshal(in, &v); err != nil {
			f.Fatal(err)
		}
		f.Add(seedText(v.Text), seedText(v.Selector.Text), v.Selector.Prefix, v.Selector.Suffix)
	}
	f.Fuzz(func(t *testing.T, text, q, prefix, suffix string) {
		sel := quote.Selector{Text: q, Prefix: prefix, Suffix: suffix}
		got, reason := resolveAnswer(t, text, sel)
		if again, againReason := resolveAnswer(t, text, sel); again != got || againReason != reason {
			t.Fatalf("Resolve(%q, %+v) = %d %q, then %d %q", text, sel, got, reason, again, againReason)
		}
		if len(text)*max(1, len(q)) > 1<<20 {
			return // the oracle is quadratic
		}
		if want, wantReason := oracleResolve(text, sel); got != want || reason != wantReason {
			t.Fatalf("Resolve(%q, %+v) = %d %q, want %d %q", text, sel, got, reason, want, wantReason)
		}
	})
}
