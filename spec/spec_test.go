package spec

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

func TestEmbeddedSpecParses(t *testing.T) {
	s, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range s.Strays {
		t.Errorf("%s:%d: normative key word outside a numbered requirement: %q", st.File, st.Line, st.Text)
	}
	for _, r := range s.Requirements {
		suite := strings.ToUpper(strings.SplitN(strings.TrimSuffix(r.File, ".md"), "-", 2)[0])
		if suite == "PROTOCOL" {
			suite = "PROTO"
		}
		if !strings.HasPrefix(r.ID, suite+"-") {
			t.Errorf("%s:%d: requirement %s does not carry the file's prefix %s-", r.File, r.Line, r.ID, suite)
		}
		if strings.TrimSpace(r.Text) == "" {
			t.Errorf("%s:%d: requirement %s has no text", r.File, r.Line, r.ID)
		}
	}
}

func TestParse(t *testing.T) {
	doc := "# Title\n\n## Limits\n\n" +
		"- **QUOTE-LINK-001**: A parser MUST reject it\n  when it is long.\n" +
		"- **QUOTE-LINK-002**: An implementation SHOULD NOT do that, and MAY do this.\n\n" +
		"**QUOTE-LINK-003** The label is `Assistant quote`.\n\n" +
		"A stray sentence that MUST be caught.\n\n" +
		"A `MUST` in a code span is fine.\n\n" +
		"```\nMUST in a fence is fine\n```\n\n" +
		"    - **QUOTE-LINK-009**: indented code is not a requirement\n"
	fsys := fstest.MapFS{"quote-link.md": {Data: []byte(doc)}}
	s, err := Load(fsys)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		id    string
		level Level
		text  string
	}{
		{"QUOTE-LINK-001", Must, "A parser MUST reject it when it is long."},
		{"QUOTE-LINK-002", ShouldNot, "An implementation SHOULD NOT do that, and MAY do this."},
		{"QUOTE-LINK-003", Informative, "The label is `Assistant quote`."},
	}
	if len(s.Requirements) != len(want) {
		t.Fatalf("Load found %d requirements, want %d: %+v", len(s.Requirements), len(want), s.Requirements)
	}
	for i, w := range want {
		r := s.Requirements[i]
		if r.ID != w.id || r.Level != w.level || r.Text != w.text || r.Section != "Limits" {
			t.Errorf("requirement %d = %+v, want id %s level %s text %q in section Limits", i, r, w.id, w.level, w.text)
		}
	}
	if len(s.Strays) != 1 || s.Strays[0].Line != 11 {
		t.Errorf("strays = %+v, want one at line 11", s.Strays)
	}
}

func TestDuplicateID(t *testing.T) {
	fsys := fstest.MapFS{
		"a.md": {Data: []byte("- **A-B-001**: x\n")},
		"b.md": {Data: []byte("- **A-B-001**: y\n")},
	}
	if _, err := Load(fsys); err == nil || !strings.Contains(err.Error(), "A-B-001") {
		t.Errorf("Load with a duplicate id: err = %v, want one naming A-B-001", err)
	}
}

func TestCodes(t *testing.T) {
	doc := "## Rejection codes\n\n| code | when |\n|---|---|\n| `QUOTE_BAD_SCHEME` | the scheme is wrong |\n| `QUOTE_TOO_LONG` | too long |\n\n## Other\n\n| `NOT_A_CODE` | x |\n"
	s, err := Load(fstest.MapFS{"quote-link.md": {Data: []byte(doc)}})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Codes) != 2 || s.Codes[0].Code != "QUOTE_BAD_SCHEME" || s.Codes[1].Code != "QUOTE_TOO_LONG" || s.Codes[1].Line != 6 {
		t.Errorf("codes = %+v, want QUOTE_BAD_SCHEME and QUOTE_TOO_LONG (line 6)", s.Codes)
	}
	if s.Codes[0].Withdrawn || s.Codes[1].Withdrawn {
		t.Errorf("codes = %+v, want none withdrawn", s.Codes)
	}
	old := "## Rejection codes\n\n| `A_OLD` | none | Withdrawn. once refused x |\n| `A_NEW` | op | the word Withdrawn. elsewhere |\n"
	s, err = Load(fstest.MapFS{"x.md": {Data: []byte(old)}})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Codes) != 2 || !s.Codes[0].Withdrawn || s.Codes[1].Withdrawn {
		t.Errorf("codes = %+v, want A_OLD withdrawn (a cell starts with Withdrawn.) and A_NEW not", s.Codes)
	}
	dup := "## Rejection codes\n\n| `A_B` | x |\n| `A_B` | y |\n"
	if _, err := Load(fstest.MapFS{"x.md": {Data: []byte(dup)}}); err == nil {
		t.Error("Load with a code defined twice: no error")
	}
}

// TestEmbeddedSeedReferences checks that every seed reference of the
// specification parses, names a seed of the embedded list, and stands where
// it counts; and that the selref chapter, whose seed statements are traced,
// cites seed 002 and lists what it leaves out.
func TestEmbeddedSeedReferences(t *testing.T) {
	s, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range s.SeedProblems {
		t.Errorf("%s:%d: %s", p.File, p.Line, p.Problem)
	}
	cited, outOfScope := 0, 0
	for _, r := range s.Requirements {
		for _, ref := range r.Seeds {
			if _, ok := LookupSeed(ref.Seed); !ok {
				t.Errorf("%s:%d: %s cites seed %s, which does not exist", r.File, r.Line, r.ID, ref.Seed)
			}
			if strings.Contains(r.Text, "[seed") {
				t.Errorf("%s:%d: %s keeps a seed reference in its text: %q", r.File, r.Line, r.ID, r.Text)
			}
			if r.File == "selref.md" && ref.Seed == "002" {
				cited++
			}
		}
	}
	for _, o := range s.OutOfScope {
		if _, ok := LookupSeed(o.Seed); !ok {
			t.Errorf("%s:%d: out of scope item names seed %s, which does not exist", o.File, o.Line, o.Seed)
		}
		if o.File == "selref.md" {
			outOfScope++
		}
	}
	if cited < 10 || outOfScope < 5 {
		t.Errorf("selref.md cites seed 002 %d times and lists %d statements out of scope; want at least 10 and 5", cited, outOfScope)
	}
}

func TestSeedReferences(t *testing.T) {
	doc := "# T\n\n## Labels\n\n" +
		"- **SELREF-LABEL-005**: A label MUST be kept. [seed 002: \"truncate to 200\n  characters\"] [seed 002: \"[vance] x: \"<label>\"\"]\n" +
		"- **SELREF-LABEL-006**: A label MUST be cut. [seed 2: \"x\"]\n" +
		"- **SELREF-LABEL-007**: A label MUST be cut. [seed 009: \"x\"]\n\n" +
		"Prose citing [seed 002: \"No Body.\"] counts for nothing; `[seed 002: \"in code\"]` is fine.\n\n" +
		"## Out of scope\n\n" +
		"Some prose.\n\n" +
		"- [seed 002: \"Not a selection register.\"] Nothing to\n  implement.\n" +
		"- [seed 001: \"x\"]\n" +
		"- a plain item\n"
	s, err := Load(fstest.MapFS{"selref.md": {Data: []byte(doc)}})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Requirements) != 3 {
		t.Fatalf("Load found %d requirements, want 3", len(s.Requirements))
	}
	r := s.Requirements[0]
	want := []SeedRef{{"002", "truncate to 200 characters"}, {"002", `[vance] x: "<label>"`}}
	if r.Text != "A label MUST be kept." || r.Level != Must || !slices.Equal(r.Seeds, want) {
		t.Errorf("requirement 0 = text %q, level %s, seeds %+v; want %q, MUST, %+v", r.Text, r.Level, r.Seeds, "A label MUST be kept.", want)
	}
	if got := s.Requirements[2].Seeds; !slices.Equal(got, []SeedRef{{"009", "x"}}) {
		t.Errorf("requirement 2 seeds = %+v, want the unknown seed 009 still read", got)
	}
	wantOOS := []OutOfScope{{SeedRef: SeedRef{"002", "Not a selection register."}, Reason: "Nothing to implement.", File: "selref.md", Line: 16}}
	if !slices.Equal(s.OutOfScope, wantOOS) {
		t.Errorf("OutOfScope = %+v, want %+v", s.OutOfScope, wantOOS)
	}
	wantProblems := []struct {
		line int
		text string
	}{
		{7, "SELREF-LABEL-006: malformed seed reference"},
		{8, "SELREF-LABEL-007: seed reference names seed 009, which does not exist"},
		{10, "counts only in a requirement"},
		{18, "says why"},
	}
	if len(s.SeedProblems) != len(wantProblems) {
		t.Fatalf("SeedProblems = %+v, want %d", s.SeedProblems, len(wantProblems))
	}
	for i, w := range wantProblems {
		if p := s.SeedProblems[i]; p.Line != w.line || !strings.Contains(p.Problem, w.text) {
			t.Errorf("SeedProblems[%d] = %+v, want line %d and %q", i, p, w.line, w.text)
		}
	}
}
