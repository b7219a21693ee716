package selref

import "strings"

// Replay renders a user message for a later turn (spec/selref.md,
// "Replay"): the body, then, when the stored reference survives [Ingest], a
// blank line (only if the body is not empty) and the line
//
//	[vance] This message pointed at: "<label>" — <vanceUri> — <url>
//
// with each absent address left out together with its separator. The stored
// reference is untrusted: it is ingested again, so the line never holds a
// line break whatever was stored. Without a surviving reference the body is
// returned unchanged. The body itself is never altered.
//
// Replay renders an earlier turn. For the message of the current turn the
// host writes no line (SELREF-REPLAY-007): see [ReplayTurn].
func Replay(body string, stored Reference) string {
	ref, err := Ingest(stored)
	if err != nil {
		return body
	}
	var b strings.Builder
	b.Grow(len(body) + 2 + len(Header) + len(ref.Label) + len(ref.VanceURI) + len(ref.URL) + 16)
	b.WriteString(body)
	if body != "" {
		b.WriteString("\n\n")
	}
	b.WriteString(Header)
	b.WriteString(` "`)
	b.WriteString(ref.Label)
	b.WriteByte('"')
	for _, addr := range [...]string{ref.VanceURI, ref.URL} {
		if addr != "" {
			b.WriteString(Separator)
			b.WriteString(addr)
		}
	}
	return b.String()
}

// ReplayTurn is [Replay] for a message of an earlier turn, and the body
// alone for the message of the current turn, whatever its reference
// (SELREF-REPLAY-007): there the app's own context already says what is
// selected.
func ReplayTurn(body string, stored Reference, current bool) string {
	if current {
		return body
	}
	return Replay(body, stored)
}
