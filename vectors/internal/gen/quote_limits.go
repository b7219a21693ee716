package main

import (
	"fmt"
	"strings"
)

// The limits of spec/quote-link.md at the limit and one unit past it, in
// three scripts chosen so that counting bytes or runes instead of UTF-16
// units gives a wrong answer on at least one side of every limit.

func init() {
	registerGen("quote/parse-limits.gen.json", "quote.parse",
		"quote.parse: every field limit at the limit and one UTF-16 unit past it, in ASCII, astral and CJK text.", quoteParseLimits)
	registerGen("quote/format-limits.gen.json", "quote.format",
		"quote.format: every field limit at the limit and one UTF-16 unit past it, in ASCII, astral and CJK text.", quoteFormatLimits)
}

// qFieldNoun names the field an over-limit code is about.
var qFieldNoun = map[string]string{"QUOTE_ID_TOO_LONG": "id", "QUOTE_TEXT_TOO_LONG": "text",
	"QUOTE_COMMENT_TOO_LONG": "comment", "QUOTE_CONTEXT_TOO_LONG": "context"}

type qScript struct {
	name, char string // char is one character of the script
	units      int    // its UTF-16 length
}

var qScripts = []qScript{{"ascii", "a", 1}, {"astral", "\U0001F600", 2}, {"cjk", "中", 1}}

// fill returns a string of exactly n UTF-16 units in script s (n even for
// astral), and one of n+1 units ending in an ASCII letter for astral.
func (s qScript) fill(n int) string { return strings.Repeat(s.char, n/s.units) }

func (s qScript) over(n int) string {
	if s.units == 2 {
		return s.fill(n) + "a"
	}
	return s.fill(n + 1)
}

type qLimit struct {
	field, req, code string
	limit            int
	set              func(*citation, string)
}

var qLimits = []qLimit{
	{"environment-id", "QUOTE-LINK-039", "QUOTE_ID_TOO_LONG", 512, func(c *citation, v string) { c.EnvironmentID = v }},
	{"thread-id", "QUOTE-LINK-039", "QUOTE_ID_TOO_LONG", 512, func(c *citation, v string) { c.ThreadID = v }},
	{"message-id", "QUOTE-LINK-039", "QUOTE_ID_TOO_LONG", 512, func(c *citation, v string) { c.MessageID = v }},
	{"text", "QUOTE-LINK-041", "QUOTE_TEXT_TOO_LONG", 8000, func(c *citation, v string) { c.Text = v }},
	{"comment", "QUOTE-LINK-043", "QUOTE_COMMENT_TOO_LONG", 8000, func(c *citation, v string) { c.Comment = &v }},
	{"prefix", "QUOTE-LINK-047", "QUOTE_CONTEXT_TOO_LONG", 32, func(c *citation, v string) { c.Prefix = v }},
	{"suffix", "QUOTE-LINK-047", "QUOTE_CONTEXT_TOO_LONG", 32, func(c *citation, v string) { c.Suffix = v }},
}

// qLimitCases calls add for each limit, script and side of the limit with
// the citation and the code it is refused with ("" when valid).
func qLimitCases(add func(id, desc string, reqs, tags []string, c citation, code string)) {
	for _, l := range qLimits {
		for _, s := range qScripts {
			tags := []string{"boundary", s.name}
			at, over := qBase(), qBase()
			l.set(&at, s.fill(l.limit))
			l.set(&over, s.over(l.limit))
			add(fmt.Sprintf("%s-%s-at-limit", l.field, s.name),
				fmt.Sprintf("a %s of %d units in %s is accepted", l.field, l.limit, s.name),
				[]string{l.req}, tags, at, "")
			add(fmt.Sprintf("%s-%s-over-limit", l.field, s.name),
				fmt.Sprintf("a %s of %d units in %s is refused", l.field, l.limit+1, s.name),
				[]string{l.req}, tags, over, l.code)
		}
	}
}

func quoteParseLimits(cf *genFile) {
	qLimitCases(func(id, desc string, reqs, tags []string, c citation, code string) {
		out := map[string]any{"citation": c}
		if code != "" {
			out = reject(code)
		}
		cf.add(id, desc, reqs, tags, map[string]string{"href": c.href()}, out)
	})

	// Ids are measured once trimmed: padding around a full id is free.
	padded := qBase()
	padded.EnvironmentID = strings.Repeat("a", 512)
	href := strings.Replace(padded.href(), "/v1/", "/v1/%20", 1)
	href = strings.Replace(href, strings.Repeat("a", 512)+"/", strings.Repeat("a", 512)+"%20/", 1)
	cf.add("id-limit-measured-after-trim",
		"spaces around an id of 512 units do not count toward its limit", []string{"QUOTE-LINK-039", "QUOTE-LINK-036"},
		[]string{"boundary"}, map[string]string{"href": href}, map[string]any{"citation": padded})

	// The comment is checked before the offsets.
	long := qBase()
	comment := strings.Repeat("中", 8001)
	long.Comment = &comment
	href = strings.Replace(long.href(), "&start=0", "&start=-1", 1)
	cf.add("comment-before-offsets",
		"a long comment is reported before a bad start", []string{"QUOTE-LINK-049", "QUOTE-LINK-043"},
		nil, map[string]string{"href": href}, reject("QUOTE_COMMENT_TOO_LONG"))
}

func quoteFormatLimits(cf *genFile) {
	qLimitCases(func(id, desc string, reqs, tags []string, c citation, code string) {
		written := map[string]any{"href": c.href(), "link": compLink(c)}
		in, rq := map[string]any{"citation": c}, append([]string{"QUOTE-LINK-014"}, reqs...)
		if code == "" {
			cf.add(id, desc, rq, tags, in, written)
			return
		}
		// The real formatter checks no limit: it writes the over-long field
		// as it writes any other.
		cf.add(id, desc+", where the real formatter writes it", rq, tags, in, reject(code))
		cf.diverge("t3code", "the real formatter checks no length and writes the over-long "+qFieldNoun[code], written)
	})
}
