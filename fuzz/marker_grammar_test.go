package fuzz

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"pgregory.net/rapid"

	"github.com/conform-suite/conform/reference/marker"
)

// markerABNF is the grammar of spec/marker.md written as a regular
// expression, independently of the reference's automaton: the locator
// field, when written, may be empty (MARKER-GRAMMAR-011). The locator's
// 256-rune bound is checked apart.
var markerABNF = regexp.MustCompile(`^\x{E200}cite\x{E202}([A-Za-z0-9_-]{1,128})` +
	`(?:\x{E202}(L[0-9]{1,9}(?:-L[0-9]{1,9})?|(?:/(?:[^/~\x{E200}-\x{E202}\x00-\x1f\x7f-\x9f]|~[01])*)+)?)?\x{E201}$`)

var bodyPieceGen = rapid.SampledFrom([]string{
	"cite", "CITE", "cit", "\uE202", "\uE201", "\uE200", "t1", "a", "Z", "_", "-", "L", "l", "8", "0", "13",
	"/", "~", "~0", "~1", "~2", " ", "\n", "\t", ".", "é", "😀", "\x7f", "\u0085", strings.Repeat("a", 64),
})

var idPieces = []string{
	"t1", "tool_data-01", strings.Repeat("a", 128), strings.Repeat("a", 129), "", " t1", "t1 ", "tool.data", "tööl", "L8",
}

var idPieceGen = rapid.SampledFrom(idPieces)

var locatorPieces = []string{
	"L8", "L8-L13", "L123456789", "L1234567890", "L8-L1234567890", "L", "L8-", "L8-L", "L8-13", "l8", "8", "#/a",
	"/", "/a", "/a~0b~1c", "/a~2", "/a~", "/~", "//", "/a b/😀", "/a\nb", "/a\x00b", "/a\u009fb", "/a\u00a0b",
	"/" + strings.Repeat("x", 255), "/" + strings.Repeat("x", 256), "/" + strings.Repeat("é", 254) + "~1",
	"/" + strings.Repeat("é", 255) + "~1",
}

var locatorPieceGen = rapid.SampledFrom(locatorPieces)

// bodyGen yields what follows a START: mostly near-valid markers with
// edge-case fields, sometimes anything.
var bodyGen = rapid.Custom(func(t *rapid.T) string {
	var b strings.Builder
	if rapid.IntRange(0, 9).Draw(t, "family") > 0 {
		b.WriteString("cite\uE202")
	}
	b.WriteString(idPieceGen.Draw(t, "id"))
	switch rapid.IntRange(0, 3).Draw(t, "locator") {
	case 1, 2:
		b.WriteString("\uE202" + locatorPieceGen.Draw(t, "locator"))
	case 3:
		b.WriteString("\uE202") // the empty locator
	}
	if rapid.IntRange(0, 4).Draw(t, "stop") > 0 {
		b.WriteString("\uE201")
	}
	for range rapid.IntRange(0, 6).Draw(t, "pieces") {
		b.WriteString(bodyPieceGen.Draw(t, "piece"))
	}
	return b.String()
})

// checkGrammar checks the scan at the START that begins text against the
// regular expression: the candidate from START to the first STOP is a
// marker exactly when it matches, and then the rest is stripped on its own;
// a marker whose id the catalog holds cites it with the locator verbatim,
// "" for an empty or absent one.
func checkGrammar(t tb, cat *marker.Catalog, text string) {
	t.Helper()
	stop := strings.IndexRune(text, marker.Stop)
	matched, rest := false, ""
	if stop >= 0 {
		cand := text[:stop+len("\uE201")]
		rest = text[len(cand):]
		m := markerABNF.FindStringSubmatch(cand)
		matched = m != nil && utf8.RuneCountInString(m[2]) <= marker.MaxLocatorLen
	}
	res := marker.Strip(text, cat)
	out := res.Text
	if matched {
		// The marker at the start is first in text order, and no other
		// entry has a smaller offset.
		m := markerABNF.FindStringSubmatch(text[:stop+len("\uE201")])
		if knownIDs[m[1]] && (len(res.Citations) == 0 || res.Citations[0].DataPartID != m[1] || res.Citations[0].Locator != m[2]) {
			t.Fatalf("Strip(%q) citations = %v, want the first to cite %q with locator %q", text, res.Citations, m[1], m[2])
		}
	}
	switch {
	case matched && out != marker.Strip(rest, cat).Text:
		t.Fatalf("Strip(%q) = %q, want the marker removed: %q", text, out, marker.Strip(rest, cat).Text)
	case !matched && !strings.HasPrefix(out, "\uE200"):
		t.Fatalf("Strip(%q) = %q, want the candidate kept as literal text", text, out)
	}
}

// grammarIDs are the ids of idPieces that the catalog of the grammar test
// holds, so that a marker naming one must yield an entry.
var grammarIDs = []string{"t1", "tool_data-01"}

var knownIDs = map[string]bool{"t1": true, "tool_data-01": true}

// TestMarkerGrammarMatchesABNF crosses every id and locator piece, with and
// without family and STOP, then adds random tails.
func TestMarkerGrammarMatchesABNF(t *testing.T) {
	cat := catalog(t, grammarIDs)
	for _, family := range []string{"cite\uE202", "CITE\uE202", "cite", ""} {
		for _, id := range idPieces {
			for _, loc := range append([]string{"", "\uE202"}, locatorPieces...) {
				if loc != "" && loc != "\uE202" {
					loc = "\uE202" + loc
				}
				for _, end := range []string{"\uE201", "\uE201.", "", "\uE202\uE201", " \uE201"} {
					checkGrammar(t, cat, "\uE200"+family+id+loc+end)
				}
			}
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		checkGrammar(t, cat, "\uE200"+bodyGen.Draw(t, "body"))
	})
}
