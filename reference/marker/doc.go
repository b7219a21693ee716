// Package marker implements inline citation markers (suite "marker")
// according to spec/marker.md: U+E200 cite U+E202 id [U+E202 locator] U+E201
// markers stripped from model output, whole or streamed, into a sorted
// citations array. Offsets are runes (Unicode code points).
package marker
