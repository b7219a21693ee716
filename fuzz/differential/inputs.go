// Package differential holds FuzzDifferential, a native fuzz target that
// compares an implementation's answers with the reference's over protocol
// v1, with op inputs filled from the fuzzer's bytes. It is for porting
// teams that run coverage-guided fuzzing (go test -fuzz, ClusterFuzzLite,
// OSS-Fuzz) on their own implementation; docs/fuzzing.md says how.
package differential

import (
	"encoding/json"
	"strings"

	gofuzz "github.com/google/gofuzz"
)

// The op inputs, as structs gofuzz fills from the fuzzer's bytes; their
// JSON is the op's input (schemas/ops).
type (
	hrefInput struct {
		Href string `json:"href"`
	}
	textInput struct {
		Text string `json:"text"`
	}
	promptInput struct {
		Prompt string `json:"prompt"`
	}
	locationInput struct {
		Location string `json:"location"`
	}
	selectInput struct {
		Text  string `json:"text"`
		Start int    `json:"start"`
		End   int    `json:"end"`
	}
	part struct {
		ID string `json:"id"`
	}
	stripInput struct {
		Text  string `json:"text"`
		Parts []part `json:"parts"`
	}
	streamInput struct {
		Deltas []string `json:"deltas"`
		Parts  []part   `json:"parts"`
	}
	locateInput struct {
		Value   any    `json:"value"`
		Locator string `json:"locator"`
	}
	ingestInput struct {
		Label    *string `json:"label"`
		VanceURI *string `json:"vanceUri"`
		URL      *string `json:"url"`
	}
	replayReference struct {
		Label    string `json:"label"`
		VanceURI string `json:"vanceUri,omitempty"`
		URL      string `json:"url,omitempty"`
	}
	replayInput struct {
		Body      string          `json:"body"`
		Reference replayReference `json:"reference"`
	}
)

// An opInput is an op the target fuzzes, with a fresh input struct.
type opInput struct {
	op  string
	new func() any
}

// opInputs lists the ops the target fuzzes.
var opInputs = []opInput{
	{"quote.parse", func() any { return &hrefInput{} }},
	{"quote.collect", func() any { return &textInput{} }},
	{"quote.normalize", func() any { return &textInput{} }},
	{"quote.expand", func() any { return &promptInput{} }},
	{"quote.plaintext", func() any { return &promptInput{} }},
	{"quote.nav_decode", func() any { return &locationInput{} }},
	{"quote.select", func() any { return &selectInput{} }},
	{"marker.strip", func() any { return &stripInput{} }},
	{"marker.stream", func() any { return &streamInput{} }},
	{"marker.locate", func() any { return &locateInput{} }},
	{"selref.ingest", func() any { return &ingestInput{} }},
	{"selref.replay", func() any { return &replayInput{} }},
}

// fragments are pieces of the formats' syntax that strings are built from
// most of the time, so that the inputs reach past the first check of each
// parser; the rest of the time a string is gofuzz's own random text.
var fragments = []string{
	"[Assistant quote](", ")", "t3-citation://v1/", "env", "/", "thread", "msg",
	"?text=", "&prefix=", "&suffix=", "&start=", "&end=", "&comment=", "0", "7", "12", "%20", "%2F", "%E2%80%A8", "%", "+",
	"#t3-citation=", "https://example.test/c", "dDMtY2l0YXRpb246Ly92MS9h",
	"[[", "]]", "[[m1]]", "[[m2:L3]]", "[[m1:/a/0]]", ":", "L1-L2", "~0", "~1",
	"label", "vance://x", "http://example.test/", "javascript:", "\n", "\r\n", " ", "\t", "\u00a0", "\u2028",
	"😀", "\xed\xa0\xbd", "中文", "é", "e\u0301", "\x00", "\u200b",
}

// fill decodes the fuzzer's bytes into one of ops and its input.
func fill(data []byte, ops []opInput) (op string, input json.RawMessage, err error) {
	f := gofuzz.NewFromGoFuzz(data).NilChance(0.1).NumElements(0, 4).MaxDepth(4).Funcs(
		func(s *string, c gofuzz.Continue) {
			if c.Intn(4) == 0 {
				c.FuzzNoCustom(s)
				return
			}
			var b strings.Builder
			for range c.Intn(6) {
				b.WriteString(fragments[c.Intn(len(fragments))])
			}
			*s = b.String()
		},
		func(p *part, c gofuzz.Continue) { p.ID = []string{"m1", "m2", "m3", ""}[c.Intn(4)] },
		func(v *any, c gofuzz.Continue) {
			var doc struct {
				A []string
				B map[string]int
				C bool
			}
			c.Fuzz(&doc)
			*v = doc
		},
		func(n *int, c gofuzz.Continue) { *n = c.Intn(80) - 8 },
	)
	var choice uint8
	f.Fuzz(&choice)
	entry := ops[int(choice)%len(ops)]
	in := entry.new()
	f.Fuzz(in)
	input, err = json.Marshal(in)
	return entry.op, input, err
}
