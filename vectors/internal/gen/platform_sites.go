package main

// Platform vectors of one rule (site) of an op that applies a class
// through several: a port may reach for a built-in at one place only (the
// blank check of a selection, the trim of the expanded text, a pointer's
// array index), so each point must show through each rule, not only
// through the one the other platform vectors exercise. Expected outputs
// follow from the spec's side of each point, never from the reference.

import (
	"strings"

	"github.com/conform-suite/conform/spec"
)

func init() {
	registerGen("quote/select-platform-blank.gen.json", "quote.select",
		"Selections of one point alone, where platform whitespace disagrees with the spec's on what a blank selection is.", genSelectBlankPlatform)
	registerGen("quote/resolve-platform-blank.gen.json", "quote.resolve",
		"Quotes of one point alone, where platform whitespace disagrees with the spec's on what a blank quote is.", genResolveBlankPlatform)
	registerGen("quote/send_turn-platform-expanded.gen.json", "quote.send_turn",
		"Inputs opening with a point the spec keeps, then a link: the expanded text is trimmed again.", genSendTurnExpandedPlatform)
	registerGen("quote/submit_check-platform-ids.gen.json", "quote.submit_check",
		"Prompts of links whose ids are one point, over the limit once expanded, where platform trims disagree with the spec's.", genSubmitCheckIDsPlatform)
	registerGen("selref/ingest-platform-sites.gen.json", "selref.ingest",
		"Trim characters and address controls in the url and the vanceUri each, where platform classes disagree with selref's.", genIngestSitesPlatform)
	registerGen("marker/locate-platform-index-digits.gen.json", "marker.locate",
		"Array indexes of one digit that platform digit classes take and the spec does not.", genLocateIndexDigitsPlatform)
}

// genSelectBlankPlatform: the selection is the point alone, between
// letters: blank, refused (QUOTE-ANCHOR-014), when the spec's whitespace
// holds it; a selector of the point otherwise. One point a vector: a
// second point would keep the selection from being blank.
func genSelectBlankPlatform(cf *genFile) {
	cf.platformSiteVectors("platform-blank", "checking the selection for blank with", platformClass("quote.space"), []string{"QUOTE-ANCHOR-014"}, 1, nil,
		func(ps []spec.Point) (any, any, string) {
			w := string(ps[0].Rune)
			in := map[string]any{"text": "pq" + w + "rs", "start": 2, "end": 3}
			if specHas(ps[0]) {
				return in, map[string]any{"rejected": map[string]any{"code": "QUOTE_SELECTION_BLANK"}}, "a selection of one whitespace point is blank"
			}
			return in, map[string]any{"selector": map[string]any{"text": w, "start": 2, "end": 3, "prefix": "pq", "suffix": "rs"}},
				"a selection of one point that is no whitespace is captured"
		})
}

// genResolveBlankPlatform: the quote is the point alone, the text holds it
// between letters: a blank quote is not found (QUOTE-ANCHOR-025); a quote
// of a point that is no whitespace is found where the text holds it.
func genResolveBlankPlatform(cf *genFile) {
	cf.platformSiteVectors("platform-blank", "checking the quote for blank with", platformClass("quote.space"), []string{"QUOTE-ANCHOR-025"}, 1, nil,
		func(ps []spec.Point) (any, any, string) {
			w := string(ps[0].Rune)
			in := map[string]any{"text": "a" + w + "b", "selector": map[string]any{"text": w, "start": 1, "end": 2, "prefix": "", "suffix": ""}}
			if specHas(ps[0]) {
				return in, map[string]any{"match": nil, "reason": "not_found"}, "a quote of one whitespace point is blank"
			}
			return in, map[string]any{"match": map[string]any{"start": 1, "end": 2}}, "a quote of one point that is no whitespace is found"
		})
}

// platformLink is a valid link of the citation e/t/m, text q, offsets 0
// and 100.
func platformLink() pLink {
	c := qBase()
	c.EnvironmentID, c.ThreadID, c.MessageID, c.End = "e", "t", "m", 100
	return pLink{env: "e", text: "q", start: "0", end: "100", cite: &c}
}

// genSendTurnExpandedPlatform: an input opening with a point the spec's
// trim keeps, then a link. The input's trim (QUOTE-COMPOSE-034) keeps the
// point, the expansion opens with it, and the expanded text's trim
// (QUOTE-COMPOSE-035) keeps it too. A point the spec removes is gone
// before expansion, and the expanded text ends with the block's closing
// tag, so only the kept points can show here; one a vector, since the
// trim stops at the first point kept.
func genSendTurnExpandedPlatform(cf *genFile) {
	kept := func(p spec.Point) bool { return !specHas(p) }
	cf.platformSiteVectors("platform-expanded", "trimming the expanded text with", platformClass("quote.trim"), []string{"QUOTE-COMPOSE-035"}, 1, kept,
		func(ps []spec.Point) (any, any, string) {
			l := platformLink()
			w := string(ps[0].Rune)
			return map[string]any{"input": w + l.source()}, map[string]any{"text": w + "[assistant-quote-1]" + platformBlock([]citation{*l.cite})},
				"an input opening with a kept point, then a link"
		})
}

// genSubmitCheckIDsPlatform: a prompt of links whose environment id is one
// point each (as the links of the link-collecting ops), padded with x so
// that its expansion is 5 units over the limit (QUOTE-COMPOSE-031). An id
// the spec trims to nothing makes its link invalid (QUOTE-LINK-037), one
// it keeps a citation of the block, so each point changes the expansion's
// length, and the excess, alone.
func genSubmitCheckIDsPlatform(cf *genFile) {
	slot := linkSlots[0] // the environment id of one point
	cf.platformSiteVectors("platform-ids", "trimming a link's ids with", platformClass("quote.trim"), []string{"QUOTE-LINK-036", "QUOTE-COMPOSE-031"}, 24, nil,
		func(ps []spec.Point) (any, any, string) {
			var links []pLink
			for i, p := range ps {
				links = append(links, slot.link(p, i))
			}
			text := linksText(links)
			expanded := linksOutput("quote.expand", links)["text"].(string)
			body, block := expanded, ""
			if i := strings.Index(expanded, "\n\n<assistant_citations>"); i >= 0 {
				body, block = expanded[:i], expanded[i:]
			}
			// The prompt is text then the padding; expansion rewrites text
			// into body and appends block.
			long := max(units(text), units(body+block))
			pad := strings.Repeat("x", compLimit+5-long)
			return map[string]any{"prompt": text + pad, "target": "provider-turn"}, map[string]any{"ok": false, "excess": 5, "message": compMessage(5)},
				"links whose environment id is one point, expanded 5 over the limit"
		})
}

// genIngestSitesPlatform: the points of the trim characters and the
// address controls where ingest-platform puts them, the other way round:
// the first point of a pair in the url, the second in the vanceUri, so
// that each point reaches the rules of both fields (SELREF-URL-001 and
// SELREF-VANCE-001, SELREF-URL-002 and SELREF-VANCE-004).
func genIngestSitesPlatform(cf *genFile) {
	cf.platformSiteVectors("platform-trim-url-first", "trimming addresses with", platformClass("selref.trim"), []string{"SELREF-VANCE-001", "SELREF-URL-001"}, 2, nil,
		func(ps []spec.Point) (any, any, string) {
			in := map[string]any{"label": "L", "url": string(ps[0].Rune) + platformURL}
			ref := map[string]any{"label": "L"}
			if specHas(ps[0]) {
				ref["url"] = platformURL
			} // else the url opens with no scheme and is refused
			if len(ps) > 1 {
				v := platformVance + string(ps[1].Rune)
				in["vanceUri"] = v
				switch {
				case specHas(ps[1]):
					ref["vanceUri"] = platformVance
				case !selrefControl(ps[1].Rune):
					ref["vanceUri"] = v
				}
			}
			if len(ref) == 1 {
				return in, map[string]any{"dropped": map[string]any{"code": "SELREF_NO_ADDRESS"}}, "a point before the url and after the vanceUri"
			}
			return in, map[string]any{"reference": ref}, "a point before the url and after the vanceUri"
		})
	cf.platformSiteVectors("platform-control-url-first", "finding controls with", platformClass("selref.control"), []string{"SELREF-VANCE-004", "SELREF-URL-002"}, 2, nil,
		func(ps []spec.Point) (any, any, string) {
			in := map[string]any{"label": "L", "url": platformURL + string(ps[0].Rune) + "y"}
			ref := map[string]any{"label": "L"}
			if !specHas(ps[0]) {
				ref["url"] = platformURL + string(ps[0].Rune) + "y"
			}
			if len(ps) > 1 {
				in["vanceUri"] = platformVance + string(ps[1].Rune) + "y"
				if !specHas(ps[1]) {
					ref["vanceUri"] = platformVance + string(ps[1].Rune) + "y"
				}
			}
			if len(ref) == 1 {
				return in, map[string]any{"dropped": map[string]any{"code": "SELREF_NO_ADDRESS"}}, "a point inside the url and the vanceUri"
			}
			return in, map[string]any{"reference": ref}, "a point inside the url and the vanceUri"
		})
}

// genLocateIndexDigitsPlatform: a pointer whose one token is a digit that
// is not ASCII: no array index (MARKER-LOCATE-004), so it designates no
// element of the array; a port reading the digit finds one (the array has
// elements 0 to 10). A digit that is itself a spelling of marker.index
// has its vector in locate-platform-numbers.
func genLocateIndexDigitsPlatform(cf *genFile) {
	index := platformClass("marker.index")
	spelt := map[string]bool{}
	for _, b := range index.Builtins {
		ps, err := spec.Disagreements(index, b)
		if err != nil {
			panic(err)
		}
		for _, p := range ps {
			spelt[p.Input] = true
		}
	}
	keep := func(p spec.Point) bool { return !spelt[string(p.Rune)] }
	cf.platformSiteVectors("platform-index-digit", "reading a pointer's array index with", platformClass("marker.digit"), []string{"MARKER-LOCATE-004"}, 1, keep,
		func(ps []spec.Point) (any, any, string) {
			return map[string]any{"value": platformElements, "locator": "/" + string(ps[0].Rune)}, map[string]any{"resolved": false},
				"a pointer token of one digit that is not ASCII designates no element"
		})
}
