package quote

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"

	"github.com/conform-suite/conform/reference/internal/opkit"
)

// normalizeOp answers quote.normalize: {text} -> {text}.
func normalizeOp(input json.RawMessage) (any, error) {
	var in struct {
		Text string `json:"text"`
	}
	if err := opkit.Decode(input, &in); err != nil {
		return nil, err
	}
	return struct {
		Text string `json:"text"`
	}{Normalize(in.Text)}, nil
}

// selectOp answers quote.select: {text, start, end} -> {selector} or
// {rejected}. The offsets are JSON integers of any size; one beyond the
// range of int is out of range.
func selectOp(input json.RawMessage) (any, error) {
	var in struct {
		Text  string      `json:"text"`
		Start json.Number `json:"start"`
		End   json.Number `json:"end"`
	}
	if err := opkit.Decode(input, &in); err != nil {
		return nil, err
	}
	start, okStart := integer(in.Start)
	end, okEnd := integer(in.End)
	if !okStart || !okEnd {
		return nil, opkit.BadRequest("start and end are integers")
	}
	sel, err := Select(in.Text, start, end)
	if se, ok := errors.AsType[*SelectError](err); ok {
		return opkit.Reject(se.Code), nil
	} else if err != nil {
		return nil, err
	}
	return struct {
		Selector Selector `json:"selector"`
	}{sel}, nil
}

// integer converts a JSON number with no fractional part (1, 1.0, 1e3) to
// an int, saturating at the bounds of int. It reports false for a number
// with a fractional part or an empty one.
func integer(n json.Number) (int, bool) {
	if n == "" {
		return 0, false
	}
	if i, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		return int(i), true
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) || f != math.Trunc(f) {
		return 0, false
	}
	switch {
	case f >= math.MaxInt64:
		return math.MaxInt, true
	case f <= math.MinInt64:
		return math.MinInt, true
	}
	return int(f), true
}

// resolveOp answers quote.resolve: {text, selector} -> {match: {start, end}}
// or {match: null, reason}. The selector's start and end may be any JSON
// number: they are hints that Resolve never needs (see Resolve).
func resolveOp(input json.RawMessage) (any, error) {
	var in struct {
		Text     string `json:"text"`
		Selector struct {
			Text   string      `json:"text"`
			Start  json.Number `json:"start"`
			End    json.Number `json:"end"`
			Prefix string      `json:"prefix"`
			Suffix string      `json:"suffix"`
		} `json:"selector"`
	}
	if err := opkit.Decode(input, &in); err != nil {
		return nil, err
	}
	s := in.Selector
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
