package opkit

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/conform-suite/conform/protocol"
)

func TestDecode(t *testing.T) {
	type in struct {
		Label string  `json:"label"`
		URL   *string `json:"url,omitempty"`
	}
	tests := []struct {
		input string
		ok    bool
	}{
		{`{"label":"a"}`, true},
		{`{"label":"a","url":"b"}`, true},
		{`{"Label":"a"}`, false}, // case-insensitive match refused
		{`{}`, false},            // label is required: not a pointer, not omitempty
		{`{"url":"b"}`, false},
		{`{"label":"a","x":1}`, false},
		{`{"label":1}`, false},
		{`{"label":"a"} {}`, false},
		{``, false},
		{`[1]`, false},
	}
	for _, tt := range tests {
		var v in
		err := DecodeRaw(json.RawMessage(tt.input), &v)
		var e *protocol.Error
		if tt.ok && err != nil || !tt.ok && (!errors.As(err, &e) || e.Kind != protocol.KindBadRequest) {
			t.Errorf("Decode(%q) = %v, want ok=%v (bad_request otherwise)", tt.input, err, tt.ok)
		}
	}
}

// TestDecodeNested checks the member rules below the top level, and what
// each kind of field receives.
func TestDecodeNested(t *testing.T) {
	type sel struct {
		Text  string      `json:"text"`
		Start json.Number `json:"start"`
	}
	type in struct {
		Sel   sel             `json:"sel"`
		Raw   json.RawMessage `json:"raw"`
		Ints  []int64         `json:"ints,omitempty"`
		Label *string         `json:"label"`
	}
	for _, tt := range []struct {
		input  string
		reason string // "" when accepted
	}{
		{`{"sel":{"text":"a","start":1.50},"raw":{"x":[1,2],"x":3}}`, ""},
		{`{"sel":{"text":"a","start":1,"Text":"b"},"raw":1}`, "unknown member"},
		{`{"sel":{"text":"a"},"raw":1}`, `missing member "start"`},
		{`{"sel":{"text":"a","start":1,"text":"b"},"raw":1}`, "twice"},
		{`{"sel":{"text":"a","start":1},"raw":1,"raw":2}`, "twice"},
		{`{"sel":{"text":"a","start":"1"},"raw":1}`, "want a number"},
		{`{"sel":{"text":"a","start":1},"raw":1,"ints":[1.0,1E0,10e-1,-0]}`, ""},
		{`{"sel":{"text":"a","start":1},"raw":1,"ints":[1.5]}`, "not an integer"},
		{`{"sel":{"text":"a","start":1},"raw":1,"ints":[1e-400]}`, "not an integer"},
		{`{"sel":{"text":"a","start":1},"raw":1,"ints":[9223372036854775808]}`, "does not fit 64 bits"},
		{`{"sel":{"text":"a","start":1},"raw":1,"ints":[92233720368547758070e-1]}`, ""},
		{`{"sel":{"text":"a","start":1},"raw":1,"ints":[1e400]}`, "does not fit 64 bits"},
	} {
		var v in
		err := DecodeRaw(json.RawMessage(tt.input), &v)
		if tt.reason == "" && err != nil || tt.reason != "" && (err == nil || !strings.Contains(err.Error(), tt.reason)) {
			t.Errorf("Decode(%s) = %v, want %q", tt.input, err, tt.reason)
		}
	}
	var v in
	if err := DecodeRaw(json.RawMessage(`{"sel":{"text":"\ud83dx","start":-0.0e-7},"raw":{"a":"\udc00","n":1E400},"label":null}`), &v); err != nil {
		t.Fatal(err)
	}
	if v.Sel.Text != "\ufffdx" || v.Sel.Start != "-0.0e-7" || string(v.Raw) != `{"a":"\udc00","n":1E400}` || v.Label != nil {
		t.Errorf("Decode = %+v; want the lone surrogate as U+FFFD in a string, numbers and raw values as written", v)
	}
}

// TestDecodeErrorPaths pins the whole message of a refusal deep in the
// input: the path names every step from the input down, as written.
func TestDecodeErrorPaths(t *testing.T) {
	type leaf struct {
		N int64 `json:"n"`
	}
	type in struct {
		Sel  struct{ Start json.Number } `json:"sel"`
		List []leaf                      `json:"list,omitempty"`
	}
	for input, want := range map[string]string{
		`{"sel":{"Start":"1"}}`:                          `input.sel.Start: want a number, got string`,
		`{"sel":{"Start":1},"list":[{"n":1},{"n":1.5}]}`: `input.list[1].n: the number 1.5 is not an integer`,
		`{"sel":{"Start":1},"list":[{"n":1,"m":2}]}`:     `input.list[0]: unknown member "m"`,
		`{"sel":{}}`:                            `input.sel: missing member "Start"`,
		`{"sel":{"Start":1},"sel":{"Start":1}}`: `input: the member "sel" is named twice`,
		`[]`:                                    `input: want an object, got array`,
	} {
		var v in
		err := DecodeRaw(json.RawMessage(input), &v)
		if err == nil || err.Error() != "bad_request: "+want {
			t.Errorf("Decode(%s) = %v, want bad_request: %s", input, err, want)
		}
	}
}

// TestDecodeAllocations: a plain input is decoded with no allocation but
// the pointer and the string it holds.
func TestDecodeAllocations(t *testing.T) {
	in, err := Parse(json.RawMessage(`{"href":"t3-citation://v1/a/b"}`))
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Href *string `json:"href"`
	}
	if n := testing.AllocsPerRun(100, func() { Decode(in, &v) }); n > 2 {
		t.Errorf("Decode allocates %v times, want 2 at most", n)
	}
}

// TestInteger pins the exact reading of spec/README.md's Numbers: the value
// decides, never the spelling nor a float's rounding.
func TestInteger(t *testing.T) {
	tests := []struct {
		in           string
		want         int64
		isInt, exact bool
	}{
		{"0", 0, true, true},
		{"-7", -7, true, true},
		{"1.0", 1, true, true},
		{"1E0", 1, true, true},
		{"10e-1", 1, true, true},
		{"1e3", 1000, true, true},
		{"-0", 0, true, true},
		{"-0.0", 0, true, true},
		{"0e-400", 0, true, true},
		{"150e-1", 15, true, true},
		{"100e-2", 1, true, true},
		{"100000000000e-10", 10, true, true},
		{"9007199254740993", 9007199254740993, true, true}, // no float rounding
		{"9223372036854775807", math.MaxInt64, true, true},
		{"9223372036854775807.0", math.MaxInt64, true, true},
		{"-9223372036854775808.0", math.MinInt64, true, true},
		{"9223372036854775808", math.MaxInt64, true, false},
		{"-9223372036854775809", math.MinInt64, true, false},
		{"1e300", math.MaxInt64, true, false},
		{"-1e300", math.MinInt64, true, false},
		{"1e400", math.MaxInt64, true, false},
		{"1e99999999999999999999", math.MaxInt64, true, false},
		{"-1e99999999999999999999", math.MinInt64, true, false},
		{"123456789000000000000000000000e-20", 1234567890, true, true},
		{"1.5", 0, false, false},
		{"12e-1", 0, false, false},
		{"101e-2", 0, false, false},
		{"1e-400", 0, false, false},
		{"-1e-400", 0, false, false},
		{"1e-99999999999999999999", 0, false, false},
		{"9007199254740990.5", 0, false, false}, // a float would round it to an even integer
		{"4.0000000000000000000000000000000000000000000000000000000000000000000000000000000001", 0, false, false},
		{"123456789012345678901234567890e-20", 0, false, false},
		{"", 0, false, false},
		{"01", 0, false, false},
		{"+1", 0, false, false},
		{"1.", 0, false, false},
		{"Infinity", 0, false, false},
	}
	for _, tt := range tests {
		v, isInt, exact := Integer(tt.in)
		if v != tt.want || isInt != tt.isInt || exact != tt.exact {
			t.Errorf("Integer(%q) = %d, %v, %v, want %d, %v, %v", tt.in, v, isInt, exact, tt.want, tt.isInt, tt.exact)
		}
	}
}
