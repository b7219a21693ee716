package quote

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"

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

// integer converts a JSON number with no fractional part (1, 1.0, 1e3,
// 150e-1) to an int, saturating at the bounds of int. It reports false for a
// number with a fractional part, however small (1e-400 is not 0), and for an
// empty one. The decision is made on the decimal digits, never on a float.
func integer(n json.Number) (int, bool) {
	s := string(n)
	if s == "" {
		return 0, false
	}
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return int(i), true
	}
	sign := ""
	if s[0] == '-' {
		sign, s = "-", s[1:]
	}
	saturated := math.MaxInt
	if sign != "" {
		saturated = math.MinInt
	}
	mant, exp := s, "0"
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant, exp = s[:i], s[i+1:]
	}
	intPart, frac := mant, ""
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		intPart, frac = mant[:i], mant[i+1:]
	}
	digits := strings.TrimLeft(intPart+frac, "0")
	if digits == "" {
		return 0, true // zero, however written
	}
	if strings.Trim(exp, "+-0123456789") != "" || strings.Trim(mant, ".0123456789") != "" {
		return 0, false
	}
	significant := strings.TrimRight(digits, "0")
	e, err := strconv.ParseInt(exp, 10, 64)
	switch {
	case err != nil && strings.HasPrefix(exp, "-"), err == nil && e < -1<<40:
		return 0, false // a fraction below any digit string held in memory
	case err != nil, e > 1<<40:
		return saturated, true
	}
	// The value is significant × 10^scale.
	scale := e - int64(len(frac)) + int64(len(digits)-len(significant))
	if scale < 0 {
		return 0, false
	}
	if int64(len(significant))+scale > 19 {
		return saturated, true
	}
	i, err := strconv.ParseInt(sign+significant+strings.Repeat("0", int(scale)), 10, 64)
	if err != nil {
		return saturated, true // beyond int64 by its last digits
	}
	return int(i), true
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
