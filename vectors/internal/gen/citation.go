package main

import (
	"fmt"
	"strings"
)

// citation is a citation as the vectors write it: the members, their order
// and the omission of an absent comment are QUOTE-LINK-001's (version,
// environmentId, threadId, messageId, text, comment only when present,
// start, end, prefix, suffix), written here from the specification rather
// than borrowed from the reference, so that a wrong type in the reference
// cannot shape the expected outputs.
type citation struct {
	Version       int     `json:"version"`
	EnvironmentID string  `json:"environmentId"`
	ThreadID      string  `json:"threadId"`
	MessageID     string  `json:"messageId"`
	Text          string  `json:"text"`
	Comment       *string `json:"comment,omitempty"`
	Start         int64   `json:"start"`
	End           int64   `json:"end"`
	Prefix        string  `json:"prefix"`
	Suffix        string  `json:"suffix"`
}

// qBase is a small valid citation.
func qBase() citation {
	return citation{Version: 1, EnvironmentID: "a", ThreadID: "b", MessageID: "c", Text: "q", Start: 0, End: 1}
}

// href is the canonical href of a citation whose strings hold only ASCII
// letters, digits and non-ASCII characters: those stay literal or become
// upper-case %XX escapes alike in the path and in the query.
func (c citation) href() string {
	s := "t3-citation://v1/" + qPct(c.EnvironmentID) + "/" + qPct(c.ThreadID) + "/" + qPct(c.MessageID) +
		"?text=" + qPct(c.Text) + fmt.Sprintf("&start=%d&end=%d", c.Start, c.End) +
		"&prefix=" + qPct(c.Prefix) + "&suffix=" + qPct(c.Suffix)
	if c.Comment != nil {
		s += "&comment=" + qPct(*c.Comment)
	}
	return s
}

func qPct(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}
