package fuzz

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"unicode/utf16"

	"github.com/conform-suite/conform/internal/jsonv"
)

// mutate returns a mutated copy of an input: one to three edits aimed at the
// suites' edges, applied anywhere in the JSON tree. The original is not
// changed.
func mutate(r *rand.Rand, in *jsonv.Value) *jsonv.Value {
	out := clone(in)
	for range 1 + r.IntN(3) {
		nodes := walkNodes(out, nil)
		if len(nodes) == 0 {
			break
		}
		n := pickOne(r, nodes)
		switch n.Type {
		case jsonv.String:
			n.Units = mutateUnits(r, n.CodeUnits())
		case jsonv.Number:
			n.Num = pickOne(r, numberEdges)
		case jsonv.Array:
			mutateArray(r, n)
		case jsonv.Object:
			if len(n.Members) > 0 && r.IntN(8) == 0 {
				i := r.IntN(len(n.Members))
				n.Members = slices.Delete(n.Members, i, i+1)
			}
		}
	}
	return out
}

// walkNodes lists every node of v in document order, as pointers into v:
// an edit through one changes v, until the slice holding it is replaced.
func walkNodes(v *jsonv.Value, out []*jsonv.Value) []*jsonv.Value {
	out = append(out, v)
	for i := range v.Elems {
		out = walkNodes(&v.Elems[i], out)
	}
	for i := range v.Members {
		out = walkNodes(&v.Members[i].Value, out)
	}
	return out
}

// numberEdges are integers at the edges of the offsets' domain, and
// numbers that are not integers at all.
var numberEdges = []string{"0", "1", "-1", "2", "31", "32", "33", "200", "4096", "8000", "9007199254740991", "9007199254740992", "1.5", "1e2", "-0", "1.0"}

func mutateArray(r *rand.Rand, a *jsonv.Value) {
	n := len(a.Elems)
	switch r.IntN(5) {
	case 0:
		if n > 0 {
			i := r.IntN(n)
			a.Elems = slices.Insert(a.Elems, i, *clone(&a.Elems[i]))
		}
	case 1:
		if n > 0 {
			i := r.IntN(n)
			a.Elems = slices.Delete(a.Elems, i, i+1)
		}
	case 2:
		if n > 1 {
			i, j := r.IntN(n), r.IntN(n)
			a.Elems[i], a.Elems[j] = a.Elems[j], a.Elems[i]
		}
	case 3: // split a string element: a marker or a surrogate pair across two deltas
		if n > 0 && a.Elems[r.IntN(n)].Type == jsonv.String {
			i := r.IntN(n)
			s := a.Elems[i].CodeUnits()
			k := r.IntN(len(s) + 1)
			a.Elems[i] = *junits(append([]uint16(nil), s[:k]...))
			a.Elems = slices.Insert(a.Elems, i+1, *junits(append([]uint16(nil), s[k:]...)))
		}
	case 4: // merge two adjacent string elements
		if n > 1 {
			i := r.IntN(n - 1)
			if a.Elems[i].Type == jsonv.String && a.Elems[i+1].Type == jsonv.String {
				a.Elems[i] = *junits(append(slices.Clone(a.Elems[i].CodeUnits()), a.Elems[i+1].CodeUnits()...))
				a.Elems = slices.Delete(a.Elems, i+1, i+2)
			}
		}
	}
}

// insertChar returns what a string mutation inserts: a character of a
// class's alphabet, an encoding's edge, a character of the formats' syntax,
// or a lone surrogate.
func insertChar(r *rand.Rand) []uint16 {
	switch r.IntN(8) {
	case 0, 1, 2:
		return jsonv.UnitsOf(drawChar(r, charClasses))
	case 3:
		return jsonv.UnitsOf(drawSpace(r))
	case 4, 5:
		return utf16.Encode([]rune{pickOne(r, edgeRunes)})
	case 6:
		return jsonv.UnitsOf(string(pickOne(r, []rune("%+&=#?/\\\"<>~."))))
	}
	return pickOne(r, loneSurrogates)
}

// percentTricks are fragments that percent-decoders disagree about.
var percentTricks = []string{"%", "%Z", "%ZZ", "%2", "%e9", "%C3", "%ED%A0%80", "%EF%BF%BD", "%2e%2e", "%2F", "%25", "%00", "%0A", "+", "%2B", "%20", "%26", "%3D", "%23"}

func mutateUnits(r *rand.Rand, s []uint16) []uint16 {
	s = slices.Clone(s)
	pos := func() int { return r.IntN(len(s) + 1) }
	switch r.IntN(10) {
	case 0, 1: // insert a character of another class
		return slices.Insert(s, pos(), insertChar(r)...)
	case 2: // grow or cut to a boundary length
		l := pickOne(r, boundaryLens)
		if l <= len(s) {
			return s[:l]
		}
		fill := pickOne(r, [][]uint16{{'a'}, {0x5f15}, {0xd83d, 0xde00}, {' '}})
		for len(s) < l {
			s = append(s, fill...)
		}
		s = s[:l]
		if utf16.IsSurrogate(rune(s[l-1])) && s[l-1] < 0xdc00 && r.IntN(4) != 0 {
			s[l-1] = 'a' // usually keep the string free of lone surrogates
		}
		return s
	case 3: // delete a range
		i := pos()
		return slices.Delete(s, i, min(len(s), i+1+r.IntN(8)))
	case 4: // duplicate a range
		i := pos()
		j := min(len(s), i+1+r.IntN(16))
		return slices.Insert(s, j, slices.Clone(s[i:j])...)
	case 5, 6: // percent-encoding tricks
		if i := slices.Index(s, '%'); i >= 0 && r.IntN(2) == 0 {
			// lower-case or break an existing escape
			if i+2 < len(s) {
				s[i+1+r.IntN(2)] = pickOne(r, []uint16{'a', 'f', 'Z', 'g', '%'})
			}
			return s
		}
		if len(s) > 0 && r.IntN(2) == 0 {
			// percent-encode one ASCII character
			i := r.IntN(len(s))
			if s[i] < 0x80 {
				enc := fmt.Sprintf(pickOne(r, []string{"%%%02X", "%%%02x"}), s[i])
				return slices.Replace(s, i, i+1, jsonv.UnitsOf(enc)...)
			}
		}
		return slices.Insert(s, pos(), jsonv.UnitsOf(pickOne(r, percentTricks))...)
	case 7: // duplicate a query field, plainly or with an encoded key
		return dupQueryField(r, s)
	case 8: // flip the case of ASCII letters in a range
		i := pos()
		for k := i; k < min(len(s), i+1+r.IntN(6)); k++ {
			if c := s[k]; c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
				s[k] ^= 0x20
			}
		}
		return s
	default: // empty or white space only
		if r.IntN(3) == 0 {
			return []uint16{}
		}
		sp := drawSpace(r)
		if r.IntN(2) == 0 {
			sp += drawSpace(r)
		}
		return jsonv.UnitsOf(sp)
	}
}

// dupQueryField appends a copy of one "key=value" field of a URL query,
// sometimes with the key's first letter percent-encoded.
func dupQueryField(r *rand.Rand, s []uint16) []uint16 {
	q := slices.Index(s, '?')
	if q < 0 {
		return s
	}
	var fields [][2]int
	start := q + 1
	for i := start; i <= len(s); i++ {
		if i == len(s) || s[i] == '&' || s[i] == '#' {
			if i > start {
				fields = append(fields, [2]int{start, i})
			}
			if i < len(s) && s[i] == '#' {
				break
			}
			start = i + 1
		}
	}
	if len(fields) == 0 {
		return s
	}
	f := pickOne(r, fields)
	dup := slices.Clone(s[f[0]:f[1]])
	if r.IntN(2) == 0 && len(dup) > 0 && dup[0] < 0x80 {
		dup = slices.Replace(dup, 0, 1, jsonv.UnitsOf(fmt.Sprintf("%%%02X", dup[0]))...)
	}
	at := fields[len(fields)-1][1]
	return slices.Insert(s, at, append([]uint16{'&'}, dup...)...)
}
