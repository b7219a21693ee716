package jsonv

import (
	"bytes"
	"encoding/binary"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Strings: their code units (string), their text (plainText), and the
// byte classes and escapes both read.

// plainText reads a string at p.i (which holds '"') into v as its text
// alone, and reports whether it did: a string that is not empty, holds no
// lone surrogate and is well-formed, so that its code units follow from its
// text (CodeUnits). Anything else (a syntax error, ill-formed UTF-8, a lone
// surrogate) is left to string, and p.i where it was.
func (p *parser) plainText(v *Value) bool {
	data, start := p.data, p.i+1
	// b holds the text of data[start:done], escapes decoded.
	var b strings.Builder
	done := start
	for i := start; ; {
		i = skipPlain(data, i)
		if i >= len(data) {
			return false
		}
		switch c := data[i]; {
		case c == '"':
			if i == start {
				return false
			}
			b.Write(data[done:i])
			*v = Value{Type: String, Str: b.String()}
			p.i = i + 1
			return true
		case c == '\\':
			if i+1 >= len(data) {
				return false
			}
			if b.Cap() == 0 {
				// An escape is never shorter than what it stands for, and
				// the next '"' is the string's end unless it is escaped.
				b.Grow(i - start + max(0, bytes.IndexByte(data[i:], '"')))
			}
			b.Write(data[done:i])
			switch e := data[i+1]; {
			case unescape[e] != 0:
				b.WriteByte(unescape[e])
				i += 2
			case e == 'u':
				r, ok := hex4(data[i+2:])
				switch {
				case !ok:
					return false
				case r < 0xd800 || r > 0xdfff:
					b.WriteRune(rune(r))
					i += 6
				case r < 0xdc00 && i+12 <= len(data) && data[i+6] == '\\' && data[i+7] == 'u':
					lo, ok := hex4(data[i+8:])
					if !ok || lo < 0xdc00 || lo > 0xdfff {
						return false
					}
					b.WriteRune(utf16.DecodeRune(rune(r), rune(lo)))
					i += 12
				default:
					return false
				}
			default:
				return false
			}
			done = i
		case c < utf8.RuneSelf: // a control character
			return false
		default:
			r, n := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && n == 1 {
				return false
			}
			i += n
		}
	}
}

// string reads a string at p.i (which holds '"') into code units.
func (p *parser) string() ([]uint16, error) {
	p.i++
	// The bytes up to the next '"' bound the units of a string without an
	// escaped quote, so one allocation usually holds it all.
	n := bytes.IndexByte(p.data[p.i:], '"')
	if n < 0 {
		n = 0
	}
	// The short strings of one text share allocations of a few KiB (the
	// units of them all are no more than the bytes left); a long one has
	// its own. Each string's slice is capped, so that an append to it
	// cannot reach the next.
	var u []uint16
	if n >= 1<<10 {
		u = make([]uint16, 0, n)
	} else {
		if cap(p.units)-len(p.units) < n {
			room := min(len(p.data)-p.i, 4<<10)
			if p.opts.KeepText {
				room /= 8 // most strings keep their text alone: the member names are left
			}
			p.units = make([]uint16, 0, max(n, room))
		}
		k := len(p.units)
		u = p.units[k : k : k+n]
		p.units = p.units[:k+n]
	}
	for {
		// A run of printable ASCII (the bulk of most strings) is widened
		// in one loop; the switch below takes everything else.
		data, i := p.data, skipPlain(p.data, p.i)
		if i > p.i {
			src := data[p.i:i]
			k := len(u)
			u = slices.Grow(u, len(src))[:k+len(src)]
			dst := u[k:]
			dst = dst[:len(src)]
			for j, c := range src {
				dst[j] = uint16(c)
			}
			p.i = i
		}
		if p.i >= len(p.data) {
			return nil, p.fail(ErrSyntax, "unterminated string")
		}
		c := p.data[p.i]
		switch {
		case c == '"':
			p.i++
			return u, nil
		case c == '\\':
			if p.i+1 >= len(p.data) {
				return nil, p.fail(ErrSyntax, "unterminated escape")
			}
			switch e := p.data[p.i+1]; {
			case unescape[e] != 0:
				u = append(u, uint16(unescape[e]))
			case e == 'u':
				n, ok := hex4(p.data[p.i+2:])
				if !ok {
					return nil, p.fail(ErrSyntax, `\u wants four hexadecimal digits`)
				}
				u = append(u, n)
				p.i += 4
			default:
				return nil, p.fail(ErrSyntax, "unknown escape \\%c", e)
			}
			p.i += 2
		case c < 0x20:
			return nil, p.fail(ErrSyntax, "control character 0x%02x in a string", c)
		default: // skipPlain stops at no other byte below 0x80
			r, n := utf8.DecodeRune(p.data[p.i:])
			if r == utf8.RuneError && n == 1 && !p.opts.ReplaceInvalidUTF8 {
				return nil, p.fail(ErrInvalidUTF8, "byte 0x%02x in a string", c)
			}
			p.i += n
			u = utf16.AppendRune(u, r)
		}
	}
}

// skipPlain returns the offset of the first byte from data[i] on that is not
// plain, eight bytes at a time while it can.
func skipPlain(data []byte, i int) int {
	for i+8 <= len(data) && plain8(binary.LittleEndian.Uint64(data[i:])) {
		i += 8
	}
	for i < len(data) && plain[data[i]] {
		i++
	}
	return i
}

// plain8 reports whether the eight bytes of x are all plain: no byte below
// 0x20, none from 0x80 up, no '"' and no '\\'.
func plain8(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	q, b := x^('"'*ones), x^('\\'*ones) // a '"' or '\\' byte of x is a zero byte of these
	below := (x - 0x20*ones) &^ x       // a byte below 0x20 sets its high bit (x's own high bits count apart)
	quote := (q - ones) &^ q
	slash := (b - ones) &^ b
	return (x|below|quote|slash)&highs == 0
}

// unescape maps the letter of each two-character escape of a JSON string to
// the byte it stands for; 0 for a letter that is no such escape.
var unescape = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// plain marks the bytes that stand for themselves in a JSON string: printable
// ASCII but '"' and '\\'.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

func hex4(b []byte) (uint16, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var n uint16
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		n = n<<4 | uint16(c)
	}
	return n, true
}
