package spec

import (
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
