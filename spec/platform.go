package spec

// TEMPORARY copy of the contract of /tmp/i43/PLAN.md, to compile against
// until the platform tables land; replaced by the real file on merge.

import (
	"fmt"
	"slices"
)

// The kinds of class.
const (
	KindSet      = "set"
	KindStrip    = "strip"
	KindSplit    = "split"
	KindFold     = "fold"
	KindDigit    = "digit"
	KindParse    = "parse"
	KindEscape   = "escape"
	KindPercent  = "percent"
	KindElements = "elements"
)

// A Class is a character class or text rule of the spec.
type Class struct {
	ID           string
	Title        string
	Requirements []string
	Kind         string
	Ops          []string
	Builtins     []string
}

// A Builtin is one platform built-in.
type Builtin struct {
	Key, Language, Name, Version, How, Kind string
}

// A Point is one input where a built-in disagrees with the spec's class.
type Point struct {
	Rune    rune
	Input   string
	Spec    string
	Builtin string
}

func rng(lo, hi rune) []rune {
	var out []rune
	for r := lo; r <= hi; r++ {
		out = append(out, r)
	}
	return out
}

func members(rs []rune, in bool) []Point {
	var out []Point
	for _, r := range rs {
		p := Point{Rune: r, Input: string(r), Spec: "not a member", Builtin: "member"}
		if !in {
			p.Spec, p.Builtin = "member", "not a member"
		}
		out = append(out, p)
	}
	return out
}

var tmpClasses = []Class{
	{ID: "quote.space", Kind: KindSet, Requirements: []string{"QUOTE-ANCHOR-003"},
		Ops:      []string{"quote.normalize", "quote.select", "quote.resolve"},
		Builtins: []string{"python:str.isspace", "java:Character.isWhitespace"}},
	{ID: "quote.trim", Kind: KindStrip, Requirements: []string{"QUOTE-LINK-036"},
		Ops:      []string{"quote.parse", "quote.comment"},
		Builtins: []string{"python:str.strip", "java:String.trim"}},
	{ID: "selref.label", Kind: KindSet, Requirements: []string{"SELREF-LABEL-001"},
		Ops: []string{"selref.ingest"}, Builtins: []string{"python:str.isspace", "java:Character.isWhitespace"}},
	{ID: "selref.trim", Kind: KindStrip, Requirements: []string{"SELREF-URL-001"},
		Ops: []string{"selref.ingest"}, Builtins: []string{"python:str.strip"}},
	{ID: "selref.control", Kind: KindSet, Requirements: []string{"SELREF-VANCE-004", "SELREF-URL-002"},
		Ops: []string{"selref.ingest"}, Builtins: []string{"java:Character.isISOControl"}},
	{ID: "selref.scheme", Kind: KindFold, Requirements: []string{"SELREF-URL-004"},
		Ops: []string{"selref.ingest"}, Builtins: []string{"javascript:toUpperCase"}},
	{ID: "marker.line", Kind: KindSplit, Requirements: []string{"MARKER-LOCATE-006"},
		Ops: []string{"marker.locate"}, Builtins: []string{"python:str.splitlines", "javascript:split(/\\r?\\n/)"}},
	{ID: "marker.space", Kind: KindSet, Requirements: []string{"MARKER-STRIP-010"},
		Ops: []string{"marker.strip", "marker.stream", "marker.artifact"}, Builtins: []string{"python:str.isspace"}},
	{ID: "marker.user-origin", Kind: KindFold, Requirements: []string{"MARKER-STRIP-004"},
		Ops: []string{"marker.strip", "marker.locate"}, Builtins: []string{"javascript:toUpperCase"}},
}

var tmpPoints = map[string]map[string][]Point{
	"quote.space": {
		"python:str.isspace":          slices.Concat(members(rng(0x1C, 0x1F), true), members([]rune{0x85}, true), members([]rune{0xFEFF}, false)),
		"java:Character.isWhitespace": slices.Concat(members(rng(0x1C, 0x1F), true), members([]rune{0xA0, 0x2007, 0x202F, 0xFEFF}, false)),
	},
	"quote.trim": {
		"python:str.strip": slices.Concat(members(rng(0x1C, 0x1F), true), members([]rune{0x85}, true), members([]rune{0xFEFF}, false)),
		"java:String.trim": slices.Concat(members(rng(0x00, 0x08), true), members(rng(0x0E, 0x1F), true), members([]rune{0xA0, 0x1680, 0x3000, 0xFEFF}, false)),
	},
	"selref.label": {
		"python:str.isspace":          members(rng(0x01, 0x08), false),
		"java:Character.isWhitespace": members([]rune{0xA0, 0x2007, 0x202F}, false),
	},
	"selref.trim": {
		"python:str.strip": slices.Concat(members(rng(0x00, 0x08), false), members([]rune{0x85, 0xA0, 0x3000}, true)),
	},
	"selref.control": {
		"java:Character.isISOControl": members([]rune{0x2028, 0x2029}, false),
	},
	"selref.scheme": {
		"javascript:toUpperCase": {{Rune: 0x17F, Input: "\u017f", Spec: "no ASCII match", Builtin: "S"}},
	},
	"marker.space": {
		"python:str.isspace": members(rng(0x1C, 0x1F), true),
	},
	"marker.line": {
		"python:str.splitlines": {{Rune: 0x0B, Input: "\v", Spec: "does not end a line", Builtin: "ends a line"}, {Rune: 0x85, Input: "\u0085", Spec: "does not end a line", Builtin: "ends a line"},
			{Rune: 0x2028, Input: "\u2028", Spec: "does not end a line", Builtin: "ends a line"}, {Rune: -1, Input: "final CR", Spec: `["a"]`, Builtin: `["a",""]`}},
		"javascript:split(/\\r?\\n/)": {{Rune: -1, Input: "final LF", Spec: `["a"]`, Builtin: `["a",""]`}, {Rune: -1, Input: "empty", Spec: `[]`, Builtin: `[""]`}},
	},
	"marker.user-origin": {
		"javascript:toUpperCase": {{Rune: 0x17F, Input: "\u017f", Spec: "no ASCII match", Builtin: "S"}, {Rune: 0x131, Input: "\u0131", Spec: "no ASCII match", Builtin: "I"}},
	},
}

// SplitProbes are the strings whose lines tell a line splitter's CRLF and
// final-terminator behaviour apart, by name.
var SplitProbes = map[string]string{
	"CRLF":       "a\r\nb",
	"final LF":   "a\n",
	"final CRLF": "a\r\n",
	"final CR":   "a\r",
	"empty":      "",
	"empty line": "a\n\nb",
}

// PlatformClasses returns every class, sorted by ID.
func PlatformClasses() ([]Class, error) {
	out := slices.Clone(tmpClasses)
	slices.SortFunc(out, func(a, b Class) int {
		if a.ID < b.ID {
			return -1
		}
		return 1
	})
	return out, nil
}

// PlatformBuiltins returns every built-in by key.
func PlatformBuiltins() (map[string]Builtin, error) {
	out := map[string]Builtin{}
	for _, c := range tmpClasses {
		for _, k := range c.Builtins {
			out[k] = Builtin{Key: k, Name: k, How: "documented", Kind: c.Kind}
		}
	}
	return out, nil
}

// Disagreements returns the points where a built-in disagrees with a class.
func Disagreements(class Class, builtinKey string) ([]Point, error) {
	m, ok := tmpPoints[class.ID]
	if !ok {
		return nil, fmt.Errorf("no class %q", class.ID)
	}
	return m[builtinKey], nil
}
