package main

import (
	"regexp"
	"strings"
	"unicode"
)

// The whitespace, trims, label collapse and control test of a Go port:
// quote.space, quote.trim, selref.label and selref.control.

func init() {
	builtin("go:unicode.IsSpace", "quote.space", "quote.select", []string{"QUOTE-ANCHOR-014"},
		"refuses a selection of unicode.IsSpace runes as blank (strings.TrimFunc(text, unicode.IsSpace) == \"\"): U+0085, U+00A0 and the other Unicode spaces too",
		selectIsSpace)
	builtin("go:regexp.\\s", "quote.space", "quote.normalize", []string{"QUOTE-ANCHOR-003", "QUOTE-ANCHOR-004"},
		"collapses runs of regexp's \\s with regexp.MustCompile(`\\s+`).ReplaceAllString(text, \" \"): only TAB, LF, FF, CR and SPACE",
		normalizeRegexpS)
	builtin("go:strings.TrimSpace", "quote.trim", "quote.comment", []string{"QUOTE-COMPOSE-001", "QUOTE-COMPOSE-002"},
		"trims the comment with strings.TrimSpace: U+0085, U+00A0 and the other Unicode spaces go too",
		commentTrimSpace)
	builtin("go:strings.Fields", "selref.label", "selref.ingest", []string{"SELREF-LABEL-001", "SELREF-LABEL-002", "SELREF-LABEL-004"},
		"collapses the label with strings.Join(strings.Fields(label), \" \"): the Unicode spaces collapse, the controls other than TAB to CR stay",
		ingestFields)
	builtin("go:unicode.IsControl", "selref.control", "selref.ingest", []string{"SELREF-VANCE-004", "SELREF-URL-002"},
		"refuses an address holding a rune for which unicode.IsControl is true: U+2028 and U+2029 pass",
		ingestIsControl)
}

// str is the member key of m when it is a string.
func str(m map[string]any, key string) (string, bool) {
	s, ok := m[key].(string)
	return s, ok
}

// object is the member key of m when it is an object.
func object(m map[string]any, key string) (map[string]any, bool) {
	o, ok := m[key].(map[string]any)
	return o, ok
}

func selectIsSpace(_ *reference, _ *request, a *answer) []byte {
	// if strings.TrimFunc(text, unicode.IsSpace) == "": reject BLANK; the
	// reference found the selection valid otherwise
	sel, ok := object(a.Output, "selector")
	if !ok {
		return nil
	}
	text, ok := str(sel, "text")
	if !ok || text == "" || strings.TrimFunc(text, unicode.IsSpace) != "" {
		return nil
	}
	return line(a.ID, map[string]any{"rejected": map[string]any{"code": "QUOTE_SELECTION_BLANK"}})
}

var spaces = regexp.MustCompile(`\s+`)

func normalizeRegexpS(_ *reference, r *request, a *answer) []byte {
	text, ok := str(r.Input, "text")
	if _, has := a.Output["text"]; !ok || !has {
		return nil
	}
	return line(a.ID, map[string]any{"text": spaces.ReplaceAllString(text, " ")})
}

func commentTrimSpace(_ *reference, r *request, a *answer) []byte {
	comment, ok := str(r.Input, "comment")
	cit, has := object(a.Output, "citation")
	if !ok || !has {
		return nil
	}
	mine := with(cit, "comment", strings.TrimSpace(comment))
	if mine["comment"] == "" {
		delete(mine, "comment")
	}
	return line(a.ID, map[string]any{"citation": mine})
}

// capLabel is SELREF-LABEL-005 to -007 as the port does them: at most 200
// UTF-16 units, a pair kept whole, the cut's trailing spaces dropped before
// the ellipsis.
func capLabel(label string) string {
	units := 0
	for i, r := range label {
		w := utf16Len(r)
		if units+w > 200 {
			return strings.TrimRight(label[:i], " ") + "…"
		}
		units += w
	}
	return label
}

func utf16Len(r rune) int {
	if r > 0xFFFF {
		return 2
	}
	return 1
}

func ingestFields(ref *reference, r *request, a *answer) []byte {
	label, ok := str(r.Input, "label")
	if !ok {
		return nil
	}
	mine := capLabel(strings.Join(strings.Fields(label), " "))
	if mine == "" {
		return line(a.ID, map[string]any{"dropped": map[string]any{"code": "SELREF_BLANK_LABEL"}})
	}
	out := a.Output
	if dropped, ok := object(out, "dropped"); ok && dropped["code"] == "SELREF_BLANK_LABEL" {
		// the spec's label is blank, the port's is not: the rest of the
		// reference as the reference makes it
		var b answer
		if decode(ref.as(a.ID, r.Op, with(r.Input, "label", "x")), &b) != nil {
			return nil
		}
		out = b.Output
	}
	stored, ok := object(out, "reference")
	if !ok {
		return nil
	}
	return line(a.ID, map[string]any{"reference": with(stored, "label", mine)})
}

// ingestIsControl leaves every check to the reference but the control test:
// each non-ASCII rune unicode.IsControl lets through goes to the reference as
// a private-use stand-in (which no rule of the spec refuses) and comes back
// in the stored address.
func ingestIsControl(ref *reference, r *request, a *answer) []byte {
	input := r.Input
	back := map[string]map[rune]rune{} // member -> stand-in -> rune
	for _, key := range []string{"url", "vanceUri"} {
		v, ok := str(input, key)
		if !ok || strings.ContainsFunc(v, func(c rune) bool { return c >= 0xF0000 && c <= 0xFFFFD }) {
			continue
		}
		stands := map[rune]rune{}
		table := map[rune]rune{}
		var b strings.Builder
		for _, c := range v {
			if c > 0x7F && !unicode.IsControl(c) {
				s, seen := stands[c]
				if !seen {
					s = rune(0xF0000 + len(stands))
					stands[c], table[s] = s, c
				}
				c = s
			}
			b.WriteRune(c)
		}
		if len(table) > 0 {
			back[key] = table
			input = with(input, key, b.String())
		}
	}
	if len(back) == 0 {
		return nil
	}
	ans := ref.as(a.ID, r.Op, input)
	var b answer
	if decode(ans, &b) != nil {
		return nil
	}
	stored, ok := object(b.Output, "reference")
	if !ok {
		return ans
	}
	for key, table := range back {
		if v, ok := str(stored, key); ok {
			stored = with(stored, key, strings.Map(func(c rune) rune {
				if orig, ok := table[c]; ok {
					return orig
				}
				return c
			}, v))
		}
	}
	return line(a.ID, map[string]any{"reference": stored})
}
