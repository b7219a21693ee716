// Package spec reads the normative specification in this directory: its
// requirements, their identifiers and levels. The Markdown files are embedded,
// so the runner can explain a vector's requirements and report coverage
// without the source tree.
package spec

import (
	"bufio"
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"strings"
)

//go:embed *.md
var files embed.FS

// FS returns the embedded specification files.
func FS() fs.FS { return files }

// Level is the strength of a requirement: its strongest BCP 14 key word.
type Level string

// Levels, strongest first. Informative marks a requirement without a key word.
const (
	Must        Level = "MUST"
	MustNot     Level = "MUST NOT"
	Should      Level = "SHOULD"
	ShouldNot   Level = "SHOULD NOT"
	May         Level = "MAY"
	Informative Level = "INFORMATIVE"
)

// Mandatory reports whether l is MUST or MUST NOT.
func (l Level) Mandatory() bool { return l == Must || l == MustNot }

// Requirement is one numbered, checkable statement of the specification.
type Requirement struct {
	ID      string // QUOTE-LINK-012
	Level   Level
	Text    string // the requirement's text, without its identifier, on one line
	File    string // quote-link.md
	Line    int    // 1-based line of the identifier
	Section string // the nearest heading above it
	// Seeds are the seed statements the requirement states, from the seed
	// references in its text (which Text no longer holds).
	Seeds []SeedRef
}

var (
	reqStart = regexp.MustCompile(`^\s*(?:[-*]\s+|\d+\.\s+)?\*\*([A-Z]+(?:-[A-Z]+)*-\d{3})\*\*:?\s*(.*)$`)
	heading  = regexp.MustCompile(`^#{1,6}\s+(.*)$`)
	listItem = regexp.MustCompile(`^\s*(?:[-*]\s+|\d+\.\s+)`)
	codeSpan = regexp.MustCompile("`[^`]*`")
	keyword  = regexp.MustCompile(`\b(MUST NOT|MUST|REQUIRED|SHALL NOT|SHALL|SHOULD NOT|SHOULD|NOT RECOMMENDED|RECOMMENDED|MAY|OPTIONAL)\b`)
	codeRow  = regexp.MustCompile("^\\|\\s*`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)`\\s*\\|")
)

// Stray is an upper-case key word outside any requirement: a normative
// sentence without an identifier.
type Stray struct {
	File string
	Line int
	Text string
}

// Code is a stable rejection code, from a table under a heading that
// contains "Rejection codes".
type Code struct {
	Code string // QUOTE_DUPLICATE_FIELD
	File string
	Line int
	// Withdrawn is true when the row says "Withdrawn.": no op produces
	// the code any more, and it stays listed so that it is never reused.
	Withdrawn bool
}

// Spec is the parsed specification.
type Spec struct {
	Requirements []Requirement
	Strays       []Stray
	Codes        []Code
	OutOfScope   []OutOfScope  // seed statements a chapter leaves out, with why
	SeedProblems []SeedProblem // seed references that count for nothing
}

// Lookup returns the requirement with the given id.
func (s *Spec) Lookup(id string) (Requirement, bool) {
	i := slices.IndexFunc(s.Requirements, func(r Requirement) bool { return r.ID == id })
	if i < 0 {
		return Requirement{}, false
	}
	return s.Requirements[i], true
}

// Load parses every *.md file of fsys. It fails on a duplicate identifier.
func Load(fsys fs.FS) (*Spec, error) {
	names, err := fs.Glob(fsys, "*.md")
	if err != nil {
		return nil, err
	}
	s := &Spec{}
	seen := map[string]string{}
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		p := parse(name, data)
		s.OutOfScope = append(s.OutOfScope, p.outOfScope...)
		s.SeedProblems = append(s.SeedProblems, p.seedProblems...)
		for _, c := range p.codes {
			if prev, dup := seen["code "+c.Code]; dup {
				return nil, fmt.Errorf("spec: %s:%d: rejection code %s already defined at %s", name, c.Line, c.Code, prev)
			}
			seen["code "+c.Code] = fmt.Sprintf("%s:%d", name, c.Line)
		}
		s.Codes = append(s.Codes, p.codes...)
		for _, r := range p.reqs {
			if prev, dup := seen[r.ID]; dup {
				return nil, fmt.Errorf("spec: %s:%d: requirement %s already defined at %s", name, r.Line, r.ID, prev)
			}
			seen[r.ID] = fmt.Sprintf("%s:%d", name, r.Line)
		}
		s.Requirements = append(s.Requirements, p.reqs...)
		s.Strays = append(s.Strays, p.strays...)
	}
	return s, nil
}

// Embedded parses the embedded specification.
func Embedded() (*Spec, error) { return Load(files) }

type parsed struct {
	reqs         []Requirement
	strays       []Stray
	codes        []Code
	outOfScope   []OutOfScope
	seedProblems []SeedProblem
}

func parse(name string, data []byte) parsed {
	var (
		p       parsed
		cur     *Requirement
		oos     *OutOfScope // the Out of scope item being read
		section string
		fence   bool
	)
	problem := func(line int, text string) {
		p.seedProblems = append(p.seedProblems, SeedProblem{File: name, Line: line, Problem: text})
	}
	flush := func() {
		if cur != nil {
			text, refs, problems := extractSeedRefs(cur.Text)
			for _, pr := range problems {
				problem(cur.Line, cur.ID+": "+pr)
			}
			cur.Text, cur.Seeds = text, refs
			cur.Level = levelOf(cur.Text)
			p.reqs = append(p.reqs, *cur)
			cur = nil
		}
		if oos != nil {
			reason, refs, problems := extractSeedRefs(oos.Reason)
			for _, pr := range problems {
				problem(oos.Line, pr)
			}
			switch {
			case len(refs) != 1:
				problem(oos.Line, "an Out of scope item opens with exactly one seed reference")
			case reason == "":
				problem(oos.Line, "an Out of scope item says why after its seed reference")
			default:
				oos.SeedRef, oos.Reason = refs[0], reason
				p.outOfScope = append(p.outOfScope, *oos)
			}
			oos = nil
		}
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			flush()
			fence = !fence
			continue
		}
		if fence || strings.HasPrefix(line, "    ") && cur == nil && oos == nil {
			continue // code block: never normative
		}
		if m := heading.FindStringSubmatch(line); m != nil {
			flush()
			section = m[1]
			continue
		}
		if m := codeRow.FindStringSubmatch(line); m != nil && strings.Contains(section, "Rejection codes") {
			p.codes = append(p.codes, Code{Code: m[1], File: name, Line: n, Withdrawn: strings.Contains(line, "| Withdrawn.")})
		}
		if m := reqStart.FindStringSubmatch(line); m != nil {
			flush()
			cur = &Requirement{ID: m[1], Text: strings.TrimSpace(m[2]), File: name, Line: n, Section: section}
			continue
		}
		if strings.TrimSpace(line) == "" || listItem.MatchString(line) && (cur != nil || oos != nil) {
			flush()
		}
		if cur != nil {
			cur.Text += " " + strings.TrimSpace(line)
			continue
		}
		if oos != nil {
			oos.Reason += " " + strings.TrimSpace(line)
			continue
		}
		if strings.Contains(section, "Out of scope") && listItem.MatchString(line) {
			if item := listItem.ReplaceAllString(line, ""); strings.HasPrefix(item, "[seed") {
				oos = &OutOfScope{Reason: strings.TrimSpace(item), File: name, Line: n}
				continue
			}
		}
		prose := codeSpan.ReplaceAllString(line, "")
		if keyword.MatchString(prose) {
			p.strays = append(p.strays, Stray{File: name, Line: n, Text: strings.TrimSpace(line)})
		}
		if seedOpen.MatchString(prose) {
			problem(n, "a seed reference counts only in a requirement or at the start of an Out of scope item")
		}
	}
	flush()
	return p
}

// levels are the levels of the BCP 14 key words.
var levels = map[string]Level{
	"MUST": Must, "REQUIRED": Must, "SHALL": Must, "MUST NOT": MustNot, "SHALL NOT": MustNot,
	"SHOULD": Should, "RECOMMENDED": Should, "SHOULD NOT": ShouldNot, "NOT RECOMMENDED": ShouldNot,
	"MAY": May, "OPTIONAL": May,
}

func levelOf(text string) Level {
	best := Informative
	rank := map[Level]int{Informative: 0, May: 1, ShouldNot: 2, Should: 3, MustNot: 4, Must: 5}
	for _, kw := range keyword.FindAllString(codeSpan.ReplaceAllString(text, ""), -1) {
		if l := levels[kw]; rank[l] > rank[best] {
			best = l
		}
	}
	return best
}
