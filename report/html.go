package report

// The HTML page: JSON reports of several implementations, read back into
// the runner's types (ReadJSON), as one self-contained page, a matrix of
// requirements against implementations per suite and op. Everything an
// implementation wrote (its hello, its answers, its stderr) is untrusted
// text: the page is built with html/template, which escapes it, shows
// invisible characters as escapes (safetext), and a Content-Security-Policy
// forbids loading anything from elsewhere.

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/conform-suite/conform/internal/safetext"
	"github.com/conform-suite/conform/runner"
)

// Page is one report on the HTML page: the file it was read from, which
// names its column when another run of the same implementation is on the
// page too.
type Page struct {
	File   string
	Report *runner.Report
}

// Cell states, worst first: a requirement's cell takes the worst state of
// its vectors.
const (
	StateFail        = "fail"
	StateDiverging   = "diverging"
	StatePass        = "pass"
	StateUnsupported = "unsupported"
	StateNotRun      = "not-run"
)

// state is a result's contribution to its cell: a result graded against a
// system's recorded answer (under its profile) is diverging unless it
// failed that answer.
func state(res *runner.Result) string {
	diverging := res.Recorded != nil
	switch {
	case res.Outcome == runner.Pass && diverging:
		return StateDiverging
	case res.Outcome == runner.Pass:
		return StatePass
	case res.Outcome == runner.Unsupported && !res.Required, res.Outcome == runner.Interrupted:
		return StateUnsupported
	case diverging && res.Outcome != runner.Fail:
		return StateDiverging
	}
	return StateFail
}

func rank(state string) int {
	return slices.Index([]string{StateFail, StateDiverging, StatePass, StateUnsupported, StateNotRun}, state)
}

// column is one run of one implementation: the reports that share its
// implementation, profile and transport and are distinct shards of one
// split (--shard i/n with the same n).
type column struct {
	Label, Detail, Profile, Files string
	Passed                        bool
	results                       map[string]*runner.Result
	Totals                        map[string]int
	shards                        map[runner.Shard]bool // the shards of its reports
}

// takes reports whether a report of shard sh (the zero Shard for a whole
// run) belongs to the run of c: a shard of the same n that c does not have
// yet.
func (c *column) takes(sh runner.Shard) bool {
	if sh.N == 0 || c.shards[sh] {
		return false
	}
	for s := range c.shards {
		if s.N != sh.N {
			return false
		}
	}
	return true
}

// Missing names the shards of c's split that no report of c holds
// ("shard 2/3 and 3/3"), or "" when c is a whole run or every shard is
// there: a column of some shards only must not read as the whole run.
func (c *column) Missing() string {
	var n int
	for s := range c.shards {
		n = s.N // the same for every shard of c; 0 for a whole run
	}
	var gone []string
	for i := 1; i <= n; i++ {
		if s := (runner.Shard{I: i, N: n}); !c.shards[s] {
			gone = append(gone, s.String())
		}
	}
	switch len(gone) {
	case 0:
		return ""
	case 1:
		return "shard " + gone[0] + " not given"
	}
	return "shards " + strings.Join(gone[:len(gone)-1], ", ") + " and " + gone[len(gone)-1] + " not given"
}

// Cell is one requirement of one op for one implementation.
type Cell struct {
	State    string
	Passed   int
	Judged   int
	Failures []*Failure // each shown once on the page, below the matrix
}

// Failure is a failed result as the page shows it, once, however many
// requirement rows name it: its cells link to it by N.
type Failure struct {
	*runner.Result
	N                         int
	Column, ID, Kind, Request string
}

// Count says how many of the cell's judged vectors failed or passed:
// "2 of 34 failed", "34 of 34 passed", "3 of 3 passed (diverging)"; ""
// when none was judged.
func (c Cell) Count() string {
	switch {
	case c.Judged == 0:
		return ""
	case c.State == StateFail:
		return fmt.Sprintf("%d of %d failed", c.Judged-c.Passed, c.Judged)
	case c.State == StateDiverging:
		return fmt.Sprintf("%d of %d passed (diverging)", c.Passed, c.Judged)
	}
	return fmt.Sprintf("%d of %d passed", c.Passed, c.Judged)
}

// Row is one requirement of one op.
type Row struct {
	Op, Requirement, Search string
	// Text is the requirement's text, shown as the tooltip of its id.
	Text  string
	Cells []Cell
	// Unrun is set when no implementation judged a vector of the row:
	// every cell is unsupported or not run.
	Unrun bool
}

// Group is the rows of one op.
type Group struct {
	Op   string
	Rows []Row
}

type page struct {
	Columns  []*column
	Groups   []Group
	Failures []*Failure
	Rows     int
	Digests  []string
	Suites   []string
	Legend   []legend
	CSP      template.HTMLAttr
}

// Mismatch is set when the reports ran different vectors: they name more
// than one corpus digest.
func (p page) Mismatch() bool { return len(p.Digests) > 1 }

type legend struct{ State, Meaning string }

var legends = []legend{
	{StatePass, "every vector of the requirement passed"},
	{StateFail, "some vector failed (a wrong answer, an error, a crash, a timeout, or an unsupported op that was required)"},
	{StateDiverging, "passed against a divergence the profile records, not the standard answer"},
	{StateUnsupported, "the implementation does not offer the op"},
	{StateNotRun, "not in this implementation's report"},
}

var symbols = map[string]string{StatePass: "✓", StateFail: "✗", StateDiverging: "◆", StateUnsupported: "○", StateNotRun: "·"}

//go:embed page.html.tmpl
var pageText string

var tmpl = template.Must(template.New("page").Funcs(template.FuncMap{
	// Text from an implementation or a vector is shown with its invisible
	// and control characters as escapes, as in every other report.
	"json":  func(raw json.RawMessage) string { return safetext.IndentJSON(raw, "", "  ") },
	"text":  safetext.Text,
	"lines": func(s string) string { return strings.Join(safetext.Tail(s, 40, 500), "\n") },
	"inc":   func(n int) int { return n + 1 },
	// symbol is the symbol of a cell's state, in the matrix and its legend.
	"symbol": func(state string) string { return symbols[state] },
}).Parse(pageText))

// HTML renders the reports as one HTML page. text, when not nil, gives
// the text of a requirement by its id ("" when it knows none).
//
// The page is bounded by what it reads: each failed result is rendered once,
// below the matrix, and every cell of a requirement it names links to it; a
// value nested deeper than safetext.MaxIndentDepth is shown on one line. The
// page is at most 8 times the size of the JSON reports it renders, plus
// 2 KiB a cell and 64 KiB (report/hostile_test.go holds it to that).
func HTML(w io.Writer, reports []Page, text func(id string) string) error {
	if len(reports) == 0 {
		return errors.New("no report to render")
	}
	p := page{Legend: legends, CSP: `content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"`}
	byKey := map[string]*column{}
	digests := map[string]bool{}
	for _, pg := range reports {
		r := pg.Report
		label, detail := "implementation without hello", r.Transport
		if h := r.Implementation; h != nil {
			label = strings.TrimSpace(h.Name + " " + h.Version)
			detail = strings.TrimSpace(h.Language + "; " + r.Transport)
		}
		prof := runner.ProfileName(r.Profile)
		key := label + "\x00" + detail + "\x00" + prof
		c := byKey[key]
		if c == nil || !c.takes(r.Shard) {
			// A report of the same implementation that is not another
			// shard of the same split is another run: a column of its own,
			// named by its file.
			if c != nil {
				label += " (" + pg.File + ")"
			}
			c = &column{Label: label, Detail: detail, Profile: prof, Passed: true, results: map[string]*runner.Result{}, Totals: map[string]int{}, shards: map[runner.Shard]bool{}}
			byKey[key] = c
			p.Columns = append(p.Columns, c)
		} else {
			c.Files += ", "
		}
		c.shards[r.Shard] = true
		c.Files += pg.File
		c.Passed = c.Passed && !r.Failed()
		if r.Conform != nil && r.Conform.CorpusDigest != "" {
			digests[r.Conform.CorpusDigest] = true
		}
		for i := range r.Results {
			res := &r.Results[i]
			if _, dup := c.results[res.Vector.ID]; !dup {
				c.Totals[state(res)]++
			}
			c.results[res.Vector.ID] = res
		}
	}
	p.Digests = slices.Sorted(maps.Keys(digests))
	// The rows: every (op, requirement) pair any report exercised.
	type key struct{ op, req string }
	vectorsOf := map[key]map[string]bool{}
	for _, c := range p.Columns {
		for _, res := range c.results {
			reqs := res.Vector.Requirements
			if len(reqs) == 0 {
				reqs = []string{"(no requirement)"}
			}
			for _, req := range reqs {
				k := key{res.Vector.Op, req}
				if vectorsOf[k] == nil {
					vectorsOf[k] = map[string]bool{}
				}
				vectorsOf[k][res.Vector.ID] = true
			}
		}
	}
	keys := slices.SortedFunc(maps.Keys(vectorsOf), func(a, b key) int {
		return strings.Compare(a.op+"\x00"+a.req, b.op+"\x00"+b.req)
	})
	suites := map[string]bool{}
	type failureKey struct {
		column int
		id     string
	}
	failures := map[failureKey]*Failure{}
	for _, k := range keys {
		suite, _, _ := strings.Cut(k.op, ".")
		suites[suite] = true
		if len(p.Groups) == 0 || p.Groups[len(p.Groups)-1].Op != k.op {
			p.Groups = append(p.Groups, Group{Op: k.op})
		}
		ids := slices.Sorted(maps.Keys(vectorsOf[k]))
		row := Row{Op: k.op, Requirement: k.req, Unrun: true}
		if text != nil {
			row.Text = text(k.req)
		}
		search := []string{k.op, k.req}
		for ci, c := range p.Columns {
			cell := Cell{State: StateNotRun}
			for _, id := range ids {
				res, ok := c.results[id]
				if !ok {
					continue
				}
				st := state(res)
				switch st {
				case StatePass, StateDiverging:
					cell.Judged++
					cell.Passed++
				case StateFail:
					cell.Judged++
					fk := failureKey{ci, id}
					f := failures[fk]
					if f == nil {
						line := ""
						if res.Request.Op != "" {
							line, _ = runner.RequestLine(res.Request)
						}
						f = &Failure{Result: res, N: len(p.Failures) + 1, Column: c.Label, ID: id, Kind: res.Kind(), Request: strings.TrimSuffix(line, "\n")}
						failures[fk] = f
						p.Failures = append(p.Failures, f)
					}
					cell.Failures = append(cell.Failures, f)
					search = append(search, id)
				}
				if cell.State == StateNotRun || rank(st) < rank(cell.State) {
					cell.State = st
				}
			}
			row.Unrun = row.Unrun && (cell.State == StateUnsupported || cell.State == StateNotRun)
			row.Cells = append(row.Cells, cell)
			search = append(search, cell.State)
		}
		row.Search = strings.ToLower(strings.Join(search, " "))
		g := &p.Groups[len(p.Groups)-1]
		g.Rows = append(g.Rows, row)
		p.Rows++
	}
	p.Suites = slices.Sorted(maps.Keys(suites))
	return tmpl.Execute(w, p)
}
