package protocol

import (
	"bytes"
	"encoding/json"
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
	buf = append(buf, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
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
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			buf = append(buf, s[start:i]...)
			buf = append(buf, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			buf = append(buf, s[start:i]...)
			buf = append(buf, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	buf = append(buf, s[start:]...)
	return append(buf, '"')
}
