// Package quote implements the assistant-citation mechanism (suite "quote")
// according to the conform specification, spec/quote-link.md and the chapters
// that follow it: serialized Markdown links with a versioned URI, strict
// parsing with stable rejection codes, text-quote selectors, resolution,
// comments, provider expansion, renderings and the navigation hash.
//
// All lengths and offsets are UTF-16 code units, as the specification requires.
//
// # Link codec
//
// [FormatHref] and [FormatLink] write a [Citation] as
// [Assistant quote](t3-citation://v1/env/thread/message?text=…&start=…&end=…&prefix=…&suffix=…[&comment=…]);
// [Parse] reads an href back, and [Collect] finds the valid links of a text
// with their UTF-16 offsets. Every refusal is an *[Error] with a stable
// [Code] from the specification's append-only table.
//
// Per the specification, the codec is stricter than the implementation it
// describes in a few places, all of them recorded by vectors tagged
// divergence:t3code: the parser accepts printable ASCII only (no TAB or LF
// to strip, no raw spaces or non-ASCII to re-encode), never resolves dot
// segments, refuses any '#', a bare query key, a malformed escape and
// decoded bytes that are not UTF-8 anywhere in the href; the formatter
// refuses every citation whose href would not parse back to the same
// citation, so that Parse(FormatHref(c)) == c whenever FormatHref succeeds.
package quote
