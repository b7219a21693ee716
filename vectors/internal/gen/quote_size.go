package main

import "strings"

// The href limit of 160,000 UTF-16 units, and the largest citation the
// formatter can write (every field full of CJK text: 9 characters of href
// per unit).

func init() {
	registerGen("quote/parse-size.gen.json", "quote.parse", "quote.parse: the 160,000-unit href limit and the largest citation.", quoteParseSize)
	registerGen("quote/format-size.gen.json", "quote.format", "quote.format: the largest citation the formatter writes.", quoteFormatSize)
	registerGen("quote/collect-size.gen.json", "quote.collect", "quote.collect: the 160,000-unit href limit of a candidate.", quoteCollectSize)
}

const (
	qMaxHref    = 160_000
	qMaxCJKHref = 158_494 // spec/quote-link.md, "Formatter"
)

// qMaxCJK returns the maximum-size CJK citation.
func qMaxCJK() citation {
	cjk := func(n int) string { return strings.Repeat("中", n) }
	comment := strings.Repeat("文", 8000)
	return citation{Version: 1, EnvironmentID: cjk(512), ThreadID: cjk(512), MessageID: cjk(512), Text: cjk(8000), Comment: &comment,
		Start: 9007199254740990, End: 9007199254740991, Prefix: cjk(32), Suffix: cjk(32)}
}

// qPaddedHref returns the maximum CJK citation's href grown to n units by
// spaces before the first id (trimmed away by the parser) and empty query
// parts (ignored), so that it still parses to the same citation.
func qPaddedHref(n int) string {
	h := qMaxCJK().href()
	if len(h) != qMaxCJKHref {
		panic("gen: the maximum CJK href is not 158,494 units")
	}
	extra := n - len(h)
	spaces := strings.Repeat("%20", extra/3)
	return strings.Replace(h, "/v1/", "/v1/"+spaces, 1) + strings.Repeat("&", extra%3)
}

func quoteParseSize(cf *genFile) {
	max := map[string]any{"citation": qMaxCJK()}
	p := func(id, desc string, reqs, tags []string, href string, out any) {
		cf.add(id, desc, reqs, tags, map[string]string{"href": href}, out)
	}
	p("max-cjk-citation", "every field at its limit in CJK text, an href of 158,494 units",
		[]string{"QUOTE-LINK-002", "QUOTE-LINK-039", "QUOTE-LINK-041", "QUOTE-LINK-043", "QUOTE-LINK-047"}, []string{"boundary", "cjk"},
		qMaxCJK().href(), max)
	p("href-at-limit", "an href of exactly 160,000 units is accepted", []string{"QUOTE-LINK-022"}, []string{"boundary"},
		qPaddedHref(qMaxHref), max)
	p("href-over-limit", "an href of 160,001 units is refused", []string{"QUOTE-LINK-022"}, []string{"boundary"},
		qPaddedHref(qMaxHref+1), reject("QUOTE_HREF_TOO_LONG"))

	// Raw characters are refused, but only after the length: at 160,000
	// units the character is reported, at 160,001 the length.
	base := "t3-citation://v1/a/b/c?text=q&start=0&end=1&prefix=&suffix="
	for _, s := range qScripts[1:] {
		fill := func(n int) string {
			pad := n - len(base)
			return base + strings.Repeat("a", pad%s.units) + s.fill(pad-pad%s.units)
		}
		tags := []string{"boundary", s.name}
		p("raw-"+s.name+"-href-at-limit", "a raw "+s.name+" href of 160,000 units is refused for its characters",
			[]string{"QUOTE-LINK-022", "QUOTE-LINK-023", "QUOTE-LINK-020"}, tags, fill(qMaxHref), reject("QUOTE_INVALID_CHARACTER"))
		p("raw-"+s.name+"-href-over-limit", "a raw "+s.name+" href of 160,001 units is refused for its length",
			[]string{"QUOTE-LINK-022", "QUOTE-LINK-020"}, tags, fill(qMaxHref+1), reject("QUOTE_HREF_TOO_LONG"))
	}
	p("scheme-before-length", "an over-long href with a wrong scheme is refused for its scheme",
		[]string{"QUOTE-LINK-020", "QUOTE-LINK-021"}, nil, "T3"+qPaddedHref(qMaxHref + 1)[2:], reject("QUOTE_SCHEME"))
}

func quoteFormatSize(cf *genFile) {
	c := qMaxCJK()
	cf.add("max-cjk-citation", "every field at its limit in CJK text gives an href of 158,494 units",
		[]string{"QUOTE-LINK-002", "QUOTE-LINK-014", "QUOTE-LINK-015"}, []string{"boundary", "cjk"},
		map[string]any{"citation": c}, map[string]string{"href": c.href(), "link": compLink(c)})
}

func quoteCollectSize(cf *genFile) {
	small := qBase()
	smallLink := compLink(small)
	type found struct {
		Start    int      `json:"start"`
		End      int      `json:"end"`
		Source   string   `json:"source"`
		Citation citation `json:"citation"`
	}
	// Offsets: the texts below hold ASCII and one astral character (2 units).
	at := "[Assistant quote](" + qPaddedHref(qMaxHref) + ")"
	text := "\U0001F600 " + at + " " + smallLink
	cf.add("href-at-limit", "a link whose href is 160,000 units is found, and the link after it",
		[]string{"QUOTE-LINK-060", "QUOTE-LINK-063"}, []string{"boundary", "astral"}, map[string]string{"text": text},
		map[string][]found{"citations": {
			{3, 3 + len(at), at, qMaxCJK()},
			{4 + len(at), 4 + len(at) + len(smallLink), smallLink, small},
		}})
	over := "[Assistant quote](" + qPaddedHref(qMaxHref+1) + ")"
	text = "\U0001F600 " + over + " " + smallLink
	cf.add("href-over-limit", "a link whose href is 160,001 units is plain text, the link after it is found",
		[]string{"QUOTE-LINK-060", "QUOTE-LINK-064"}, []string{"boundary", "astral"}, map[string]string{"text": text},
		map[string][]found{"citations": {
			{4 + len(over), 4 + len(over) + len(smallLink), smallLink, small},
		}})
}
