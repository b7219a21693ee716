package fuzz

import (
	"encoding/base64"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"pgregory.net/rapid"

	"github.com/conform-suite/conform/reference/marker"
)

// Properties of the marker suite's reference (spec/marker.md), checked on
// generated texts rich in marker fragments and on every chunking of them.

var markerIDs = []string{"t1", "t2", "tool_data_03", "user_data_1", "USER_TEXT_x", "nope", "L8"}

// markerParts is the catalog of the properties: known ids, one of them of user origin.
var markerParts = []string{"t1", "t2", "tool_data_03", "user_data_1"}

// writtenEmpty stands for a locator field that is written but empty
// (MARKER-GRAMMAR-011); "" leaves the field out.
const writtenEmpty = "<empty>"

func mk(id, locator string) string {
	s := "\uE200cite\uE202" + id
	switch locator {
	case "":
	case writtenEmpty:
		s += "\uE202"
	default:
		s += "\uE202" + locator
	}
	return s + "\uE201"
}

// plainGen yields text without delimiter runes.
var plainPieces = []string{
	"a", "claim", " ", ".", ",", "!?", ")", "(", "”", "“", "¿", "-", "…", "。", "😀", "e\u0301", "引", "\n", "\t",
	"cite", "L8", "/", "~", "~0", "0", "t1", "user_data_1", `\ue200`, "\uFFFD",
}

var plainGen = rapid.SampledFrom(plainPieces)

var locatorGen = rapid.SampledFrom([]string{"", writtenEmpty, "L8", "L8-L13", "L0", "/a", "/", "/a~1b/m~0n", "/😀 x", "/" + strings.Repeat("x", 255)})

// validMarkerGen yields a marker that matches the grammar.
var validMarkerGen = rapid.Custom(func(t *rapid.T) string {
	return mk(rapid.SampledFrom(markerIDs).Draw(t, "id"), locatorGen.Draw(t, "locator"))
})

// fragmentGen yields delimiters and broken marker pieces.
var fragmentGen = rapid.SampledFrom([]string{
	"\uE200", "\uE201", "\uE202", "\uE200cite", "\uE200cite\uE202", "\uE200cite\uE202t1", "\uE200cite\uE202t1\uE202",
	"\uE200cite\uE202t1\uE202L8", "\uE200CITE\uE202t1\uE201", "\uE200cite\uE202 t1\uE201", "\uE200cite\uE202" + strings.Repeat("b", 128),
	"\uE200cite\uE202t1\uE202/" + strings.Repeat("é", 255),
})

// textGen yields model output: plain text, valid markers and fragments.
var textGen = rapid.Custom(func(t *rapid.T) string {
	n := rapid.IntRange(0, 40).Draw(t, "pieces")
	var b strings.Builder
	for range n {
		switch rapid.IntRange(0, 5).Draw(t, "kind") {
		case 0, 1, 2:
			b.WriteString(plainGen.Draw(t, "plain"))
		case 3, 4:
			b.WriteString(validMarkerGen.Draw(t, "marker"))
		default:
			b.WriteString(fragmentGen.Draw(t, "fragment"))
		}
	}
	return b.String()
})

// cuts draws cut points of s (byte offsets, ascending); with runes, only at
// rune boundaries.
func cuts(t *rapid.T, s string, runes bool) []int {
	var at []int
	for i := 1; i < len(s); i++ {
		if runes && !utf8.RuneStart(s[i]) {
			continue
		}
		at = append(at, i)
	}
	if len(at) == 0 {
		return nil
	}
	picked := rapid.SliceOfNDistinct(rapid.SampledFrom(at), 0, 12, rapid.ID[int]).Draw(t, "cuts")
	slices.Sort(picked)
	return picked
}

func chunks(s string, at []int) []string {
	var out []string
	prev := 0
	for _, c := range at {
		out = append(out, s[prev:c])
		prev = c
	}
	return append(out, s[prev:])
}

func catalog(t tb, ids []string) *marker.Catalog {
	cat, err := marker.NewCatalog(ids)
	if err != nil {
		t.Fatalf("NewCatalog(%q) = %v", ids, err)
	}
	return cat
}

// streamAll feeds deltas to a Stream and checks the hold bound after each.
func streamAll(t tb, cat *marker.Catalog, deltas []string) marker.Result {
	s := marker.NewStream(cat)
	var b strings.Builder
	for _, d := range deltas {
		b.WriteString(s.Write(d))
		if h := s.Held(); h > marker.MaxHold {
			t.Fatalf("Stream holds %d runes after %q, bound %d", h, d, marker.MaxHold)
		}
	}
	tail, cites, parts := s.Close()
	b.WriteString(tail)
	return marker.Result{Text: b.String(), Citations: cites, Parts: parts, Retry: s.Retry()}
}

// equalResult checks a stream's result against Strip's, retry included
// (MARKER-STREAM-005, MARKER-STREAM-008).
func equalResult(t tb, what string, got, want marker.Result) {
	t.Helper()
	text, cites, parts := got.Text, got.Citations, got.Parts
	if got.Retry != want.Retry {
		t.Fatalf("%s retry = %v, want Strip's %v (text %q)", what, got.Retry, want.Retry, want.Text)
	}
	if text != want.Text {
		t.Fatalf("%s text = %q, want Strip's %q", what, text, want.Text)
	}
	if !slices.Equal(cites, want.Citations) {
		t.Fatalf("%s citations = %v, want Strip's %v", what, cites, want.Citations)
	}
	if !slices.Equal(parts, want.Parts) {
		t.Fatalf("%s parts = %v, want Strip's %v", what, parts, want.Parts)
	}
}

// checkStrip checks the properties of one Strip result that need no oracle.
func checkStrip(t tb, cat *marker.Catalog, text string, r marker.Result) {
	t.Helper()
	n := utf8.RuneCountInString(r.Text)
	prev := 0
	for _, c := range r.Citations {
		if c.Offset < prev || c.Offset > n {
			t.Fatalf("Strip(%q) citations = %v: offsets not ascending within [0, %d]", text, r.Citations, n)
		}
		prev = c.Offset
		if marker.UserOrigin(c.DataPartID) {
			t.Fatalf("Strip(%q) cites user-origin %q", text, c.DataPartID)
		}
	}
	again := marker.Strip(r.Text, cat)
	if again.Text != r.Text || len(again.Citations) != 0 {
		t.Fatalf("Strip(Strip(%q).Text) = %q with %v, want %q unchanged without citations", text, again.Text, again.Citations, r.Text)
	}
}

func TestMarkerStreamEqualsStrip(t *testing.T) {
	cat := catalog(t, markerParts)
	rapid.Check(t, func(t *rapid.T) {
		text := textGen.Draw(t, "text")
		want := marker.Strip(text, cat)
		checkStrip(t, cat, text, want)
		equalResult(t, "stream", streamAll(t, cat, chunks(text, cuts(t, text, true))), want)
	})
}

func TestMarkerByteStreamEqualsStrip(t *testing.T) {
	cat := catalog(t, markerParts)
	rapid.Check(t, func(t *rapid.T) {
		text := textGen.Draw(t, "text")
		want := marker.Strip(text, cat)
		s := marker.NewByteStream(cat)
		var b strings.Builder
		for _, c := range chunks(text, cuts(t, text, false)) {
			out, err := s.Write([]byte(c))
			if err != nil {
				t.Fatalf("ByteStream.Write(%q) = %v on valid UTF-8", c, err)
			}
			if !utf8.ValidString(out) {
				t.Fatalf("ByteStream.Write(%q) released %q, not whole runes", c, out)
			}
			if runes, bytes := s.Held(); runes > marker.MaxHold || bytes >= utf8.UTFMax {
				t.Fatalf("ByteStream holds %d runes and %d bytes", runes, bytes)
			}
			b.WriteString(out)
		}
		tail, cites, parts, err := s.Close()
		if err != nil {
			t.Fatalf("ByteStream.Close() = %v on valid UTF-8", err)
		}
		equalResult(t, "byte stream", marker.Result{Text: b.String() + tail, Citations: cites, Parts: parts, Retry: s.Retry()}, want)
	})
}

// TestMarkerNoMarkerRuneReleased builds texts from plain pieces and valid
// markers only, so the expected result is known without the reference: no
// delimiter reaches any output delta, and every marker citing a known,
// non-user id yields an entry.
func TestMarkerNoMarkerRuneReleased(t *testing.T) {
	cat := catalog(t, markerParts)
	rapid.Check(t, func(t *rapid.T) {
		var b, clean strings.Builder
		entries, markers, users := 0, 0, 0
		for range rapid.IntRange(0, 30).Draw(t, "pieces") {
			if rapid.Bool().Draw(t, "marker") {
				id := rapid.SampledFrom(markerIDs).Draw(t, "id")
				b.WriteString(mk(id, locatorGen.Draw(t, "locator")))
				markers++
				if strings.HasPrefix(strings.ToLower(id), "user_") {
					users++ // user_data_1 and USER_TEXT_x, by the spec's prefixes
				}
				if slices.Contains(markerParts, id) && !marker.UserOrigin(id) {
					entries++
				}
				continue
			}
			p := rapid.SampledFrom(append(plainPieces, " ", "\n", "\u00a0")).Draw(t, "plain")
			b.WriteString(p)
			clean.WriteString(p)
		}
		text := b.String()
		s := marker.NewStream(cat)
		var out strings.Builder
		for _, d := range chunks(text, cuts(t, text, true)) {
			r := s.Write(d)
			if strings.ContainsAny(r, "\uE200\uE201\uE202") {
				t.Fatalf("Stream.Write(%q) = %q: a marker rune was released", d, r)
			}
			out.WriteString(r)
		}
		tail, cites, _ := s.Close()
		out.WriteString(tail)
		if out.String() != clean.String() || len(cites) != entries {
			t.Fatalf("stream of %q = %q with %d citations, want %q with %d", text, out.String(), len(cites), clean.String(), entries)
		}
		// MARKER-STRIP-010: retry exactly when some marker, and every one,
		// names a user-origin id and the clean text is white space only.
		wantRetry := users > 0 && users == markers && strings.TrimFunc(clean.String(), unicode.IsSpace) == ""
		if s.Retry() != wantRetry {
			t.Fatalf("stream of %q: retry = %v, want %v", text, s.Retry(), wantRetry)
		}
	})
}

// markerSeeds returns the decoded inputs of every vector of op.
func markerSeeds(t testing.TB, op string) []json.RawMessage {
	return opInputs(t, op)
}

type markerInput struct {
	Text         string   `json:"text"`
	Deltas       []string `json:"deltas"`
	DeltasBase64 []string `json:"deltas_base64"`
	Parts        []struct {
		ID string `json:"id"`
	} `json:"parts"`
}

// decodeSeed returns the whole text of a strip or stream input, its cut
// points as delta lengths, and its part ids joined by newlines.
func decodeSeed(t tb, raw json.RawMessage) (text string, cutLens []byte, parts string) {
	var in markerInput
	if err := json.Unmarshal(raw, &in); err != nil {
		t.Fatal(err)
	}
	ds := append([]string(nil), in.Deltas...)
	for _, d := range in.DeltasBase64 {
		b, err := base64.StdEncoding.DecodeString(d)
		if err != nil {
			t.Fatal(err)
		}
		ds = append(ds, string(b))
	}
	text = in.Text + strings.Join(ds, "")
	for _, d := range ds {
		cutLens = append(cutLens, byte(min(len(d), 255)))
	}
	var ids []string
	for _, p := range in.Parts {
		ids = append(ids, p.ID)
	}
	return text, cutLens, strings.Join(ids, "\n")
}

// fuzzCatalog builds a catalog from newline-separated ids, or nil when
// they repeat (a rejected input).
func fuzzCatalog(parts string) *marker.Catalog {
	var ids []string
	if parts != "" {
		ids = strings.Split(parts, "\n")
	}
	cat, err := marker.NewCatalog(ids)
	if err != nil {
		return nil
	}
	return cat
}

func FuzzStrip(f *testing.F) {
	for _, raw := range markerSeeds(f, "marker.strip") {
		text, _, parts := decodeSeed(f, raw)
		f.Add(text, parts)
	}
	f.Fuzz(func(t *testing.T, text, parts string) {
		cat := fuzzCatalog(parts)
		if cat == nil {
			return
		}
		// Model output reaches an implementation as a JSON string, which is
		// UTF-8 throughout (the reference refuses anything else as a bad
		// request). On raw bytes, removing a marker can join stray bytes into
		// a marker character (the campaign's finding: "\xee" + "\x88\x81"
		// is U+E201), so the properties are checked on text a client can send.
		text = strings.ToValidUTF8(text, "\uFFFD")
		r := marker.Strip(text, cat)
		checkStrip(t, cat, text, r)
		equalResult(t, "stream of one delta", streamAll(t, cat, []string{text}), r)
	})
}

func FuzzStream(f *testing.F) {
	for _, raw := range markerSeeds(f, "marker.stream") {
		text, lens, parts := decodeSeed(f, raw)
		f.Add(text, lens, parts)
	}
	f.Fuzz(func(t *testing.T, text string, lens []byte, parts string) {
		cat := fuzzCatalog(parts)
		if cat == nil {
			return
		}
		want := marker.Strip(text, cat)
		var deltas []string
		rest := text
		for _, n := range lens {
			n := min(int(n), len(rest))
			deltas = append(deltas, rest[:n])
			rest = rest[n:]
		}
		deltas = append(deltas, rest)
		if !slices.ContainsFunc(deltas, func(d string) bool { return !utf8.ValidString(d) }) {
			equalResult(t, "stream", streamAll(t, cat, deltas), want)
		}
		s := marker.NewByteStream(cat)
		var b strings.Builder
		var err error
		for _, d := range deltas {
			var out string
			if out, err = s.Write([]byte(d)); err != nil {
				break
			}
			b.WriteString(out)
		}
		tail, cites, ps, cerr := s.Close()
		switch {
		case utf8.ValidString(text) && (err != nil || cerr != nil):
			t.Fatalf("ByteStream of valid UTF-8 %q: %v, %v", text, err, cerr)
		case !utf8.ValidString(text) && err == nil && cerr == nil:
			t.Fatalf("ByteStream of invalid UTF-8 %q: no error", text)
		case cerr == nil:
			equalResult(t, "byte stream", marker.Result{Text: b.String() + tail, Citations: cites, Parts: ps, Retry: s.Retry()}, want)
		}
	})
}
