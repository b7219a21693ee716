package main

import (
	"fmt"
	"net/url"
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
// upper-case %XX escapes alike in the path and in the query, which is what
// url.PathEscape makes of them.
func (c citation) href() string {
	s := "t3-citation://v1/" + url.PathEscape(c.EnvironmentID) + "/" + url.PathEscape(c.ThreadID) + "/" + url.PathEscape(c.MessageID) +
		"?text=" + url.PathEscape(c.Text) + fmt.Sprintf("&start=%d&end=%d", c.Start, c.End) +
		"&prefix=" + url.PathEscape(c.Prefix) + "&suffix=" + url.PathEscape(c.Suffix)
	if c.Comment != nil {
		s += "&comment=" + url.PathEscape(*c.Comment)
	}
	return s
}
