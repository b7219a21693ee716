package protocol

import (
	"encoding/json"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// ValidID reports whether id, as written, is a JSON string or a JSON
// integer that fits in 64 bits (PROTO-ID-001; the runner itself sends only
// integers within MaxIntID).
func ValidID(id json.RawMessage) bool {
	if len(id) == 0 {
		return false
	}
	if id[0] == '"' {
		return len(id) >= 2 && id[len(id)-1] == '"' && json.Valid(id)
	}
	_, err := strconv.ParseInt(string(id), 10, 64)
	return err == nil
}

// TextID reports whether a string id is Unicode text: valid UTF-8 with no
// escaped lone surrogate (PROTO-ID-004). Integer ids are text.
func TextID(id json.RawMessage) bool {
	if len(id) == 0 || id[0] != '"' {
		return true
	}
	if !utf8.Valid(id) {
		return false
	}
	for i := 0; i < len(id); i++ {
		if id[i] != '\\' {
			continue
		}
		if i+1 < len(id) && id[i+1] != 'u' {
			i++ // a two-character escape
			continue
		}
		r, ok := hex4(id, i+2)
		switch {
		case !ok:
			return false
		case utf16.IsSurrogate(r) && r < 0xDC00:
			lo, ok := hex4(id, i+8)
			if !ok || id[i+6] != '\\' || id[i+7] != 'u' || lo < 0xDC00 || lo > 0xDFFF {
				return false
			}
			i += 11
		case utf16.IsSurrogate(r):
			return false // a low surrogate first
		default:
			i += 5
		}
	}
	return true
}

// hex4 reads the four hex digits of a \u escape at data[at:].
func hex4(data []byte, at int) (rune, bool) {
	if at < 0 || at+4 > len(data) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(data[at:at+4]), 16, 16)
	return rune(n), err == nil
}
