package fuzz

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"pgregory.net/rapid"

	"github.com/conform-suite/conform/reference/quote"
)

// Properties of the composer and provider pipeline (spec/quote-compose.md).
// Which links of a prompt are valid is decided by quote.Collect, the link
// codec's collector; every other expectation below is computed here from the
// specification's rules, independently of the code under test.

const (
	composeOpen  = "<assistant_citations>"
	composeClose = "</assistant_citations>"
)

// composeAlphabet holds the characters that matter to expansion and the
// renderings: JSON and Markdown specials, controls, whitespace of every
// kind, U+2028/2029, CJK and astral characters.
var composeAlphabet = []rune("aZ09 -_.~*!'()+&=%#?/:@;[]{}<>|`$^\\\"\t\n\r\u0000\u0001\u001f\u007f\u00a0\u2028\u2029\u3000\ufeff\u200b中é\U0001F600")

func composeString(min, max int) *rapid.Generator[string] {
	return rapid.StringOfN(rapid.SampledFrom(composeAlphabet), min, max, -1)
}

// composeCitation draws a citation the formatter accepts.
var composeCitation = rapid.Custom(func(t *rapid.T) quote.Citation {
	id := composeString(1, 8).Filter(func(s string) bool { return s == quote.TrimSpace(s) && s != "." && s != ".." })
	start := rapid.Int64Range(0, 1000).Draw(t, "start")
	return quote.Citation{
		Version:       1,
		EnvironmentID: id.Draw(t, "env"),
		ThreadID:      id.Draw(t, "thread"),
		MessageID:     id.Draw(t, "message"),
		Text:          composeString(1, 40).Filter(func(s string) bool { return quote.TrimSpace(s) != "" }).Draw(t, "text"),
		Comment:       rapid.Ptr(composeString(0, 20), true).Draw(t, "comment"),
		Start:         start,
		End:           start + rapid.Int64Range(1, 1000).Draw(t, "length"),
		Prefix:        composeString(0, 8).Draw(t, "prefix"),
		Suffix:        composeString(0, 8).Draw(t, "suffix"),
	}
})

// composePrompt draws a prompt of plain text, valid links (some repeated,
// some with their fields reordered), broken links, and text that imitates
// markers and the block.
func composePrompt(t *rapid.T) string {
	var (
		b     strings.Builder
		links []string
	)
	n := rapid.IntRange(0, 6).Draw(t, "parts")
	for i := range n {
		switch rapid.IntRange(0, 6).Draw(t, fmt.Sprint("kind", i)) {
		case 0, 1:
			b.WriteString(composeString(0, 12).Draw(t, "text"))
		case 2:
			l, err := quote.FormatLink(composeCitation.Draw(t, "citation"))
			if err != nil {
				t.Fatalf("FormatLink of a valid citation: %v", err)
			}
			links = append(links, l)
			b.WriteString(l)
		case 3:
			if len(links) > 0 {
				b.WriteString(rapid.SampledFrom(links).Draw(t, "again"))
			}
		case 4:
			if len(links) > 0 { // the same citation, query fields reordered
				l := rapid.SampledFrom(links).Draw(t, "reorder")
				b.WriteString(strings.Replace(l, "?text=", "?start=0&text=", 1))
				b.WriteString(strings.Replace(l, "&start=", "&start=0", 1))
			}
		case 5:
			b.WriteString(rapid.SampledFrom([]string{composeClose, composeOpen, "[assistant-quote-9]", "[assistant-quote-1]",
				"\n\n" + composeOpen + "\n", "[Assistant quote](t3-citation://v1/a/b/c?text=q)", "[Assistant quote](x)",
				"![Assistant quote](t3-citation://v1/a/b/c?text=q&start=0&end=1&prefix=&suffix=)"}).Draw(t, "decoy"))
		case 6:
			l, _ := quote.FormatLink(composeCitation.Draw(t, "broken"))
			b.WriteString(strings.Replace(l, "&end=", "&end=x", 1))
		}
	}
	return b.String()
}

type composeEntry struct {
	ID       string         `json:"id"`
	Citation quote.Citation `json:"citation"`
}

// composeCheckExpand checks Expand(prompt) against the specification.
func composeCheckExpand(t interface{ Fatalf(string, ...any) }, prompt string) {
	got := quote.Expand(prompt)
	links := quote.Collect(prompt)
	if len(links) == 0 {
		if got != prompt {
			t.Fatalf("Expand(%q) = %q, want the prompt unchanged", prompt, got)
		}
		return
	}
	// The replaced text, spliced in UTF-16 units with first-appearance
	// numbering.
	units := utf16.Encode([]rune(prompt))
	number := map[string]int{}
	var distinct []quote.Citation
	var body []uint16
	pos := 0
	for _, l := range links {
		n, ok := number[l.Source]
		if !ok {
			distinct = append(distinct, l.Citation)
			n = len(distinct)
			number[l.Source] = n
		}
		body = append(body, units[pos:l.Start]...)
		body = append(body, utf16.Encode([]rune(fmt.Sprintf("[assistant-quote-%d]", n)))...)
		pos = l.End
	}
	body = append(body, units[pos:]...)
	wantBody := string(utf16.Decode(body))

	i := strings.LastIndex(got, "\n\n"+composeOpen+"\n")
	if i < 0 || got[:i] != wantBody {
		t.Fatalf("Expand(%q) = %q, want the text %q then the block", prompt, got, wantBody)
	}
	block := got[i+len("\n\n"+composeOpen+"\n"):]
	if strings.Count(got, composeClose) != strings.Count(wantBody, composeClose)+1 ||
		strings.Count(block, composeClose) != 1 || !strings.HasSuffix(block, "\n"+composeClose) {
		t.Fatalf("Expand(%q) = %q, want %s exactly once after the text, at the end", prompt, got, composeClose)
	}
	note, data, _ := strings.Cut(strings.TrimSuffix(block, "\n"+composeClose), "\n")
	commented := false
	for _, c := range distinct {
		commented = commented || c.Comment != nil
	}
	if strings.Contains(note, "citation.comment") != commented {
		t.Fatalf("Expand(%q): description %q, want the comment sentence iff a citation has a comment (%v)", prompt, note, commented)
	}
	if strings.ContainsAny(data, "<>&") || strings.Contains(data, `\u2028`) || strings.Contains(data, `\u007f`) {
		t.Fatalf("Expand(%q): data %q holds a raw < > & or an escaped U+2028 or DEL", prompt, data)
	}
	dec := json.NewDecoder(strings.NewReader(data))
	dec.DisallowUnknownFields()
	var entries []composeEntry
	if err := dec.Decode(&entries); err != nil {
		t.Fatalf("Expand(%q): data %q does not parse: %v", prompt, data, err)
	}
	if len(entries) != len(distinct) {
		t.Fatalf("Expand(%q): %d entries, want %d", prompt, len(entries), len(distinct))
	}
	for k, e := range entries {
		want := composeEntry{fmt.Sprintf("assistant-quote-%d", k+1), distinct[k]}
		if !composeSameEntry(e, want) {
			t.Fatalf("Expand(%q): entry %d = %+v, want %+v", prompt, k, e, want)
		}
	}
}

func composeSameEntry(a, b composeEntry) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

func TestComposeExpandProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) { composeCheckExpand(t, composePrompt(t)) })
}

// TestComposeIdentityWithoutLinks: plaintext, markdown and expand return a
// prompt without valid links unchanged (QUOTE-COMPOSE-010, -041).
func TestComposeIdentityWithoutLinks(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := composePrompt(t)
		if len(quote.Collect(p)) > 0 {
			t.Skip("the prompt holds a valid link")
		}
		for name, f := range map[string]func(string) string{"Expand": quote.Expand, "PlainText": quote.PlainText, "Markdown": quote.Markdown} {
			if got := f(p); got != p {
				t.Fatalf("%s(%q) = %q, want the prompt unchanged", name, p, got)
			}
		}
	})
}

// composeSplice replaces each valid link of prompt, in UTF-16 units, by
// what render gives for its citation.
func composeSplice(prompt string, render func(quote.Citation) string) string {
	units := utf16.Encode([]rune(prompt))
	var out []uint16
	pos := 0
	for _, l := range quote.Collect(prompt) {
		out = append(out, units[pos:l.Start]...)
		out = append(out, utf16.Encode([]rune(render(l.Citation)))...)
		pos = l.End
	}
	return string(utf16.Decode(append(out, units[pos:]...)))
}

// composeMarkdownEscape is QUOTE-COMPOSE-044 as a replacer table.
var composeMarkdownEscape = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;",
	`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "{", `\{`, "}", `\}`,
	"(", `\(`, ")", `\)`, "#", `\#`, "+", `\+`, ".", `\.`, "!", `\!`, "|", `\|`, "~", `\~`, "-", `\-`)

// TestComposeRenderingsProperty: the plain-text and Markdown renderings
// replace each valid link as QUOTE-COMPOSE-040 and -042 to -044 say, and
// nothing else.
func TestComposeRenderingsProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := composePrompt(t)
		plain := composeSplice(p, func(c quote.Citation) string {
			if c.Comment == nil {
				return c.Text
			}
			return c.Text + "\nComment: " + *c.Comment
		})
		if got := quote.PlainText(p); got != plain {
			t.Fatalf("PlainText(%q) = %q, want %q", p, got, plain)
		}
		md := composeSplice(p, func(c quote.Citation) string {
			r := "\n\n> Assistant quote:\n> " + strings.ReplaceAll(composeMarkdownEscape.Replace(c.Text), "\n", "\n> ") + "\n\n"
			if c.Comment != nil {
				r += "Comment: " + composeMarkdownEscape.Replace(*c.Comment) + "\n\n"
			}
			return r
		})
		if got := quote.Markdown(p); got != md {
			t.Fatalf("Markdown(%q) = %q, want %q", p, got, md)
		}
	})
}

// TestComposeNavRoundTrip: decoding the hash of a navigable citation gives
// it back (QUOTE-COMPOSE-057).
func TestComposeNavRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := composeCitation.Draw(t, "citation")
		h, err := quote.NavHash(c)
		if err != nil {
			t.Fatalf("NavHash(%+v): %v", c, err)
		}
		loc := rapid.SampledFrom([]string{"", "https://app.example/env/thread", "/a/b?x=1"}).Draw(t, "url") + "#" + h
		got, err := quote.FromLocation(loc)
		if err != nil || !composeSameEntry(composeEntry{Citation: got}, composeEntry{Citation: c}) {
			t.Fatalf("FromLocation(%q) = %+v, %v, want %+v", loc, got, err, c)
		}
	})
}

// TestComposeLimitChecksAgree: near the limit, the composer blocks exactly
// the prompts the server refuses as too long (QUOTE-COMPOSE-031, -034,
// -035), and the excess is the larger length minus 120,000.
func TestComposeLimitChecksAgree(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := strings.Repeat("x", rapid.IntRange(quote.MaxProviderInput-1200, quote.MaxProviderInput+2).Draw(t, "plain")) + composePrompt(t)
		excess, msg := quote.CheckSubmission(p, quote.TargetProviderTurn)
		_, err := quote.SendTurn(p)
		var e *quote.Error
		refused := errors.As(err, &e) && (e.Code == quote.CodeInputTooLong || e.Code == quote.CodeExpandedTooLong)
		if (excess > 0) != refused {
			t.Fatalf("CheckSubmission = %d, %q but SendTurn error = %v", excess, msg, err)
		}
		trimmed := quote.TrimSpace(p)
		n := max(len(utf16.Encode([]rune(trimmed))), len(utf16.Encode([]rune(quote.Expand(trimmed)))))
		if want := max(0, n-quote.MaxProviderInput); excess != want {
			t.Fatalf("CheckSubmission excess = %d, want %d", excess, want)
		}
	})
}

// composeFuzzSeedMax bounds the seeds given to the fuzzing engine: it
// mutates and minimizes whole inputs, and the vectors' largest inputs
// (hundreds of kilobytes) slow it to a few executions per second. Plain
// `go test` runs every vector's input as a seed.
const composeFuzzSeedMax = 16 << 10

// composeSeedFits reports whether s is used as a seed: always in plain
// test runs, and when at most composeFuzzSeedMax bytes under -test.fuzz.
func composeSeedFits(s string) bool {
	f := flag.Lookup("test.fuzz")
	return f == nil || f.Value.String() == "" || len(s) <= composeFuzzSeedMax
}

func FuzzExpand(f *testing.F) {
	for _, in := range quoteVectorInputs[struct{ Prompt string }](f, "quote.expand") {
		if composeSeedFits(in.Prompt) {
			f.Add(in.Prompt)
		}
	}
	f.Fuzz(func(t *testing.T, prompt string) {
		if !utf8.ValidString(prompt) {
			// Protocol strings are always well-formed; Expand copies the
			// bytes of plain text as they are, which the oracle's UTF-16
			// splice cannot, so only the absence of a panic is checked.
			quote.Expand(prompt)
			prompt = strings.ToValidUTF8(prompt, "\uFFFD")
		}
		composeCheckExpand(t, prompt)
	})
}

// composeOracleLocation decodes a location by the rules of
// QUOTE-COMPOSE-052 to -056, with encoding/base64 for the payload.
func composeOracleLocation(loc string) (quote.Citation, quote.Code) {
	_, frag, ok := strings.Cut(loc, "#")
	switch {
	case !ok:
		return quote.Citation{}, quote.CodeNavNoFragment
	case !strings.HasPrefix(frag, quote.NavPrefix):
		return quote.Citation{}, quote.CodeNavPrefix
	case len(utf16.Encode([]rune(frag))) > quote.MaxNavHashLength:
		return quote.Citation{}, quote.CodeNavTooLong
	}
	payload := strings.TrimPrefix(frag, quote.NavPrefix)
	enc := base64.RawURLEncoding
	if strings.HasSuffix(payload, "=") {
		enc = base64.URLEncoding
	}
	href, err := enc.DecodeString(payload)
	if err != nil || strings.ContainsAny(payload, "\r\n") { // encoding/base64 skips CR and LF
		return quote.Citation{}, quote.CodeNavBase64
	}
	c, err := quote.Parse(string(href))
	var e *quote.Error
	if errors.As(err, &e) {
		return quote.Citation{}, e.Code
	}
	return c, ""
}

func FuzzNavDecode(f *testing.F) {
	for _, in := range quoteVectorInputs[struct{ Location string }](f, "quote.nav_decode") {
		if composeSeedFits(in.Location) {
			f.Add(in.Location)
		}
	}
	f.Fuzz(func(t *testing.T, loc string) {
		got, err := quote.FromLocation(loc)
		var code quote.Code
		var e *quote.Error
		if errors.As(err, &e) {
			code = e.Code
		} else if err != nil {
			t.Fatalf("FromLocation(%q) error %v is not a *quote.Error", loc, err)
		}
		want, wantCode := composeOracleLocation(loc)
		if code != wantCode || !composeSameEntry(composeEntry{Citation: got}, composeEntry{Citation: want}) {
			t.Fatalf("FromLocation(%q) = %+v, %v, want %+v, %q", loc, got, err, want, wantCode)
		}
		if err == nil {
			h, err := quote.NavHash(got)
			if err != nil {
				t.Fatalf("NavHash(FromLocation(%q)) refused: %v", loc, err)
			}
			if len(h) > quote.MaxNavHashLength {
				return // the canonical href is longer than the one decoded
			}
			again, err := quote.FromLocation("#" + h)
			if err != nil || !composeSameEntry(composeEntry{Citation: again}, composeEntry{Citation: got}) {
				t.Fatalf("FromLocation(#NavHash(%+v)) = %+v, %v", got, again, err)
			}
		}
	})
}
