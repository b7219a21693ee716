// Package selref implements selection references (suite "selref") according
// to spec/selref.md: ingest hardening of a label plus addresses, and the
// replay line. Lengths are UTF-16 code units, never splitting a surrogate pair.
package selref
