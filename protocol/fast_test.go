package protocol

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/conform-suite/conform/internal/jsonv"
	"pgregory.net/rapid"
)

// Pieces of request lines for the fast path's property: names and values
// that the fast path must read as the general path does, or leave to it.
var (
	lineNames = []string{`"id"`, `"op"`, `"input"`, `"\u0069d"`, `"i\u0064"`, `"Id"`, `"OP"`, `"x"`, `"inpu"`, `"input "`}
	lineIDs   = []string{`1`, `0`, `-0`, `01`, `-01`, `-`, `1.0`, `1e2`, `1E2`, `9223372036854775807`, `9223372036854775808`,
		`-9223372036854775808`, `-9223372036854775809`, `"a"`, `""`, `"\ud83d"`, `"\ud83d\ude00"`, `"é日😀"`, "\"\xff\"",
		"\"a\tb\"", `"a\"b"`, `"\u0026"`, `null`, `true`, `{}`, `[1]`, `"<&>"`, "\"\x7f\"", `"`}
	lineOps    = []string{`"quote.parse"`, `"a.b"`, `""`, `"a\u0062"`, `5`, "\"\xff\"", `"é"`, `null`, `"\ud800"`, `"a b"`}
	lineInputs = []string{`{}`, `{"href":"x"}`, `{"a":1,"a":2}`, `{"s":"\udc00"}`, `{"n":1e400,"m":-0.0e-7}`, `[]`, "{\"t\":\"\xff\"}",
		`{`, `{"a":[1,{"b":null}]}`, `{"a":"\ud83d\ude00 \u00e9 \"q\""}`, `"x"`, `{"a":1,}`, `{"a":01}`, "{\"a\":\"\x01\"}"}
	lineSpace = []string{"", "", "", "", "", " ", "\t", "\r\n", "\u00a0"}
	// usual values, drawn as often as all the pieces above
	usual = [][]string{{`1`, `"a"`, `-7`, `"é"`}, {`"quote.parse"`, `"a.b"`}, {`{}`, `{"href":"x"}`, `{"a":"\ud83d","n":1.50}`}}
)

// requestLine draws a request line: mostly well-formed, often not.
var requestLine = rapid.Custom(func(t *rapid.T) []byte {
	sp := func(label string) string { return rapid.SampledFrom(lineSpace).Draw(t, label) }
	var b bytes.Buffer
	if rapid.IntRange(0, 3).Draw(t, "canonical") == 0 { // the usual shape, which the fast path reads
		b.WriteString(`{"id":` + rapid.SampledFrom(usual[0]).Draw(t, "cid") + `,"op":` + rapid.SampledFrom(usual[1]).Draw(t, "cop") +
			`,"input":` + rapid.SampledFrom(usual[2]).Draw(t, "cinput") + "}")
		return b.Bytes()
	}
	b.WriteString(sp("lead") + "{")
	n := rapid.SampledFrom([]int{3, 3, 3, 3, 0, 1, 2, 4, 5}).Draw(t, "members")
	order := rapid.Permutation([]int{0, 1, 2, 3, 4}).Draw(t, "order")
	if rapid.Bool().Draw(t, "idOpInput") { // id, op and input first, in any order
		order = append(rapid.Permutation([]int{0, 1, 2}).Draw(t, "first"), 3, 4)
	}
	for k := range n {
		if k > 0 {
			b.WriteString(sp("comma") + ",")
		}
		var name, value string
		switch m := order[k]; {
		case m < 3 && rapid.IntRange(0, 9).Draw(t, "plain") > 0:
			name = []string{`"id"`, `"op"`, `"input"`}[m]
			pool := [][]string{lineIDs, lineOps, lineInputs}[m]
			if rapid.Bool().Draw(t, "usual") {
				pool = usual[m]
			}
			value = rapid.SampledFrom(pool).Draw(t, "value")
		default:
			name = rapid.SampledFrom(lineNames).Draw(t, "name")
			value = rapid.SampledFrom(append(append(append([]string{}, lineIDs...), lineOps...), lineInputs...)).Draw(t, "value")
		}
		b.WriteString(sp("n0") + name + sp("n1") + ":" + sp("v0") + value + sp("v1"))
	}
	b.WriteString("}" + sp("trail"))
	line := b.Bytes()
	if rapid.IntRange(0, 9).Draw(t, "mutate") == 0 && len(line) > 0 { // one byte changed
		at := rapid.IntRange(0, len(line)-1).Draw(t, "at")
		line[at] = rapid.SampledFrom([]byte(`{}[]":, 0-1e\"x`+"\xff")).Draw(t, "byte")
	}
	return line
})

// TestParseRequestFastAsGeneral: the fast path reads a line only as the
// general path reads it (the same id, op, input and decoded input), and
// ParseRequest answers every line, accepted or refused, byte for byte as
// the general path does.
func TestParseRequestFastAsGeneral(t *testing.T) {
	fast := 0
	rapid.Check(t, func(t *rapid.T) {
		line := requestLine.Draw(t, "line")
		want, wantRefusal := parseRequest(line)
		if req, ok := parseRequestFast(line); ok {
			fast++
			if wantRefusal != nil {
				t.Fatalf("fast path accepted %q, which the general path refuses: %s", line, wantRefusal.Error.Message)
			}
			sameRequest(t, line, req, want)
		}
		got, gotRefusal := ParseRequest(line)
		if (gotRefusal == nil) != (wantRefusal == nil) {
			t.Fatalf("ParseRequest(%q) refusal %v, general %v", line, gotRefusal, wantRefusal)
		}
		if gotRefusal != nil {
			if a, b := AppendAnswer(nil, *gotRefusal), AppendAnswer(nil, *wantRefusal); !bytes.Equal(a, b) {
				t.Fatalf("ParseRequest(%q) answers %s, general %s", line, a, b)
			}
			return
		}
		sameRequest(t, line, got, want)
	})
	if fast == 0 {
		t.Error("no line took the fast path")
	}
}

func sameRequest(t *rapid.T, line []byte, got, want Request) {
	if !bytes.Equal(got.ID, want.ID) || got.Op != want.Op || !bytes.Equal(got.Input, want.Input) ||
		!bytes.Equal(jsonv.Append(nil, got.Value), jsonv.Append(nil, want.Value)) {
		t.Fatalf("ParseRequest(%q) = id %s op %q input %s; general: id %s op %q input %s", line,
			got.ID, got.Op, got.Input, want.ID, want.Op, want.Input)
	}
}

// TestParseRequestFastCases pins lines on either side of the fast path's
// edges.
func TestParseRequestFastCases(t *testing.T) {
	for line, fast := range map[string]bool{
		`{"id":1,"op":"quote.parse","input":{"href":"x"}}`:                  true,
		` { "input" : {"a":"\ud800"} , "op":"a.b" , "id" : "k é" } ` + "\n": true,
		`{"id":-9223372036854775808,"op":"a.b","input":{}}`:                 false,
		`{"id":-9007199254740991,"op":"a.b","input":{}}`:                    true,
		`{"id":01,"op":"a.b","input":{}}`:                                   false,
		`{"id":9223372036854775808,"op":"a.b","input":{}}`:                  false,
		`{"id":"\u0026","op":"a.b","input":{}}`:                             false,
		`{"id":1,"op":"a.b","input":{},"x":1}`:                              false,
		`{"id":1,"op":"a.b","input":{},"id":1}`:                             false,
		`{"id":1,"op":"","input":{}}`:                                       false,
		`{"id":1,"op":"a.b","input":{}}}`:                                   false,
		`{"id":1,"op":"a.b","input":{"a":1}` + strings.Repeat(" ", 3):       false,
	} {
		_, ok := parseRequestFast([]byte(line))
		if ok != fast {
			t.Errorf("parseRequestFast(%q) = %v, want %v", line, ok, fast)
		}
	}
}

// TestKeepTextAsText: the text kept of a string (jsonv's KeepText, which
// InputOptions set) is what Text makes of its code units, a string with a
// lone surrogate keeps none, and the code units a kept string gives
// (CodeUnits, derived from the text alone for plain strings) are the units
// the same options read without KeepText.
func TestKeepTextAsText(t *testing.T) {
	pieces := []string{"a", " ", "é", "日", "😀", "\u2028", "\x7f", `\n`, `\"`, `\\`, `\/`, `\b\f\r\t`, `\u00e9`, `\u0026`, `\u0000`,
		`\ud83d`, `\ude00`, `\ud83d\ude00`, `\uD83D\uDE00`, `\u20ac`, "<&>", "\xff", "\xed\xa0\x80", `\u`, `\x`}
	rapid.Check(t, func(t *rapid.T) {
		body := strings.Join(rapid.SliceOfN(rapid.SampledFrom(pieces), 0, 12).Draw(t, "body"), "")
		lit := []byte(`{"s":"` + body + `"}`)
		for _, opts := range []jsonv.Options{InputOptions, {KeepText: true, ReplaceInvalidUTF8: true}} {
			v, err := opts.Parse(lit)
			units := opts
			units.KeepText = false
			w, werr := units.Parse(lit)
			if (err == nil) != (werr == nil) {
				t.Fatalf("%s: KeepText changes whether it parses: %v, %v", lit, err, werr)
			}
			if err != nil {
				continue
			}
			s, want := v.Get("s"), w.Get("s").Units
			got := s.CodeUnits()
			if !slices.Equal(got, want) {
				t.Fatalf("%s: code units %x, read without KeepText %x", lit, got, want)
			}
			lone := jsonv.HasLoneSurrogate(want)
			switch {
			case lone && s.Str != "":
				t.Fatalf("%s: kept %q for a string with a lone surrogate", lit, s.Str)
			case !lone && len(want) > 0 && !opts.ReplaceInvalidUTF8 && s.Str == "":
				t.Fatalf("%s: kept no text", lit)
			case s.Str != "" && s.Str != Text(want):
				t.Fatalf("%s: kept %q, Text says %q", lit, s.Str, Text(want))
			}
		}
	})
}
