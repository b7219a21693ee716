package marker

import "fmt"

// Rejection codes the marker suite produces (spec/marker.md, "Rejection
// codes"). That table also keeps the withdrawn MARKER_BAD_LOCATOR, so the
// code is never reused; no op produces it, so it is not listed here.
const (
	// CodeDuplicatePartID: two data parts of one call share an id.
	CodeDuplicatePartID = "MARKER_DUPLICATE_PART_ID"
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
