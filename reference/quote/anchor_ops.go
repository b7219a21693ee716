package quote

import (
	"encoding/json"
	"errors"
	"math"

	"github.com/conform-suite/conform/internal/jsonv"
	"github.com/conform-suite/conform/reference/internal/opkit"
)

// normalizeOp answers quote.normalize: {text} -> {text}.
func normalizeOp(input *jsonv.Value) (any, error) {
	var in struct {
		Text string `json:"text"`
	}
	if err := opkit.Decode(input, &in); err != nil {
		return nil, err
	}
	return textOutput{Text: Normalize(in.Text)}, nil
}

// selectOp answers quote.select: {text, start, end} or {text, anchor,
// focus}, with optional breaks, -> {selector} or {rejected}. The offsets
// are JSON integers of any size; one beyond the range of int is out of
// range. anchor and focus are a selection's two ends in either order
// (QUOTE-ANCHOR-011); breaks are the stream's inserted line feeds
// (QUOTE-ANCHOR-036).
func selectOp(input *jsonv.Value) (any, error) {
	var in struct {
		Text   string         `json:"text"`
		Start  json.Number    `json:"start,omitempty"`
		End    json.Number    `json:"end,omitempty"`
		Anchor json.Number    `json:"anchor,omitempty"`
		Focus  json.Number    `json:"focus,omitempty"`
		Breaks *[]json.Number `json:"breaks"`
	}
	if err := opkit.Decode(input, &in); err != nil {
		return nil, err
	}
	rangeForm := in.Start != "" || in.End != ""
	selectionForm := in.Anchor != "" || in.Focus != ""
	a, b := in.Start, in.End
	switch {
	case rangeForm && selectionForm:
		return nil, opkit.BadRequest("input: give start and end, or anchor and focus, not both")
	case selectionForm:
		a, b = in.Anchor, in.Focus
	}
	start, okStart := integer(a)
	end, okEnd := integer(b)
	if !okStart || !okEnd {
		return nil, opkit.BadRequest("input: start and end (or anchor and focus) are integers")
	}
	if selectionForm && start > end {
		start, end = end, start // a backward selection covers the same range
	}
	breaks, err := breakOffsets(in.Text, in.Breaks)
	if err != nil {
		return nil, err
	}
	sel, err := SelectNarrowed(in.Text, start, end, breaks)
	if se, ok := errors.AsType[*Error](err); ok {
		return opkit.Reject(string(se.Code)), nil
	} else if err != nil {
		return nil, err
	}
	return struct {
		Selector Selector `json:"selector"`
	}{sel}, nil
}

// breakOffsets checks the breaks member of quote.select: increasing
// integers, each the offset of a line feed of text.
func breakOffsets(text string, raw *[]json.Number) ([]int, error) {
	if raw == nil {
		return nil, nil
	}
	t := anchorUnits(text, false)
	out := make([]int, 0, len(*raw))
	for i, n := range *raw {
		b, ok := integer(n)
		switch {
		case !ok:
			return nil, opkit.BadRequest("input: breaks[%d]: not an integer", i)
		case b < 0 || b >= len(t) || t[b] != '\n':
			return nil, opkit.BadRequest("input: breaks[%d]: %d is not the offset of a line feed of text", i, b)
		case i > 0 && b <= out[i-1]:
			return nil, opkit.BadRequest("input: breaks[%d]: offsets must increase", i)
		}
		out = append(out, b)
	}
	return out, nil
}

// integer reads a JSON number with no fractional part (1, 1.0, 1e3,
// 150e-1) as an int by its exact value (opkit.Integer), saturating at the
// bounds of int. It reports false for a number with a fractional part,
// however small (1e-400 is not 0), and for an empty one.
func integer(n json.Number) (int, bool) {
	v, ok, _ := opkit.Integer(string(n))
	return int(max(min(v, math.MaxInt), math.MinInt)), ok
}

// resolveOp answers quote.resolve: {text, selector} -> {match: {start, end}}
// or {match: null, reason}. The selector's start and end may be any JSON
// number: they are hints that Resolve never needs (see Resolve).
func resolveOp(input *jsonv.Value) (any, error) {
	var in struct {
		Text     string       `json:"text"`
		Selector *jsonv.Value `json:"selector"`
	}
	if err := opkit.Decode(input, &in); err != nil {
		return nil, err
	}
	// The selector is decoded as strictly as the input: every member
	// present, names exact, offsets JSON numbers.
	var s struct {
		Text   string      `json:"text"`
		Start  json.Number `json:"start"`
		End    json.Number `json:"end"`
		Prefix string      `json:"prefix"`
		Suffix string      `json:"suffix"`
	}
	if in.Selector == nil || in.Selector.Type != jsonv.Object {
		return nil, opkit.BadRequest("input: selector: want an object")
	}
	if err := opkit.Decode(in.Selector, &s); err != nil {
		return nil, opkit.BadRequest("input: selector: %v", err)
	}
	start, end, err := Resolve(in.Text, Selector{Text: s.Text, Prefix: s.Prefix, Suffix: s.Suffix})
	type span struct {
		Start int `json:"start"`
		End   int `json:"end"`
	}
	type noMatch struct {
		Match  *span  `json:"match"`
		Reason string `json:"reason"`
	}
	switch {
	case errors.Is(err, ErrAmbiguous):
		return noMatch{Reason: "ambiguous"}, nil
	case errors.Is(err, ErrNotFound):
		return noMatch{Reason: "not_found"}, nil
	case err != nil:
		return nil, err
	}
	return struct {
		Match span `json:"match"`
	}{span{start, end}}, nil
}

// domTextOp answers quote.dom_text: {html} -> {text, breaks}.
func domTextOp(input *jsonv.Value) (any, error) {
	var in struct {
		HTML *string `json:"html"`
	}
	if err := opkit.Decode(input, &in); err != nil {
		return nil, err
	}
	if in.HTML == nil {
		return nil, opkit.BadRequest("input: missing html")
	}
	d, err := DOMText(*in.HTML)
	if err != nil {
		return nil, opkit.BadRequest("input: html: %v", err)
	}
	return d, nil
}
