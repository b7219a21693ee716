package opkit

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
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
		var e *Error
		if tt.ok && err != nil || !tt.ok && (!errors.As(err, &e) || e.Kind != KindBadRequest) {
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
		{`{"sel":{"text":"a","start":1},"raw":1,"ints":[1.0]}`, "not an integer"},
		{`{"sel":{"text":"a","start":1},"raw":1,"ints":[9223372036854775808]}`, "not an integer"},
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
