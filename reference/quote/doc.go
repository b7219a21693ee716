// Package quote implements the assistant-citation mechanism (suite "quote")
// according to the conform specification, spec/quote-link.md and the chapters
// that follow it: serialized Markdown links with a versioned URI, strict
// parsing with stable rejection codes, text-quote selectors, resolution,
// comments, provider expansion, renderings and the navigation hash.
//
// All lengths and offsets are UTF-16 code units, as the specification requires.
package quote
