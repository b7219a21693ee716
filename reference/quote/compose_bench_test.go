package quote

import (
	"fmt"
	"strings"
	"testing"
)

// composeBenchPrompt is a provider turn just under the 120,000-unit limit:
// 400 links to 100 distinct citations (some with comments), separated by
// prose.
func composeBenchPrompt(b *testing.B) string {
	var p strings.Builder
	for i := range 400 {
		c := Citation{Version: 1, EnvironmentID: "env-1", ThreadID: "thread-1", MessageID: fmt.Sprintf("message-%d", i%100),
			Text: fmt.Sprintf("Quoted <line> %d & \"more\",\nwith 中文 and 😀.", i%100), Start: 10, End: 40, Prefix: "before ", Suffix: " after"}
		if i%3 == 0 {
			comment := "Why is this so?"
			c.Comment = &comment
		}
		l, err := FormatLink(c)
		if err != nil {
			b.Fatal(err)
		}
		p.WriteString(strings.Repeat("Some prose between the quotes. ", 2))
		p.WriteString(l)
	}
	if n := UTF16Len(p.String()); n > MaxProviderInput {
		b.Fatalf("prompt is %d units", n)
	}
	return p.String()
}

func composeBenchMaxCJK() Citation {
	cjk := func(n int) string { return strings.Repeat("中", n) }
	comment := strings.Repeat("文", MaxCommentLength)
	return Citation{Version: 1, EnvironmentID: cjk(MaxIDLength), ThreadID: cjk(MaxIDLength), MessageID: cjk(MaxIDLength),
		Text: cjk(MaxTextLength), Comment: &comment, Start: MaxOffset - 1, End: MaxOffset, Prefix: cjk(MaxContextLength), Suffix: cjk(MaxContextLength)}
}

func BenchmarkExpand(b *testing.B) {
	maxLink, err := FormatLink(composeBenchMaxCJK())
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct{ name, prompt string }{
		{"400-links-120k", composeBenchPrompt(b)},
		{"max-cjk-link", maxLink},
		{"no-link-120k", strings.Repeat("x", MaxProviderInput)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.prompt)))
			for b.Loop() {
				Expand(bc.prompt)
			}
		})
	}
}

func BenchmarkRender(b *testing.B) {
	p := composeBenchPrompt(b)
	for name, f := range map[string]func(string) string{"plaintext": PlainText, "markdown": Markdown} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(p)))
			for b.Loop() {
				f(p)
			}
		})
	}
}

func BenchmarkSendTurn(b *testing.B) {
	p := composeBenchPrompt(b)
	b.SetBytes(int64(len(p)))
	for b.Loop() {
		if _, err := SendTurn(p); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkNav(b *testing.B) {
	small := Citation{Version: 1, EnvironmentID: "env-1", ThreadID: "thread-1", MessageID: "message-1", Text: "Use the cache.", Start: 0, End: 14}
	// The largest navigable citation: 8,000 CJK characters of text (an href
	// of 72,058 units) with a comment bringing the href to 104,985 units.
	big := Citation{Version: 1, EnvironmentID: "a", ThreadID: "b", MessageID: "c", Text: strings.Repeat("中", MaxTextLength), Start: 0, End: 1}
	comment := strings.Repeat("文", 3657) + "yyyyy"
	big.Comment = &comment
	for _, bc := range []struct {
		name string
		c    Citation
	}{{"small", small}, {"max-navigable", big}} {
		h, err := NavHash(bc.c)
		if err != nil || len(h) > MaxNavHashLength {
			b.Fatalf("NavHash(%s) = %d units, %v", bc.name, len(h), err)
		}
		b.Run("encode/"+bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(h)))
			for b.Loop() {
				NavHash(bc.c)
			}
		})
		b.Run("decode/"+bc.name, func(b *testing.B) {
			loc := "https://app.example/env/thread#" + h
			b.SetBytes(int64(len(loc)))
			for b.Loop() {
				if _, err := FromLocation(loc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
