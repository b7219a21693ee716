package spec

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Seed is one of the seed documents the specification turns into
// requirements. The documents themselves are not part of the module; this
// list is what a seed reference may name.
type Seed struct {
	ID    string `json:"id"`    // "002"
	Title string `json:"title"` // the document's own title
	Suite string `json:"suite"` // the suite that specifies it
}

// Seeds lists the seed documents, by id.
var Seeds = []Seed{
	{ID: "000", Title: "Assistant citations", Suite: "quote"},
	{ID: "001", Title: "Render inline citations", Suite: "marker"},
	{ID: "002", Title: "Selection Reference — what a message pointed to", Suite: "selref"},
}

// LookupSeed returns the seed with the given id.
func LookupSeed(id string) (Seed, bool) {
	i := slices.IndexFunc(Seeds, func(s Seed) bool { return s.ID == id })
	if i < 0 {
		return Seed{}, false
	}
	return Seeds[i], true
}

// SeedRef names one statement of a seed, written in a chapter as
//
//	[seed 002: "truncate to 200 characters"]
//
// The quote is a few words of the seed, verbatim, enough to find the
// statement with a text search.
type SeedRef struct {
	Seed  string `json:"seed"`
	Quote string `json:"quote"`
}

// OutOfScope is a seed statement that a chapter leaves out on purpose: a
// list item under a heading containing "Out of scope" that opens with a seed
// reference, followed by the reason.
type OutOfScope struct {
	SeedRef
	Reason string `json:"reason"`
	File   string `json:"file"`
	Line   int    `json:"line"`
}

// SeedProblem is a seed reference that does not parse, names no known seed,
// or stands where it counts for nothing (outside a requirement and an Out of
// scope list).
type SeedProblem struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Problem string `json:"problem"`
}

var (
	seedOpen = regexp.MustCompile(`\[seed\b`)
	seedRef  = regexp.MustCompile(`^\[seed (\d{3}): "([^"\s](?:.*?[^\s])??)"\]`)
)

// extractSeedRefs removes every seed reference from text and returns the
// text left, the references, and a description of each malformed or
// unknown one.
func extractSeedRefs(text string) (string, []SeedRef, []string) {
	var (
		refs     []SeedRef
		problems []string
		b        strings.Builder
	)
	for {
		loc := seedOpen.FindStringIndex(text)
		if loc == nil {
			b.WriteString(text)
			break
		}
		m := seedRef.FindStringSubmatch(text[loc[0]:])
		if m == nil {
			end := min(len(text), loc[0]+40)
			problems = append(problems, fmt.Sprintf(`malformed seed reference %q: write [seed NNN: "words of the seed"]`, text[loc[0]:end]))
			b.WriteString(text[:loc[1]])
			text = text[loc[1]:]
			continue
		}
		if _, ok := LookupSeed(m[1]); !ok {
			problems = append(problems, fmt.Sprintf("seed reference names seed %s, which does not exist (seeds: %s)", m[1], seedIDs()))
		}
		refs = append(refs, SeedRef{Seed: m[1], Quote: m[2]})
		b.WriteString(strings.TrimRight(text[:loc[0]], " "))
		text = text[loc[0]+len(m[0]):]
	}
	return strings.TrimSpace(b.String()), refs, problems
}

func seedIDs() string {
	ids := make([]string, len(Seeds))
	for i, s := range Seeds {
		ids[i] = s.ID
	}
	return strings.Join(ids, ", ")
}
