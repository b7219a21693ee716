package opkit

import (
	"encoding/json"
	"errors"
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
		err := Decode(json.RawMessage(tt.input), &v)
		var e *Error
		if tt.ok && err != nil || !tt.ok && (!errors.As(err, &e) || e.Kind != KindBadRequest) {
			t.Errorf("Decode(%q) = %v, want ok=%v (bad_request otherwise)", tt.input, err, tt.ok)
		}
	}
}
