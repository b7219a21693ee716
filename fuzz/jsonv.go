package fuzz

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/conform-suite/conform/internal/jsonv"
)

// jnode is a JSON value whose strings are sequences of UTF-16 code units, so
// that the engine can build, mutate and shrink inputs holding lone
// surrogates (which a Go string cannot carry) and write them back as JSON
// escapes. Objects keep their member order.
type jnode struct {
	kind    jkind
	lit     string    // the literal of a number, true, false or null
	str     []uint16  // a string
	elems   []*jnode  // an array
	members []jmember // an object, in order
}

type jmember struct {
	key string
	val *jnode
}

type jkind uint8

const (
	jLiteral jkind = iota // number, true, false, null
	jString
	jArray
	jObject
)

// Constructors used by the generators.

func jstr(s string) *jnode     { return &jnode{kind: jString, str: utf16.Encode([]rune(s))} }
func junits(u []uint16) *jnode { return &jnode{kind: jString, str: u} }
func jint(n int64) *jnode      { return &jnode{kind: jLiteral, lit: strconv.FormatInt(n, 10)} }
func jlit(s string) *jnode     { return &jnode{kind: jLiteral, lit: s} }
func jarr(elems ...*jnode) *jnode {
	if elems == nil {
		elems = []*jnode{}
	}
	return &jnode{kind: jArray, elems: elems}
}

// jobj builds an object from alternating keys and values; a nil value
// leaves the member out.
func jobj(kv ...any) *jnode {
	o := &jnode{kind: jObject}
	for i := 0; i+1 < len(kv); i += 2 {
		v, _ := kv[i+1].(*jnode)
		if v == nil {
			continue
		}
		o.members = append(o.members, jmember{kv[i].(string), v})
	}
	return o
}

// get returns the member named key of an object, or nil.
func (v *jnode) get(key string) *jnode {
	if v == nil || v.kind != jObject {
		return nil
	}
	for _, m := range v.members {
		if m.key == key {
			return m.val
		}
	}
	return nil
}

func (v *jnode) clone() *jnode {
	c := &jnode{kind: v.kind, lit: v.lit}
	switch v.kind {
	case jString:
		c.str = append([]uint16(nil), v.str...)
	case jArray:
		c.elems = make([]*jnode, len(v.elems))
		for i, e := range v.elems {
			c.elems[i] = e.clone()
		}
	case jObject:
		c.members = make([]jmember, len(v.members))
		for i, m := range v.members {
			c.members[i] = jmember{m.key, m.val.clone()}
		}
	}
	return c
}

// encode writes v as compact JSON. Valid surrogate pairs and other
// characters are written as UTF-8; lone surrogates and control characters
// as \u escapes.
func (v *jnode) encode() []byte {
	var b strings.Builder
	v.write(&b)
	return []byte(b.String())
}

func (v *jnode) write(b *strings.Builder) {
	switch v.kind {
	case jLiteral:
		b.WriteString(v.lit)
	case jString:
		writeJSON16(b, v.str)
	case jArray:
		b.WriteByte('[')
		for i, e := range v.elems {
			if i > 0 {
				b.WriteByte(',')
			}
			e.write(b)
		}
		b.WriteByte(']')
	case jObject:
		b.WriteByte('{')
		for i, m := range v.members {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSON16(b, utf16.Encode([]rune(m.key)))
			b.WriteByte(':')
			m.val.write(b)
		}
		b.WriteByte('}')
	}
}

func writeJSON16(b *strings.Builder, u []uint16) {
	b.Write(jsonv.AppendString(nil, u))
}

// parseJSON16 parses one JSON document with internal/jsonv. String escapes
// are kept as code units, so "\ud83d" survives as a lone surrogate; invalid
// UTF-8 becomes U+FFFD, and a member name written twice is kept twice.
func parseJSON16(data []byte) (*jnode, error) {
	v, err := jsonv.Options{MaxDepth: jsonMaxDepth, MaxValues: -1, AllowDuplicateNames: true, ReplaceInvalidUTF8: true}.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("fuzz: %w", err)
	}
	return fromValue(v), nil
}

const jsonMaxDepth = 200

// fromValue converts a decoded value into the engine's editable tree.
func fromValue(v *jsonv.Value) *jnode {
	switch v.Type {
	case jsonv.Null:
		return jlit("null")
	case jsonv.False:
		return jlit("false")
	case jsonv.True:
		return jlit("true")
	case jsonv.Number:
		return jlit(v.Num)
	case jsonv.String:
		return junits(v.Units)
	case jsonv.Array:
		a := jarr()
		for i := range v.Elems {
			a.elems = append(a.elems, fromValue(&v.Elems[i]))
		}
		return a
	default:
		o := &jnode{kind: jObject}
		for i := range v.Members {
			m := &v.Members[i]
			o.members = append(o.members, jmember{string(utf16.Decode(m.Name)), fromValue(&m.Value)})
		}
		return o
	}
}
