package protocol

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
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
		{`{"id":1,"id":2,"op":"a.b","input":{}}`, "", "1", "", "twice"},
		{`{"id":1,"op":"a.b","input":{},"input":{}}`, "", "1", "", "twice"},
		{`{"id":1,"op":"a.b","input":[]}`, "", "1", "", "not an object"},
		{`{"id":1,"op":5,"input":{}}`, "", "1", "", `"op"`},
		{`{"id":1,"input":{}}`, "", "1", "", `no "op"`},
		{`{"id":1.5,"op":"a.b","input":{}}`, "", "null", "", `"id"`},
		{`{"id":"\ud800","op":"a.b","input":{}}`, "", "null", "", "Unicode"},
		{`{"id":3,"op":"a.b","input":{}} x`, "", "3", "", "after"},
		{`[1]`, "", "null", "", "not a JSON object"},
		{`{"id":4,"op":"a.b","input":{"t":"` + "\xff" + `"}}`, "", "4", "", "UTF-8"},
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
		r, err := ParseAnswer([]byte(tt.line))
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
// naming a member twice, or holding bytes that are not UTF-8, is an answer
// (a wrong one, PROTO-RESULT-001), kept as written and not decoded.
func TestParseAnswerLeavesIllFormedOutputsToJudging(t *testing.T) {
	for _, line := range []string{`{"id":1,"output":{"a":1,"a":2}}`, "{\"id\":1,\"output\":{\"a\":\"\xff\"}}"} {
		r, err := ParseAnswer([]byte(line))
		if err != nil {
			t.Errorf("ParseAnswer(%q): %v", line, err)
			continue
		}
		if want := line[len(`{"id":1,"output":`) : len(line)-1]; string(r.Output) != want || r.Value != nil {
			t.Errorf("ParseAnswer(%q) = output %q, decoded %v; want %q, not decoded", line, r.Output, r.Value != nil, want)
		}
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
		`1.0`: {false, true}, `1e2`: {false, true}, `null`: {false, true}, `"\ud83d"`: {true, false}, `"\ude00\ud83d"`: {true, false},
		"\"\xff\"": {true, false}, `"`: {false, true},
	} {
		if got := [2]bool{ValidID(json.RawMessage(id)), TextID(json.RawMessage(id))}; got != want {
			t.Errorf("ValidID, TextID(%s) = %v, want %v", id, got, want)
		}
	}
}
