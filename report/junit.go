package report

import (
	"cmp"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/conform-suite/conform/internal/safetext"
	"github.com/conform-suite/conform/runner"
)

// JUnitSuites is a JUnit XML document: the vectors' report (JUnit) and the
// scenarios' (conform features --format junit) are both written as one.
type JUnitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []JUnitSuite `xml:"testsuite"`
}

// JUnitSuite is one <testsuite>.
type JUnitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Properties []JUnitProperty `xml:"properties>property,omitempty"`
	Cases      []JUnitCase     `xml:"testcase"`
}

// JUnitProperty is one <property> of a suite.
type JUnitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

// JUnitCase is one <testcase>: a failure, an error, skipped, or passed
// when it holds none.
type JUnitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Status    string        `xml:"status,attr,omitempty"`
	Time      string        `xml:"time,attr"`
	Failure   *JUnitProblem `xml:"failure,omitempty"`
	Error     *JUnitProblem `xml:"error,omitempty"`
	Skipped   *JUnitProblem `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

// JUnitProblem is a failure, an error or a skip, with its message.
type JUnitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Body    string `xml:",chardata"`
}

// Write writes the document after the XML header, its totals and every
// suite's first set from the test cases: each total counts exactly the
// cases holding its element.
func (all *JUnitSuites) Write(w io.Writer) error {
	all.Tests, all.Failures, all.Errors, all.Skipped = 0, 0, 0, 0
	for i := range all.Suites {
		s := &all.Suites[i]
		s.Tests, s.Failures, s.Errors, s.Skipped = len(s.Cases), 0, 0, 0
		for _, c := range s.Cases {
			switch {
			case c.Failure != nil:
				s.Failures++
			case c.Error != nil:
				s.Errors++
			case c.Skipped != nil:
				s.Skipped++
			}
		}
		all.Tests += s.Tests
		all.Failures += s.Failures
		all.Errors += s.Errors
		all.Skipped += s.Skipped
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(all); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// Seconds is a duration as JUnit writes it: seconds, with six decimals.
func Seconds(d time.Duration) string { return fmt.Sprintf("%.6f", d.Seconds()) }

// JUnit writes a JUnit XML report: one testsuite per op, one testcase
// per vector, failures first (and the suites with failures first). Wrong answers, xpasses and unsupported vectors of a required
// op are failures; error, crash, timeout, protocol and interrupted outcomes
// are errors; other unsupported vectors and xfails are skipped. A refusal
// that passed without a code says so in its system-out, and its suite
// counts them in the property codeless_refusals. A run that judged nothing
// or was interrupted ends with a failing testcase "conform/verdict".
// JUnit has no roll-up by requirement: the JSON report has it.
func JUnit(w io.Writer, r *runner.Report) error {
	all := JUnitSuites{Name: "conform", Time: Seconds(r.Duration)}
	index := map[string]int{}
	codeless := map[int]int{} // suite index -> refusals without a code
	for _, res := range failuresFirst(r) {
		k, ok := index[res.Vector.Op]
		if !ok {
			k = len(all.Suites)
			index[res.Vector.Op] = k
			all.Suites = append(all.Suites, JUnitSuite{Name: res.Vector.Op})
		}
		s := &all.Suites[k]
		c := JUnitCase{Name: res.Vector.ID, Classname: res.Vector.Op, Time: Seconds(res.Duration)}
		if res.Codeless != nil {
			codeless[k]++
		}
		// problem is a failure or an error: its message quotes what went
		// wrong, its body is the failure's block of the text report.
		problem := func(what string) *JUnitProblem {
			return &JUnitProblem{Message: res.Kind() + ": " + safetext.Clip(what, maxMessage), Type: res.Kind(), Body: failureText(r, res)}
		}
		switch res.Outcome {
		case runner.Pass:
			if res.Codeless != nil {
				c.SystemOut = fmt.Sprintf("refusal passed without a code: the vector expects %s with code %s (PROTO-REJECT-002 allows leaving it out; --require-codes does not)", res.Codeless.Member, res.Codeless.Code)
			}
		case runner.Unsupported, runner.XFail:
			if res.Required {
				c.Failure = problem(res.Detail)
				break
			}
			c.Skipped = &JUnitProblem{Message: res.Kind() + ": " + safetext.Clip(cmp.Or(res.Reason, res.Detail), maxMessage)}
		case runner.Fail, runner.XPass:
			c.Failure = problem(res.FirstLine())
		default:
			c.Error = problem(res.FirstLine())
		}
		s.Cases = append(s.Cases, c)
	}
	if problems := r.Problems(); len(problems) > 0 {
		all.Suites = append(all.Suites, JUnitSuite{Name: "conform", Cases: []JUnitCase{{
			Name: "verdict", Classname: "conform", Time: "0",
			Failure: &JUnitProblem{Message: strings.Join(problems, "; "), Type: "verdict"},
		}}})
	}
	if len(r.Stale) > 0 {
		s := JUnitSuite{Name: "expectations"}
		for _, x := range r.Stale {
			s.Cases = append(s.Cases, JUnitCase{Name: x.ID, Classname: "expectations", Time: "0",
				Failure: &JUnitProblem{Message: fmt.Sprintf("stale entry on line %d: names no vector", x.Line), Type: "stale"}})
		}
		all.Suites = append(all.Suites, s)
	}
	identity := []JUnitProperty{{Name: "profile", Value: runner.ProfileName(r.Profile)}}
	if id := r.Conform; id != nil {
		identity = append(identity, []JUnitProperty{{"conform_version", id.Version}, {"conform_revision", id.Revision}, {"protocol", fmt.Sprint(id.Protocol)}, {"suite_version", id.Suite}, {"corpus_digest", id.CorpusDigest}}...)
	}
	for i := range all.Suites {
		s := &all.Suites[i]
		s.Properties = append([]JUnitProperty(nil), identity...)
		if n := codeless[i]; n > 0 {
			s.Properties = append(s.Properties, JUnitProperty{Name: "codeless_refusals", Value: fmt.Sprint(n)})
		}
		s.Time = Seconds(suiteTime(r, s.Name, i < len(index)))
	}
	return all.Write(w)
}

// suiteTime is the wall-clock time of one op's suite: from the first of its
// requests sent to the last answered, so concurrent requests are not added
// up. Results without a send time (unsupported ones) take none; a report
// whose results carry no send times falls back to the sum of durations.
func suiteTime(r *runner.Report, op string, isOp bool) time.Duration {
	if !isOp {
		return 0
	}
	var first, last time.Time
	var sum time.Duration
	for i := range r.Results {
		res := &r.Results[i]
		if res.Vector.Op != op {
			continue
		}
		sum += res.Duration
		if res.Started.IsZero() {
			continue
		}
		if first.IsZero() || res.Started.Before(first) {
			first = res.Started
		}
		if end := res.Started.Add(res.Duration); end.After(last) {
			last = end
		}
	}
	if first.IsZero() {
		return sum
	}
	return last.Sub(first)
}
