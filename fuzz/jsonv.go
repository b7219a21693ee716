package fuzz

import (
	"slices"
	"strconv"

	"github.com/conform-suite/conform/internal/jsonv"
)

// The engine builds, mutates and shrinks inputs as jsonv values: strings
// are sequences of UTF-16 code units, so inputs may hold lone surrogates
// (which a Go string cannot carry), written back as JSON escapes; objects
// keep their member order. These are the constructors the generators use.

func jstr(s string) *jsonv.Value {
	return &jsonv.Value{Type: jsonv.String, Units: jsonv.UnitsOf(s)}
}
func junits(u []uint16) *jsonv.Value { return &jsonv.Value{Type: jsonv.String, Units: u} }
func jint(n int64) *jsonv.Value {
	return &jsonv.Value{Type: jsonv.Number, Num: strconv.FormatInt(n, 10)}
}

// jlit is a literal: true, false, null or a number as written.
func jlit(s string) *jsonv.Value {
	v, _ := jsonv.Parse([]byte(s))
	return v
}

func jarr(elems ...*jsonv.Value) *jsonv.Value {
	a := &jsonv.Value{Type: jsonv.Array, Elems: []jsonv.Value{}}
	for _, e := range elems {
		a.Elems = append(a.Elems, *e)
	}
	return a
}

// jobj builds an object from alternating keys and values; a nil value
// leaves the member out.
func jobj(kv ...any) *jsonv.Value {
	o := &jsonv.Value{Type: jsonv.Object, Members: []jsonv.Member{}}
	for i := 0; i+1 < len(kv); i += 2 {
		v, _ := kv[i+1].(*jsonv.Value)
		if v == nil {
			continue
		}
		o.Members = append(o.Members, jsonv.Member{Name: jsonv.UnitsOf(kv[i].(string)), Value: *v})
	}
	return o
}

// clone is a deep copy of v, sharing nothing with it.
func clone(v *jsonv.Value) *jsonv.Value {
	c := *v
	c.Units = slices.Clone(v.Units)
	c.Elems = slices.Clone(v.Elems)
	for i := range c.Elems {
		c.Elems[i] = *clone(&v.Elems[i])
	}
	c.Members = slices.Clone(v.Members)
	for i, m := range v.Members {
		c.Members[i] = jsonv.Member{Name: slices.Clone(m.Name), Value: *clone(&m.Value)}
	}
	return &c
}

// encode writes v as compact JSON. Valid surrogate pairs and other
// characters are written as UTF-8; lone surrogates and control characters
// as \u escapes.
func encode(v *jsonv.Value) []byte { return jsonv.Append(nil, v) }

// parseJSON16 parses one JSON document: string escapes are kept as code
// units, so "\ud83d" survives as a lone surrogate; invalid UTF-8 becomes
// U+FFFD, and a member name written twice is kept twice.
func parseJSON16(data []byte) (*jsonv.Value, error) {
	return jsonv.Options{MaxDepth: jsonMaxDepth, MaxValues: -1, AllowDuplicateNames: true, ReplaceInvalidUTF8: true}.Parse(data)
}

const jsonMaxDepth = 200
