package quote

// The rendered-text stream of a DOM, spec/quote-anchor.md "The
// rendered-text stream" (QUOTE-ANCHOR-007 to QUOTE-ANCHOR-009 and
// QUOTE-ANCHOR-037 to QUOTE-ANCHOR-040). The HTML is parsed as the HTML
// standard parses a fragment in a div, with golang.org/x/net/html, the one
// module outside the standard library the reference uses: a stream built
// from a DOM is only as right as the DOM, and that parser's tree
// construction (implied end tags, character references, CR LF, the line
// feed dropped after <pre>) is the one every browser applies.

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// blockElements are the HTML elements whose start and end are block
// boundaries (QUOTE-ANCHOR-008).
var blockElements = map[atom.Atom]bool{
	atom.Address: true, atom.Article: true, atom.Aside: true, atom.Blockquote: true,
	atom.Dd: true, atom.Div: true, atom.Dl: true, atom.Dt: true, atom.Figcaption: true,
	atom.Figure: true, atom.Footer: true, atom.H1: true, atom.H2: true, atom.H3: true,
	atom.H4: true, atom.H5: true, atom.H6: true, atom.Header: true, atom.Hr: true,
	atom.Li: true, atom.Main: true, atom.Nav: true, atom.Ol: true, atom.P: true,
	atom.Pre: true, atom.Section: true, atom.Table: true, atom.Td: true, atom.Th: true,
	atom.Tr: true, atom.Ul: true,
}

// excludedElements are the HTML elements whose subtrees contribute nothing
// (QUOTE-ANCHOR-009); svg is matched in its own namespace.
var excludedElements = map[atom.Atom]bool{
	atom.Button: true, atom.Input: true, atom.Textarea: true, atom.Select: true,
	atom.Script: true, atom.Style: true, atom.Template: true, atom.Noscript: true,
}

// lineBreakElement is the element that is a line break, and excludedSVG
// the element of the svg namespace that is excluded (QUOTE-ANCHOR-008,
// QUOTE-ANCHOR-009). With blockElements and excludedElements they are the
// element roles of dom_text, variables that only tests replace (by a
// browser's reading, to show that the vectors tell the two apart).
var (
	lineBreakElement = atom.Br
	excludedSVG      = "svg"
)

// DOMStream is the rendered-text stream of a response's HTML: its text and
// the offsets, in UTF-16 code units, of the line feeds inserted for block
// boundaries and <br>.
type DOMStream struct {
	Text   string `json:"text"`
	Breaks []int  `json:"breaks"`
}

// DOMText parses markup as the content of one assistant response (an HTML
// fragment in a div) and returns its rendered-text stream: the data of its
// text nodes in tree order, with one line feed before the first text after
// any number of block boundaries or <br> elements, never at the start, and
// nothing from an excluded subtree (its boundaries included).
func DOMText(markup string) (DOMStream, error) {
	context := &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div}
	nodes, err := html.ParseFragment(strings.NewReader(markup), context)
	if err != nil {
		return DOMStream{}, err
	}
	w := domWalker{breaks: []int{}}
	for _, n := range nodes {
		w.walk(n)
	}
	return DOMStream{Text: w.b.String(), Breaks: w.breaks}, nil
}

type domWalker struct {
	b       strings.Builder
	units   int  // UTF-16 length of b
	pending bool // a boundary or <br> since the last text
	breaks  []int
}

func (w *domWalker) walk(n *html.Node) {
	switch n.Type {
	case html.TextNode:
		if n.Data == "" {
			return
		}
		if w.pending && w.units > 0 {
			w.breaks = append(w.breaks, w.units)
			w.b.WriteByte('\n')
			w.units++
		}
		w.pending = false
		w.b.WriteString(n.Data)
		w.units += UTF16Len(n.Data)
		return
	case html.ElementNode:
		if excluded(n) {
			return
		}
		html := n.Namespace == ""
		if html && n.DataAtom == lineBreakElement {
			w.pending = true
			return
		}
		block := html && blockElements[n.DataAtom]
		if block {
			w.pending = true
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			w.walk(c)
		}
		if block {
			w.pending = true
		}
	}
	// Comments and doctypes hold no rendered text, and ParseFragment
	// returns no document node.
}

// excluded reports whether an element's subtree is left out of the stream.
func excluded(n *html.Node) bool {
	if n.Namespace == "svg" && n.Data == excludedSVG {
		return true
	}
	if n.Namespace == "" && excludedElements[n.DataAtom] {
		return true
	}
	for _, a := range n.Attr {
		if a.Namespace != "" {
			continue
		}
		switch {
		case a.Key == "hidden", a.Key == "contenteditable":
			return true
		case a.Key == "role" && a.Val == "button", a.Key == "aria-hidden" && a.Val == "true":
			return true
		}
	}
	return false
}
