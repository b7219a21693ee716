package quote

import (
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/conform-suite/conform/reference/internal/opkit"
	"github.com/conform-suite/conform/spec"
)

// TestCodesMatchSpec checks the Go codes against the Rejection codes tables
// of spec/quote-*.md, both ways: every code refused has a message and a row.
func TestCodesMatchSpec(t *testing.T) {
	s, err := spec.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, c := range s.Codes {
		if strings.HasPrefix(c.File, "quote-") {
			want = append(want, c.Code)
		}
	}
	var got []string
	for c := range maps.Keys(codeText) {
		got = append(got, string(c))
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("codes = %v, want the spec's %v", got, want)
	}
}

func TestUTF16Len(t *testing.T) {
	tests := []string{"", "a", "é", "中文", "\U0001F600", "a\U0001F600中\U0010FFFF", "\xff", "\xed\xa0\x80", strings.Repeat("😀", 100)}
	for _, s := range tests {
		// Oracle: encoding/json-style decoding of s to runes, then UTF-16.
		want := len(utf16.Encode([]rune(s)))
		if got := UTF16Len(s); got != want {
			t.Errorf("UTF16Len(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestIsSpace(t *testing.T) {
	// The 25 code points listed in spec/quote-link.md.
	spec := []rune{0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0xA0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004,
		0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF}
	want := map[rune]bool{}
	for _, r := range spec {
		want[r] = true
	}
	for r := rune(0); r <= 0x10FFFF; r++ {
		if got := IsSpace(r); got != want[r] {
			t.Errorf("IsSpace(%U) = %v, want %v", r, got, want[r])
		}
	}
}

func TestParseErrorIsTyped(t *testing.T) {
	tests := []struct {
		href  string
		code  Code
		field string
	}{
		{"t3-citation://v1/a/b/c?text=q&start=0&end=1&prefix=&suffix=&comment=a&%63omment=b", CodeDuplicateField, "comment"},
		{"t3-citation://v1/a/b/c?text=q&start=0&end=1&prefix=", CodeMissingField, "suffix"},
		{"t3-citation://v1/a/b/c?text=q&start=x&end=1&prefix=&suffix=", CodeOffsetSyntax, "start"},
		{"t3-citation://v1/a/%20/c?text=q&start=0&end=1&prefix=&suffix=", CodeIDEmpty, "threadId"},
		{"http://v1/a/b/c", CodeScheme, ""},
	}
	for _, tt := range tests {
		c, err := Parse(tt.href)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("Parse(%q) = %v, %v, want an *Error", tt.href, c, err)
			continue
		}
		if e.Code != tt.code || e.Path != tt.field {
			t.Errorf("Parse(%q) error = %+v, want code %s field %q", tt.href, *e, tt.code, tt.field)
		}
		if c != (Citation{}) {
			t.Errorf("Parse(%q) citation = %+v, want the zero Citation with an error", tt.href, c)
		}
		if !strings.HasPrefix(err.Error(), "quote: ") {
			t.Errorf("Parse(%q) error text %q, want the package prefix", tt.href, err)
		}
	}
}

func ptr(s string) *string { return &s }

func TestFormatRejectsInvalidUTF8(t *testing.T) {
	// A Go string carries an unpaired surrogate as ill-formed UTF-8.
	c := Citation{Version: 1, EnvironmentID: "a", ThreadID: "b", MessageID: "c", Text: "q", End: 1, Comment: ptr("x\xed\xa0\x80")}
	_, err := FormatLink(c)
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeUnpairedSurrogate || e.Path != "comment" {
		t.Errorf("FormatLink(%+v) error = %v, want %s on comment", c, err, CodeUnpairedSurrogate)
	}
}

func TestHasUnpairedSurrogate(t *testing.T) {
	tests := []struct {
		json string
		want bool
	}{
		{`{"a":"\ud83d"}`, true},
		{`{"a":"\uDC00x"}`, true},
		{`{"a":"\ud83d\ude00"}`, false},
		{`{"a":"\ude00\ud83d"}`, true},
		{`{"a":"\ud83d\u0041"}`, true},
		{`{"a":"\\ud83d"}`, false}, // an escaped backslash, then plain text
		{`{"a":"\"\ud83d"}`, true},
		{`{"\ud83d":"x"}`, true},
		{`{"a":"😀","b":1}`, false},
		{`{"a":"\u00e9\u4e2d"}`, false},
	}
	for _, tt := range tests {
		v, err := opkit.Parse(json.RawMessage(tt.json))
		if err != nil {
			t.Fatalf("%s: %v", tt.json, err)
		}
		if got := opkit.HasLoneSurrogate(v); got != tt.want {
			t.Errorf("HasLoneSurrogate(%s) = %v, want %v", tt.json, got, tt.want)
		}
	}
}

func TestJSONInteger(t *testing.T) {
	tests := []struct {
		raw  string
		want int64
		ok   bool
	}{
		{"1", 1, true},
		{"1.0", 1, true},
		{"1e2", 100, true},
		{"-0", 0, true},
		{"9007199254740993", 9007199254740993, true}, // exact: no float rounding
		{"1.5", 0, false},
		{"1e300", 0, false},
		{`"1"`, 0, false},
		{"true", 0, false},
		{"null", 0, false},
	}
	for _, tt := range tests {
		got, ok := jsonInteger(json.RawMessage(tt.raw))
		if got != tt.want || ok != tt.ok {
			t.Errorf("jsonInteger(%s) = %d, %v, want %d, %v", tt.raw, got, ok, tt.want, tt.ok)
		}
	}
}

func TestOpsAnswerBadRequests(t *testing.T) {
	tests := []struct{ op, input string }{
		{"quote.parse", `{}`},
		{"quote.parse", `{"href": 1}`},
		{"quote.parse", `{"href": "x", "extra": 1}`},
		{"quote.collect", `{}`},
		{"quote.format", `{}`},
		{"quote.format", `{"citation": {"version": 1}}`},
		{"quote.format", `{"citation": {"version": "1", "environmentId": "a", "threadId": "b", "messageId": "c", "text": "q", "start": 0, "end": 1, "prefix": "", "suffix": ""}}`},
	}
	for _, tt := range tests {
		out, err := callRaw(Ops[tt.op], json.RawMessage(tt.input))
		if err == nil {
			t.Errorf("%s(%s) = %v, want a bad_request error", tt.op, tt.input, out)
		}
	}
}
