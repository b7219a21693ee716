package quote

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Link is a valid citation link found in text by [Collect]. Start and End are
// the UTF-16 code unit offsets of the whole link, from '[' to ')' inclusive;
// Source is its exact text.
type Link struct {
	Start    int      `json:"start"`
	End      int      `json:"end"`
	Source   string   `json:"source"`
	Citation Citation `json:"citation"`
}

// linkOpen is what every recognizable link starts with.
const linkOpen = "[" + Label + "](" + HrefPrefix

// Collect returns every valid citation link of text, in order
// (spec/quote-link.md, "Collector"). A candidate is "[Assistant quote](",
// then an href of HrefPrefix and 1 or more further characters, none of them
// whitespace or ')', at most MaxHrefLength UTF-16 units in all, then ')'.
// Candidates never overlap; one whose href does not parse stays plain text
// and is not returned.
func Collect(text string) []Link {
	var (
		links []Link
		pos   int // byte offset where the search resumes
		units int // UTF-16 offset of pos
	)
	for {
		i := strings.Index(text[pos:], linkOpen)
		if i < 0 {
			return links
		}
		start := pos + i
		startUnits := units + UTF16Len(text[pos:start])
		hrefStart := start + len(linkOpen) - len(HrefPrefix)
		j, n := hrefStart+len(HrefPrefix), len(HrefPrefix)
		for j < len(text) && n <= MaxHrefLength {
			r, size := utf8.DecodeRuneInString(text[j:])
			if r == ')' || linkEndClass(r) {
				break
			}
			n += utf16.RuneLen(r)
			j += size
		}
		if j == len(text) || text[j] != ')' || n > MaxHrefLength || n == len(HrefPrefix) {
			// No candidate starts at this '['. None can start inside the
			// scanned run either: the label holds a space.
			pos, units = start+1, startUnits+1
			continue
		}
		end := j + 1
		endUnits := startUnits + UTF16Len(text[start:end])
		if c, err := parse(text[hrefStart:j]); err == nil {
			links = append(links, Link{Start: startUnits, End: endUnits, Source: text[start:end], Citation: c})
		}
		pos, units = end, endUnits
	}
}
