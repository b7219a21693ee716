package features

import (
	"encoding/json"
	"testing"

	"github.com/conform-suite/conform/protocol"
)

// TestArtifactDataPartsExact: the data part ids of an artifact are compared
// id by id and code unit by code unit: ids that print alike when joined
// with spaces, and a lone surrogate where U+FFFD is wanted, are wrong.
func TestArtifactDataPartsExact(t *testing.T) {
	artifact := func(ids ...string) *protocol.Response {
		parts := []any{map[string]any{"text": "t", "metadata": map[string]any{"citations": []any{}}}}
		for _, id := range ids {
			parts = append(parts, map[string]any{"data": map[string]any{}, "metadata": map[string]any{"dataPartId": id}})
		}
		out, err := json.Marshal(map[string]any{"artifact": map[string]any{"parts": parts}})
		if err != nil {
			t.Fatal(err)
		}
		return &protocol.Response{Output: out}
	}
	for _, tc := range []struct {
		name   string
		resp   *protocol.Response
		want   string
		passes bool
	}{
		{"the same ids", artifact("a", "b c"), `["a", "b c"]`, true},
		{"no parts", artifact(), `[]`, true},
		{"ids split at another space", artifact("a b", "c"), `["a", "b c"]`, false},
		{"one part fewer", artifact("a"), `["a", "b"]`, false},
		{"a lone surrogate for U+FFFD", &protocol.Response{Output: json.RawMessage(`{"artifact":{"parts":[{"text":"t"},{"metadata":{"dataPartId":"\ud800"}}]}}`)}, `["\ufffd"]`, false},
		{"a lone surrogate as wanted", &protocol.Response{Output: json.RawMessage(`{"artifact":{"parts":[{"text":"t"},{"metadata":{"dataPartId":"\ud800"}}]}}`)}, `["\ud800"]`, true},
	} {
		s := &scenario{resp: tc.resp}
		if err := s.artifactDataParts(tc.want); (err == nil) != tc.passes {
			t.Errorf("%s: artifactDataParts(%s) = %v, want it to pass: %v", tc.name, tc.want, err, tc.passes)
		}
	}
}
