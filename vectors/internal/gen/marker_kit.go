package main

import (
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/conform-suite/conform/vectors"
	"github.com/conform-suite/conform/vectors/internal/vectorkit"
)

// Building blocks of the marker suite's vectors. Expected outputs are
// written out by hand in the generators, or follow from the spec by simple
// arithmetic (runes of an expected text); nothing here calls the reference.

const (
	mStart = "\uE200"
	mDelim = "\uE202"
	mStop  = "\uE201"
)

// mk returns the marker citing id, with an optional locator.
func mk(id string, locator ...string) string {
	s := mStart + "cite" + mDelim + id
	for _, l := range locator {
		s += mDelim + l
	}
	return s + mStop
}

// runes counts the runes of s: the spec's unit for offsets.
func runes(s string) int { return utf8.RuneCountInString(s) }

type cite struct {
	DataPartID string `json:"data_part_id"`
	Offset     int    `json:"offset"`
	Locator    string `json:"locator"`
}

// c is a citation entry.
func c(id string, offset int, locator string) cite { return cite{id, offset, locator} }

type part struct {
	ID    string `json:"id"`
	Value any    `json:"value,omitempty"`
}

func partsOf(ids ...string) []part {
	ps := make([]part, len(ids))
	for i, id := range ids {
		ps[i] = part{ID: id}
	}
	return ps
}

// loneD83D stands for a lone high surrogate: rawJSON turns it into the JSON
// escape \ud83d, which a Go string cannot hold.
const loneD83D = "@LONE-D83D@"

// rawJSON marshals v and writes the runes that are invisible or ambiguous
// in an editor (private use, format, combining marks) as JSON escapes.
func rawJSON(v any) json.RawMessage {
	raw := vectors.Escape(vectorkit.Raw(v), func(r rune) bool {
		return unicode.In(r, unicode.Co, unicode.Cf, unicode.Mn, unicode.Zl, unicode.Zp) && r <= 0xFFFF
	})
	return json.RawMessage(strings.ReplaceAll(string(raw), loneD83D, `\ud83d`))
}

// vec is one vector before encoding.
type vec struct {
	id, desc string
	reqs     []string
	tags     []string
	in, out  any
	div      []*vectors.Divergence
}

// seedReading records on v that seed 001 answers out, for the reason the
// spec's Divergence paragraph gives.
func (v vec) seedReading(reason string, out any) vec {
	v.div = vectorkit.Diverges("seed", reason, rawJSON(out))
	return v
}

// file is the file of op's vectors vs.
func file(op, desc string, vs []vec) *vectors.File {
	f := &vectors.File{Op: op, Description: desc}
	for _, v := range vs {
		f.Vectors = append(f.Vectors, &vectors.Vector{ID: op + "/" + v.id, Description: v.desc, Requirements: v.reqs, Tags: v.tags,
			Input: rawJSON(v.in), Expect: vectors.Expect{Output: rawJSON(v.out)}, Divergences: v.div})
	}
	return f
}

// register registers the generated file path: the vectors of op that vs
// returns.
func register(path, op, desc string, vs func() []vec) {
	vectorkit.Register(path, func() (*vectors.File, error) { return file(op, desc, vs()), nil })
}

// stripOut is the expected output of marker.strip.
type stripOut struct {
	Text      string   `json:"text"`
	Citations []cite   `json:"citations"`
	Parts     []string `json:"parts"`
}

type stripIn struct {
	Text  string `json:"text"`
	Parts []part `json:"parts"`
}

// reject is the output of an op that refuses its input with code.
func reject(code string) map[string]any {
	return map[string]any{"rejected": map[string]string{"code": code}}
}

// cites and ids return their arguments as non-nil slices, so that none
// encodes as null: ids for part ids, requirement ids and tags alike.
func cites(cs ...cite) []cite      { return append([]cite{}, cs...) }
func ids(ss ...string) []string    { return append([]string{}, ss...) }
func literal(text string) stripOut { return stripOut{Text: text, Citations: cites(), Parts: ids()} }
