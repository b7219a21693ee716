// Package selref implements selection references (suite "selref") according
// to the conform specification, spec/selref.md: the ingest gate that hardens
// a reference declared by an app (a label plus at least one address) before it
// is stored on a user message, the replay line that tells a model, in a
// later turn, what that message pointed at, and the history bubble that shows
// it to the human as escaped CommonMark.
//
// # Units
//
// Every length is in UTF-16 code units, as in the real implementation, but a
// cut never splits a surrogate pair. Input strings are Go strings: a lone
// surrogate cannot be carried by one, and invalid UTF-8 is read as U+FFFD per
// invalid byte, as encoding/json does with a lone-surrogate escape.
//
// # Deviations from the real implementation
//
// The specification is stricter than the code it describes, and says so in
// its Divergence paragraphs: the label collapses every Unicode White_Space
// character and every control character (not only ASCII whitespace); an
// address holding a control character, U+2028 or U+2029 is refused (the real
// code lets a newline through in a vanceUri, and C1 controls and U+2028
// through in a url); the label cut never leaves a lone surrogate; and
// [Replay] ingests the stored reference again instead of printing it as
// stored.
package selref
