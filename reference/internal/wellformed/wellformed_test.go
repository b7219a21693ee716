package wellformed

import (
	"strings"
	"testing"
)

func TestString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"abc", "abc"},
		{"é中😀", "é中😀"},
		{"\uFFFD", "\uFFFD"},                              // a well-formed U+FFFD stays one
		{"a\xffb", "a\uFFFDb"},                            // a stray byte
		{"\xed\xa0\x80", "\uFFFD\uFFFD\uFFFD"},            // a surrogate encoded in UTF-8: one per byte
		{"\xe4\xb8", "\uFFFD\uFFFD"},                      // a truncated sequence: one per byte
		{"\xe4\xb8\xad\xe4", "中\uFFFD"},                   // truncated at the end
		{"\x80\x80 x", "\uFFFD\uFFFD x"},                  // continuation bytes alone
		{"\xf4\x90\x80\x80", strings.Repeat("\uFFFD", 4)}, // above U+10FFFF
	}
	for _, tt := range tests {
		if got := String(tt.in); got != tt.want {
			t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestStringIsRuneConversion holds String to the Go specification's
// conversion of a string to []rune, which yields U+FFFD for each byte of an
// invalid sequence, on every string of up to two bytes from a set that
// covers each kind of lead and continuation byte.
func TestStringIsRuneConversion(t *testing.T) {
	bytes := []byte{0, 'a', 0x7f, 0x80, 0xbf, 0xc0, 0xc2, 0xe0, 0xe4, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff}
	var inputs []string
	for _, x := range bytes {
		for _, y := range bytes {
			inputs = append(inputs, string([]byte{x, y}), "中"+string([]byte{x, y})+"\xb8\xad")
		}
	}
	for _, s := range inputs {
		if got, want := String(s), string([]rune(s)); got != want {
			t.Errorf("String(%q) = %q, want %q", s, got, want)
		}
	}
}
