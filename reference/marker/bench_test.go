package marker

import (
	"bytes"
	"strings"
	"testing"
)

// Benchmarks for docs/performance.md ("marker"). The target: on marker-free
// text, strip runs at no less than half the speed of one plain scan for the
// lead byte of U+E200 (0xEE) over the same bytes.

const benchSize = 64 << 10

// prose is marker-free text: ASCII with some CJK and an emoji, no 0xEE byte.
func prose() string {
	const unit = "Doxorubicin is associated with dose-dependent cardiotoxicity, 引用文 😀. "
	return strings.Repeat(unit, benchSize/len(unit)+1)[:benchSize-benchSize%len(unit)]
}

// dense is text with a marker every sentence.
func dense() string {
	const unit = "Claim number one" + "\uE200cite\uE202tool_data_01\uE202L8-L13\uE201" + ". "
	return strings.Repeat(unit, benchSize/len(unit))
}

var benchCatalog, _ = NewCatalog([]string{"tool_data_01", "tool_data_02"})

// BenchmarkScanLeadByte is the baseline: one scan for 0xEE over the text.
func BenchmarkScanLeadByte(b *testing.B) {
	text := []byte(prose())
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		n := 0
		for i := 0; ; {
			j := bytes.IndexByte(text[i:], 0xEE)
			if j < 0 {
				break
			}
			n++
			i += j + 1
		}
		if n != 0 {
			b.Fatal("prose holds 0xEE")
		}
	}
}

func benchStrip(b *testing.B, text string) {
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		Strip(text, benchCatalog)
	}
}

func BenchmarkStripMarkerFree(b *testing.B)  { benchStrip(b, prose()) }
func BenchmarkStripMarkerDense(b *testing.B) { benchStrip(b, dense()) }

// benchStream feeds text in deltas of size bytes (cut at rune boundaries).
func benchStream(b *testing.B, text string, size int) {
	var deltas []string
	for len(text) > 0 {
		n := min(size, len(text))
		for n < len(text) && text[n]&0xC0 == 0x80 {
			n++
		}
		deltas = append(deltas, text[:n])
		text = text[n:]
	}
	var total int
	for _, d := range deltas {
		total += len(d)
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	for b.Loop() {
		s := NewStream(benchCatalog)
		for _, d := range deltas {
			s.Write(d)
		}
		s.Close()
	}
	b.ReportMetric(float64(len(deltas)), "deltas/op")
}

func BenchmarkStreamMarkerFree16(b *testing.B)  { benchStream(b, prose(), 16) }
func BenchmarkStreamMarkerFree4K(b *testing.B)  { benchStream(b, prose(), 4096) }
func BenchmarkStreamMarkerDense16(b *testing.B) { benchStream(b, dense(), 16) }
func BenchmarkStreamMarkerDense4K(b *testing.B) { benchStream(b, dense(), 4096) }
