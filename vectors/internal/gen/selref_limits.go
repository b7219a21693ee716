package main

// Generators for the selref length limits (spec/selref.md): labels around
// 200 UTF-16 units and addresses around 1,000, each with an astral character
// or a lone surrogate on the cut, so that an implementation counting runes or
// bytes instead of UTF-16 units fails.

import (
	"encoding/json"
	"strings"
)

func init() {
	registerGen("selref/ingest-limits.gen.json", "selref.ingest",
		"selref.ingest: the 200-unit label cap and the 1,000-unit address limits, with astral characters on the boundary.", selrefIngestLimits)
	registerGen("selref/replay-limits.gen.json", "selref.replay",
		"selref.replay: stored references beyond the ingest limits are capped or left out before printing.", selrefReplayLimits)
}

const (
	emoji        = "\U0001F600" // 2 UTF-16 units, 1 rune, 4 UTF-8 bytes
	cjk          = "\u6f22"     // 1 unit, 1 rune, 3 bytes
	ellipsis     = "\u2026"
	selrefURL    = "https://example.com/a"
	selrefVance  = "vance:/a"
	selrefHeader = "[vance] This message pointed at: "
)

type selrefRef struct {
	Label    string `json:"label"`
	VanceURI string `json:"vanceUri,omitempty"`
	URL      string `json:"url,omitempty"`
}

func kept(r selrefRef) any { return map[string]any{"reference": r} }

// vanceHigh is a label of 199 letters, a lone high surrogate and the
// ellipsis, as vance stores it: a Java string cut between the halves of a
// pair. Its JSON is written by hand, since a Go string cannot hold it.
func vanceHigh() json.RawMessage {
	return json.RawMessage(`{"reference": {"label": "` + strings.Repeat("x", 199) + `\ud83d` + ellipsis + `", "url": "` + selrefURL + `"}}`)
}

// vanceRenders is why vance's replay line differs.
const vanceRenders = "vance's renderer prints the stored values as they are, checking and trimming nothing"

// pad returns head, then as many 'x' as make exactly n UTF-16 units with
// tail, then tail.
func pad(head string, n int, tail string) string {
	return head + strings.Repeat("x", n-units(head+tail)) + tail
}

func selrefIngestLimits(cf *genFile) {
	label := func(id, desc string, reqs, tags []string, in, want string) {
		cf.add(id, desc, reqs, tags,
			selrefRef{Label: in, URL: selrefURL}, kept(selrefRef{Label: want, URL: selrefURL}))
	}
	x := strings.Repeat
	label("label-200-units-unchanged", "A label of exactly 200 units is kept as is",
		[]string{"SELREF-LABEL-005"}, []string{"boundary"}, x("x", 200), x("x", 200))
	label("label-201-units-cut", "A label of 201 units is cut to 200 plus an ellipsis; the seed's words keep 200 units and nothing more",
		[]string{"SELREF-LABEL-006"}, []string{"boundary"}, x("x", 201), x("x", 200)+ellipsis)
	cf.diverge("seed", "seed 002 says \"truncate to 200 characters\", with no ellipsis; the spec follows vance's cut-trim-ellipsis",
		kept(selrefRef{Label: x("x", 200), URL: selrefURL}))
	label("label-100-emoji-unchanged", "100 emoji are 200 units (400 bytes) and are kept",
		[]string{"SELREF-LABEL-005", "SELREF-TEXT-001"}, []string{"boundary", "astral"}, x(emoji, 100), x(emoji, 100))
	label("label-101-emoji-cut", "101 emoji are 202 units (101 runes) and are cut to 100 plus an ellipsis",
		[]string{"SELREF-LABEL-006", "SELREF-TEXT-001"}, []string{"boundary", "astral"}, x(emoji, 101), x(emoji, 100)+ellipsis)
	label("label-emoji-across-cut-kept-whole", "An emoji on units 200-201 is cut whole; vance keeps its high surrogate",
		[]string{"SELREF-LABEL-007", "SELREF-TEXT-003", "SELREF-TEXT-001"}, []string{"boundary", "astral"},
		x("x", 199)+emoji, x("x", 199)+ellipsis)
	cf.diverge("vance", "vance cuts the label at 200 units even between the halves of a pair, keeping the high surrogate", vanceHigh())
	label("label-emoji-ending-at-unit-200-kept", "An emoji on units 199-200 stays before the ellipsis (201 units, 200 runes)",
		[]string{"SELREF-LABEL-006", "SELREF-LABEL-007", "SELREF-TEXT-001"}, []string{"boundary", "astral"},
		x("x", 198)+emoji+"y", x("x", 198)+emoji+ellipsis)
	label("label-cut-after-space-trimmed", "A cut ending in a space drops the space before the ellipsis",
		[]string{"SELREF-LABEL-006"}, []string{"boundary"}, x("x", 199)+" yyy", x("x", 199)+ellipsis)
	label("label-201-cjk-cut", "201 CJK characters are 201 units (603 bytes) and are cut to 200",
		[]string{"SELREF-LABEL-006", "SELREF-TEXT-001"}, []string{"boundary", "cjk"}, x(cjk, 201), x(cjk, 200)+ellipsis)
	label("label-collapsed-before-cap", "A run of five whitespace characters counts one unit toward the cap",
		[]string{"SELREF-LABEL-001", "SELREF-LABEL-005"}, []string{"boundary"},
		x("x", 150)+" \n\t \r"+x("y", 49), x("x", 150)+" "+x("y", 49))
	label("label-trimmed-before-cap", "Padding around a 200-unit label is removed before the cap",
		[]string{"SELREF-LABEL-002", "SELREF-LABEL-005"}, []string{"boundary"}, "   "+x("x", 200)+"\n", x("x", 200))
	label("label-cut-ending-in-ellipsis-unchanged", "A cut label of 201 units ending in the ellipsis is ingested unchanged",
		[]string{"SELREF-INGEST-005", "SELREF-LABEL-006"}, []string{"boundary"}, x("x", 200)+ellipsis, x("x", 200)+ellipsis)
	cf.add("label-lone-surrogate-at-cut-replaced",
		"A lone surrogate on unit 200 is read as U+FFFD and kept; vance stores the lone surrogate",
		[]string{"SELREF-TEXT-002", "SELREF-TEXT-003", "SELREF-LABEL-006"}, []string{"boundary"},
		json.RawMessage(`{"label": "`+x("x", 199)+`\ud83dyy", "url": "`+selrefURL+`"}`),
		kept(selrefRef{Label: x("x", 199) + "\uFFFD" + ellipsis, URL: selrefURL}))
	cf.diverge("vance", "Java strings carry lone surrogates: vance stores the lone surrogate where the spec reads U+FFFD", vanceHigh())
	vance1000 := pad("vance:/apps/newsfeed/_app.yaml?entry=", 1000, emoji)
	vance1001 := pad("vance:/apps/newsfeed/_app.yaml?entry=", 1001, emoji)
	url1000 := pad("https://example.com/", 1000, emoji)
	url1001 := pad("https://example.com/", 1001, emoji)
	cf.add("vance-uri-1000-units-accepted", "A vanceUri of 1,000 units ending in an emoji (1,002 bytes) is accepted",
		[]string{"SELREF-VANCE-003", "SELREF-TEXT-001"}, []string{"boundary", "astral"},
		selrefRef{Label: "x", VanceURI: vance1000}, kept(selrefRef{Label: "x", VanceURI: vance1000}))
	cf.add("vance-uri-1001-units-refused", "A vanceUri of 1,001 units (1,000 runes) is refused, not cut",
		[]string{"SELREF-VANCE-003", "SELREF-INGEST-002", "SELREF-TEXT-001"}, []string{"boundary", "astral"},
		selrefRef{Label: "x", VanceURI: vance1001, URL: selrefURL}, kept(selrefRef{Label: "x", URL: selrefURL}))
	cf.add("vance-uri-1000-units-after-trim-accepted", "Padding does not count toward the 1,000-unit limit of a vanceUri",
		[]string{"SELREF-VANCE-003", "SELREF-VANCE-001"}, []string{"boundary", "astral"},
		selrefRef{Label: "x", VanceURI: "  " + vance1000 + "\n"}, kept(selrefRef{Label: "x", VanceURI: vance1000}))
	cf.add("url-1000-units-accepted", "A url of 1,000 units ending in an emoji (1,002 bytes) is accepted",
		[]string{"SELREF-URL-006", "SELREF-TEXT-001"}, []string{"boundary", "astral"},
		selrefRef{Label: "x", URL: url1000}, kept(selrefRef{Label: "x", URL: url1000}))
	cf.add("url-1001-units-refused", "A url of 1,001 units (1,000 runes) beside a vanceUri is left out",
		[]string{"SELREF-URL-006", "SELREF-INGEST-002", "SELREF-TEXT-001"}, []string{"boundary", "astral"},
		selrefRef{Label: "x", VanceURI: selrefVance, URL: url1001}, kept(selrefRef{Label: "x", VanceURI: selrefVance}))
	cf.add("url-1001-units-alone-dropped", "A url of 1,001 units and no vanceUri leaves no address",
		[]string{"SELREF-URL-006", "SELREF-INGEST-003"}, []string{"boundary", "astral"},
		selrefRef{Label: "x", URL: url1001}, map[string]any{"dropped": map[string]string{"code": "SELREF_NO_ADDRESS"}})
	cf.add("url-1000-units-after-trim-accepted", "Padding does not count toward the 1,000-unit limit of a url",
		[]string{"SELREF-URL-006", "SELREF-URL-001"}, []string{"boundary", "astral"},
		selrefRef{Label: "x", URL: "\t" + url1000 + "  "}, kept(selrefRef{Label: "x", URL: url1000}))
}

func selrefReplayLimits(cf *genFile) {
	text := func(label string, addrs ...string) any {
		s := "hi\n\n" + selrefHeader + `"` + label + `"`
		for _, a := range addrs {
			s += " \u2014 " + a
		}
		return map[string]string{"text": s}
	}
	in := func(r selrefRef) any {
		return map[string]any{"body": "hi", "reference": r}
	}
	x := strings.Repeat
	url1001 := pad("https://example.com/", 1001, emoji)
	cf.add("stored-long-label-capped", "A stored 250-unit label is printed cut to 200 units; vance prints it whole",
		[]string{"SELREF-REPLAY-001", "SELREF-LABEL-006"}, []string{"boundary"},
		in(selrefRef{Label: x("x", 250), URL: selrefURL}), text(x("x", 200)+ellipsis, selrefURL))
	cf.diverge("vance", vanceRenders, text(x("x", 250), selrefURL))
	cf.add("stored-200-unit-emoji-label-printed-whole", "A stored label of 100 emoji (200 units) is printed whole",
		[]string{"SELREF-REPLAY-005", "SELREF-LABEL-005"}, []string{"boundary", "astral"},
		in(selrefRef{Label: x(emoji, 100), VanceURI: selrefVance}), text(x(emoji, 100), selrefVance))
	cf.add("stored-1001-unit-url-left-out", "A stored url of 1,001 units is left out; vance prints it",
		[]string{"SELREF-REPLAY-001", "SELREF-URL-006"}, []string{"boundary", "astral"},
		in(selrefRef{Label: "x", VanceURI: selrefVance, URL: url1001}), text("x", selrefVance))
	cf.diverge("vance", vanceRenders, text("x", selrefVance, url1001))
}
