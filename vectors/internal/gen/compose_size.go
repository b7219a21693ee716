package main

import "strings"

// The largest citation (every field at its limit in CJK text, an href of
// 158,494 units) through every op of spec/quote-compose.md.

func init() {
	for _, sc := range compSizeCases() {
		registerGen(strings.Replace(sc.op, ".", "/", 1)+"-size.gen.json", sc.op, sc.op+": the largest citation.", func(cf *genFile) {
			cf.add("max-cjk-citation", sc.desc, sc.reqs, []string{"boundary", "cjk"}, sc.in, sc.out)
			if sc.seed != nil {
				cf.diverge("seed", seedNoNavCap, sc.seed)
			}
		})
	}
}

// compSizeCase is the one vector of quote/<op>-size.gen.json: the largest
// citation through op, and the seed's reading of it, if it has one.
type compSizeCase struct {
	op, desc      string
	reqs          []string
	in, out, seed any
}

func compSizeCases() []compSizeCase {
	c := qMaxCJK()
	link, hash := compLink(c), compHash(c)
	if len(hash) != 211_345 {
		panic("gen: the largest hash is not 211,345 units")
	}
	prompt := "前 " + link + " 後 " + link // the largest link twice
	comment := strings.Repeat("评", 8000)
	commented := c
	commented.Comment = &comment
	plain := c.Text + "\nComment: " + *c.Comment
	quoted := "\n\n> Assistant quote:\n> " + c.Text + "\n\nComment: " + *c.Comment + "\n\n"
	excess := units(link) - compLimit
	return []compSizeCase{
		{op: "quote.comment", desc: "a comment of 8,000 CJK characters replaces the largest citation's comment",
			reqs: []string{"QUOTE-COMPOSE-070", "QUOTE-COMPOSE-001", "QUOTE-COMPOSE-003"},
			in:   map[string]any{"citation": c, "comment": "\u3000" + comment + "\n"}, out: map[string]any{"citation": commented}},
		{op: "quote.expand", desc: "the largest link, twice, expands to one entry with raw CJK text",
			reqs: []string{"QUOTE-COMPOSE-071", "QUOTE-COMPOSE-011", "QUOTE-COMPOSE-016"},
			in:   map[string]string{"prompt": prompt},
			out:  map[string]string{"text": "前 [assistant-quote-1] 後 [assistant-quote-1]" + compBlock(c)}},
		{op: "quote.plaintext", desc: "the largest link, twice, becomes its text and comment twice",
			reqs: []string{"QUOTE-COMPOSE-072", "QUOTE-COMPOSE-040"},
			in:   map[string]string{"prompt": prompt}, out: map[string]string{"text": "前 " + plain + " 後 " + plain}},
		{op: "quote.markdown", desc: "the largest link, twice, becomes two block quotes with comments",
			reqs: []string{"QUOTE-COMPOSE-072", "QUOTE-COMPOSE-042", "QUOTE-COMPOSE-043"},
			in:   map[string]string{"prompt": prompt}, out: map[string]string{"text": "前 " + quoted + " 後 " + quoted}},
		{op: "quote.submit_check", desc: "the largest link alone is over the limit though its expansion is not",
			reqs: []string{"QUOTE-COMPOSE-073", "QUOTE-COMPOSE-031", "QUOTE-COMPOSE-032"},
			in:   map[string]string{"prompt": link, "target": "provider-turn"},
			out:  map[string]any{"ok": false, "excess": excess, "message": compMessage(excess)}},
		{op: "quote.send_turn", desc: "the largest link alone is refused before expansion",
			reqs: []string{"QUOTE-COMPOSE-074", "QUOTE-COMPOSE-034"},
			in:   map[string]string{"input": link}, out: reject("QUOTE_INPUT_TOO_LONG")},
		{op: "quote.nav_encode", desc: "the largest citation is encoded to a hash of 211,345 units",
			reqs: []string{"QUOTE-COMPOSE-075", "QUOTE-COMPOSE-050", "QUOTE-COMPOSE-051"},
			in:   map[string]any{"citation": c}, out: map[string]string{"hash": hash}},
		{op: "quote.nav_decode", desc: "the largest citation's hash is refused by the cap",
			reqs: []string{"QUOTE-COMPOSE-076", "QUOTE-COMPOSE-054"},
			in:   map[string]string{"location": "https://app.example/t#" + hash}, out: reject("QUOTE_NAV_TOO_LONG"),
			seed: map[string]any{"citation": c}},
	}
}
