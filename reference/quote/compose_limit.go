package quote

import (
	"strconv"
	"strings"
)

// The provider input limit (spec/quote-compose.md, "The provider input
// limit"): checked by the composer before sending and by the server before
// and after expansion.

// MaxProviderInput is the largest provider input, in UTF-16 code units.
const MaxProviderInput = 120_000

// Target is what a composer submission is for.
type Target string

// Submission targets: a turn sent to the model provider, or an answer to a
// pending user-input request (never checked).
const (
	TargetProviderTurn     Target = "provider-turn"
	TargetPendingUserInput Target = "pending-user-input"
)

// Rejection codes of the server check (spec/quote-compose.md, "Rejection
// codes").
const (
	CodeInputEmpty      Code = "QUOTE_INPUT_EMPTY"
	CodeInputTooLong    Code = "QUOTE_INPUT_TOO_LONG"
	CodeExpandedTooLong Code = "QUOTE_EXPANDED_TOO_LONG"
)

// CheckSubmission is the composer's check of a prompt before it is sent.
// For a provider turn it trims the prompt and measures the larger of the
// trimmed and the expanded lengths; when that exceeds MaxProviderInput it
// returns the excess in UTF-16 units and the message shown to the user.
// Otherwise, and always for TargetPendingUserInput, it returns 0 and "".
func CheckSubmission(prompt string, target Target) (excess int, message string) {
	if target != TargetProviderTurn {
		return 0, ""
	}
	trimmed := trimWith(prompt, submitTrimClass)
	n := max(UTF16Len(trimmed), UTF16Len(Expand(trimmed)))
	if n <= MaxProviderInput {
		return 0, ""
	}
	excess = n - MaxProviderInput
	unit := "characters"
	if excess == 1 {
		unit = "character"
	}
	return excess, "Prompt is " + groupThousands(excess) + " " + unit +
		" over the 120,000-character limit. Shorten or split it before sending."
}

// groupThousands writes a nonnegative n in decimal with a comma between
// groups of three digits, as en-US number formatting does.
func groupThousands(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// SendTurn is the server's check of a provider turn's input, followed by its
// expansion: the input is trimmed and must be non-empty (CodeInputEmpty) and
// at most MaxProviderInput units (CodeInputTooLong); it is then expanded,
// and when expansion changed it, the trimmed expanded text must again be at
// most MaxProviderInput units (CodeExpandedTooLong). It returns the text sent
// to the provider, or an *[Error] with the code of the failing stage.
func SendTurn(input string) (string, error) {
	trimmed := trimWith(input, inputTrimClass)
	switch {
	case trimmed == "":
		return "", fail(CodeInputEmpty, "input")
	case UTF16Len(trimmed) > MaxProviderInput:
		return "", fail(CodeInputTooLong, "input")
	}
	expanded := Expand(trimmed)
	if expanded == trimmed {
		return trimmed, nil
	}
	expanded = trimWith(expanded, expandedTrimClass)
	if UTF16Len(expanded) > MaxProviderInput {
		return "", fail(CodeExpandedTooLong, "input")
	}
	return expanded, nil
}

// TargetFrom reads a submission target, absent meaning a provider turn; it
// reports false for any other value.
func TargetFrom(t *Target) (Target, bool) {
	switch {
	case t == nil:
		return TargetProviderTurn, true
	case *t == TargetProviderTurn, *t == TargetPendingUserInput:
		return *t, true
	}
	return "", false
}

// SendAnswer is what the server sends for an answer to a pending
// user-input request: the answer as written, never expanded, trimmed or
// measured against the limit (QUOTE-COMPOSE-036).
func SendAnswer(answer string) string { return answer }
