package quote

import (
	"encoding/json"

	"github.com/conform-suite/conform/internal/jsonv"
	"github.com/conform-suite/conform/reference/internal/opkit"
)

// Protocol adapters of the composer and provider pipeline
// (spec/quote-compose.md, "Ops"): quote.comment, quote.expand,
// quote.plaintext, quote.markdown, quote.submit_check, quote.send_turn,
// quote.nav_encode and quote.nav_decode.

type commentInput struct {
	Citation *json.RawMessage `json:"citation"`
	Comment  *string          `json:"comment"`
}

type citationOutput struct {
	Citation Citation `json:"citation"`
}

func commentOp(input *jsonv.Value) (any, error) {
	var in commentInput
	if err := opkit.Decode(input, &in); err != nil {
		return nil, err
	}
	if in.Citation == nil || in.Comment == nil {
		return nil, opkit.BadRequest("input: citation and comment are required")
	}
	var c Citation
	// Every member but comment is required: decoding refuses a citation
	// without one.
	if err := opkit.DecodeRaw(*in.Citation, &c); err != nil {
		return nil, err
	}
	return citationOutput{Citation: WithComment(c, *in.Comment)}, nil
}

type promptInput struct {
	Prompt *string `json:"prompt"`
}

type textOutput struct {
	Text string `json:"text"`
}

// promptOp adapts a function of the prompt to an op {prompt} -> {text}.
func promptOp(f func(string) string) opkit.Handler {
	return func(input *jsonv.Value) (any, error) {
		var in promptInput
		if err := opkit.Decode(input, &in); err != nil {
			return nil, err
		}
		if in.Prompt == nil {
			return nil, opkit.BadRequest("input: missing prompt")
		}
		return textOutput{Text: f(*in.Prompt)}, nil
	}
}

type submitCheckInput struct {
	Prompt *string `json:"prompt"`
	Target *Target `json:"target"`
}

type submitCheckOutput struct {
	OK      bool   `json:"ok"`
	Excess  int    `json:"excess,omitempty"`
	Message string `json:"message,omitempty"`
}

func submitCheckOp(input *jsonv.Value) (any, error) {
	var in submitCheckInput
	if err := opkit.Decode(input, &in); err != nil {
		return nil, err
	}
	if in.Prompt == nil || in.Target == nil {
		return nil, opkit.BadRequest("input: prompt and target are required")
	}
	if _, ok := TargetFrom(in.Target); !ok {
		return nil, opkit.BadRequest("input: unknown target %q", *in.Target)
	}
	excess, msg := CheckSubmission(*in.Prompt, *in.Target)
	return submitCheckOutput{OK: excess == 0, Excess: excess, Message: msg}, nil
}

type sendTurnInput struct {
	Input  *string `json:"input"`
	Target *Target `json:"target"`
}

func sendTurnOp(input *jsonv.Value) (any, error) {
	var in sendTurnInput
	if err := opkit.Decode(input, &in); err != nil {
		return nil, err
	}
	if in.Input == nil {
		return nil, opkit.BadRequest("input: missing input")
	}
	target, ok := TargetFrom(in.Target)
	if !ok {
		return nil, opkit.BadRequest("input: unknown target %q", *in.Target)
	}
	if target == TargetPendingUserInput {
		return textOutput{Text: SendAnswer(*in.Input)}, nil
	}
	text, err := SendTurn(*in.Input)
	if err != nil {
		return opkit.Reject(string(err.(*Error).Code)), nil
	}
	return textOutput{Text: text}, nil
}

type navEncodeOutput struct {
	Hash string `json:"hash"`
}

// navEncodeOp takes the input of quote.format, so it decodes and refuses
// citations exactly as quote.format does.
func navEncodeOp(input *jsonv.Value) (any, error) {
	out, err := formatOp(input)
	if err != nil {
		return nil, err
	}
	f, ok := out.(formatOutput)
	if !ok {
		return out, nil // a rejection
	}
	return navEncodeOutput{Hash: navHashOf(f.Href)}, nil
}

type navDecodeInput struct {
	Location *string `json:"location"`
}

func navDecodeOp(input *jsonv.Value) (any, error) {
	var in navDecodeInput
	if err := opkit.Decode(input, &in); err != nil {
		return nil, err
	}
	if in.Location == nil {
		return nil, opkit.BadRequest("input: missing location")
	}
	c, err := FromLocation(*in.Location)
	if err != nil {
		return opkit.Reject(string(err.(*Error).Code)), nil
	}
	return citationOutput{Citation: c}, nil
}

type navHistoryInput struct {
	Cursors    *[]string `json:"cursors"`
	SourcePage *int      `json:"source_page"`
}

// navHistoryOp answers quote.nav_history: {cursors, source_page?} ->
// {pages, stop, warning}.
func navHistoryOp(input *jsonv.Value) (any, error) {
	var in navHistoryInput
	if err := opkit.Decode(input, &in); err != nil {
		return nil, err
	}
	if in.Cursors == nil {
		return nil, opkit.BadRequest("input: missing cursors")
	}
	page := -1
	if in.SourcePage != nil {
		if page = *in.SourcePage; page < 0 {
			return nil, opkit.BadRequest("input: source_page %d is negative", page)
		}
	}
	return NavHistory(*in.Cursors, page), nil
}
