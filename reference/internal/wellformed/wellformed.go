// Package wellformed repairs ill-formed UTF-8 the way encoding/json reads it:
// every byte that is not part of a well-formed sequence becomes U+FFFD, one
// replacement per byte (strings.ToValidUTF8 would replace a whole run with
// one). It is how the reference's suites turn a Go string holding a lone
// surrogate or a stray byte into the text they measure and write.
package wellformed

import (
	"strings"
	"unicode/utf8"
)

// String returns s with every byte that is not part of well-formed UTF-8
// replaced by U+FFFD; s itself when it is well-formed.
func String(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	Write(&b, s)
	return b.String()
}

// Write writes s to b as String returns it.
func Write(b *strings.Builder, s string) {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString("\uFFFD")
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
}
