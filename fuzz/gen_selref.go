package fuzz

import (
	"math/rand/v2"
	"strings"

	"github.com/conform-suite/conform/internal/jsonv"
)

// Generators of the selref suite: labels and addresses as an app would send
// them, and as a hostile page title or link would make them.

func init() {
	inputGens["selref.ingest"] = func(r *rand.Rand) *jsonv.Value {
		return jobj("label", genMaybe(r, 9, 10, jstr(genLabel(r))), "vanceUri", genMaybe(r, 2, 3, jstr(genVanceURI(r))), "url", genMaybe(r, 2, 3, jstr(genURL(r))))
	}
	inputGens["selref.replay"] = func(r *rand.Rand) *jsonv.Value {
		ref := jobj("label", jstr(genLabel(r)), "vanceUri", genMaybe(r, 2, 3, jstr(genVanceURI(r))), "url", genMaybe(r, 2, 3, jstr(genURL(r))))
		current := genMaybe(r, 1, 3, jlit(pickOne(r, []string{"true", "false"})))
		return jobj("body", jstr(pickOne(r, []string{"", genProse(r, 8), "Alice: und das hier?"})), "reference", genMaybe(r, 4, 5, ref), "current", current)
	}
	inputGens["selref.bubble"] = func(r *rand.Rand) *jsonv.Value {
		label := genLabel(r)
		if r.IntN(2) == 0 {
			label = genMarkup(r)
		}
		ref := jobj("label", jstr(label), "vanceUri", genMaybe(r, 2, 3, jstr(genVanceURI(r))), "url", genMaybe(r, 2, 3, jstr(genURL(r))))
		return jobj("reference", genMaybe(r, 9, 10, ref))
	}
}

// genMarkup is a label made to become Markdown of its own: a link, an
// image, HTML, a code span, emphasis, a character reference or a line break.
func genMarkup(r *rand.Rand) string {
	parts := []string{"](javascript:alert(1))", "[x](https://e.example)", "![i](https://e.example/p.png)", "<img src=x onerror=alert(1)>",
		"<https://e.example>", "`code`", "*em*", "__strong__", "&amp;", "&#x3C;", "\\", "\\[", "\n# h", "\n- item", "  \n", "~~s~~", "|a|b|"}
	var b strings.Builder
	for range 1 + r.IntN(4) {
		if r.IntN(2) == 0 {
			b.WriteString(genWord(r) + " ")
		}
		b.WriteString(pickOne(r, parts))
	}
	return b.String()
}

func genLabel(r *rand.Rand) string {
	switch r.IntN(8) {
	case 0:
		return genSized(r, pickOne(r, []int{199, 200, 201, 202}))
	case 1: // a cut that lands inside a pair or after a space
		return strings.Repeat("x", pickOne(r, []int{198, 199, 200})) + pickOne(r, []string{"😀😀", " y", "  ", "\u00a0z"})
	case 2: // white space only, or a word among the label class's characters
		return pickOne(r, []string{"", " ", "\t\n", draw(r, "selref.label") + draw(r, "selref.label"),
			draw(r, "selref.label") + genWord(r) + draw(r, "selref.label") + draw(r, "selref.label") + genWord(r)})
	case 3:
		return genWild(r, 20)
	default:
		return genProse(r, 8)
	}
}

func genVanceURI(r *rand.Rand) string {
	switch r.IntN(10) {
	case 8, 9:
		return genAddress(r, "vance:/apps/newsfeed/_app.yaml?entry="+genWord(r))
	case 0:
		return pickOne(r, []string{"VANCE:/a", "https://x", " vance:/a ", "vance:", "vance:/a\n## injected", "vance:/a\x00", "vance:/a\u0085"})
	case 1:
		return "vance:/" + strings.Repeat("a", pickOne(r, []int{992, 993, 994}))
	case 2: // the links app: the handle is a URL (SELREF-VANCE-005)
		return "vance:/apps/links/_app.yaml?entry=" + pickOne(r, []string{"https://example.com/a?b=1&c=2#top", "https%3A%2F%2Fexample.com%2Fa", "javascript:alert(1)", "https://e.example/a (b)&amp;<x>\\y"})
	default:
		return "vance:/apps/newsfeed/_app.yaml?entry=" + genWord(r) + "%2F" + genWord(r)
	}
}

func genURL(r *rand.Rand) string {
	switch r.IntN(10) {
	case 8:
		return genAddress(r, "https://"+genWord(r)+".example/"+genWord(r))
	case 9: // the scheme with a letter a full case folding takes for an ASCII one
		return foldInto(r, "selref.scheme", pickOne(r, []string{"https", "http", "javascript", "mailto", "vance"})) + pickOne(r, []string{"://e.example/x", ":alert(1)", ":/a"})
	case 0:
		return pickOne(r, []string{"javascript:alert(1)", "JavaScript:x", "data:text/html,x", "java\tscript:x", "\u00a0javascript:x", "//host/x", "example.com/x", ":x", "feed:https://x", "file:///etc/passwd"})
	case 1:
		return pickOne(r, []string{"https:", "mailto:", "HTTPS://X", "https:\\\\evil.com", "https://exa\nmple.com", "https://a\u0085b", "https://a\u2028b", " https://a ", "https://a\n"})
	case 2:
		return "https://e.example/" + strings.Repeat("a", pickOne(r, []int{981, 982, 983}))
	default:
		return pickOne(r, []string{"https://", "http://", "mailto:"}) + genWord(r) + ".example/" + genWord(r)
	}
}

// genAddress returns an address with characters of the trim class at its
// ends or a control of the address class inside it.
func genAddress(r *rand.Rand, a string) string {
	if r.IntN(2) == 0 {
		return draw(r, "selref.trim") + a + pickOne(r, []string{"", draw(r, "selref.trim")})
	}
	u := []rune(a)
	i := r.IntN(len(u) + 1)
	return string(u[:i]) + draw(r, "selref.control") + string(u[i:])
}
