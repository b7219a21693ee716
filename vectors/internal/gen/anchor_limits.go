package main

// Generators of the size vectors of quote anchoring (spec/quote-anchor.md):
// selections at and over the 8,000-unit limit (QUOTE-ANCHOR-015), and texts
// on which a resolver that compares the quote afresh at every offset is
// quadratic (QUOTE-ANCHOR-035). Expected outputs follow from how the inputs
// are built.

import "strings"

func init() {
	registerGen("quote/select-limits.gen.json", "quote.select", "Selections at and over the 8,000-unit limit of a citation's text.", genSelectLimits)
	registerGen("quote/resolve-long.gen.json", "quote.resolve",
		"Long runs of one letter, where a resolver without a linear-time search is quadratic.", genResolveLong)
}

const anchorMaxUnits = 8000

func genSelectLimits(cf *genFile) {
	add := func(id, desc string, reqs, tags []string, text string, end int, want any) {
		cf.add(id, desc, reqs, tags, map[string]any{"text": text, "start": 0, "end": end}, want)
	}
	whole := func(text string, n int) any {
		return map[string]any{"selector": map[string]any{"text": text, "start": 0, "end": n, "prefix": "", "suffix": ""}}
	}
	// The real capture has no length limit: it captures the whole text.
	tooLong := func(id, desc string, reqs, tags []string, text string) {
		add(id, desc, reqs, tags, text, anchorMaxUnits+1, reject("QUOTE_SELECTION_TOO_LONG"))
		cf.diverge("t3code", "the real capture has no length limit", whole(text, anchorMaxUnits+1))
	}
	ascii := strings.Repeat("x", anchorMaxUnits)
	add("at-length-limit", "a selection of exactly 8,000 ASCII units is captured",
		[]string{"QUOTE-ANCHOR-015"}, []string{"boundary"}, ascii, anchorMaxUnits, whole(ascii, anchorMaxUnits))
	tooLong("over-length-limit", "a selection of 8,001 ASCII units is too long",
		[]string{"QUOTE-ANCHOR-015"}, []string{"boundary"}, ascii+"x")
	astral := strings.Repeat(emoji, anchorMaxUnits/2)
	add("astral-at-length-limit", "4,000 emoji are 8,000 units and are captured",
		[]string{"QUOTE-ANCHOR-015", "QUOTE-ANCHOR-001"}, []string{"astral", "boundary"}, astral, anchorMaxUnits, whole(astral, anchorMaxUnits))
	tooLong("astral-over-length-limit", "4,000 emoji and one letter are 8,001 units though only 4,001 runes",
		[]string{"QUOTE-ANCHOR-015", "QUOTE-ANCHOR-001"}, []string{"astral", "boundary"}, astral+"x")
	add("blank-and-too-long", "8,001 spaces are refused as blank before too long",
		[]string{"QUOTE-ANCHOR-016", "QUOTE-ANCHOR-014"}, []string{"boundary"}, strings.Repeat(" ", anchorMaxUnits+1), anchorMaxUnits+1,
		reject("QUOTE_SELECTION_BLANK"))
}

// anchorLongText is the length in code units of the long texts: large
// enough that comparing an 8,000-unit quote afresh at each offset costs
// about half a billion comparisons, small enough to keep the file near 140 KB.
const anchorLongText = 64 * 1024

func genResolveLong(cf *genFile) {
	run := strings.Repeat("a", anchorLongText)
	quote := strings.Repeat("a", anchorMaxUnits)
	add := func(id, desc string, text, quote, prefix string, want any) {
		cf.add(id, desc, []string{"QUOTE-ANCHOR-035", "QUOTE-ANCHOR-026"}, []string{"performance"},
			map[string]any{"text": text, "selector": map[string]any{
				"text": quote, "start": 0, "end": len(quote), "prefix": prefix, "suffix": "",
			}}, want)
	}
	add("long-run-prefix-nowhere", "an 8,000-letter quote occurs at every offset of a long run; the prefix nowhere",
		run, quote, "zzz", map[string]any{"match": nil, "reason": "ambiguous"})
	// The quote ends in the one b at the end of the text: it occurs once,
	// but every earlier offset matches up to 8,000 letters before failing.
	end := anchorLongText + 1
	add("long-run-unique-tail", "an 8,000-letter quote ending in b occurs once, at the end of a long run",
		run+"b", quote[1:]+"b", "", map[string]any{"match": map[string]any{"start": end - anchorMaxUnits, "end": end}})
}
