package fuzz

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
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
	b.WriteByte('"')
	for i := 0; i < len(u); i++ {
		c := u[i]
		switch {
		case c == '"':
			b.WriteString(`\"`)
		case c == '\\':
			b.WriteString(`\\`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(b, `\u%04x`, c)
		case utf16.IsSurrogate(rune(c)):
			if c < 0xdc00 && i+1 < len(u) && u[i+1] >= 0xdc00 && u[i+1] <= 0xdfff {
				b.WriteRune(utf16.DecodeRune(rune(c), rune(u[i+1])))
				i++
				continue
			}
			fmt.Fprintf(b, `\u%04x`, c)
		default:
			b.WriteRune(rune(c))
		}
	}
	b.WriteByte('"')
}

// parseJSON16 parses one JSON document. String escapes are kept as code
// units, so "\ud83d" survives as a lone surrogate; invalid UTF-8 becomes
// U+FFFD.
func parseJSON16(data []byte) (*jnode, error) {
	p := &jparser{data: data}
	p.space()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.data) {
		return nil, p.errorf("trailing data")
	}
	return v, nil
}

type jparser struct {
	data []byte
	i    int
}

const jsonMaxDepth = 200

func (p *jparser) errorf(format string, args ...any) error {
	return fmt.Errorf("fuzz: json at byte %d: %s", p.i, fmt.Sprintf(format, args...))
}

func (p *jparser) space() {
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *jparser) value(depth int) (*jnode, error) {
	if depth > jsonMaxDepth {
		return nil, p.errorf("nested too deeply")
	}
	if p.i >= len(p.data) {
		return nil, p.errorf("unexpected end")
	}
	switch c := p.data[p.i]; {
	case c == '{':
		p.i++
		o := &jnode{kind: jObject}
		p.space()
		if p.i < len(p.data) && p.data[p.i] == '}' {
			p.i++
			return o, nil
		}
		for {
			p.space()
			k, err := p.string()
			if err != nil {
				return nil, err
			}
			p.space()
			if p.i >= len(p.data) || p.data[p.i] != ':' {
				return nil, p.errorf("want ':'")
			}
			p.i++
			p.space()
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			o.members = append(o.members, jmember{string(utf16.Decode(k)), v})
			p.space()
			if p.i < len(p.data) && p.data[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.data) && p.data[p.i] == '}' {
				p.i++
				return o, nil
			}
			return nil, p.errorf("want ',' or '}'")
		}
	case c == '[':
		p.i++
		a := jarr()
		p.space()
		if p.i < len(p.data) && p.data[p.i] == ']' {
			p.i++
			return a, nil
		}
		for {
			p.space()
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			a.elems = append(a.elems, v)
			p.space()
			if p.i < len(p.data) && p.data[p.i] == ',' {
				p.i++
				continue
			}
			if p.i < len(p.data) && p.data[p.i] == ']' {
				p.i++
				return a, nil
			}
			return nil, p.errorf("want ',' or ']'")
		}
	case c == '"':
		s, err := p.string()
		if err != nil {
			return nil, err
		}
		return junits(s), nil
	default:
		start := p.i
		for p.i < len(p.data) && strings.IndexByte("+-0123456789.eEtruefalsn", p.data[p.i]) >= 0 {
			p.i++
		}
		lit := string(p.data[start:p.i])
		switch {
		case lit == "true" || lit == "false" || lit == "null":
		case lit != "" && jsonNumber(lit):
		default:
			p.i = start
			return nil, p.errorf("invalid literal")
		}
		return jlit(lit), nil
	}
}

var jsonNumberSyntax = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

func jsonNumber(s string) bool { return jsonNumberSyntax.MatchString(s) }

func (p *jparser) string() ([]uint16, error) {
	if p.i >= len(p.data) || p.data[p.i] != '"' {
		return nil, p.errorf("want string")
	}
	p.i++
	var u []uint16
	for {
		if p.i >= len(p.data) {
			return nil, p.errorf("unterminated string")
		}
		c := p.data[p.i]
		switch {
		case c == '"':
			p.i++
			if u == nil {
				u = []uint16{}
			}
			return u, nil
		case c == '\\':
			if p.i+1 >= len(p.data) {
				return nil, p.errorf("unterminated escape")
			}
			e := p.data[p.i+1]
			p.i += 2
			switch e {
			case '"', '\\', '/':
				u = append(u, uint16(e))
			case 'b':
				u = append(u, '\b')
			case 'f':
				u = append(u, '\f')
			case 'n':
				u = append(u, '\n')
			case 'r':
				u = append(u, '\r')
			case 't':
				u = append(u, '\t')
			case 'u':
				if p.i+4 > len(p.data) {
					return nil, p.errorf("short \\u escape")
				}
				n, err := strconv.ParseUint(string(p.data[p.i:p.i+4]), 16, 16)
				if err != nil {
					return nil, p.errorf("bad \\u escape")
				}
				u = append(u, uint16(n))
				p.i += 4
			default:
				return nil, p.errorf("bad escape")
			}
		case c < 0x20:
			return nil, p.errorf("control character in string")
		case c < utf8.RuneSelf:
			u = append(u, uint16(c))
			p.i++
		default:
			r, n := utf8.DecodeRune(p.data[p.i:])
			p.i += n
			u = utf16.AppendRune(u, r)
		}
	}
}
