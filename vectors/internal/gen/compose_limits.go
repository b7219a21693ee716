package main

import (
	"cmp"
	"encoding/base64"
	"slices"
	"strings"
)

// The provider input limit of 120,000 UTF-16 units, before and after
// expansion, and the navigation hash's cap of 140,000 units
// (spec/quote-compose.md).

func init() {
	registerGen("quote/submit_check-limits.gen.json", "quote.submit_check",
		"quote.submit_check: the 120,000-unit limit on the larger of the prompt and its expansion.", composeSubmitLimits)
	registerGen("quote/send_turn-limits.gen.json", "quote.send_turn",
		"quote.send_turn: the 120,000-unit limit before and after expansion.", composeSendLimits)
	registerGen("quote/nav_encode-limits.gen.json", "quote.nav_encode",
		"quote.nav_encode: hashes around the 140,000-unit cap of the decoder.", composeNavEncodeLimits)
	registerGen("quote/nav_decode-limits.gen.json", "quote.nav_decode",
		"quote.nav_decode: the 140,000-unit cap on the fragment, in UTF-16 units.", composeNavDecodeLimits)
}

const compLimit = 120_000

// compLimitCase is one prompt near the limit: its plain text length, the
// link that follows, and what expansion makes of it.
type compLimitCase struct {
	id, desc string
	reqs     []string
	tags     []string
	prompt   string
	expanded string // the trimmed, expanded prompt, if it has a link
}

func (lc compLimitCase) trimmed() string { return strings.TrimSpace(lc.prompt) }

// expansion is the trimmed, expanded prompt.
func (lc compLimitCase) expansion() string { return cmp.Or(lc.expanded, lc.trimmed()) }

func compX(n int) string { return strings.Repeat("x", n) }

// compLimitCases are shared by quote.submit_check and quote.send_turn.
func compLimitCases() []compLimitCase {
	min := compSimple("q")
	minBlock := compBlock(min)
	marker := "[assistant-quote-1]"
	// The plain length that makes "x"*n + marker + block exactly the limit.
	fit := compLimit - units(marker+minBlock)
	long := compSimple(strings.Repeat("中", 8000)) // a 72,078-unit link that expands to about 8,400 units
	longLink, longBlock := compLink(long), compBlock(long)
	if len(compLink(min)) != 78 {
		panic("gen: the minimal link is not 78 units")
	}
	return []compLimitCase{
		{id: "at-limit", desc: "a plain prompt of exactly 120,000 units", reqs: []string{"QUOTE-COMPOSE-030"}, tags: []string{"boundary"},
			prompt: compX(compLimit)},
		{id: "one-over", desc: "a plain prompt of 120,001 units", reqs: []string{"QUOTE-COMPOSE-030"}, tags: []string{"boundary"},
			prompt: compX(compLimit + 1)},
		{id: "thousands", desc: "a plain prompt 1,234 units over the limit", reqs: nil, tags: nil,
			prompt: compX(compLimit + 1234)},
		{id: "trimmed-to-limit", desc: "whitespace around a 120,000-unit prompt is trimmed before measuring", reqs: nil, tags: []string{"boundary"},
			prompt: " \n\t" + compX(compLimit) + "\u3000\u2028"},
		{id: "cjk-at-limit", desc: "120,000 CJK characters count 120,000 units, not 360,000 bytes", reqs: []string{"QUOTE-COMPOSE-030"}, tags: []string{"boundary", "cjk"},
			prompt: strings.Repeat("中", compLimit)},
		{id: "astral-over", desc: "60,001 astral characters count 120,002 units, not 60,001", reqs: []string{"QUOTE-COMPOSE-030"}, tags: []string{"boundary", "astral"},
			prompt: strings.Repeat("\U0001F600", compLimit/2+1)},
		{id: "expansion-pushes-over", desc: "119,922 units and a 78-unit link fit, but the expansion is longer",
			reqs: []string{"QUOTE-COMPOSE-030"}, prompt: compX(compLimit-78) + compLink(min),
			expanded: compX(compLimit-78) + marker + minBlock},
		{id: "expansion-at-limit", desc: "a prompt whose expansion is exactly 120,000 units", tags: []string{"boundary"},
			prompt: compX(fit) + compLink(min), expanded: compX(fit) + marker + minBlock},
		{id: "expansion-one-over", desc: "a prompt whose expansion is 120,001 units", tags: []string{"boundary"},
			prompt: compX(fit+1) + compLink(min), expanded: compX(fit+1) + marker + minBlock},
		{id: "long-link-short-expansion", desc: "a prompt over the limit whose expansion would fit",
			prompt: compX(50_000) + " " + longLink, expanded: compX(50_000) + " " + marker + longBlock},
	}
}

func composeSubmitLimits(cf *genFile) {
	reqs := []string{"QUOTE-COMPOSE-073", "QUOTE-COMPOSE-031"}
	for _, lc := range compLimitCases() {
		n := max(units(lc.trimmed()), units(lc.expansion()))
		var out any = map[string]bool{"ok": true}
		r := slices.Concat(reqs, lc.reqs)
		if n > compLimit {
			out = map[string]any{"ok": false, "excess": n - compLimit, "message": compMessage(n - compLimit)}
			r = append(r, "QUOTE-COMPOSE-032")
		}
		cf.add(lc.id, lc.desc, r, lc.tags, map[string]string{"prompt": lc.prompt, "target": "provider-turn"}, out)
	}
	pending := compX(compLimit-78) + compLink(compSimple("q")) + compX(1000)
	cf.add("pending-input-over-limit", "an answer to pending user input is not checked, even over the limit",
		[]string{"QUOTE-COMPOSE-073", "QUOTE-COMPOSE-033"}, []string{"boundary"},
		map[string]string{"prompt": pending, "target": "pending-user-input"},
		map[string]bool{"ok": true})
	excess := units(pending) - compLimit
	cf.diverge("seed", seedPendingLimits, map[string]any{"ok": false, "excess": excess, "message": compMessage(excess)})
}

func composeSendLimits(cf *genFile) {
	for _, lc := range compLimitCases() {
		r := append([]string{"QUOTE-COMPOSE-074"}, lc.reqs...)
		var out any
		switch {
		case units(lc.trimmed()) > compLimit:
			out = reject("QUOTE_INPUT_TOO_LONG")
			r = append(r, "QUOTE-COMPOSE-034")
		case units(lc.expansion()) > compLimit:
			out = reject("QUOTE_EXPANDED_TOO_LONG")
			r = append(r, "QUOTE-COMPOSE-035")
		default:
			out = map[string]string{"text": lc.expansion()}
			r = append(r, "QUOTE-COMPOSE-035")
		}
		cf.add(lc.id, lc.desc, r, lc.tags, map[string]string{"input": lc.prompt}, out)
	}
	// An answer to pending user input goes out as written: its link is not
	// expanded and neither limit applies, before or after expansion.
	answer := " " + compX(compLimit-78) + compLink(compSimple("q")) + compX(1000) + "\n"
	cf.add("pending-input-over-limit", "an answer to pending user input over the limit goes out as written, its link unexpanded",
		[]string{"QUOTE-COMPOSE-074", "QUOTE-COMPOSE-036"}, []string{"boundary"},
		map[string]string{"input": answer, "target": "pending-user-input"},
		map[string]string{"text": answer})
	cf.diverge("seed", seedPendingLimits, reject("QUOTE_INPUT_TOO_LONG"))
}

const (
	compNavPrefix = "assistant-citation="
	compNavCap    = 140_000
)

func compHash(c citation) string {
	return compNavPrefix + base64.RawURLEncoding.EncodeToString([]byte(c.href()))
}

// compNavCit returns a valid citation whose href is exactly n units: 8,000
// CJK characters of text (72,000 units of href) and a comment of CJK
// characters (9 units each) and ASCII letters filling the rest.
func compNavCit(n int) citation {
	c := compSimple(strings.Repeat("中", 8000))
	comment := ""
	c.Comment = &comment
	rest := n - len(c.href())
	comment = strings.Repeat("文", rest/9) + strings.Repeat("y", rest%9)
	if len(c.href()) != n {
		panic("gen: compNavCit missed its length")
	}
	return c
}

func composeNavEncodeLimits(cf *genFile) {
	under, over := compNavCit(104_985), compNavCit(104_986)
	cf.add("hash-just-under-cap", "an href of 104,985 units gives a hash of 139,999 units",
		[]string{"QUOTE-COMPOSE-075", "QUOTE-COMPOSE-050"}, []string{"boundary", "cjk"},
		map[string]any{"citation": under}, map[string]string{"hash": compHash(under)})
	cf.add("hash-over-cap-still-encoded", "an href of 104,986 units is encoded though its 140,001-unit hash cannot be decoded",
		[]string{"QUOTE-COMPOSE-075", "QUOTE-COMPOSE-051"}, []string{"boundary", "cjk"},
		map[string]any{"citation": over}, map[string]string{"hash": compHash(over)})
}

func composeNavDecodeLimits(cf *genFile) {
	under, over := compNavCit(104_985), compNavCit(104_986)
	reqs := []string{"QUOTE-COMPOSE-076", "QUOTE-COMPOSE-054"}
	cf.add("hash-just-under-cap", "a valid hash of 139,999 units decodes to its citation", append(reqs, "QUOTE-COMPOSE-057"),
		[]string{"boundary", "cjk"}, map[string]string{"location": "#" + compHash(under)}, map[string]any{"citation": under})
	cf.add("valid-hash-over-cap", "a valid hash of 140,001 units is refused by its length", reqs,
		[]string{"boundary", "cjk"}, map[string]string{"location": "#" + compHash(over)}, reject("QUOTE_NAV_TOO_LONG"))
	cf.diverge("seed", seedNoNavCap, map[string]any{"citation": over})
	payload := compNavCap - len(compNavPrefix) // 139,981 characters: one over a group of four
	cf.add("fragment-at-cap", "a fragment of exactly 140,000 units passes the cap and fails as base64", reqs,
		[]string{"boundary"}, map[string]string{"location": "#" + compNavPrefix + strings.Repeat("A", payload)}, reject("QUOTE_NAV_BASE64"))
	cf.add("fragment-one-over-cap", "a fragment of 140,001 units is refused by its length", reqs,
		[]string{"boundary"}, map[string]string{"location": "#" + compNavPrefix + strings.Repeat("A", payload+1)}, reject("QUOTE_NAV_TOO_LONG"))
	cf.add("astral-under-cap", "69,990 astral characters make 139,999 units, under the cap", reqs,
		[]string{"boundary", "astral"}, map[string]string{"location": "#" + compNavPrefix + strings.Repeat("\U0001F600", (payload-1)/2)}, reject("QUOTE_NAV_BASE64"))
	cf.add("astral-over-cap", "69,991 astral characters make 140,001 units, over the cap", reqs,
		[]string{"boundary", "astral"}, map[string]string{"location": "#" + compNavPrefix + strings.Repeat("\U0001F600", (payload+1)/2)}, reject("QUOTE_NAV_TOO_LONG"))
}
