package jsonv

import (
	"bytes"
	"encoding/json"
	"slices"
	"unicode/utf16"
	"unicode/utf8"
)

// AppendString appends the JSON string of the code units u to dst. Well-formed
// characters are written as UTF-8; a lone surrogate, a control character and
// DEL as a \u escape (lowercase hexadecimal), so that the text shows what the
// units are; '"' and '\' are escaped, and LF, CR and TAB as \n, \r, \t.
func AppendString(dst []byte, u []uint16) []byte {
	const hex = "0123456789abcdef"
	dst = slices.Grow(dst, len(u)+2)
	dst = append(dst, '"')
	for i := 0; i < len(u); i++ {
		c := u[i]
		switch {
		case c >= 0x20 && c < 0x7f && c != '"' && c != '\\':
			dst = append(dst, byte(c)) // the common case first
		case c < 0x80 && shortEscape[c] != 0:
			dst = append(dst, '\\', shortEscape[c])
		case c < 0x20 || c == 0x7f:
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		case utf16.IsSurrogate(rune(c)):
			if c < 0xdc00 && i+1 < len(u) && u[i+1] >= 0xdc00 && u[i+1] <= 0xdfff {
				dst = utf8.AppendRune(dst, utf16.DecodeRune(rune(c), rune(u[i+1])))
				i++
				continue
			}
			dst = append(dst, '\\', 'u', hex[c>>12], hex[c>>8&0xf], hex[c>>4&0xf], hex[c&0xf])
		default:
			dst = utf8.AppendRune(dst, rune(c))
		}
	}
	return append(dst, '"')
}

// shortEscape holds the letter of the two-character escape AppendString
// writes for a byte ('n' for LF), or 0 when it writes none.
var shortEscape = [0x80]byte{'"': '"', '\\': '\\', '\n': 'n', '\r': 'r', '\t': 't'}

// Append appends v as compact JSON to dst: numbers as written, strings as
// AppendString writes them, members in their order.
func Append(dst []byte, v *Value) []byte {
	switch v.Type {
	case Null:
		return append(dst, "null"...)
	case False:
		return append(dst, "false"...)
	case True:
		return append(dst, "true"...)
	case Number:
		return append(dst, v.Num...)
	case String:
		return AppendString(dst, v.CodeUnits())
	case Array:
		dst = append(dst, '[')
		for i := range v.Elems {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = Append(dst, &v.Elems[i])
		}
		return append(dst, ']')
	default:
		dst = append(dst, '{')
		for i := range v.Members {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendString(dst, v.Members[i].Name)
			dst = append(dst, ':')
			dst = Append(dst, &v.Members[i].Value)
		}
		return append(dst, '}')
	}
}

// Marshal is [MarshalIndent] without indentation: v encoded by encoding/json
// on one line.
func Marshal(v any) ([]byte, error) { return MarshalIndent(v, "", "") }

// MarshalIndent is json.MarshalIndent that leaves the HTML characters <, >
// and & as they are, for text read by people and tools rather than embedded
// in HTML. Like json.MarshalIndent it writes no final newline.
func MarshalIndent(v any, prefix, indent string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent(prefix, indent)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
