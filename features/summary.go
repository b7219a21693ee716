package features

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/conform-suite/conform/report"
	"github.com/cucumber/godog"
	messages "github.com/cucumber/messages/go/v34"
)

// The "conform" formatter ends a run with what godog's formatters do not
// say: the scenarios counted as conform counts them, the profile and the
// scenarios it leaves unrun as diverging, the skipped scenarios by reason
// (without a terminal, a skipped step looks like a passed one), the
// refusals taken without their code, and every failure again with the
// command that runs its scenario alone; it gathers them from the run's
// records and report.ScenarioSummary writes them. The pretty and progress formats
// are godog's with this summary in place of godog's own, whose tally
// counts a skipped scenario as passed and whose snippets ask for Go step
// definitions.

func init() {
	godog.Format("conform", "Prints conform's summary: tally, profile, diverging and skipped scenarios, codeless refusals, failures with their replay lines.",
		func(_ string, w io.Writer) godog.Formatter { return newSummary(w) })
	godog.Format("conform-pretty", "godog's pretty, ended by conform's summary.", func(suite string, w io.Writer) godog.Formatter {
		lines := &noDefinitions{w: w}
		return &pretty{PrettyFmt: godog.NewPrettyFmt(suite, lines), lines: lines, sum: newSummary(w)}
	})
	godog.Format("conform-progress", "godog's progress, ended by conform's summary.", func(suite string, w io.Writer) godog.Formatter {
		return &progress{ProgressFmt: godog.NewProgressFmt(suite, w), w: w, sum: newSummary(w)}
	})
}

// pretty is godog's pretty formatter, ended by conform's summary.
type pretty struct {
	*godog.PrettyFmt
	lines *noDefinitions
	sum   *summary
}

func (f *pretty) Feature(doc *messages.GherkinDocument, uri string, src []byte) {
	f.PrettyFmt.Feature(doc, uri, src)
	f.sum.Feature(doc, uri, src)
}

func (f *pretty) Summary() {
	f.lines.flush()
	f.sum.Summary()
}

// definitionComment is what godog's pretty format writes after each step:
// "# FILE:LINE -> FUNC" of the step's definition, padded to a column and
// colored. Every step of conform is registered through steps.Step, so it
// would name that one line of harness.go and reflect's stub on every step:
// nothing a reader of the report can use.
var definitionComment = regexp.MustCompile(` *(\x1b\[[0-9;]*m)?# [^ ]+\.go:[0-9]+ -> reflect\.makeFuncStub(\x1b\[0m)?$`)

// noDefinitions passes godog's pretty output on line by line, without the
// definition comments.
type noDefinitions struct {
	w       io.Writer
	partial []byte // the start of a line not yet ended
}

func (n *noDefinitions) Write(p []byte) (int, error) {
	n.partial = append(n.partial, p...)
	for {
		i := bytes.IndexByte(n.partial, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := definitionComment.ReplaceAll(n.partial[:i], nil)
		if _, err := n.w.Write(append(line, '\n')); err != nil {
			return len(p), err
		}
		n.partial = n.partial[i+1:]
	}
}

// flush writes the line not yet ended, if any.
func (n *noDefinitions) flush() {
	if len(n.partial) > 0 {
		n.w.Write(n.partial)
		n.partial = nil
	}
}

// progress is godog's progress formatter, ended by conform's summary.
type progress struct {
	*godog.ProgressFmt
	w   io.Writer
	sum *summary
}

func (f *progress) Feature(doc *messages.GherkinDocument, uri string, src []byte) {
	f.ProgressFmt.Feature(doc, uri, src)
	f.sum.Feature(doc, uri, src)
}

// Summary ends the last row of step characters with the count of steps, as
// godog does, then writes conform's summary.
func (f *progress) Summary() {
	n, row := *f.Steps, f.StepsPerRow
	if left := n % row; left != 0 {
		if n > row {
			io.WriteString(f.w, strings.Repeat(" ", row-left))
		}
		fmt.Fprintf(f.w, " %d\n", n)
	}
	f.sum.Summary()
}

func newSummary(w io.Writer) *summary {
	return &summary{BaseFmt: godog.NewBaseFmt("conform", w), w: w, lines: map[string]int64{}}
}

// summary is the "conform" formatter. It reads the features to learn the
// line of each scenario and example row; everything else comes from the
// records of the run under way. Of godog's events it needs no other: its
// base formatter ignores them.
type summary struct {
	*godog.BaseFmt
	w     io.Writer
	lines map[string]int64 // scenario and example row ids to their lines
}

func (f *summary) Feature(doc *messages.GherkinDocument, _ string, _ []byte) {
	if doc.Feature == nil {
		return
	}
	scenario := func(sc *messages.Scenario) {
		f.lines[sc.Id] = sc.Location.Line
		for _, ex := range sc.Examples {
			for _, row := range ex.TableBody {
				f.lines[row.Id] = row.Location.Line
			}
		}
	}
	for _, c := range doc.Feature.Children {
		if c.Scenario != nil {
			scenario(c.Scenario)
		}
		if c.Rule != nil {
			for _, rc := range c.Rule.Children {
				if rc.Scenario != nil {
					scenario(rc.Scenario)
				}
			}
		}
	}
}

// where is "file:line" of a scenario (its example row for an outline's).
func (f *summary) where(r *record) string {
	return r.uri + ":" + strconv.FormatInt(f.line(r), 10)
}

// line is the line of r's scenario, or of its example row: the line of
// the last of its nodes that the feature recorded (0 when none is).
func (f *summary) line(r *record) int64 {
	line := int64(0)
	for _, id := range r.nodes {
		if l, ok := f.lines[id]; ok {
			line = l
		}
	}
	return line
}

// scenarioLine is "file:line" of the scenario, or of the outline holding
// the example row (the first of its nodes): godog selects a scenario by
// that line, with every row of an outline.
func (f *summary) scenarioLine(r *record) string {
	line := int64(0)
	if len(r.nodes) > 0 {
		line = f.lines[r.nodes[0]]
	}
	return r.uri + ":" + strconv.FormatInt(line, 10)
}

func (f *summary) Summary() {
	h := current
	if h == nil {
		return
	}
	vs := &h.records
	t := vs.tally()
	sum := report.Scenarios{Skipped: map[string][]string{}, Codeless: t.Codeless, Tally: t.Line(), Codes: t.CodelessLine(), Profile: vs.profile, Diverging: t.Diverging}
	for _, r := range vs.ran() {
		switch r.status() {
		case "failed":
			fs := report.FailedScenario{Where: f.where(r), Name: r.title, Step: r.failedStep, Failure: r.failure}
			if h.Replay != "" {
				fs.Replay = h.Replay + " " + f.scenarioLine(r)
			}
			sum.Failed = append(sum.Failed, fs)
		case "skipped":
			reason := cmp.Or(r.skipReason, "a step was skipped")
			sum.Skipped[reason] = append(sum.Skipped[reason], f.where(r)+": "+r.title)
		}
	}
	report.ScenarioSummary(f.w, sum)
}
