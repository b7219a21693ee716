package vectors

import (
	"encoding/json"
	"slices"
	"testing"
)

func TestAllowedOutputs(t *testing.T) {
	raw := func(s string) json.RawMessage { return json.RawMessage(s) }
	tests := []struct {
		name   string
		expect Expect
		want   []string
	}{
		{"one output", Expect{Output: raw(`{"a":1}`)}, []string{`{"a":1}`}},
		{"one per choice, by value", Expect{Choice: "c", Outputs: map[string]json.RawMessage{"z": raw(`2`), "a": raw(`1`), "m": raw(`3`)}}, []string{`1`, `3`, `2`}},
		{"a protocol error", Expect{Error: &ExpectError{Kind: "bad_request"}}, []string{}},
	}
	for _, tt := range tests {
		v := &Vector{ID: tt.name, Expect: tt.expect}
		got := []string{}
		for _, o := range v.AllowedOutputs() {
			got = append(got, string(o))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: AllowedOutputs() = %q, want %q", tt.name, got, tt.want)
		}
	}
}
