package main

// Platform vectors of the ops that collect the links of a text (collect,
// expand, plaintext, markdown) and of send_turn: a text of many links,
// each carrying one disagreement point (percent-encoded in its href) that
// makes it valid under the spec and not to the built-in, or the other way
// round, so that no link's point hides another's. Expected outputs follow
// from the spec's rules: the link is valid or not by the spec's side of its
// point, and each op writes the valid ones as quote-link.md and
// quote-compose.md say (the JSON of expansion with the spec's escapes, the
// forms of quote.json).

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/conform-suite/conform/spec"
)

// linkOps are the link-collecting ops and the requirement each adds.
var linkOps = []struct{ op, req string }{
	{"quote.collect", "QUOTE-LINK-063"},
	{"quote.expand", "QUOTE-COMPOSE-012"},
	{"quote.plaintext", "QUOTE-COMPOSE-040"},
	{"quote.markdown", "QUOTE-COMPOSE-042"},
	{"quote.send_turn", "QUOTE-COMPOSE-035"},
}

func init() {
	for _, o := range linkOps {
		o := o
		name := strings.TrimPrefix(o.op, "quote.")
		registerGen("quote/"+name+"-platform-links.gen.json", o.op,
			"Texts of links, each holding a point where platform whitespace, trims, digit classes or integer parsers disagree with the spec.",
			func(cf *genFile) { genLinksPlatform(cf, o.op, o.req) })
	}
	registerGen("quote/send_turn-platform.gen.json", "quote.send_turn",
		"Inputs trimmed where platform trims disagree with the spec's whitespace.", genSendTurnPlatform)
	registerGen("quote/submit_check-platform.gen.json", "quote.submit_check",
		"Prompts at the limit once trimmed, where platform trims disagree with the spec's whitespace.", genSubmitCheckPlatform)
}

// pLink is one link of a packed text: its fields as written in the href,
// and the citation the spec reads from it, or nil when it is no valid link.
type pLink struct {
	env, text, start, end string
	cite                  *citation
}

func (l pLink) source() string {
	return "[Assistant quote](t3-citation://v1/" + l.env + "/t/m?text=" + l.text + "&start=" + l.start + "&end=" + l.end + "&prefix=&suffix=)"
}

// linkSlot is how a class's point goes into a link: the link for point p
// in slot i (its end offset 100+i keeps every citation distinct).
type linkSlot struct {
	class string
	keep  func(spec.Point) bool
	what  string
	link  func(p spec.Point, i int) pLink
}

var linkSlots = []linkSlot{
	{"quote.trim", nil, "links whose environment id is one point", func(p spec.Point, i int) pLink {
		l := pLink{env: pct(string(p.Rune)), text: "q", start: "0", end: strconv.Itoa(100 + i)}
		if !specHas(p) { // kept by the trim: the id is the point; removed: the id is empty
			c := qBase()
			c.EnvironmentID, c.ThreadID, c.MessageID, c.End = string(p.Rune), "t", "m", int64(100+i)
			l.cite = &c
		}
		return l
	}},
	{"quote.space", nil, "links whose text is one point", func(p spec.Point, i int) pLink {
		l := pLink{env: "e", text: pct(string(p.Rune)), start: "0", end: strconv.Itoa(100 + i)}
		if !specHas(p) { // no whitespace: the text is the point; whitespace: it is blank
			c := qBase()
			c.EnvironmentID, c.ThreadID, c.MessageID, c.Text, c.End = "e", "t", "m", string(p.Rune), int64(100+i)
			l.cite = &c
		}
		return l
	}},
	{"quote.digit", nil, "links whose start offset ends with a digit that is not ASCII", func(p spec.Point, i int) pLink {
		return pLink{env: "e", text: "q", start: pct("1" + string(p.Rune)), end: strconv.Itoa(100 + i)} // never an offset
	}},
	{"quote.json", nil, "a link whose text holds each point between letters", nil},
	{"quote.offset", nil, "links whose start offset is spelt so", func(p spec.Point, i int) pLink {
		end := int64(1<<53 - 1 - i) // large, so that every offset the spec reads is before it
		l := pLink{env: "e", text: "q", start: pct(p.Input), end: strconv.FormatInt(end, 10)}
		if v, ok := offsetAnswer(p.Input)["citation"].(citation); ok && v.Start < end {
			v.End = end
			l.cite = &v
		}
		return l
	}},
}

// genLinksPlatform packs 24 points a vector, one a link, for each slot
// that carries a class of op.
func genLinksPlatform(cf *genFile, op, req string) {
	for _, s := range linkSlots {
		class := platformClass(s.class)
		if !slices.Contains(class.Ops, op) {
			continue
		}
		if s.link == nil { // quote.json: one link, its text holding every point
			cf.platformVectorsNamed("platform-links-"+strings.TrimPrefix(class.ID, "quote."), class, []string{req}, 40, s.keep, func(ps []spec.Point) (any, any, string) {
				var text string
				for i, p := range ps {
					text += string(slotLetters[i%len(slotLetters)]) + string(p.Rune)
				}
				c := qBase()
				c.EnvironmentID, c.ThreadID, c.MessageID, c.Text, c.End = "e", "t", "m", text, 100
				links := []pLink{{env: "e", text: pct(text), start: "0", end: "100", cite: &c}}
				return linksInput(op, links), linksOutput(op, links), s.what
			})
			continue
		}
		cf.platformVectorsNamed("platform-links-"+strings.TrimPrefix(class.ID, "quote."), class, []string{req}, 24, s.keep, func(ps []spec.Point) (any, any, string) {
			var links []pLink
			for i, p := range ps {
				links = append(links, s.link(p, i))
			}
			return linksInput(op, links), linksOutput(op, links), s.what
		})
	}
}

// linksText is the text of the links, each after a letter and a space.
func linksText(links []pLink) string {
	var b strings.Builder
	for i, l := range links {
		b.WriteString(string(slotLetters[i]) + " " + l.source() + " ")
	}
	return b.String()
}

func linksInput(op string, links []pLink) map[string]any {
	switch op {
	case "quote.collect":
		return map[string]any{"text": linksText(links)}
	case "quote.send_turn":
		return map[string]any{"input": linksText(links)}
	}
	return map[string]any{"prompt": linksText(links)}
}

// linksOutput is what op answers for the text of links, by the spec.
func linksOutput(op string, links []pLink) map[string]any {
	switch op {
	case "quote.collect":
		type found struct {
			Start    int      `json:"start"`
			End      int      `json:"end"`
			Source   string   `json:"source"`
			Citation citation `json:"citation"`
		}
		out := []found{}
		at := 0
		for _, l := range links {
			at += 2 // the letter and the space
			src := l.source()
			if l.cite != nil {
				out = append(out, found{at, at + len(src), src, *l.cite})
			}
			at += len(src) + 1
		}
		return map[string]any{"citations": out}
	case "quote.plaintext", "quote.markdown":
		var b strings.Builder
		for i, l := range links {
			b.WriteString(string(slotLetters[i]) + " ")
			switch {
			case l.cite == nil:
				b.WriteString(l.source())
			case op == "quote.plaintext":
				b.WriteString(l.cite.Text)
			default:
				b.WriteString("\n\n> Assistant quote:\n> " + markdownEscape(l.cite.Text) + "\n\n")
			}
			b.WriteString(" ")
		}
		return map[string]any{"text": b.String()}
	}
	// quote.expand, and quote.send_turn, which expands its input once
	// trimmed (QUOTE-COMPOSE-034, QUOTE-COMPOSE-035): a text of links ends
	// with a space, which the trim removes.
	var b strings.Builder
	var cites []citation
	for i, l := range links {
		b.WriteString(string(slotLetters[i]) + " ")
		if l.cite == nil {
			b.WriteString(l.source())
		} else {
			cites = append(cites, *l.cite)
			fmt.Fprintf(&b, "[assistant-quote-%d]", len(cites))
		}
		b.WriteString(" ")
	}
	text := b.String()
	if op == "quote.send_turn" {
		text = strings.TrimSuffix(text, " ")
	}
	if len(cites) == 0 {
		return map[string]any{"text": text}
	}
	return map[string]any{"text": text + platformBlock(cites)}
}

// markdownEscape escapes a quote for the Markdown rendering
// (QUOTE-COMPOSE-044): the texts here are one character, none of which
// is escaped but & < > and the ASCII punctuation the rule names.
func markdownEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case strings.ContainsRune("\\`*_[]{}()#+.!|~-", r):
			b.WriteString("\\" + string(r))
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// platformJSON writes s as a JSON string of the expansion block: each
// character in the form of the spec's quote.json class (QUOTE-COMPOSE-016
// and QUOTE-COMPOSE-017).
func platformJSON(s string) string {
	class := platformClass("quote.json")
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		f, err := spec.SpecAnswer(class, r)
		if err != nil {
			panic(err)
		}
		b.WriteString(f)
	}
	b.WriteByte('"')
	return b.String()
}

// platformBlock is the block expansion appends for cites
// (QUOTE-COMPOSE-013 to QUOTE-COMPOSE-015), none with a comment.
func platformBlock(cites []citation) string {
	var b strings.Builder
	b.WriteString("\n\n<assistant_citations>\n" + compNote + "\n[\n")
	for i, c := range cites {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, "  {\n    \"id\": \"assistant-quote-%d\",\n    \"citation\": {\n      \"version\": %d,\n", i+1, c.Version)
		for _, f := range [][2]string{{"environmentId", c.EnvironmentID}, {"threadId", c.ThreadID}, {"messageId", c.MessageID}, {"text", c.Text}} {
			fmt.Fprintf(&b, "      %q: %s,\n", f[0], platformJSON(f[1]))
		}
		fmt.Fprintf(&b, "      \"start\": %d,\n      \"end\": %d,\n      \"prefix\": %s,\n      \"suffix\": %s\n    }\n  }", c.Start, c.End, platformJSON(c.Prefix), platformJSON(c.Suffix))
	}
	b.WriteString("\n]\n</assistant_citations>")
	return b.String()
}

// genSendTurnPlatform: an input with a point at each end (two points a
// vector), trimmed by the spec's whitespace; no link, so no expansion.
func genSendTurnPlatform(cf *genFile) {
	cf.platformVectors(platformClass("quote.trim"), []string{"QUOTE-COMPOSE-034"}, 2, nil, func(ps []spec.Point) (any, any, string) {
		in, want := "x", "x"
		in = string(ps[0].Rune) + in
		if !specHas(ps[0]) {
			want = string(ps[0].Rune) + want
		}
		if len(ps) > 1 {
			in += string(ps[1].Rune)
			if !specHas(ps[1]) {
				want += string(ps[1].Rune)
			}
		}
		return map[string]any{"input": in}, map[string]any{"text": want}, "an input with a point at each end"
	})
}

// genSubmitCheckPlatform: a prompt of 120,000 units between points the
// spec removes (at the limit: allowed; a trim keeping one is over it), or
// of 120,001 units with the points it keeps (over the limit by one: a
// trim removing one is at it); two points of one kind a vector.
func genSubmitCheckPlatform(cf *genFile) {
	class := platformClass("quote.trim")
	for _, removed := range []bool{true, false} {
		cf.platformVectors(class, []string{"QUOTE-COMPOSE-031"}, 2, func(p spec.Point) bool { return specHas(p) == removed }, func(ps []spec.Point) (any, any, string) {
			body := compLimit
			if !removed {
				body = compLimit + 1 - len(ps)
			}
			prompt := string(ps[0].Rune) + strings.Repeat("x", body)
			n := body
			if !removed {
				n++
			}
			if len(ps) > 1 {
				prompt += string(ps[1].Rune)
				if !removed {
					n++
				}
			}
			in := map[string]any{"prompt": prompt, "target": "provider-turn"}
			if n <= compLimit {
				return in, map[string]any{"ok": true}, "a prompt at the limit once trimmed"
			}
			return in, map[string]any{"ok": false, "excess": n - compLimit, "message": compMessage(n - compLimit)}, "a prompt over the limit once trimmed"
		})
	}
}
