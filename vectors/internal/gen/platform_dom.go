package main

// Platform vectors of quote.dom_text: each element whose role (block,
// line break, excluded, inline) a browser's computed display gives
// otherwise than QUOTE-ANCHOR-008 and QUOTE-ANCHOR-009. The markup is
// parsed as QUOTE-ANCHOR-037 says (an HTML fragment in a div, the HTML
// standard's parser), and the expected stream is walked here from the
// spec's roles (spec.SpecInputAnswer), not by the reference.

import (
	"strings"
	"unicode/utf16"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/conform-suite/conform/spec"
)

func init() {
	registerGen("quote/dom_text-platform.gen.json", "quote.dom_text",
		"Elements whose role a browser's computed display gives otherwise than the spec's lists.", genDOMTextPlatform)
}

// domMarkup puts text before, inside and after the element name, or, for
// a part of a table, in the table where the parser keeps it.
func domMarkup(name string) string {
	switch name {
	case "table":
		return "a<table><caption>b</caption></table>c"
	case "caption":
		return "x<table><caption>y</caption></table>z"
	case "col":
		return "a<table><caption>b</caption><col></table>c"
	case "colgroup":
		return "a<table><caption>b</caption><colgroup></colgroup></table>c"
	case "thead", "tbody", "tfoot":
		return "a<table><" + name + "><tr><td>b</td></tr></" + name + "></table>c"
	case "tr", "td", "th":
		return "a<table><tr><" + name + ">b</" + name + "><" + name + ">c</" + name + "></tr></table>d"
	}
	return "a<" + name + ">b</" + name + ">c"
}

// domStream walks the fragment tree of markup as QUOTE-ANCHOR-007 to
// QUOTE-ANCHOR-009 and QUOTE-ANCHOR-040 say, with the roles the spec
// gives HTML elements.
func domStream(markup string, role func(name string) string) (string, []int) {
	ctx := &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div}
	nodes, err := html.ParseFragment(strings.NewReader(markup), ctx)
	if err != nil {
		panic(err)
	}
	var b strings.Builder
	breaks := []int{}
	units, pending := 0, false
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			if n.Data == "" {
				return
			}
			if pending && units > 0 {
				breaks = append(breaks, units)
				b.WriteByte('\n')
				units++
			}
			pending = false
			b.WriteString(n.Data)
			units += len(utf16.Encode([]rune(n.Data)))
		case html.ElementNode:
			r := "inline"
			switch n.Namespace {
			case "":
				r = role(n.Data)
			case "svg":
				if n.Data == "svg" {
					r = "excluded"
				}
			}
			switch r {
			case "excluded":
				return
			case "line-break":
				pending = true
				return
			case "block":
				pending = true
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c)
			}
			if r == "block" {
				pending = true
			}
		}
	}
	for _, n := range nodes {
		walk(n)
	}
	return b.String(), breaks
}

func genDOMTextPlatform(cf *genFile) {
	class := platformClass("quote.elements")
	role := func(name string) string {
		r, err := spec.SpecInputAnswer(class, name)
		if err != nil {
			panic(err)
		}
		return r
	}
	cf.platformVectors(class, []string{"QUOTE-ANCHOR-037"}, 1, nil, func(ps []spec.Point) (any, any, string) {
		markup := domMarkup(ps[0].Input)
		text, breaks := domStream(markup, role)
		return map[string]any{"html": markup}, map[string]any{"text": text, "breaks": breaks}, "text around the element, a " + role(ps[0].Input) + " one"
	})
}
