package features

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/conform-suite/conform/report"
	"github.com/cucumber/godog"
	messages "github.com/cucumber/messages/go/v34"
)

// The "junit" format is conform's, not godog's: godog's writes a skipped
// scenario as a test case holding <error type="skipped"> elements that
// neither its errors nor its skipped totals count, and marks one skipped
// after a passed step status="passed". conform's writes one <testsuite> per
// feature and one <testcase> per scenario: a failed scenario has a
// <failure>, one with an undefined, ambiguous or pending step an <error>, a
// skipped or diverging one <skipped> with the reason, and the totals count
// exactly the test cases holding each element. A refusal taken without the
// code its step expects says so in its test case's system-out, and its
// suite counts them in the property codeless_refusals.

func init() {
	godog.Format("conform-junit", "JUnit XML whose totals count exactly the test cases holding each outcome.",
		func(suite string, w io.Writer) godog.Formatter {
			return &junit{summary: newSummary(nil), suite: suite, w: w, names: map[string]string{}}
		})
}

// junit is the "junit" formatter. It takes the features' names and lines
// from godog's events, and the scenarios from the records of the run.
type junit struct {
	*summary // for the lines of the scenarios; it writes nothing
	suite    string
	w        io.Writer
	names    map[string]string // feature names by file
	files    []string          // the files, in the order godog read them
}

func (f *junit) Feature(doc *messages.GherkinDocument, uri string, src []byte) {
	f.summary.Feature(doc, uri, src)
	if _, ok := f.names[uri]; ok {
		return
	}
	name := uri
	if doc.Feature != nil && doc.Feature.Name != "" {
		name = doc.Feature.Name
	}
	f.names[uri] = name
	f.files = append(f.files, uri)
}

func (f *junit) Summary() {
	h := current
	if h == nil {
		return
	}
	byFile := map[string][]*record{}
	for _, r := range h.records.ran() {
		byFile[r.uri] = append(byFile[r.uri], r)
	}
	all := report.JUnitSuites{Name: f.suite}
	var total time.Duration
	for _, uri := range f.files {
		list := byFile[uri]
		slices.SortStableFunc(list, func(a, b *record) int { return cmp.Compare(f.line(a), f.line(b)) })
		s := report.JUnitSuite{Name: f.names[uri], Properties: []report.JUnitProperty{{Name: "profile", Value: h.records.profile}}}
		count := map[string]int{}
		for _, r := range list {
			count[r.title]++
		}
		seen := map[string]int{}
		var d time.Duration
		codeless := 0
		for _, r := range list {
			c := f.testCase(r, s.Name)
			if count[r.title] > 1 {
				seen[r.title]++
				c.Name += fmt.Sprintf(" #%d", seen[r.title])
			}
			codeless += len(r.codeless)
			d += r.took()
			s.Cases = append(s.Cases, c)
		}
		if codeless > 0 {
			s.Properties = append(s.Properties, report.JUnitProperty{Name: "codeless_refusals", Value: strconv.Itoa(codeless)})
		}
		s.Time = report.Seconds(d)
		total += d
		all.Suites = append(all.Suites, s)
	}
	all.Time = report.Seconds(total)
	all.Write(f.w)
}

// testCase is the test case of one scenario.
func (f *junit) testCase(r *record, class string) report.JUnitCase {
	c := report.JUnitCase{Name: r.title, Classname: class, Status: r.status(), Time: report.Seconds(r.took())}
	var lines []string
	for _, cl := range r.codeless {
		if cl.Failed {
			lines = append(lines, fmt.Sprintf("refusal without a code failed (--require-codes): the scenario expects %s with code %s", cl.Member, cl.Code))
		} else {
			lines = append(lines, fmt.Sprintf("refusal passed without a code: the scenario expects %s with code %s (PROTO-REJECT-002 allows leaving it out; --require-codes does not)", cl.Member, cl.Code))
		}
	}
	c.SystemOut = strings.Join(lines, "\n")
	kind, _, _ := strings.Cut(r.failure, ":")
	switch c.Status {
	case "failed":
		message := fmt.Sprintf("Step %s: %s", r.failedStep, strings.TrimPrefix(strings.TrimPrefix(r.failure, kind), ": "))
		if kind == "failed" || r.failure == "" {
			c.Failure = &report.JUnitProblem{Message: message}
		} else {
			c.Status, c.Error = kind, &report.JUnitProblem{Message: message, Type: kind}
		}
	case "diverging":
		c.Skipped = &report.JUnitProblem{Message: cmp.Or(r.skipReason, "diverging")}
	case "skipped":
		c.Skipped = &report.JUnitProblem{Message: cmp.Or(r.skipReason, "a step was skipped")}
	}
	return c
}
