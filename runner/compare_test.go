package runner

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestCompare(t *testing.T) {
	tests := []struct {
		name, want, got string
		verdict         Verdict
		diff            string // a substring of the first diff line
	}{
		{"equal", `{"a":1,"b":[1,2]}`, `{"b":[1,2],"a":1}`, Match, ""},
		{"same bytes", `{"a":"😀"}`, `{"a":"😀"}`, Match, ""},
		{"white space only", "{ \"a\" :\n [1, 2] }", `{"a":[1,2]}`, Match, ""},
		{"escape spelling", `{"a":"\u00e9<"}`, `{"a":"é\u003c"}`, Match, ""},
		{"number spelling", `{"a":10}`, `{"a":1e1}`, Match, ""},
		{"big integers exact", `{"a":9007199254740993}`, `{"a":9007199254740992}`, Mismatch, "$.a: want 9007199254740993, got 9007199254740992"},
		{"wrong string", `{"text":"a"}`, `{"text":"b"}`, Mismatch, `$.text: want "a", got "b"`},
		{"missing member", `{"a":1,"b":2}`, `{"a":1}`, Mismatch, "$.b: missing"},
		{"extra member", `{"a":1}`, `{"a":1,"z":0}`, Mismatch, "$.z: unexpected member"},
		{"array length", `{"a":[1,2]}`, `{"a":[1]}`, Mismatch, "$.a: want 2 elements, got 1"},
		{"nested path", `{"c":[{"o":1}]}`, `{"c":[{"o":2}]}`, Mismatch, "$.c[0].o"},
		{"odd key", `{"a b":1}`, `{"a b":2}`, Mismatch, `$["a b"]`},
		{"null versus object", `{"match":null}`, `{"match":{}}`, Mismatch, "$.match"},
		{"rejection code equal", `{"rejected":{"code":"X"}}`, `{"rejected":{"code":"X","message":"m"}}`, Match, ""},
		{"rejection code omitted", `{"rejected":{"code":"X"}}`, `{"rejected":{}}`, Match, ""},
		{"rejection code differs", `{"rejected":{"code":"X"}}`, `{"rejected":{"code":"Y"}}`, Mismatch, "$.rejected.code"},
		{"dropped code omitted", `{"dropped":{"code":"X"}}`, `{"dropped":{}}`, Match, ""},
		{"accepted wrongly", `{"rejected":{"code":"X"}}`, `{"citation":{}}`, AcceptedWrongly, "$: want"},
		{"rejected wrongly", `{"citation":{}}`, `{"rejected":{"code":"X"}}`, RejectedWrongly, "$: want"},
		{"not json", `{"a":1}`, `{"a":`, Mismatch, "not valid JSON"},
	}
	for _, tt := range tests {
		v, diffs, err := Compare(json.RawMessage(tt.want), json.RawMessage(tt.got))
		if err != nil {
			t.Errorf("%s: Compare error %v", tt.name, err)
			continue
		}
		if v != tt.verdict {
			t.Errorf("%s: Compare(%s, %s) = %v, want %v (diffs %q)", tt.name, tt.want, tt.got, v, tt.verdict, diffs)
		}
		if tt.diff == "" && len(diffs) > 0 || tt.diff != "" && (len(diffs) == 0 || !strings.Contains(diffs[0], tt.diff)) {
			t.Errorf("%s: diffs = %q, want first to contain %q", tt.name, diffs, tt.diff)
		}
	}
}
