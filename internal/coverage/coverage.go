// Package coverage relates the requirements of spec/ to the vectors and
// scenarios that exercise them. The corpus lint (vectors/lint_test.go) and
// `conform coverage` both build their answer here, so CI and the command
// agree on what is covered.
package coverage

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"

	gherkin "github.com/cucumber/gherkin/go/v42"
	messages "github.com/cucumber/messages/go/v34"

	"github.com/conform-suite/conform/spec"
	"github.com/conform-suite/conform/vectors"
)

// Scenario is one scenario (or scenario outline) of a feature file, with the
// requirement ids it is tagged with, its own tags and inherited ones.
type Scenario struct {
	File         string   `json:"file"` // quote/link.feature
	Line         int      `json:"line"`
	Name         string   `json:"name"`
	Requirements []string `json:"requirements"`
}

// Ref names a scenario in reports: "quote/link.feature:12: a name".
func (s Scenario) Ref() string { return fmt.Sprintf("%s:%d: %s", s.File, s.Line, s.Name) }

// requirementTag is a tag naming a requirement; it is matched loosely (any
// upper-case word with a number) so that a malformed id is reported rather
// than ignored.
var requirementTag = regexp.MustCompile(`^@([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*-\d+)$`)

// Scenarios reads every .feature file of fsys, except those under a
// testdata directory. Tags on a feature or a rule
// apply to its scenarios; tags on an examples table apply to its scenario
// outline.
func Scenarios(fsys fs.FS) ([]Scenario, error) {
	var all []Scenario
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return fs.SkipDir
		}
		if d.IsDir() || path.Ext(p) != ".feature" {
			return nil
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		scenarios, err := parseFeature(p, data)
		if err != nil {
			return err
		}
		all = append(all, scenarios...)
		return nil
	})
	return all, err
}

func parseFeature(name string, data []byte) ([]Scenario, error) {
	n := 0
	doc, err := gherkin.ParseGherkinDocument(bytes.NewReader(data), func() string { n++; return fmt.Sprint(n) })
	if err != nil {
		return nil, fmt.Errorf("coverage: %s: %w", name, err)
	}
	if doc.Feature == nil {
		return nil, nil
	}
	var out []Scenario
	add := func(inherited []string, sc *messages.Scenario) {
		ids := append(slices.Clone(inherited), tagIDs(sc.Tags)...)
		for _, ex := range sc.Examples {
			ids = append(ids, tagIDs(ex.Tags)...)
		}
		slices.Sort(ids)
		out = append(out, Scenario{File: name, Line: int(sc.Location.Line), Name: sc.Name, Requirements: slices.Compact(ids)})
	}
	featureIDs := tagIDs(doc.Feature.Tags)
	for _, c := range doc.Feature.Children {
		switch {
		case c.Scenario != nil:
			add(featureIDs, c.Scenario)
		case c.Rule != nil:
			ruleIDs := append(slices.Clone(featureIDs), tagIDs(c.Rule.Tags)...)
			for _, rc := range c.Rule.Children {
				if rc.Scenario != nil {
					add(ruleIDs, rc.Scenario)
				}
			}
		}
	}
	return out, nil
}

func tagIDs(tags []*messages.Tag) []string {
	var ids []string
	for _, t := range tags {
		if m := requirementTag.FindStringSubmatch(t.Name); m != nil {
			ids = append(ids, m[1])
		}
	}
	return ids
}

// Entry is one requirement and what exercises it.
type Entry struct {
	ID        string     `json:"id"`
	Level     spec.Level `json:"level"`
	File      string     `json:"file"`
	Line      int        `json:"line"`
	Section   string     `json:"section"`
	Withdrawn bool       `json:"withdrawn,omitempty"`
	Vectors   []string   `json:"vectors"`
	Scenarios []string   `json:"scenarios"`
}

// Exercised reports whether a vector or a scenario exercises the requirement.
func (e *Entry) Exercised() bool { return len(e.Vectors)+len(e.Scenarios) > 0 }

// Undefined is a vector or scenario naming an id that spec/ does not define.
type Undefined struct {
	ID string `json:"id"`
	By string `json:"by"` // a vector id or a scenario reference
}

// Totals counts the requirements of one level.
type Totals struct {
	Level      spec.Level `json:"level"`
	Total      int        `json:"total"`
	Exercised  int        `json:"exercised"`
	WithVector int        `json:"with_vector"`
}

// Report is the coverage of the specification by vectors and scenarios.
type Report struct {
	Requirements []Entry     `json:"requirements"` // in spec order
	Unexercised  []string    `json:"unexercised"`  // ids, withdrawn ones excluded
	Undefined    []Undefined `json:"undefined"`
	// Vectorless lists the MUST and MUST NOT requirements that no vector
	// names, in the spec files whose other requirements vectors do name: a
	// scenario alone does not pin a mandatory rule of an op. Chapters that
	// no vector names are exercised by scenarios only, and so are the
	// requirements of ScenarioOnly.
	Vectorless []string `json:"vectorless"`
	Totals     []Totals `json:"totals"` // strongest level first
	// Seeds lists, per seed document, the statements requirements cite and
	// the statements a chapter leaves out of scope.
	Seeds []SeedCoverage `json:"seeds"`
	// SeedProblems are seed references that count for nothing: malformed,
	// naming no known seed, or standing outside a requirement and an Out
	// of scope list.
	SeedProblems []spec.SeedProblem `json:"seed_problems"`
}

// SeedCoverage is what the specification says about one seed document.
type SeedCoverage struct {
	Seed       string          `json:"seed"`
	Title      string          `json:"title"`
	Suite      string          `json:"suite"`
	Statements []SeedStatement `json:"statements"`   // in the order first cited
	OutOfScope []SeedExclusion `json:"out_of_scope"` // in spec order
}

// SeedStatement is one quoted statement of a seed and the requirements that
// cite it.
type SeedStatement struct {
	Quote        string   `json:"quote"`
	Requirements []string `json:"requirements"`
}

// SeedExclusion is a seed statement a chapter leaves out, and why.
type SeedExclusion struct {
	Quote  string `json:"quote"`
	Reason string `json:"reason"`
	File   string `json:"file"`
	Line   int    `json:"line"`
}

// scenarioOnly are the protocol requirements (by id or id prefix) that no
// vector can exercise: a vector is one op's input and the answer expected to
// it, so it can state nothing about framing, request ids, the hello
// handshake, a request for an op that is not offered, a transport, a time
// limit or an answer that names a member twice. The scenarios of
// features/protocol and features/runner exercise them.
var scenarioOnly = []string{"PROTO-FRAME-", "PROTO-ID-", "PROTO-HELLO-", "PROTO-ERROR-002", "PROTO-STDIO-", "PROTO-HTTP-", "PROTO-TIME-", "PROTO-RESULT-003"}

// ScenarioOnly reports whether the requirement id is one that only a
// scenario can exercise, so that naming no vector is not a gap.
func ScenarioOnly(id string) bool {
	return slices.ContainsFunc(scenarioOnly, func(p string) bool {
		return id == p || strings.HasSuffix(p, "-") && strings.HasPrefix(id, p)
	})
}

// Build relates every requirement of s to the vectors of c and the scenarios
// that name it.
func Build(s *spec.Spec, c *vectors.Corpus, scenarios []Scenario) *Report {
	r := &Report{Unexercised: []string{}, Undefined: []Undefined{}, Vectorless: []string{}}
	index := map[string]int{}
	for _, req := range s.Requirements {
		index[req.ID] = len(r.Requirements)
		r.Requirements = append(r.Requirements, Entry{
			ID: req.ID, Level: req.Level, File: req.File, Line: req.Line, Section: req.Section,
			Withdrawn: strings.HasPrefix(req.Text, "Withdrawn."),
			Vectors:   []string{}, Scenarios: []string{},
		})
	}
	// relate adds by to the list of each requirement of ids that by names
	// (field picks the list), and to Undefined for an id spec/ lacks.
	relate := func(ids []string, by string, field func(*Entry) *[]string) {
		for _, id := range ids {
			if i, ok := index[id]; ok {
				list := field(&r.Requirements[i])
				*list = append(*list, by)
			} else {
				r.Undefined = append(r.Undefined, Undefined{ID: id, By: by})
			}
		}
	}
	if c != nil {
		for _, v := range c.Vectors() {
			relate(v.Requirements, v.ID, func(e *Entry) *[]string { return &e.Vectors })
		}
	}
	for _, sc := range scenarios {
		relate(sc.Requirements, sc.Ref(), func(e *Entry) *[]string { return &e.Scenarios })
	}
	withVectors := map[string]bool{} // spec files some vector names
	for _, e := range r.Requirements {
		if len(e.Vectors) > 0 {
			withVectors[e.File] = true
		}
	}
	totals := map[spec.Level]*Totals{}
	for _, l := range Levels {
		totals[l] = &Totals{Level: l}
	}
	for i := range r.Requirements {
		e := &r.Requirements[i]
		if e.Withdrawn {
			continue
		}
		t := totals[e.Level]
		t.Total++
		if e.Exercised() {
			t.Exercised++
		} else {
			r.Unexercised = append(r.Unexercised, e.ID)
		}
		if len(e.Vectors) > 0 {
			t.WithVector++
		} else if e.Level.Mandatory() && withVectors[e.File] && !ScenarioOnly(e.ID) {
			r.Vectorless = append(r.Vectorless, e.ID)
		}
	}
	for _, l := range Levels {
		if t := totals[l]; t.Total > 0 {
			r.Totals = append(r.Totals, *t)
		}
	}
	r.Seeds, r.SeedProblems = seedCoverage(s)
	return r
}

// seedCoverage groups the seed references of s by seed, one entry per known
// seed (whether cited or not) and one per unknown seed a reference names.
func seedCoverage(s *spec.Spec) ([]SeedCoverage, []spec.SeedProblem) {
	var out []SeedCoverage
	index := map[string]int{}
	entry := func(id string) *SeedCoverage {
		i, ok := index[id]
		if !ok {
			seed, _ := spec.LookupSeed(id)
			i = len(out)
			index[id] = i
			out = append(out, SeedCoverage{Seed: id, Title: seed.Title, Suite: seed.Suite,
				Statements: []SeedStatement{}, OutOfScope: []SeedExclusion{}})
		}
		return &out[i]
	}
	for _, seed := range spec.Seeds {
		entry(seed.ID)
	}
	for _, req := range s.Requirements {
		if strings.HasPrefix(req.Text, "Withdrawn.") {
			continue
		}
		for _, ref := range req.Seeds {
			e := entry(ref.Seed)
			i := slices.IndexFunc(e.Statements, func(st SeedStatement) bool { return st.Quote == ref.Quote })
			if i < 0 {
				i = len(e.Statements)
				e.Statements = append(e.Statements, SeedStatement{Quote: ref.Quote, Requirements: []string{}})
			}
			if !slices.Contains(e.Statements[i].Requirements, req.ID) {
				e.Statements[i].Requirements = append(e.Statements[i].Requirements, req.ID)
			}
		}
	}
	for _, o := range s.OutOfScope {
		e := entry(o.Seed)
		e.OutOfScope = append(e.OutOfScope, SeedExclusion{Quote: o.Quote, Reason: o.Reason, File: o.File, Line: o.Line})
	}
	return out, append([]spec.SeedProblem{}, s.SeedProblems...)
}

// Failed reports whether the report names a defect: a requirement nothing
// exercises, an id the specification does not define, a mandatory
// requirement no vector names, or a seed reference that counts for nothing.
func (r *Report) Failed() bool {
	return len(r.Unexercised) > 0 || len(r.Undefined) > 0 || len(r.Vectorless) > 0 || len(r.SeedProblems) > 0
}

// Levels lists the requirement levels, strongest first.
var Levels = []spec.Level{spec.Must, spec.MustNot, spec.Should, spec.ShouldNot, spec.May, spec.Informative}

// Lookup returns the entry of requirement id, or nil.
func (r *Report) Lookup(id string) *Entry {
	for i := range r.Requirements {
		if r.Requirements[i].ID == id {
			return &r.Requirements[i]
		}
	}
	return nil
}
