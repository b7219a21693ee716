package marker

import "fmt"

// Rejection codes of the marker suite (spec/marker.md, "Rejection codes").
// The list is append-only.
const (
	// CodeDuplicatePartID: two data parts of one call share an id.
	CodeDuplicatePartID = "MARKER_DUPLICATE_PART_ID"
	// CodeBadLocator is withdrawn: no op produces it any more, since a
	// locator of no valid form falls back to the whole part
	// (MARKER-LOCATE-010). It stays listed because codes are never reused.
	CodeBadLocator = "MARKER_BAD_LOCATOR"
	// CodeInvalidUTF8: the bytes of a byte stream are not UTF-8.
	CodeInvalidUTF8 = "MARKER_INVALID_UTF8"
)

// Error is a rejection of an input. Code is stable; the message is not API.
type Error struct {
	Code   string // one of the Code constants
	Offset int    // byte offset of the fault in the input concerned, or -1
	Detail string // what was wrong, for people
}

func (e *Error) Error() string {
	if e.Offset >= 0 {
		return fmt.Sprintf("marker: %s at byte %d: %s", e.Code, e.Offset, e.Detail)
	}
	return fmt.Sprintf("marker: %s: %s", e.Code, e.Detail)
}
