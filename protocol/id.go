package protocol

import (
	"encoding/json"
	"strconv"

	"github.com/conform-suite/conform/internal/jsonv"
)

// ValidID reports whether id, as written, is a JSON string or a JSON
// integer that fits in 64 bits (PROTO-ID-001; the runner itself sends only
// integers from -(2^53-1) to 2^53-1).
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

// TextID reports whether a valid string id is Unicode text: valid UTF-8
// with no escaped lone surrogate (PROTO-ID-004). Any other id (an integer)
// is text.
func TextID(id json.RawMessage) bool {
	if !ValidID(id) || id[0] != '"' {
		return true
	}
	v, err := jsonv.Parse(id)
	return err == nil && !jsonv.HasLoneSurrogate(v.Units)
}
