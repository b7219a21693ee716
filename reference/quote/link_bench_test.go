package quote

import (
	"strings"
	"testing"
)

// maxCJKCitation has every field at its limit in CJK text: its href is the
// longest the formatter writes (158,494 units).
func maxCJKCitation() Citation {
	comment := strings.Repeat("文", MaxCommentLength)
	return Citation{Version: 1, EnvironmentID: strings.Repeat("中", MaxIDLength), ThreadID: strings.Repeat("中", MaxIDLength),
		MessageID: strings.Repeat("中", MaxIDLength), Text: strings.Repeat("中", MaxTextLength), Comment: &comment,
		Start: MaxOffset - 1, End: MaxOffset, Prefix: strings.Repeat("中", MaxContextLength), Suffix: strings.Repeat("中", MaxContextLength)}
}

var smallCitation = Citation{Version: 1, EnvironmentID: "env-1", ThreadID: "thread-1", MessageID: "message-1",
	Text: "Use the cache.", Start: 0, End: 14, Suffix: " Next."}

// href160k is the maximum CJK href padded to exactly MaxHrefLength units with
// spaces around the first id, which the parser trims.
func href160k(b *testing.B) string {
	h, err := FormatHref(maxCJKCitation())
	if err != nil {
		b.Fatal(err)
	}
	pad := MaxHrefLength - len(h)
	h = strings.Replace(h, HrefPrefix, HrefPrefix+strings.Repeat("%20", pad/3), 1) + strings.Repeat("&", pad%3)
	if len(h) != MaxHrefLength {
		b.Fatalf("padded href is %d units, want %d", len(h), MaxHrefLength)
	}
	return h
}

func BenchmarkFormatHref(b *testing.B) {
	for _, bc := range []struct {
		name string
		c    Citation
	}{{"small", smallCitation}, {"max-cjk", maxCJKCitation()}} {
		b.Run(bc.name, func(b *testing.B) {
			h, _ := FormatHref(bc.c)
			b.SetBytes(int64(len(h)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := FormatHref(bc.c); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkParse(b *testing.B) {
	small, _ := FormatHref(smallCitation)
	maxCJK, _ := FormatHref(maxCJKCitation())
	full := href160k(b)
	for _, bc := range []struct {
		name, href string
		ok         bool
	}{
		{"small", small, true},
		{"max-cjk", maxCJK, true},
		{"href-160000", full, true},
		{"href-160001-refused", full + "&", false},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.href)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Parse(bc.href); (err == nil) != bc.ok {
					b.Fatalf("Parse: %v", err)
				}
			}
		})
	}
}

func BenchmarkCollect(b *testing.B) {
	link, _ := FormatLink(smallCitation)
	prose := strings.Repeat("Some prose, [a link](https://example.com), 中文 and 😀. "+link+"\n", 100)
	long := "Before " + "[" + Label + "](" + href160k(b) + ") after"
	for _, bc := range []struct {
		name, text string
		links      int
	}{{"prose-100-links", prose, 100}, {"href-160000", long, 1}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.text)))
			b.ReportAllocs()
			for b.Loop() {
				if n := len(Collect(bc.text)); n != bc.links {
					b.Fatalf("Collect found %d links, want %d", n, bc.links)
				}
			}
		})
	}
}
