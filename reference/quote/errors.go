package quote

import "fmt"

// Code is a stable rejection code of the quote suite. The codes are listed,
// append-only, in the Rejection codes tables of spec/quote-link.md,
// spec/quote-anchor.md and spec/quote-compose.md. The codes of the link
// codec are here; those of selection (anchor.go) and of the composer
// (compose_limit.go, compose_nav.go) next to the code that refuses.
type Code string

// Rejection codes of the link codec, in the order of the specification's table.
const (
	CodeScheme            Code = "QUOTE_SCHEME"
	CodeHrefTooLong       Code = "QUOTE_HREF_TOO_LONG"
	CodeInvalidCharacter  Code = "QUOTE_INVALID_CHARACTER"
	CodeCredentials       Code = "QUOTE_CREDENTIALS"
	CodePort              Code = "QUOTE_PORT"
	CodeVersion           Code = "QUOTE_VERSION"
	CodeFragment          Code = "QUOTE_FRAGMENT"
	CodePath              Code = "QUOTE_PATH"
	CodePercentEncoding   Code = "QUOTE_PERCENT_ENCODING"
	CodeBareField         Code = "QUOTE_BARE_FIELD"
	CodeUnknownField      Code = "QUOTE_UNKNOWN_FIELD"
	CodeDuplicateField    Code = "QUOTE_DUPLICATE_FIELD"
	CodeMissingField      Code = "QUOTE_MISSING_FIELD"
	CodeIDEmpty           Code = "QUOTE_ID_EMPTY"
	CodeDotSegment        Code = "QUOTE_DOT_SEGMENT"
	CodeIDTooLong         Code = "QUOTE_ID_TOO_LONG"
	CodeTextEmpty         Code = "QUOTE_TEXT_EMPTY"
	CodeTextTooLong       Code = "QUOTE_TEXT_TOO_LONG"
	CodeCommentTooLong    Code = "QUOTE_COMMENT_TOO_LONG"
	CodeOffsetSyntax      Code = "QUOTE_OFFSET_SYNTAX"
	CodeOffsetRange       Code = "QUOTE_OFFSET_RANGE"
	CodeOffsetOrder       Code = "QUOTE_OFFSET_ORDER"
	CodeContextTooLong    Code = "QUOTE_CONTEXT_TOO_LONG"
	CodeIDWhitespace      Code = "QUOTE_ID_WHITESPACE"
	CodeUnpairedSurrogate Code = "QUOTE_UNPAIRED_SURROGATE"
)

// Error is the one error type of the package: a citation, href, selection,
// prompt or navigation location refused for the reason Code. It has the
// shape of the reference's other packages' errors (marker.Error,
// selref.Error): Code is stable, Offset and Path say where when the code
// has a place, Err is a cause beyond the code. The message text is not API.
//
// The package's only sentinels, [ErrAmbiguous] and [ErrNotFound], are not
// refusals: they are the two answers of [Resolve] that are not a match.
type Error struct {
	Code   Code
	Offset int    // where in the input, in UTF-16 units; -1 when the code has no single place
	Path   string // the citation field, query key or input at fault, or ""
	Err    error  // the cause beyond the code, or nil
}

// codeText describes each code of the package, for error messages only.
var codeText = map[Code]string{
	CodeScheme:            "href does not begin with t3-citation://",
	CodeHrefTooLong:       "href longer than 160,000 UTF-16 units",
	CodeInvalidCharacter:  "character outside printable ASCII",
	CodeCredentials:       "credentials in the authority",
	CodePort:              "port in the authority",
	CodeVersion:           "version is not 1",
	CodeFragment:          "fragment",
	CodePath:              "path is not three segments",
	CodePercentEncoding:   "malformed percent-encoding or not UTF-8",
	CodeBareField:         "query field without '='",
	CodeUnknownField:      "unknown query field",
	CodeDuplicateField:    "duplicate query field",
	CodeMissingField:      "missing query field",
	CodeIDEmpty:           "empty id",
	CodeDotSegment:        "id is a dot segment",
	CodeIDTooLong:         "id longer than 512 UTF-16 units",
	CodeTextEmpty:         "text is empty or whitespace only",
	CodeTextTooLong:       "text longer than 8,000 UTF-16 units",
	CodeCommentTooLong:    "comment longer than 8,000 UTF-16 units",
	CodeOffsetSyntax:      "offset is not 1 to 16 ASCII digits",
	CodeOffsetRange:       "offset is not an integer from 0 to 2^53-1",
	CodeOffsetOrder:       "end is not greater than start",
	CodeContextTooLong:    "context longer than 32 UTF-16 units",
	CodeIDWhitespace:      "id has surrounding whitespace",
	CodeUnpairedSurrogate: "unpaired surrogate",

	CodeSelectionOutOfRange:      "an offset is negative or past the end of the text",
	CodeSelectionReversed:        "start is greater than end",
	CodeSelectionEmpty:           "start equals end",
	CodeSelectionSplitsSurrogate: "an offset falls inside a surrogate pair",
	CodeSelectionBlank:           "the selection is whitespace only",
	CodeSelectionTooLong:         "the selection is over 8,000 UTF-16 units",

	CodeInputEmpty:      "the input is empty or whitespace only",
	CodeInputTooLong:    "the trimmed input is over 120,000 UTF-16 units",
	CodeExpandedTooLong: "the expanded input is over 120,000 UTF-16 units",
	CodeNavNoFragment:   "the location has no '#'",
	CodeNavPrefix:       "the fragment does not begin with assistant-citation=",
	CodeNavTooLong:      "the fragment is over 140,000 UTF-16 units",
	CodeNavBase64:       "the payload is not base64url",
}

func (e *Error) Error() string {
	msg := "quote: " + codeText[e.Code]
	if e.Offset >= 0 {
		msg += fmt.Sprintf(" at unit %d", e.Offset)
	}
	if e.Path != "" {
		msg += fmt.Sprintf(" (%s)", e.Path)
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg + " [" + string(e.Code) + "]"
}

// Unwrap returns the cause beyond the code, if any.
func (e *Error) Unwrap() error { return e.Err }

func fail(code Code, path string) *Error { return &Error{Code: code, Offset: -1, Path: path} }
