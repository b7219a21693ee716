package selref

import "errors"

// Code is a stable drop code from the Rejection codes table of
// spec/selref.md. Codes are never renamed or reused; new ones go at the end.
type Code string

const (
	// CodeBlankLabel: the label is absent or holds nothing but label space
	// (SELREF-LABEL-004). The label is checked before the addresses.
	CodeBlankLabel Code = "SELREF_BLANK_LABEL"
	// CodeNoAddress: no address is left, because none was given or every
	// given one was refused (SELREF-INGEST-003).
	CodeNoAddress Code = "SELREF_NO_ADDRESS"
)

// Sentinels wrapped by [Error], one per [Code], for errors.Is.
var (
	ErrBlankLabel = errors.New("selref: blank label")
	ErrNoAddress  = errors.New("selref: no address")
)

// Error is the one error type of the package: [Ingest] dropped a
// reference for the reason Code, in the shape of the reference's other
// packages' errors (quote.Error, marker.Error). Code is the stable part;
// the message text is not API.
type Error struct {
	Code   Code
	Offset int    // always -1: a drop has no single place in the input
	Path   string // the member at fault: "label", or "" for the addresses
	Err    error  // ErrBlankLabel or ErrNoAddress
}

func (e *Error) Error() string {
	msg := e.Err.Error()
	if e.Path != "" {
		msg += " (" + e.Path + ")"
	}
	return msg + " [" + string(e.Code) + "]"
}

// Unwrap returns the sentinel for e's code.
func (e *Error) Unwrap() error { return e.Err }

func dropped(code Code) *Error {
	if code == CodeBlankLabel {
		return &Error{Code: code, Offset: -1, Path: "label", Err: ErrBlankLabel}
	}
	return &Error{Code: code, Offset: -1, Err: ErrNoAddress}
}
