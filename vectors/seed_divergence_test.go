package vectors_test

import (
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/conform-suite/conform/spec"
	"github.com/conform-suite/conform/vectors"
)

// divergenceParagraphs returns the paragraphs of a chapter that open with
// *Divergence*, each on one line.
func divergenceParagraphs(t *testing.T, chapter string) []string {
	t.Helper()
	data, err := fs.ReadFile(spec.FS(), chapter)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range strings.Split(string(data), "\n\n") {
		if p = strings.TrimSpace(p); strings.HasPrefix(p, "*Divergence") {
			out = append(out, strings.Join(strings.Fields(p), " "))
		}
	}
	return out
}

// TestSeedDivergencesAreDescribed holds every departure from a seed that a
// vector records to the specification: a Divergence paragraph of a chapter
// defining one of the vector's requirements names the tag divergence:seed
// and the vector or one of its requirements. And a paragraph that claims a
// seed divergence has a vector of its chapter recording one.
func TestSeedDivergencesAreDescribed(t *testing.T) {
	s, err := spec.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	c, err := vectors.Load(vectors.FS())
	if err != nil {
		t.Fatal(err)
	}
	const tag = vectors.DivergencePrefix + "seed"
	recorded := map[string]bool{} // chapters with a vector recording a seed divergence
	n := 0
	for _, v := range c.Vectors() {
		if v.Divergence("seed") == nil {
			continue
		}
		n++
		var chapters []string
		for _, id := range v.Requirements {
			if r, ok := s.Lookup(id); ok && !slices.Contains(chapters, r.File) {
				chapters = append(chapters, r.File)
			}
		}
		described := false
		for _, ch := range chapters {
			recorded[ch] = true
			for _, p := range divergenceParagraphs(t, ch) {
				if !strings.Contains(p, tag) {
					continue
				}
				if strings.Contains(p, v.ID) || slices.ContainsFunc(v.Requirements, func(id string) bool { return strings.Contains(p, id) }) {
					described = true
				}
			}
		}
		if !described {
			t.Errorf("%s: %s records a seed divergence, but no Divergence paragraph of %v names %s and the vector or one of its requirements %v",
				v.File, v.ID, chapters, tag, v.Requirements)
		}
	}
	if n == 0 {
		t.Fatal("no vector records a seed divergence; the corpus has three")
	}
	names, err := fs.Glob(spec.FS(), "*.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, ch := range names {
		for _, p := range divergenceParagraphs(t, ch) {
			if strings.Contains(p, tag) && !recorded[ch] {
				t.Errorf("%s: a Divergence paragraph names %s, but no vector of the chapter's requirements records a seed divergence: %.80s…", ch, tag, p)
			}
		}
	}
}
