// Package jsonv decodes JSON texts faithfully, for judging answers exactly as
// they were written.
//
// One pass over the bytes gives a tree of Values in which
//   - a string is its sequence of UTF-16 code units, so that a lone surrogate
//     escape such as \ud83d stays a lone surrogate (encoding/json turns it
//     into U+FFFD);
//   - a number is its literal text, compared exactly by NumberEqual (no
//     float is ever involved);
//   - an object keeps its members in the order written, and a member name
//     written twice is reported (ErrDuplicateName);
//   - the syntax is RFC 8259's, strictly: white space is space, tab, LF and
//     CR only, and nothing but white space may follow the value.
//
// Raw bytes that are not well-formed UTF-8 are refused (ErrInvalidUTF8): RFC
// 8259 section 8.1 and protocol v1 (PROTO-FRAME-001) require UTF-8, and
// turning such bytes into U+FFFD would hide a wrong answer behind a right
// one. (Options.ReplaceInvalidUTF8 keeps the old lenient reading for callers
// that build inputs rather than judge answers.)
//
// Nesting depth and the number of values are bounded (Options), so hostile
// input can neither exhaust the stack nor make the tree many times larger
// than the text.
package jsonv

import (
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// Type is the type of a JSON value.
type Type uint8

// Types of values.
const (
	Null Type = iota
	False
	True
	Number
	String
	Array
	Object
)

func (k Type) String() string {
	return [...]string{"null", "false", "true", "number", "string", "array", "object"}[k]
}

// Value is one JSON value. Which fields are set depends on Type.
type Value struct {
	Type    Type
	Num     string   // Number: the literal, as written
	Units   []uint16 // String: the UTF-16 code units, lone surrogates included (nil when only Str holds them: see CodeUnits)
	Str     string   // String: the text, when read with KeepText and it has no lone surrogate; "" otherwise
	Elems   []Value  // Array: the elements
	Members []Member // Object: the members, in the order written
}

// CodeUnits returns the code units of a string: its Units, or, for a string
// read with KeepText that holds its text alone, the units of that text.
func (v *Value) CodeUnits() []uint16 {
	if v.Units != nil || v.Str == "" {
		return v.Units
	}
	return UnitsOf(v.Str)
}

// UnitsOf returns the UTF-16 code units of s, as utf16.Encode([]rune(s))
// does (an ill-formed UTF-8 byte is U+FFFD), in one pass and one
// allocation.
func UnitsOf(s string) []uint16 {
	u := make([]uint16, 0, len(s))
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < utf8.RuneSelf {
			u = append(u, uint16(c))
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		u = utf16.AppendRune(u, r)
		i += n - 1
	}
	return u
}

// ValueCost is what one decoded value may cost to hold, in bytes: a member
// of an object (a name and a value), twice over for the room a growing list
// keeps. Budgets of decoded JSON count values at this cost.
const ValueCost = 2 * int(unsafe.Sizeof(Member{}))

// Member is one member of an object.
type Member struct {
	Name  []uint16 // UTF-16 code units, as Value.Units
	Value Value
}

// Get returns the value of the first member of an object named name, or nil
// when v is not an object or has no such member.
func (v *Value) Get(name string) *Value {
	if v == nil || v.Type != Object {
		return nil
	}
	for i := range v.Members {
		if unitsEqualString(v.Members[i].Name, name) {
			return &v.Members[i].Value
		}
	}
	return nil
}

// unitsEqualString reports whether the code units u spell s.
func unitsEqualString(u []uint16, s string) bool {
	i := 0
	for _, r := range s {
		if r >= 0x10000 {
			hi, lo := utf16.EncodeRune(r)
			if i+1 >= len(u) || u[i] != uint16(hi) || u[i+1] != uint16(lo) {
				return false
			}
			i += 2
			continue
		}
		if i >= len(u) || u[i] != uint16(r) {
			return false
		}
		i++
	}
	return i == len(u)
}

// Key returns a Go string that identifies the code units u: equal units give
// equal keys and different units different keys. Well-formed text gives its
// UTF-8 encoding, so keys sort as UTF-8 strings do; a lone surrogate is
// written as the three bytes UTF-8 would use for its value (which no
// well-formed UTF-8 string contains).
func Key(u []uint16) string {
	b := make([]byte, 0, len(u))
	for i := 0; i < len(u); i++ {
		c := rune(u[i])
		switch {
		case c < 0x80:
			b = append(b, byte(c))
			continue
		case utf16.IsSurrogate(c):
			if c < 0xdc00 && i+1 < len(u) && u[i+1] >= 0xdc00 && u[i+1] <= 0xdfff {
				c = utf16.DecodeRune(c, rune(u[i+1]))
				i++
				break
			}
			b = append(b, 0xe0|byte(c>>12), 0x80|byte(c>>6)&0x3f, 0x80|byte(c)&0x3f)
			continue
		}
		b = utf8.AppendRune(b, c)
	}
	return string(b)
}

// HasLoneSurrogate reports whether u holds a surrogate that is not half of a
// well-formed pair.
func HasLoneSurrogate(u []uint16) bool {
	for i := 0; i < len(u); i++ {
		c := u[i]
		switch {
		case c < 0xd800 || c > 0xdfff:
		case c < 0xdc00 && i+1 < len(u) && u[i+1] >= 0xdc00 && u[i+1] <= 0xdfff:
			i++
		default:
			return true
		}
	}
	return false
}
