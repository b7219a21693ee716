package fuzz

import (
	"math/rand/v2"
	"strings"
)

// Generators of the selref suite: labels and addresses as an app would send
// them, and as a hostile page title or link would make them.

func init() {
	registerGen("selref.ingest", func(r *rand.Rand) *jnode {
		return jobj("label", genMaybe(r, 9, 10, jstr(genLabel(r))), "vanceUri", genMaybe(r, 2, 3, jstr(genVanceURI(r))), "url", genMaybe(r, 2, 3, jstr(genURL(r))))
	})
	registerGen("selref.replay", func(r *rand.Rand) *jnode {
		ref := jobj("label", jstr(genLabel(r)), "vanceUri", genMaybe(r, 2, 3, jstr(genVanceURI(r))), "url", genMaybe(r, 2, 3, jstr(genURL(r))))
		return jobj("body", jstr(pickOne(r, []string{"", genProse(r, 8), "Alice: und das hier?"})), "reference", genMaybe(r, 4, 5, ref))
	})
}

func genLabel(r *rand.Rand) string {
	switch r.IntN(8) {
	case 0:
		return genSized(r, pickOne(r, []int{199, 200, 201, 202}))
	case 1: // a cut that lands inside a pair or after a space
		return strings.Repeat("x", pickOne(r, []int{198, 199, 200})) + pickOne(r, []string{"😀😀", " y", "  ", "\u00a0z"})
	case 2:
		return pickOne(r, []string{"", " ", "\t\n", "\u00a0", "\u2028", "\u3000", "\u0085", "\x0b"})
	case 3:
		return genWild(r, 20)
	default:
		return genProse(r, 8)
	}
}

func genVanceURI(r *rand.Rand) string {
	switch r.IntN(8) {
	case 0:
		return pickOne(r, []string{"VANCE:/a", "https://x", " vance:/a ", "vance:", "vance:/a\n## injected", "vance:/a\x00", "vance:/a\u0085"})
	case 1:
		return "vance:/" + strings.Repeat("a", pickOne(r, []int{992, 993, 994}))
	default:
		return "vance:/apps/newsfeed/_app.yaml?entry=" + genWord(r) + "%2F" + genWord(r)
	}
}

func genURL(r *rand.Rand) string {
	switch r.IntN(8) {
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
