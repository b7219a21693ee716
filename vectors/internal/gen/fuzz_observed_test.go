package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/conform-suite/conform/internal/jsonv"
	"github.com/conform-suite/conform/runner"
	"github.com/conform-suite/conform/vectors"
)

// TestObservationsRepresented: every line of the fuzz observation files is
// represented in the corpus: some vector makes its request, and each vector
// that makes it records the real answer for the line's system exactly when
// the runner would judge that answer otherwise than the vector expects, so
// that a replay of the real system fails the vector under the default
// profile and passes it under the system's own.
func TestObservationsRepresented(t *testing.T) {
	c, err := vectors.Load(vectors.FS())
	if err != nil {
		t.Fatal(err)
	}
	byKey := map[string][]*vectors.Vector{}
	for _, v := range c.Vectors() {
		k, err := inputKey(v.Op, v.Input)
		if err != nil {
			t.Fatalf("%s: %v", v.ID, err)
		}
		byKey[k] = append(byKey[k], v)
	}
	lines := 0
	for _, sys := range fuzzSystems {
		obs, err := readObservations(sys.id)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range obs {
			lines++
			k, err := inputKey(o.Op, o.Input)
			if err != nil {
				t.Fatal(err)
			}
			vs := byKey[k]
			if len(vs) == 0 {
				t.Errorf("fuzz-%s.jsonl line %d (%s): no vector makes this request", sys.id, o.Line, o.Op)
			}
			var real answer
			if err := json.Unmarshal(o.Real, &real); err != nil {
				t.Fatal(err)
			}
			for _, v := range vs {
				if problem := representedBy(v, sys.id, real); problem != "" {
					t.Errorf("fuzz-%s.jsonl line %d: %s: %s", sys.id, o.Line, v.ID, problem)
				}
			}
		}
	}
	if lines == 0 {
		t.Fatal("no observation read")
	}
}

// representedBy says what is wrong with v as the vector of a request that
// system answers real, or "" when nothing is.
func representedBy(v *vectors.Vector, system string, real answer) string {
	expected := false
	switch {
	case real.Error != nil:
		expected = v.Expect.Error != nil && v.Expect.Error.Kind == real.Error.Kind
	case v.Expect.Error != nil:
	default:
		for _, o := range v.AllowedOutputs() {
			if verdict, _, err := runner.Compare(o, real.Output); err == nil && verdict == runner.Match {
				expected = true
			}
		}
	}
	d := v.Divergence(system)
	switch {
	case expected && d != nil:
		return "records a divergence, but the real answer is judged the expected one"
	case expected:
		return ""
	case d == nil:
		return "records no divergence of " + system + ", but the real answer differs from the expected one"
	case real.Error != nil:
		if d.Error == nil || d.Error.Kind != real.Error.Kind {
			return "the recorded answer is not the real error of kind " + real.Error.Kind
		}
	default:
		got, err1 := canonical(d.Output, true)
		want, err2 := canonical(real.Output, true)
		if d.Output == nil || err1 != nil || err2 != nil || !bytes.Equal(got, want) {
			return "the recorded answer is not the real one"
		}
	}
	return ""
}

// TestRepresentedBy feeds representedBy vectors that misrepresent an
// answer; each is caught.
func TestRepresentedBy(t *testing.T) {
	const head = `{"op":"quote.parse","description":"d","vectors":[{"id":"quote.parse/x","description":"d","requirements":["QUOTE-LINK-001"],"input":{"href":""},`
	realOut := answer{Output: json.RawMessage(`{"citation":{"t":"\udc00"}}`)}
	realRefusal := answer{Output: json.RawMessage(`{"rejected":{}}`)}
	realErr := answer{Error: &vectors.AnswerError{Kind: "internal"}}
	for _, tc := range []struct {
		body string
		real answer
		ok   bool
	}{
		{`"expect":{"output":{"rejected":{"code":"QUOTE_SCHEME"}}},"divergences":[{"system":"t3code","reason":"r","output":{"citation":{"t":"\udc00"}}}]}]}`, realOut, true},
		{`"expect":{"output":{"rejected":{"code":"QUOTE_SCHEME"}}},"divergences":[{"system":"t3code","reason":"r","output":{"citation":{"t":"\ufffd"}}}]}]}`, realOut, false},
		{`"expect":{"output":{"rejected":{"code":"QUOTE_SCHEME"}}}}]}`, realOut, false},
		{`"expect":{"output":{"rejected":{"code":"QUOTE_SCHEME"}}}}]}`, realRefusal, true},
		{`"expect":{"output":{"rejected":{"code":"QUOTE_SCHEME"}}},"divergences":[{"system":"t3code","reason":"r","output":{"rejected":{}}}]}]}`, realRefusal, false},
		{`"expect":{"output":{"rejected":{"code":"QUOTE_SCHEME"}}},"divergences":[{"system":"t3code","reason":"r","error":{"kind":"internal"}}]}]}`, realErr, true},
		{`"expect":{"output":{"rejected":{"code":"QUOTE_SCHEME"}}},"divergences":[{"system":"t3code","reason":"r","error":{"kind":"bad_request"}}]}]}`, realErr, false},
		{`"expect":{"output":{"rejected":{"code":"QUOTE_SCHEME"}}},"divergences":[{"system":"vance","reason":"r","error":{"kind":"internal"}}]}]}`, realErr, false},
	} {
		f, err := vectors.Parse("x.json", []byte(head+tc.body))
		if err != nil {
			t.Fatalf("%s: %v", tc.body, err)
		}
		if problem := representedBy(f.Vectors[0], "t3code", tc.real); (problem == "") != tc.ok {
			t.Errorf("%s: problem %q, want ok = %v", tc.body, problem, tc.ok)
		}
	}
}

// TestCanonicalKeepsEveryUnit: canonical changes how a text is written,
// never what it says (jsonv, an independent writer, writes both alike), and
// writes the units a reader could not see as escapes.
func TestCanonicalKeepsEveryUnit(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"b": "\ud83d", "a": ["\u009f\u3000x", "\udb40\udc01", "\ud83d\ude00\"\\\n"], "c": 1.50}`,
			`{"b":"\ud83d","a":["\u009f\u3000x","\udb40\udc01","😀\"\\\n"],"c":1.50}`},
		{`{"k\u200d":"\ude00\ud800","x":null,"y":[true,false]}`, `{"k\u200d":"\ude00\ud800","x":null,"y":[true,false]}`},
	} {
		got, err := canonical([]byte(tc.in), false)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != tc.want {
			t.Errorf("canonical(%s) = %s, want %s", tc.in, got, tc.want)
		}
		a, err1 := jsonv.Parse([]byte(tc.in))
		b, err2 := jsonv.Parse(got)
		if err1 != nil || err2 != nil || !bytes.Equal(jsonv.Append(nil, a), jsonv.Append(nil, b)) {
			t.Errorf("canonical(%s) = %s says something else (%v, %v)", tc.in, got, err1, err2)
		}
	}
}

// TestFuzzReasons: the reason table gives every divergent fuzz vector a
// reason, every class it defines is one some vector has, no recorded reason
// merely restates where the answers differ, and a vector the table does not
// name gets no reason.
func TestFuzzReasons(t *testing.T) {
	table, err := fuzzReasons()
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	for _, classes := range table {
		for _, c := range classes {
			used[c] = true
		}
	}
	for c := range reasonClasses {
		if !used[c] {
			t.Errorf("reason class %s is given to no vector", c)
		}
	}
	c, err := vectors.Load(vectors.FS())
	if err != nil {
		t.Fatal(err)
	}
	recorded := 0
	for _, v := range c.Vectors() {
		if !strings.Contains(v.ID, "/fuzz-") {
			continue
		}
		for _, d := range v.Divergences {
			recorded++
			if len(table[v.ID]) == 0 {
				t.Errorf("%s: recorded without a line in testdata/fuzz-reasons.txt", v.ID)
			}
			for _, w := range []string{"answers otherwise at", "where the reference answers"} {
				if strings.Contains(d.Reason, w) {
					t.Errorf("%s: reason %q says where the answers differ, not why", v.ID, d.Reason)
				}
			}
		}
	}
	if recorded != len(table) {
		t.Errorf("%d fuzz vectors record a divergence, the table has %d lines", recorded, len(table))
	}
	if r, err := reasonOf("quote.parse/fuzz-t3code-0000000000"); err == nil {
		t.Errorf("a vector without a line got the reason %q", r)
	}
}

// TestClassReadsAsTheJudge: an observed answer's class is read as the
// runner's judge reads an output (runner.Compare), not as encoding/json
// would: a refusal is the answer's "rejected" or "dropped" member, its code
// is the member spelt "code" exactly (a "Code" is another member, and the
// refusal is codeless), a code's lone surrogate stays itself, and an answer
// that writes a member twice is no refusal (the judge reads it as a
// mismatch).
func TestClassReadsAsTheJudge(t *testing.T) {
	for _, tc := range []struct{ output, class string }{
		{`{"rejected":{"code":"X"}}`, "rejected:X"},
		{`{"dropped":{}}`, "dropped:"},
		{`{"rejected":{"Code":"X"}}`, "rejected:"},
		{`{"rejected":{"code":7}}`, "rejected:"},
		{`{"rejected":{"code":"X"},"rejected":{"code":"X"}}`, "output"},
		{`{"n":1}`, "output"},
	} {
		if got := classOf(answer{Output: json.RawMessage(tc.output)}); got != tc.class {
			t.Errorf("classOf(%s) = %q, want %q", tc.output, got, tc.class)
		}
	}
	a, b := classOf(answer{Output: json.RawMessage(`{"rejected":{"code":"\ud800"}}`)}), classOf(answer{Output: json.RawMessage(`{"rejected":{"code":"\ud801"}}`)})
	if a == b {
		t.Errorf("codes \\ud800 and \\ud801 have one class %q", a)
	}
}
