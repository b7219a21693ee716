package main

import (
	"strings"

	"github.com/conform-suite/conform/vectors"
	"github.com/conform-suite/conform/vectors/internal/vectorkit"
)

// The largest citation (every field at its limit in CJK text, an href of
// 158,494 units) through every op of spec/quote-compose.md.

func init() {
	for _, g := range []struct {
		op   string
		make func() *compFile
	}{
		{"comment", composeCommentSize}, {"expand", composeExpandSize}, {"plaintext", composePlainSize},
		{"markdown", composeMarkdownSize}, {"submit_check", composeSubmitSize}, {"send_turn", composeSendSize},
		{"nav_encode", composeNavEncodeSize}, {"nav_decode", composeNavDecodeSize},
	} {
		vectorkit.Register("quote/"+g.op+"-size.gen.json", func() (*vectors.File, error) { return g.make().f, nil })
	}
}

// compSize is the file of op's one vector: the largest citation through op.
func compSize(op, desc string, reqs []string, in, out any) *compFile {
	cf := newCompFile(op, op+": the largest citation.")
	cf.add("max-cjk-citation", desc, reqs, []string{"boundary", "cjk"}, in, out)
	return cf
}

// compMaxPrompt is a prompt holding the largest link twice.
func compMaxPrompt() string {
	l := compLink(qMaxCJK())
	if units(qMaxCJK().href()) != 158_494 {
		panic("gen: the largest href is not 158,494 units")
	}
	return "前 " + l + " 後 " + l
}

func composeCommentSize() *compFile {
	c := qMaxCJK()
	comment := strings.Repeat("评", 8000)
	want := c
	want.Comment = &comment
	return compSize("quote.comment", "a comment of 8,000 CJK characters replaces the largest citation's comment",
		[]string{"QUOTE-COMPOSE-070", "QUOTE-COMPOSE-001", "QUOTE-COMPOSE-003"},
		map[string]any{"citation": c, "comment": "\u3000" + comment + "\n"}, map[string]any{"citation": want})
}

func composeExpandSize() *compFile {
	return compSize("quote.expand", "the largest link, twice, expands to one entry with raw CJK text",
		[]string{"QUOTE-COMPOSE-071", "QUOTE-COMPOSE-011", "QUOTE-COMPOSE-016"},
		map[string]string{"prompt": compMaxPrompt()},
		map[string]string{"text": "前 [assistant-quote-1] 後 [assistant-quote-1]" + compBlock(qMaxCJK())})
}

func composePlainSize() *compFile {
	c := qMaxCJK()
	r := c.Text + "\nComment: " + *c.Comment
	return compSize("quote.plaintext", "the largest link, twice, becomes its text and comment twice",
		[]string{"QUOTE-COMPOSE-072", "QUOTE-COMPOSE-040"},
		map[string]string{"prompt": compMaxPrompt()}, map[string]string{"text": "前 " + r + " 後 " + r})
}

func composeMarkdownSize() *compFile {
	c := qMaxCJK()
	r := "\n\n> Assistant quote:\n> " + c.Text + "\n\nComment: " + *c.Comment + "\n\n"
	return compSize("quote.markdown", "the largest link, twice, becomes two block quotes with comments",
		[]string{"QUOTE-COMPOSE-072", "QUOTE-COMPOSE-042", "QUOTE-COMPOSE-043"},
		map[string]string{"prompt": compMaxPrompt()}, map[string]string{"text": "前 " + r + " 後 " + r})
}

func composeSubmitSize() *compFile {
	p := compLink(qMaxCJK())
	excess := units(p) - compLimit
	return compSize("quote.submit_check", "the largest link alone is over the limit though its expansion is not",
		[]string{"QUOTE-COMPOSE-073", "QUOTE-COMPOSE-031", "QUOTE-COMPOSE-032"},
		map[string]string{"prompt": p, "target": "provider-turn"},
		map[string]any{"ok": false, "excess": excess, "message": compMessage(excess)})
}

func composeSendSize() *compFile {
	return compSize("quote.send_turn", "the largest link alone is refused before expansion",
		[]string{"QUOTE-COMPOSE-074", "QUOTE-COMPOSE-034"},
		map[string]string{"input": compLink(qMaxCJK())}, reject("QUOTE_INPUT_TOO_LONG"))
}

func composeNavEncodeSize() *compFile {
	if n := len(compHash(qMaxCJK())); n != 211_345 {
		panic("gen: the largest hash is not 211,345 units")
	}
	return compSize("quote.nav_encode", "the largest citation is encoded to a hash of 211,345 units",
		[]string{"QUOTE-COMPOSE-075", "QUOTE-COMPOSE-050", "QUOTE-COMPOSE-051"},
		map[string]any{"citation": qMaxCJK()}, map[string]string{"hash": compHash(qMaxCJK())})
}

func composeNavDecodeSize() *compFile {
	cf := compSize("quote.nav_decode", "the largest citation's hash is refused by the cap",
		[]string{"QUOTE-COMPOSE-076", "QUOTE-COMPOSE-054"},
		map[string]string{"location": "https://app.example/t#" + compHash(qMaxCJK())}, reject("QUOTE_NAV_TOO_LONG"))
	cf.seedReading(seedNoNavCap, map[string]any{"citation": qMaxCJK()})
	return cf
}
