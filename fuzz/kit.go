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

// Dictionary returns the tokens of op's formats (its descriptor's Tokens)
// and the characters at its edges (EdgeAlphabet: its classes' alphabets and
// the encodings' edges), as a libFuzzer/AFL dictionary: one `name="value"`
// line each, the value's bytes escaped as \xNN unless printable ASCII.
func Dictionary(op string) string {
	d, _ := Descriptor(op)
	tokens := slices.Concat(d.Tokens, d.EdgeAlphabet())
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

// Properties returns the properties a fuzz target of op checks.
func Properties(op string) []Property {
	d, _ := Descriptor(op)
	return slices.Concat(commonProperties, d.Properties)
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
