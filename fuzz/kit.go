package fuzz

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf16"

	"github.com/conform-suite/conform/internal/jsonv"
)

// This file holds what 'conform fuzzkit' gives a client's own
// coverage-guided fuzzer (Atheris, Jazzer, libFuzzer, cargo-fuzz) about
// each op: the tokens of its format, for a dictionary, and the properties
// every implementation must keep, for the fuzz target to check.

// suiteTokens are the tokens of each suite's formats; the generators'
// alphabets (gen.go) and the differential target's fragments come from the
// same syntax.
var suiteTokens = map[string][]string{
	"quote": {
		"t3-citation://v1/", "t3-citation:", "//v1/", "[Assistant quote](", ")", "](", "?", "&", "=", "/",
		"text=", "start=", "end=", "prefix=", "suffix=", "comment=", "&text=", "&start=", "&end=", "&prefix=", "&suffix=", "&comment=",
		"%", "%25", "%2F", "%20", "%3D", "%26", "%3F", "+", "%E2%80%A8", "%F0%9F%98%80", "%ED%A0%BD", "%C2%85",
		"0", "1", "9007199254740991", "9007199254740992", "-1", "1.5", "1e3",
		"#t3-citation=", "https://example.test/c", ".", "..",
		"Assistant quote", "<p>", "</p>", "<br>", "<math>", "<svg>", "&amp;", "&nbsp;",
	},
	"marker": {
		"\ue200", "\ue201", "\ue202", "\ue200cite\ue202", "cite", "filecite", "tool_data_01", "tool_data_02", "tool_data_",
		"L8", "L8-L13", "/", "/data/5/population", "~0", "~1", "/a~1b", "data", "metadata", "dataPartId", "value",
		".", ",", ")", "\u201d", "\u00bb", "!", "?",
	},
	"selref": {
		"vance:", "vance:/", "vance://", "vance:/apps/links/_app.yaml?entry=", "http://", "https://", "javascript:", "data:", "file:",
		"?entry=", "#", "%3A", "%2F", "label", "vanceUri", "url", "[vance] This message pointed at: \"", "\u2026", " \u2014 ",
	},
}

// edgeTokens are the characters every format counts or checks at an edge:
// the largest rune before the surrogates and the first after, a lone
// surrogate's UTF-8-looking bytes, the last BMP rune and the first astral
// one, the whitespace of JavaScript's \s and its near misses, and the
// controls.
var edgeTokens = []string{
	"\ud7ff", "\ue000", "\ufffd", "\uffff", "\U00010000", "\U0010ffff", "\xed\xa0\x80", "\xed\xbf\xbf",
	"\u00a0", "\u2028", "\u2029", "\u3000", "\ufeff", "\u200b", "\u0085", "\u180e", "\t", "\n", "\r\n", "\x00", "\x7f",
	"e\u0301", "\U0001f600",
}

// Dictionary returns the tokens of op's formats and the edge characters,
// as a libFuzzer/AFL dictionary: one `name="value"` line each, the value's
// bytes escaped as \xNN unless printable ASCII.
func Dictionary(op string) string {
	suite, _, _ := strings.Cut(op, ".")
	tokens := slices.Concat(suiteTokens[suite], edgeTokens)
	var b strings.Builder
	fmt.Fprintf(&b, "# Written by 'conform fuzzkit' for %s: the tokens of its format and the characters at its edges.\n", op)
	for i, t := range tokens {
		fmt.Fprintf(&b, "t%d=\"%s\"\n", i, dictEscape(t))
	}
	return b.String()
}

// dictEscape escapes a dictionary value: '"' and '\' and every byte that
// is not printable ASCII as \xNN.
func dictEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '"' || c == '\\' || c < 0x20 || c >= 0x7f {
			fmt.Fprintf(&b, "\\x%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// A Property is a check a fuzz target makes of every answer, with the
// requirements it rests on.
type Property struct {
	Text         string
	Requirements []string
}

// commonProperties hold for every op.
var commonProperties = []Property{
	{"No input makes the implementation panic, throw, crash or hang: an input the op does not accept is answered {\"error\":{\"kind\":\"bad_request\"}}, and any other with the op's output.", []string{"PROTO-ERROR-001", "PROTO-ERROR-003"}},
	{"The output validates against schemas/ops/OP.json ($defs/output), and a refusal carries one of the codes the specification names for the op.", []string{"PROTO-REJECT-002"}},
	{"Strings are compared code unit by code unit: a lone surrogate in the input stays one code unit wherever the output keeps it.", []string{"PROTO-FRAME-001"}},
	{"The answer to an input does not depend on what was asked before: the same input gets the same answer.", nil},
}

// opProperties hold for one op each.
var opProperties = map[string][]Property{
	"quote.parse": {
		{"An href longer than 160,000 UTF-16 code units is refused (QUOTE_HREF_TOO_LONG), whatever else is wrong with it.", []string{"QUOTE-LINK-022"}},
		{"An accepted citation keeps the limits: each id at most 512 units once trimmed, text and comment at most 8,000, prefix and suffix at most 32, 0 <= start < end <= 2^53-1.", []string{"QUOTE-LINK-039", "QUOTE-LINK-041", "QUOTE-LINK-043", "QUOTE-LINK-045", "QUOTE-LINK-046", "QUOTE-LINK-047"}},
		{"format(parse(href)) parses back to the same citation: for every citation a formatter accepts, parsing its href gives it back, member for member.", []string{"QUOTE-LINK-015"}},
		{"The order of the query fields does not change the answer.", []string{"QUOTE-LINK-035"}},
	},
	"quote.format": {
		{"Every href the formatter writes parses back to the citation it was given.", []string{"QUOTE-LINK-015"}},
	},
	"marker.strip": {
		{"The output text holds no marker character (U+E200, U+E201, U+E202) that was part of a marker; every citation's offset is at most the output text's length in runes.", []string{"MARKER-STRIP-001", "MARKER-OFFSET-001"}},
	},
	"marker.stream": {
		{"The output has one delta more than the input, and the deltas joined are the text marker.strip gives for the whole input.", []string{"MARKER-STREAM-001", "MARKER-STREAM-002"}},
	},
	"selref.ingest": {
		{"An accepted reference's label is at most 201 units long and its addresses pass the gates; a member that is absent, null or not a string is treated alike.", []string{"SELREF-INGEST-001", "SELREF-LABEL-006"}},
	},
}

// Properties returns the properties a fuzz target of op checks.
func Properties(op string) []Property {
	return slices.Concat(commonProperties, opProperties[op])
}

// RawInput returns the one string an op's input holds when the input is an
// object of a single string member (the href of quote.parse, the text of
// quote.normalize), which is what a client's parser takes: its name and
// value; ok is false otherwise.
func RawInput(input []byte) (name, value string, ok bool) {
	v, err := parseJSON16(input)
	if err != nil || v.Type != jsonv.Object || len(v.Members) != 1 || v.Members[0].Value.Type != jsonv.String {
		return "", "", false
	}
	units := v.Members[0].Value.CodeUnits()
	if jsonv.HasLoneSurrogate(units) || jsonv.HasLoneSurrogate(v.Members[0].Name) {
		return "", "", false // no UTF-8 text holds it
	}
	return string(utf16.Decode(v.Members[0].Name)), string(utf16.Decode(units)), true
}
