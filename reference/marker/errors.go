package marker

import (
	"errors"
	"fmt"
)

// Code is a stable rejection code from the Rejection codes table of
// spec/marker.md. Codes are never renamed or reused.
type Code string

// Rejection codes the marker suite produces (spec/marker.md, "Rejection
// codes"). That table also keeps the withdrawn MARKER_BAD_LOCATOR, so the
// code is never reused; no op produces it, so it is not listed here.
const (
	// CodeDuplicatePartID: two data parts of one call share an id.
	CodeDuplicatePartID Code = "MARKER_DUPLICATE_PART_ID"
	// CodeInvalidUTF8: the bytes of a byte stream are not UTF-8.
	CodeInvalidUTF8 Code = "MARKER_INVALID_UTF8"
	// CodeUserOrigin: a client was asked to resolve a citation of a
	// user-origin part.
	CodeUserOrigin Code = "MARKER_USER_ORIGIN"
)

// Error is the one error type of the package: a rejection of an input for
// the reason Code, in the shape of the reference's other packages' errors
// (quote.Error, selref.Error). Code is stable; the message is not API.
type Error struct {
	Code   Code
	Offset int    // byte offset of the fault in the input concerned, or -1
	Path   string // the part or member at fault, or ""
	Err    error  // what was wrong, for people
}

func (e *Error) Error() string {
	msg := "marker: " + e.Err.Error()
	if e.Offset >= 0 {
		msg += fmt.Sprintf(" at byte %d", e.Offset)
	}
	if e.Path != "" {
		msg += fmt.Sprintf(" (%s)", e.Path)
	}
	return msg + " [" + string(e.Code) + "]"
}

// Unwrap returns what was wrong.
func (e *Error) Unwrap() error { return e.Err }

func reject(code Code, offset int, path, what string) *Error {
	return &Error{Code: code, Offset: offset, Path: path, Err: errors.New(what)}
}
