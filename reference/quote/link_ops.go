package quote

import (
	"bytes"
	"encoding/json"

	"github.com/conform-suite/conform/internal/jsonv"
	"github.com/conform-suite/conform/reference/internal/opkit"
)

// Protocol adapters of the link codec: quote.format, quote.parse and
// quote.collect (spec/quote-link.md, "Ops").

type formatInput struct {
	Citation *wireCitation `json:"citation"`
}

// wireCitation is a citation as sent to quote.format: numbers are kept raw so
// that a fraction or an out-of-range value is refused, not a bad request.
type wireCitation struct {
	Version       json.RawMessage `json:"version"`
	EnvironmentID *string         `json:"environmentId"`
	ThreadID      *string         `json:"threadId"`
	MessageID     *string         `json:"messageId"`
	Text          *string         `json:"text"`
	Comment       *string         `json:"comment"`
	Start         json.RawMessage `json:"start"`
	End           json.RawMessage `json:"end"`
	Prefix        *string         `json:"prefix"`
	Suffix        *string         `json:"suffix"`
}

type formatOutput struct {
	Href string `json:"href"`
	Link string `json:"link"`
}

func formatOp(input *jsonv.Value) (any, error) {
	var in formatInput
	if err := opkit.Decode(input, &in); err != nil {
		return nil, err
	}
	w := in.Citation
	if w == nil {
		return nil, opkit.BadRequest("input: missing citation")
	}
	for name, p := range map[string]*string{"environmentId": w.EnvironmentID, "threadId": w.ThreadID,
		"messageId": w.MessageID, "text": w.Text, "prefix": w.Prefix, "suffix": w.Suffix} {
		if p == nil {
			return nil, opkit.BadRequest("input: citation: missing %s", name)
		}
	}
	for name, raw := range map[string]json.RawMessage{"version": w.Version, "start": w.Start, "end": w.End} {
		if !isJSONNumber(raw) {
			return nil, opkit.BadRequest("input: citation: %s is not a number", name)
		}
	}
	if opkit.HasLoneSurrogate(input) {
		return opkit.Reject(string(CodeUnpairedSurrogate)), nil
	}
	c := Citation{
		Version:       int(clampInt(w.Version, 0)),
		EnvironmentID: *w.EnvironmentID,
		ThreadID:      *w.ThreadID,
		MessageID:     *w.MessageID,
		Text:          *w.Text,
		Comment:       w.Comment,
		Start:         clampInt(w.Start, -1),
		End:           clampInt(w.End, -1),
		Prefix:        *w.Prefix,
		Suffix:        *w.Suffix,
	}
	href, err := FormatHref(c)
	if err != nil {
		return opkit.Reject(string(err.(*Error).Code)), nil
	}
	return formatOutput{Href: href, Link: "[" + Label + "](" + href + ")"}, nil
}

// clampInt returns the integer value of a JSON number, or bad when it is not
// an integer from -2^63 to 2^63-1 (every such value fails the formatter's
// checks the same way).
func clampInt(raw json.RawMessage, bad int64) int64 {
	if v, ok := jsonInteger(raw); ok {
		return v
	}
	return bad
}

func isJSONNumber(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && (raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9')
}

// jsonInteger returns the value of a JSON number that denotes an integer
// representable as int64 (1.0 and 1e3 included), exactly (opkit.Integer).
func jsonInteger(raw json.RawMessage) (int64, bool) {
	if !isJSONNumber(raw) {
		return 0, false
	}
	if v, isInt, exact := opkit.Integer(string(bytes.TrimSpace(raw))); isInt && exact {
		return v, true
	}
	return 0, false
}

type parseInput struct {
	Href *string `json:"href"`
}

type parseOutput struct {
	Citation Citation `json:"citation"`
}

func parseOp(input *jsonv.Value) (any, error) {
	href, ok := hrefOnly(input)
	if !ok {
		var in parseInput
		if err := opkit.Decode(input, &in); err != nil {
			return nil, err
		}
		if in.Href == nil {
			return nil, opkit.BadRequest("input: missing href")
		}
		href = *in.Href
	}
	c, err := parse(href)
	if err != nil {
		return opkit.Reject(string(err.Code)), nil
	}
	return parseOutput{Citation: c}, nil
}

// hrefOnly returns the href of an input that is exactly one member, href,
// holding a string read with its text (jsonv's KeepText), which is what
// opkit.Decode would hand parseOp without the reflection; any other input
// is left to Decode.
func hrefOnly(input *jsonv.Value) (string, bool) {
	if input == nil || input.Type != jsonv.Object || len(input.Members) != 1 {
		return "", false
	}
	v := input.Get("href")
	if v == nil || v.Type != jsonv.String || v.Str == "" {
		return "", false
	}
	return v.Str, true
}

type collectInput struct {
	Text *string `json:"text"`
}

type collectOutput struct {
	Citations []Link `json:"citations"`
}

func collectOp(input *jsonv.Value) (any, error) {
	var in collectInput
	if err := opkit.Decode(input, &in); err != nil {
		return nil, err
	}
	if in.Text == nil {
		return nil, opkit.BadRequest("input: missing text")
	}
	links := Collect(*in.Text)
	if links == nil {
		links = []Link{}
	}
	return collectOutput{Citations: links}, nil
}
