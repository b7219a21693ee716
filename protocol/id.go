package protocol

import (
	"encoding/json"
	"math"
	"strconv"

	"github.com/conform-suite/conform/internal/jsonv"
)

// ValidID reports whether id, as written, is a JSON string or a JSON
// number whose value is an integer from -(2^53-1) to 2^53-1 (PROTO-ID-001).
// A number is read by its value, the IEEE 754 double nearest to it, as
// JavaScript's JSON.parse reads it: 1.0, 1e0 and -0 are ids, 1.5 and 2^53
// are not (PROTO-ID-005).
func ValidID(id json.RawMessage) bool {
	if len(id) == 0 {
		return false
	}
	if id[0] == '"' {
		return len(id) >= 2 && id[len(id)-1] == '"' && json.Valid(id)
	}
	if id[0] != '-' && (id[0] < '0' || id[0] > '9') || !json.Valid(id) {
		return false // not a number (ParseFloat would take "Inf" and "0x1p3")
	}
	f, err := strconv.ParseFloat(string(id), 64)
	return err == nil && f == math.Trunc(f) && math.Abs(f) <= maxID
}

// maxID is the largest integer id, 2^53-1: every integer up to it is a
// double, and JavaScript's Number.isSafeInteger holds for it.
const maxID = 1<<53 - 1

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
