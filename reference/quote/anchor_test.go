package quote

import (
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/conform-suite/conform/protocol"
)

// naiveFindAll is the obvious quadratic search, the oracle of findAll.
func naiveFindAll(text, pat []uint16) []int {
	var ends []int
	for s := 0; s+len(pat) <= len(text); s++ {
		if slices.Equal(text[s:s+len(pat)], pat) {
			ends = append(ends, s+len(pat))
		}
	}
	return ends
}

func TestOccurrenceEnds(t *testing.T) {
	tests := []struct{ text, pat string }{
		{"banana", "ana"},
		{"aaaaa", "aa"},
		{"abababab", "abab"},
		{"aabaabaaab", "aab"},
		{"abcabdabcabc", "abcabc"},
		{"abc", "abcd"},
		{"", "a"},
		{"x\U0001F600y\U0001F600", "\U0001F600"},
		{"aaaa", "a"},
		{"zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzb", "zb"},
	}
	for _, tt := range tests {
		text, pat := utf16.Encode([]rune(tt.text)), utf16.Encode([]rune(tt.pat))
		set, count := occurrenceEnds(text, pat)
		var got []int
		for i := range len(text) + 1 {
			if set.window(i)&1 != 0 {
				got = append(got, i)
			}
		}
		if want := naiveFindAll(text, pat); !slices.Equal(got, want) || count != len(want) {
			t.Errorf("occurrenceEnds(%q, %q) = %v, %d, want %v, %d", tt.text, tt.pat, got, count, want, len(want))
		}
	}
}

func TestBitsetWindow(t *testing.T) {
	members := []int{0, 1, 63, 64, 100, 127, 128, 199}
	b := newBitset(200)
	for _, m := range members {
		b.set(m)
	}
	for i := -70; i < 210; i++ {
		var want uint64
		for j := range 64 {
			if slices.Contains(members, i+j) {
				want |= 1 << j
			}
		}
		if got := b.window(i); got != want {
			t.Errorf("window(%d) = %064b, want %064b", i, got, want)
		}
	}
	if got := b.first(); got != 0 {
		t.Errorf("first() = %d, want 0", got)
	}
	if got := newBitset(10).first(); got != -1 {
		t.Errorf("first() of an empty set = %d, want -1", got)
	}
}

func TestAnchorUnits(t *testing.T) {
	tests := []struct {
		in        string
		normalize bool
		want      []uint16
	}{
		{"a\U0001F600", false, []uint16{'a', 0xD83D, 0xDE00}},
		{"a \t\u3000b", true, []uint16{'a', ' ', 'b'}},
		{"a \t\u3000b", false, []uint16{'a', ' ', '\t', 0x3000, 'b'}},
		{"\xffa", false, []uint16{0xFFFD, 'a'}}, // an ill-formed byte is U+FFFD, one unit
		{"\u200b\u200b", true, []uint16{0x200B, 0x200B}},
	}
	for _, tt := range tests {
		if got := anchorUnits(tt.in, tt.normalize); !slices.Equal(got, tt.want) {
			t.Errorf("anchorUnits(%q, %v) = %x, want %x", tt.in, tt.normalize, got, tt.want)
		}
	}
}

// TestSelectRefusesFractions checks quote.select's contract through the op:
// offsets are integers, and a fraction too small for a float64 is still a
// fraction, refused as a bad request rather than read as 0. (No vector can
// say this: the op's schema refuses such an input, so the vector lint would
// refuse the vector.)
func TestSelectRefusesFractions(t *testing.T) {
	for _, start := range []string{"1e-400", "0.5", "4.0000000000000000000000000000000000000000000000000000000000000000000000000000000001"} {
		out, err := callRaw(selectOp, json.RawMessage(`{"text":"abc","start":`+start+`,"end":2}`))
		if e, ok := errors.AsType[*protocol.Error](err); !ok || e.Kind != protocol.KindBadRequest {
			t.Errorf("quote.select start %s = %v, %v; want a bad_request error", start, out, err)
		}
	}
	if _, err := callRaw(selectOp, json.RawMessage(`{"text":"abc","start":0e-400,"end":20e-1}`)); err != nil {
		t.Errorf("quote.select start 0e-400, end 20e-1: %v, want an answer", err)
	}
}

// anchorRun returns n units of "a": the adversarial text of QUOTE-ANCHOR-035.
func anchorRun(n int) string { return strings.Repeat("a", n) }

// BenchmarkResolveRun resolves an 8,000-unit quote of "a" with a prefix that
// occurs nowhere in texts of "a" of growing size: every offset is an
// occurrence, so a search that compares afresh at each offset would do
// 8,000 comparisons per unit.
func BenchmarkResolveRun(b *testing.B) {
	sel := Selector{Text: anchorRun(8000), Prefix: "zzz"}
	for _, n := range []int{256 << 10, 512 << 10, 1 << 20} {
		text := anchorRun(n)
		b.Run(byteSize(n), func(b *testing.B) {
			b.SetBytes(int64(n))
			for b.Loop() {
				if _, _, err := Resolve(text, sel); err != ErrAmbiguous {
					b.Fatalf("Resolve = %v, want ErrAmbiguous", err)
				}
			}
		})
	}
}

// BenchmarkLinearPass is the yardstick of BenchmarkResolveRun: one plain
// pass over the same 1 MiB text, counting a character that does not occur.
func BenchmarkLinearPass(b *testing.B) {
	text := anchorRun(1 << 20)
	b.SetBytes(1 << 20)
	for b.Loop() {
		n := 0
		for _, r := range text {
			if r == 'z' {
				n++
			}
		}
		if n != 0 {
			b.Fatal("found a z")
		}
	}
}

// BenchmarkResolveProse resolves a unique sentence near the end of 1 MiB of
// varied text with astral characters, with its 32-unit context.
func BenchmarkResolveProse(b *testing.B) {
	var sb strings.Builder
	for i := 0; sb.Len() < 1<<20; i++ {
		sb.WriteString("Paragraph ")
		sb.WriteString(strings.Repeat("x", i%7))
		sb.WriteString(" \U0001F600 has  some\twords.\n")
	}
	text := sb.String() + "The cache is warm. End."
	sel, err := Select(text, len(utf16.Encode([]rune(text)))-23, len(utf16.Encode([]rune(text)))-5)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if s, _, err := Resolve(text, sel); err != nil || s != sel.Start {
			b.Fatalf("Resolve = %d, %v, want %d", s, err, sel.Start)
		}
	}
}

// BenchmarkSelectProse captures a selection near the end of 1 MiB of text.
func BenchmarkSelectProse(b *testing.B) {
	text := strings.Repeat("Some words,  \U0001F600 and\n more. ", 1<<15)
	n := len(utf16.Encode([]rune(text)))
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if _, err := Select(text, n-20, n-3); err != nil {
			b.Fatal(err)
		}
	}
}

func byteSize(n int) string {
	if n >= 1<<20 {
		return strconv.Itoa(n>>20) + "MiB"
	}
	return strconv.Itoa(n>>10) + "KiB"
}
