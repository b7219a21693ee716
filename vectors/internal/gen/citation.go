package main

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
