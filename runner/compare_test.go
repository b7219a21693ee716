package runner

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestCompare(t *testing.T) {
	tests := []struct {
		name, want, got string
		verdict         Comparison
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
		{"rejection expected without a code", `{"rejected":{}}`, `{"rejected":{"code":"Y"}}`, Match, ""},
		{"accepted wrongly", `{"rejected":{"code":"X"}}`, `{"citation":{}}`, AcceptedWrongly, "$: want"},
		{"rejected wrongly", `{"citation":{}}`, `{"rejected":{"code":"X"}}`, RejectedWrongly, "$: want"},
		{"not json", `{"a":1}`, `{"a":`, Mismatch, "not valid JSON"},
		{"trailing bracket", `{"a":1}`, `{"a":1}]`, Mismatch, "data after the value"},
		{"trailing brace", `{"a":1}`, `{"a":1}}`, Mismatch, "data after the value"},
		{"trailing value", `{"a":1}`, `{"a":1} {}`, Mismatch, "data after the value"},
		{"duplicate member", `{"a":1}`, `{"a":1,"a":1}`, Mismatch, `$: duplicate member "a"`},
		{"nested duplicate", `{"c":[{"o":1}]}`, `{"c":[{"o":1,"o":2}]}`, Mismatch, `$.c[0]: duplicate member "o"`},
		{"invalid utf-8", `{"a":"\ufffd"}`, "{\"a\":\"\xff\"}", Mismatch, "invalid UTF-8"},
		{"lone surrogate for U+FFFD", `{"a":"x\ufffdy"}`, `{"a":"x\ud83dy"}`, Mismatch, `$.a: want "x�y", got "x\ud83dy"`},
		{"lone low surrogate for U+FFFD", `{"a":"\ufffd"}`, `{"a":"\udc00"}`, Mismatch, `got "\udc00"`},
		{"U+FFFD for U+FFFD", `{"a":"x\ufffdy"}`, `{"a":"x�y"}`, Match, ""},
		{"U+FFFD for an expected lone surrogate", `{"a":"x\ud83dy"}`, `{"a":"x\ufffdy"}`, Match, ""},
		{"the expected lone surrogate", `{"a":"x\ud83dy"}`, `{"a":"x\uD83Dy"}`, Match, ""},
		{"another lone surrogate", `{"a":"x\ud83dy"}`, `{"a":"x\ud83ey"}`, Mismatch, `$.a: want "x\ud83dy", got "x\ud83ey"`},
		{"U+FFFD for half a pair", `{"a":"\ud83d\ude00"}`, `{"a":"\ufffd\ude00"}`, Mismatch, "$.a"},
		{"a pair as escapes", `{"a":"😀"}`, `{"a":"\ud83d\ude00"}`, Match, ""},
		{"lone surrogate in a name", `{"a":1}`, `{"a":1,"\ud83d":1}`, Mismatch, `$["\ud83d"]: unexpected member`},
		{"tiny fraction", `{"start":4}`, `{"start":4.` + strings.Repeat("0", 80) + `1}`, Mismatch, "$.start: want 4, got 4.000"},
		{"integer spellings", `{"a":[4,-0,1e400]}`, `{"a":[40e-1,0,10E+399]}`, Match, ""},
		{"huge exponents differ", `{"a":1e999999999999999999}`, `{"a":1e999999999999999998}`, Mismatch, "$.a"},
		{"number for string", `{"a":"4"}`, `{"a":4}`, Mismatch, `$.a: want "4", got 4`},
		{"false for null", `{"a":null}`, `{"a":false}`, Mismatch, "$.a: want null, got false"},
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
		if tt.diff == "" && len(diffs) > 0 || tt.diff != "" && len(diffs) != 1 || tt.diff != "" && (len(diffs) == 0 || !strings.Contains(diffs[0], tt.diff)) {
			t.Errorf("%s: diffs = %q, want first to contain %q", tt.name, diffs, tt.diff)
		}
	}
}

// TestCompareHugeNumbers compares answers whose numbers have 4 million
// digits: the verdicts must be right, and the comparison must end (it is
// linear; a float or quadratic comparison would call them equal or take
// minutes).
func TestCompareHugeNumbers(t *testing.T) {
	zeros := strings.Repeat("0", 4_000_000)
	for _, tt := range []struct {
		got     string
		verdict Comparison
	}{
		{`{"start":4.` + zeros + `1,"end":5}`, Mismatch},
		{`{"start":4.` + zeros + `,"end":5}`, Match},
		{`{"start":4` + zeros + `e-4000000,"end":5}`, Match},
		{`{"start":4` + zeros + `,"end":5}`, Mismatch},
	} {
		v, diffs, err := Compare(json.RawMessage(`{"start":4,"end":5}`), json.RawMessage(tt.got))
		if err != nil || v != tt.verdict {
			t.Errorf("Compare(4, %.20s…) = %v %v, want %v", tt.got, v, err, tt.verdict)
		}
		for _, d := range diffs {
			if len(d) > 600 {
				t.Errorf("diff line of %d bytes, want it elided", len(d))
			}
		}
	}
}

func TestCompareBadExpectation(t *testing.T) {
	for _, want := range []string{`{"a":1,"a":2}`, `{"a":1}]`, `{"a":`} {
		if _, _, err := Compare(json.RawMessage(want), json.RawMessage(want)); err == nil {
			t.Errorf("Compare(%s, itself): no error, want the expectation refused", want)
		}
	}
}

// TestCompareFormatsBoundedDiffs checks that an answer with many more
// differences than a result keeps gets MaxDiffs formatted lines and a count
// of the rest, which stays exact.
func TestCompareFormatsBoundedDiffs(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"a":1`)
	for i := range 5000 {
		fmt.Fprintf(&b, `,"x%d":%d`, i, i)
	}
	b.WriteString("}")
	v, diffs, err := Compare(json.RawMessage(`{"a":1}`), json.RawMessage(b.String()))
	if err != nil || v != Mismatch {
		t.Fatalf("Compare = %v, %v; want a mismatch", v, err)
	}
	if len(diffs) != MaxDiffs+1 || diffs[MaxDiffs] != "… and 4980 more differences" {
		t.Errorf("Compare gave %d lines, the last %q; want %d and a count of 4980 more", len(diffs), diffs[len(diffs)-1], MaxDiffs+1)
	}
	res := Result{Diffs: diffs}
	res.bound()
	if !slices.Equal(res.Diffs, diffs) {
		t.Errorf("bound changed a list Compare had cut: %q", res.Diffs[MaxDiffs:])
	}
}
