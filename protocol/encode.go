package protocol

import (
	"bytes"
	"encoding/json"
	"slices"
	"unicode/utf8"
)

// AppendAnswer appends resp as one answer line (compact JSON and a newline)
// to buf: {"id":...,"output":...} or {"id":...,"error":{"kind":...,"message":...}}.
// The id and output are written as they are, already JSON (an output holding
// a line break is compacted first, so the answer stays one line); the
// message is quoted as encoding/json quotes a string.
func AppendAnswer(buf []byte, resp Response) []byte {
	id := resp.ID
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	buf = append(buf, `{"id":`...)
	buf = append(buf, id...)
	switch {
	case resp.Error != nil:
		buf = append(buf, `,"error":{"kind":`...)
		buf = AppendQuoted(buf, resp.Error.Kind)
		buf = append(buf, `,"message":`...)
		buf = AppendQuoted(buf, resp.Error.Message)
		buf = append(buf, '}')
	case len(resp.Output) > 0:
		out := resp.Output
		if bytes.IndexByte(out, '\n') >= 0 || bytes.IndexByte(out, '\r') >= 0 {
			var c bytes.Buffer
			if err := json.Compact(&c, out); err != nil {
				return AppendAnswer(buf[:len(buf)-len(id)-len(`{"id":`)], ErrorAnswer(id, KindInternal, "the output is not JSON: "+err.Error()))
			}
			out = c.Bytes()
		}
		buf = append(buf, `,"output":`...)
		buf = append(buf, out...)
	}
	return append(buf, "}\n"...)
}

// AppendQuoted appends s as a JSON string, escaped as encoding/json escapes
// it: '"', '\' and control characters, '<', '>' and '&' (as \u003c and so
// on), U+2028 and U+2029, and each byte that is not UTF-8 as \ufffd.
func AppendQuoted(buf []byte, s string) []byte {
	const hex = "0123456789abcdef"
	buf = slices.Grow(buf, len(s)+2)
	buf = append(buf, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if safeASCII[c] {
				i++
				continue
			}
			buf = append(buf, s[start:i]...)
			switch c {
			case '"', '\\':
				buf = append(buf, '\\', c)
			case '\n':
				buf = append(buf, '\\', 'n')
			case '\r':
				buf = append(buf, '\\', 'r')
			case '\t':
				buf = append(buf, '\\', 't')
			case '\b':
				buf = append(buf, '\\', 'b')
			case '\f':
				buf = append(buf, '\\', 'f')
			default:
				buf = append(buf, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		if c >= 0xe0 && c < 0xf0 && i+2 < len(s) && c != 0xe2 {
			// A three-byte character (most of the BMP: CJK, for one),
			// checked here as utf8 checks it: no surrogate, no overlong
			// form. E2 is left to the general case (U+2028, U+2029).
			lo, hi := byte(0x80), byte(0xbf)
			switch c {
			case 0xe0:
				lo = 0xa0
			case 0xed:
				hi = 0x9f
			}
			if c1 := s[i+1]; c1 >= lo && c1 <= hi && s[i+2]&0xc0 == 0x80 {
				i += 3
				continue
			}
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			buf = append(buf, s[start:i]...)
			buf = append(buf, `\ufffd`...)
			start = i + size
		case r == '\u2028' || r == '\u2029':
			buf = append(buf, s[start:i]...)
			buf = append(buf, '\\', 'u', '2', '0', '2', hex[r&0xf])
			start = i + size
		}
		i += size
	}
	buf = append(buf, s[start:]...)
	return append(buf, '"')
}

// safeASCII marks the ASCII bytes that AppendQuoted writes as they are.
var safeASCII = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()
