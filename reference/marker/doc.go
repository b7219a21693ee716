// Package marker implements inline citation markers (suite "marker")
// according to spec/marker.md: markers of the form
//
//	U+E200 "cite" U+E202 id [U+E202 [locator]] U+E201
//
// are stripped from model output, whole ([Strip]) or streamed ([Stream]),
// into a citations array sorted by offset; an empty locator, written or
// left out, cites the whole part. [Locate] resolves a citation's locator
// (an RFC 6901 JSON Pointer or a line range) against a data part, falling
// back to the whole part, and [BuildArtifact] shapes the answer artifact.
//
// Offsets count runes (Unicode code points) of the joined, stripped text.
// A Go string holding invalid UTF-8 is read as package unicode/utf8 reads
// it: each invalid byte is one U+FFFD rune. Text arriving over the protocol
// is always valid UTF-8, since JSON decoding already replaces lone surrogates
// by U+FFFD.
//
// # Deviations
//
// None known. Where seed 001 contradicts itself (its example offsets), the
// specification decides; see spec/marker.md, section "The seed's example".
package marker
