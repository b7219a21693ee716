package protocol

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/conform-suite/conform/internal/jsonv"
)

func TestParseRequest(t *testing.T) {
	tests := []struct {
		line   string
		op     string // "" when refused
		id     string // the id echoed (refused: the answer's id)
		input  string
		reason string // a word of the refusal
	}{
		{`{"id":7,"op":"quote.parse","input":{"href":"x"}}`, "quote.parse", "7", `{"href":"x"}`, ""},
		{` {"op":"a.b", "input" : {} , "id":"k","grease":{"ignore":true}} `, "a.b", `"k"`, `{}`, ""},
		{`{"id":1,"op":"a.b","input":{"a":"\ud83d","n":1.50}}`, "a.b", "1", `{"a":"\ud83d","n":1.50}`, ""},
		{`{"id":1,"op":"a.b","input":{"v":{"a":1,"a":2}}}`, "a.b", "1", `{"v":{"a":1,"a":2}}`, ""},
		// Which of two ids to echo is anybody's guess (PROTO-FRAME-009).
		{`{"id":1,"id":2,"op":"a.b","input":{}}`, "", "null", "", "twice"},
		{`{"id":1,"i\u0064":1,"op":"a.b","input":{}}`, "", "null", "", `"id" twice`},
		{`{"id":1,"op":"a.b","input":{},"input":{}}`, "", "1", "", "twice"},
		{`{"id":1,"op":"a.b","input":[]}`, "", "1", "", "not an object"},
		{`{"id":1,"op":5,"input":{}}`, "", "1", "", `"op"`},
		{`{"id":1,"input":{}}`, "", "1", "", `no "op"`},
		{`{"id":1.5,"op":"a.b","input":{}}`, "", "null", "", `"id"`},
		{`{"id":9007199254740992,"op":"a.b","input":{}}`, "", "null", "", `"id"`},
		{`{"id":1.0,"op":"a.b","input":{}}`, "a.b", "1.0", `{}`, ""},
		{`{"id":"\ud800","op":"a.b","input":{}}`, "", "null", "", "Unicode"},
		{`{"id":3,"op":"a.b","input":{}} x`, "", "3", "", "after"},
		{`[1]`, "", "null", "", "not a JSON object"},
		{`{"id":4,"op":"a.b","input":{"t":"` + "\xff" + `"}}`, "", "4", "", "UTF-8"},
		// A name written with escapes is the same name as written plain.
		{`{"id":1,"op":"a.b","input":{},"\u0069nput":{}}`, "", "1", "", `"input" twice`},
		{`{"i\u0064":5,"op":"a.b","input":{}}`, "a.b", "5", `{}`, ""},
		// Many members: the ninth and later are checked against all before.
		{`{"a":1,"b":1,"c":1,"d":1,"e":1,"f":1,"g":1,"h":1,"i":1,"id":1,"op":"a.b","input":{},"a":2}`, "", "1", "", `"a" twice`},
		{`{"a":1,"b":1,"c":1,"d":1,"e":1,"f":1,"g":1,"h":1,"i":1,"j":1,"id":2,"op":"a.b","input":{}}`, "a.b", "2", `{}`, ""},
	}
	for _, tt := range tests {
		req, refusal := ParseRequest([]byte(tt.line))
		if tt.op == "" {
			if refusal == nil || refusal.Error == nil || refusal.Error.Kind != KindBadRequest || string(refusal.ID) != tt.id ||
				!strings.Contains(refusal.Error.Message, tt.reason) {
				t.Errorf("ParseRequest(%s) = %+v, %+v; want a bad_request with id %s mentioning %q", tt.line, req, refusal, tt.id, tt.reason)
			}
			continue
		}
		if refusal != nil {
			t.Errorf("ParseRequest(%s) refused: %s", tt.line, refusal.Error.Message)
			continue
		}
		if req.Op != tt.op || string(req.ID) != tt.id || string(req.Input) != tt.input || req.Value == nil {
			t.Errorf("ParseRequest(%s) = op %q id %s input %s; want %q %s %s", tt.line, req.Op, req.ID, req.Input, tt.op, tt.id, tt.input)
		}
	}
}

// TestParseRequestKeepsLoneSurrogates checks that the decoded input holds
// the lone surrogate as written, where encoding/json would hold U+FFFD.
func TestParseRequestKeepsLoneSurrogates(t *testing.T) {
	req, refusal := ParseRequest([]byte(`{"id":1,"op":"a.b","input":{"s":"x\udc00"}}`))
	if refusal != nil {
		t.Fatal(refusal.Error)
	}
	s := req.Value.Get("s")
	if s == nil || len(s.Units) != 2 || s.Units[1] != 0xdc00 {
		t.Fatalf("input.s = %+v, want the units x, U+DC00", s)
	}
	if got := Text(s.Units); got != "x\ufffd" {
		t.Errorf("Text = %q, want x and U+FFFD", got)
	}
}

func TestParseAnswer(t *testing.T) {
	tests := []struct {
		line   string
		output string // the Output kept; "" when an error or refused
		kind   string // the error kind, when an error
		reason string // a word of the refusal; "" when accepted
	}{
		{`{"id":1,"output":{"a":"\ud83d","n":1.0e2}}`, `{"a":"\ud83d","n":1.0e2}`, "", ""},
		{`{"output": {"a":1} ,"id":"x","extra":[1]}`, `{"a":1}`, "", ""},
		{`{"id":1,"error":{"kind":"internal","message":"boom","more":1}}`, "", "internal", ""},
		{`{"id":1,"output":{"a":1},"output":{"a":2}}`, "", "", "twice"},
		{`{"id":1,"id":2,"output":{}}`, "", "", "twice"},
		{`{"id":1,"output":{},"error":{"kind":"internal","message":""}}`, "", "", "both"},
		{`{"id":1,"output":[]}`, "", "", "not an object"},
		{`{"id":1}`, "", "", "neither"},
		{`{"output":{}}`, "", "", `no "id"`},
		{`{"id":1,"error":{"kind":"oops","message":""}}`, "", "", "kind"},
		{`{"id":1,"error":{"Kind":"internal","message":""}}`, "", "", "kind"},
		{`{"id":1,"error":"internal"}`, "", "", "not an object"},
		{`{"id":1,"output":{}} {}`, "", "", "after"},
		{`not json`, "", "", "not JSON"},
	}
	for _, tt := range tests {
		r, err := ParseAnswer([]byte(tt.line), 0)
		switch {
		case tt.reason != "":
			if err == nil || !strings.Contains(err.Error(), tt.reason) {
				t.Errorf("ParseAnswer(%s) = %v; want an error mentioning %q", tt.line, err, tt.reason)
			}
		case err != nil:
			t.Errorf("ParseAnswer(%s): %v", tt.line, err)
		case tt.kind != "":
			if r.Error == nil || r.Error.Kind != tt.kind || r.Output != nil {
				t.Errorf("ParseAnswer(%s) = %+v; want error kind %s", tt.line, r, tt.kind)
			}
		case string(r.Output) != tt.output || r.Value == nil || r.Error != nil:
			t.Errorf("ParseAnswer(%s) = output %s (decoded: %v); want %s", tt.line, r.Output, r.Value != nil, tt.output)
		}
	}
}

// TestParseAnswerLeavesIllFormedOutputsToJudging checks that an output
// holding bytes that are not UTF-8 is an answer (a wrong one,
// PROTO-RESULT-001), kept as written and not decoded.
func TestParseAnswerLeavesIllFormedOutputsToJudging(t *testing.T) {
	line := "{\"id\":1,\"output\":{\"a\":\"\xff\"}}"
	r, err := ParseAnswer([]byte(line), 0)
	if err != nil {
		t.Fatalf("ParseAnswer(%q): %v", line, err)
	}
	if want := line[len(`{"id":1,"output":`) : len(line)-1]; string(r.Output) != want || r.Value != nil {
		t.Errorf("ParseAnswer(%q) = output %q, decoded %v; want %q, not decoded", line, r.Output, r.Value != nil, want)
	}
}

// TestParseAnswerRefusesDuplicateMembers checks PROTO-RESULT-003: a member
// named twice anywhere in an answer, the output's depths included, is a
// protocol violation whose message says which member and where.
func TestParseAnswerRefusesDuplicateMembers(t *testing.T) {
	for line, want := range map[string]string{
		`{"id":1,"output":{"a":1,"a":2}}`:                                  `the answer's member "output" names the member "a" twice at $`,
		`{"id":1,"output":{"c":[{"o":1,"o":1}]}}`:                          `the answer's member "output" names the member "o" twice at $.c[0]`,
		`{"id":1,"output":{"a":1},"output":{"a":1}}`:                       `the answer names the member "output" twice`,
		`{"id":1,"error":{"kind":"internal","message":"m","message":"n"}}`: `duplicate member name`,
	} {
		_, err := ParseAnswer([]byte(line), 0)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseAnswer(%s) = %v; want an error saying %q", line, err, want)
		}
	}
}

// TestParseAnswerBudget checks that an answer's output decodes into at most
// the values it is allowed, and that one over is refused with a
// *TooLargeError naming the budget, whatever its bytes.
func TestParseAnswerBudget(t *testing.T) {
	out := func(n int) []byte { // an output of exactly n values: {"a":[0,...]}
		return []byte(`{"id":1,"output":{"a":[` + strings.TrimSuffix(strings.Repeat("0,", n-2), ",") + `]}}`)
	}
	if _, err := ParseAnswer(out(100), 100); err != nil {
		t.Errorf("an output of 100 values within a budget of 100: %v", err)
	}
	_, err := ParseAnswer(out(101), 100)
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.MaxValues != 100 || !strings.Contains(err.Error(), `member "output" decodes into more than 100 JSON values`) {
		t.Errorf("an output of 101 values within a budget of 100: %v; want a *TooLargeError", err)
	}
	if _, err := ParseAnswer(out(DefaultMaxAnswerValues+1), 0); !errors.As(err, &tl) || tl.MaxValues != DefaultMaxAnswerValues {
		t.Errorf("budget 0 is DefaultMaxAnswerValues: %v", err)
	}
}

// TestAppendAnswerAgreesWithEncodingJSON checks the hand-written answer
// against encoding/json's marshalling of the same envelope.
func TestAppendAnswerAgreesWithEncodingJSON(t *testing.T) {
	msgs := []string{"", "plain", "a\"b\\c", "<&>", "tab\tnl\ncr\r", "\x00\x1f\x7f", "\b\f", "é中😀",
		"\u2028\u2029", "bad\xffutf8\xed\xa0\x80", "\ufffd"}
	for _, m := range msgs {
		for _, id := range []string{"7", `"x"`, ""} {
			resp := ErrorAnswer(json.RawMessage(id), KindInternal, m)
			if id == "" {
				resp = ErrorAnswer(nil, KindInternal, m)
			}
			want, err := json.Marshal(resp)
			if err != nil {
				t.Fatal(err)
			}
			if got := AppendAnswer(nil, resp); string(got) != string(want)+"\n" {
				t.Errorf("AppendAnswer(%q) = %s, want %s", m, got, want)
			}
		}
	}
	out := Response{ID: json.RawMessage("1"), Output: json.RawMessage("{\"a\":\n 1}")}
	if got := AppendAnswer(nil, out); string(got) != `{"id":1,"output":{"a":1}}`+"\n" {
		t.Errorf("AppendAnswer of an output with a line break = %s", got)
	}
}

func FuzzAppendQuoted(f *testing.F) {
	f.Add("a<b>\u2028\xff")
	f.Fuzz(func(t *testing.T, s string) {
		want, _ := json.Marshal(s)
		got := AppendQuoted(nil, s)
		if string(got) != string(want) || !utf8.Valid(got) {
			t.Errorf("AppendQuoted(%q) = %s, want %s", s, got, want)
		}
	})
}

func TestIDs(t *testing.T) {
	for id, want := range map[string][2]bool{
		`7`: {true, true}, `-9007199254740991`: {true, true}, `"a"`: {true, true}, `"\ud83d\ude00"`: {true, true},
		// Numbers by value (PROTO-ID-005): integers up to 2^53-1, however spelt.
		`1.0`: {true, true}, `1e2`: {true, true}, `10E-1`: {true, true}, `-0`: {true, true}, `9007199254740991`: {true, true},
		`1.5`: {false, true}, `9007199254740992`: {false, true}, `-9007199254740992`: {false, true}, `1e400`: {false, true},
		`0x10`: {false, true}, `Inf`: {false, true}, `+1`: {false, true}, `true`: {false, true}, `{}`: {false, true}, `[1]`: {false, true},
		`null`: {false, true}, `"\ud83d"`: {true, false}, `"\ude00\ud83d"`: {true, false},
		"\"\xff\"": {true, false}, `"`: {false, true},
	} {
		if got := [2]bool{ValidID(json.RawMessage(id)), TextID(json.RawMessage(id))}; got != want {
			t.Errorf("ValidID, TextID(%s) = %v, want %v", id, got, want)
		}
	}
}

// TestTextAsEncodingJSON: Text reads code units as encoding/json reads the
// same JSON string (each lone surrogate as U+FFFD), whatever the mix of
// UTF-8 lengths.
func TestTextAsEncodingJSON(t *testing.T) {
	for _, lit := range []string{
		`""`, `"plain ascii"`, `"é and ß"`, `"日本語"`, `"😀 pair"`, `"a\ud83d"`, `"\ude00b"`,
		`"\ud83d\ud83d\ude00"`, `"\u07ff\u0800\uffff"`, `"mixed é日😀\ud800x"`,
		// Longer than the block Text encodes in, with every width at its edges.
		`"` + strings.Repeat(`é日😀a\ud800`, 200) + `"`, `"` + strings.Repeat("a", 1500) + `"`,
	} {
		v, err := jsonv.Parse([]byte(lit))
		if err != nil {
			t.Fatal(err)
		}
		var want string
		if err := json.Unmarshal([]byte(lit), &want); err != nil {
			t.Fatal(err)
		}
		if got := Text(v.Units); got != want {
			t.Errorf("Text(%s) = %q, want %q", lit, got, want)
		}
	}
}
