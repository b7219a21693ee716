package features

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cucumber/godog/formatters"
	messages "github.com/cucumber/messages/go/v34"
)

// godog counts a scenario that a step skipped as passed, in its summary line
// and in its JUnit report. conform's formatters replace those: "pretty" and
// "progress" are godog's with the summary line counted by conform (see
// Tally), and "junit" is conform's own, where a skipped scenario is a
// <skipped/> test case and the totals add up.
const ownPrefix = "conform-"

// own maps the names a user gives to conform's formatters.
var own = map[string]string{"pretty": ownPrefix + "pretty", "progress": ownPrefix + "progress", "junit": ownPrefix + "junit"}

func init() {
	for _, name := range []string{"pretty", "progress"} {
		inner := formatters.FindFmt(name)
		formatters.Format(own[name], "", func(suite string, out io.Writer) formatters.Formatter {
			f := &summaryFilter{w: out, vs: activeVerdicts()}
			registerFlush(f)
			return inner(suite, f)
		})
	}
	formatters.Format(own["junit"], "", func(suite string, out io.Writer) formatters.Formatter {
		return &junitFormatter{out: out, suite: suite, vs: activeVerdicts(), byURI: map[string]*junitSuite{}, cases: map[string]*junitCase{}}
	})
}

// active holds the verdicts of the run in progress: godog creates the
// formatters by name, so they find the run through it. Runs are serialised
// by runMu.
var (
	runMu    sync.Mutex
	activeMu sync.Mutex
	active   *verdicts
	flushes  []*summaryFilter
)

func activeVerdicts() *verdicts {
	activeMu.Lock()
	defer activeMu.Unlock()
	return active
}

func registerFlush(f *summaryFilter) {
	activeMu.Lock()
	defer activeMu.Unlock()
	flushes = append(flushes, f)
}

// ownFormat rewrites a format list to use conform's formatters.
func ownFormat(format string) string {
	parts := strings.Split(format, ",")
	for i, p := range parts {
		name, file, hasFile := strings.Cut(p, ":")
		if o, ok := own[name]; ok {
			parts[i] = o
			if hasFile {
				parts[i] += ":" + file
			}
		}
	}
	return strings.Join(parts, ",")
}

var (
	ansi        = regexp.MustCompile("\x1b\\[[0-9;]*m")
	summaryLine = regexp.MustCompile(`^(\d+ scenarios \(.*\)|No scenarios)$`)
)

// summaryFilter passes a formatter's output through, replacing godog's
// scenario summary line with conform's.
type summaryFilter struct {
	mu  sync.Mutex
	w   io.Writer
	vs  *verdicts
	buf []byte
}

func (f *summaryFilter) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.buf = append(f.buf, p...)
	for {
		i := bytes.IndexByte(f.buf, '\n')
		if i < 0 {
			break
		}
		line := f.buf[:i+1]
		if f.vs != nil && summaryLine.Match(ansi.ReplaceAll(bytes.TrimRight(line, "\n"), nil)) {
			line = []byte(f.vs.summary())
		}
		if _, err := f.w.Write(line); err != nil {
			return len(p), err
		}
		f.buf = f.buf[i+1:]
	}
	// A partial line that cannot begin a summary line goes out at once.
	if len(f.buf) > 0 && !summaryPrefix(string(ansi.ReplaceAll(f.buf, nil))) {
		if _, err := f.w.Write(f.buf); err != nil {
			return len(p), err
		}
		f.buf = f.buf[:0]
	}
	return len(p), nil
}

// summaryPrefix reports whether s may be the beginning of a summary line.
func summaryPrefix(s string) bool {
	if strings.HasPrefix("No scenarios", s) {
		return true
	}
	rest := strings.TrimLeft(s, "0123456789")
	if len(rest) == len(s) && s != "" && !strings.HasPrefix(s, "\x1b") {
		return false
	}
	return strings.HasPrefix(" scenarios (", rest) || strings.HasPrefix(rest, " scenarios (") || strings.HasPrefix(s, "\x1b")
}

func (f *summaryFilter) flush() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.buf) > 0 {
		f.w.Write(f.buf)
		f.buf = nil
	}
}

// junitFormatter writes a JUnit XML report of the scenarios: one testsuite
// per feature, one testcase per scenario; a failed scenario has a
// <failure>, one with an undefined, pending or ambiguous step an <error>,
// a skipped one <skipped> with the reason. The totals count exactly the
// test cases that hold each element.
type junitFormatter struct {
	mu     sync.Mutex
	out    io.Writer
	suite  string
	vs     *verdicts
	start  time.Time
	suites []*junitSuite
	byURI  map[string]*junitSuite
	cases  map[string]*junitCase
}

type junitSuites struct {
	XMLName  xml.Name      `xml:"testsuites"`
	Name     string        `xml:"name,attr"`
	Tests    int           `xml:"tests,attr"`
	Failures int           `xml:"failures,attr"`
	Errors   int           `xml:"errors,attr"`
	Skipped  int           `xml:"skipped,attr"`
	Time     string        `xml:"time,attr"`
	Suites   []*junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string           `xml:"name,attr"`
	Tests      int              `xml:"tests,attr"`
	Failures   int              `xml:"failures,attr"`
	Errors     int              `xml:"errors,attr"`
	Skipped    int              `xml:"skipped,attr"`
	Time       string           `xml:"time,attr"`
	Properties *junitProperties `xml:"properties,omitempty"`
	Cases      []*junitCase     `xml:"testcase"`
}

type junitProperties struct {
	Property []junitProperty `xml:"property"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Status    string        `xml:"status,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
	Skipped   *junitProblem `xml:"skipped,omitempty"`

	pickle  string
	started time.Time
	ended   time.Time
	failed  string // the first failing step and its error
	errored string // the first undefined, pending or ambiguous step
	kind    string
	skipped bool
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
}

func (f *junitFormatter) TestRunStarted() { f.start = time.Now() }

func (f *junitFormatter) Feature(doc *messages.GherkinDocument, uri string, _ []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, ok := f.byURI[uri]; ok {
		return
	}
	name := uri
	if doc != nil && doc.Feature != nil && doc.Feature.Name != "" {
		name = doc.Feature.Name
	}
	s := &junitSuite{Name: name}
	f.byURI[uri] = s
	f.suites = append(f.suites, s)
}

func (f *junitFormatter) Pickle(p *messages.Pickle) {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.byURI[p.Uri]
	if s == nil {
		s = &junitSuite{Name: p.Uri}
		f.byURI[p.Uri] = s
		f.suites = append(f.suites, s)
	}
	now := time.Now()
	c := &junitCase{Name: p.Name, Classname: s.Name, pickle: p.Id, started: now, ended: now}
	f.cases[p.Id] = c
	s.Cases = append(s.Cases, c)
}

func (f *junitFormatter) at(p *messages.Pickle) *junitCase {
	c := f.cases[p.Id]
	if c == nil {
		c = &junitCase{}
	}
	c.ended = time.Now()
	return c
}

func (f *junitFormatter) Defined(*messages.Pickle, *messages.PickleStep, *formatters.StepDefinition) {
}

func (f *junitFormatter) Passed(p *messages.Pickle, _ *messages.PickleStep, _ *formatters.StepDefinition) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.at(p)
}

func (f *junitFormatter) Failed(p *messages.Pickle, st *messages.PickleStep, _ *formatters.StepDefinition, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if c := f.at(p); c.failed == "" {
		c.failed = fmt.Sprintf("Step %s: %v", st.Text, err)
	}
}

func (f *junitFormatter) Skipped(p *messages.Pickle, _ *messages.PickleStep, _ *formatters.StepDefinition) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.at(p).skipped = true
}

func (f *junitFormatter) errored(p *messages.Pickle, st *messages.PickleStep, kind, msg string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if c := f.at(p); c.errored == "" {
		c.errored, c.kind = fmt.Sprintf("Step %s: %s", st.Text, msg), kind
	}
}

func (f *junitFormatter) Undefined(p *messages.Pickle, st *messages.PickleStep, _ *formatters.StepDefinition) {
	f.errored(p, st, "undefined", "no step definition matches it")
}

func (f *junitFormatter) Pending(p *messages.Pickle, st *messages.PickleStep, _ *formatters.StepDefinition) {
	f.errored(p, st, "pending", "the step is pending")
}

func (f *junitFormatter) Ambiguous(p *messages.Pickle, st *messages.PickleStep, _ *formatters.StepDefinition, err error) {
	f.errored(p, st, "ambiguous", err.Error())
}

func (f *junitFormatter) Summary() {
	f.mu.Lock()
	defer f.mu.Unlock()
	all := junitSuites{Name: f.suite, Time: seconds(time.Since(f.start)), Suites: f.suites}
	for _, s := range f.suites {
		if f.vs != nil {
			s.Properties = &junitProperties{Property: []junitProperty{{Name: "profile", Value: f.vs.profile}}}
		}
		names := map[string]int{}
		for _, c := range s.Cases {
			names[c.Name]++
		}
		seen := map[string]int{}
		var d time.Duration
		for _, c := range s.Cases {
			if names[c.Name] > 1 {
				seen[c.Name]++
				c.Name += fmt.Sprintf(" #%d", seen[c.Name])
			}
			c.Time = seconds(c.ended.Sub(c.started))
			d += c.ended.Sub(c.started)
			switch {
			case c.failed != "":
				c.Status, c.Failure = "failed", &junitProblem{Message: c.failed}
				s.Failures++
			case c.errored != "":
				c.Status, c.Error = c.kind, &junitProblem{Message: c.errored, Type: c.kind}
				s.Errors++
			case c.skipped && f.vs != nil && f.vs.diverging(c.pickle):
				// Neither passed nor failed: the profile's system answers
				// it differently. JUnit has no such outcome; skipped is the
				// one that counts it as neither.
				c.Status, c.Skipped = "diverging", &junitProblem{Message: firstNonEmpty(f.vs.skipReason(c.pickle), "diverging")}
				s.Skipped++
			case c.skipped:
				reason := ""
				if f.vs != nil {
					reason = f.vs.skipReason(c.pickle)
				}
				c.Status, c.Skipped = "skipped", &junitProblem{Message: firstNonEmpty(reason, "a step was skipped")}
				s.Skipped++
			default:
				c.Status = "passed"
			}
			s.Tests++
		}
		s.Time = seconds(d)
		all.Tests += s.Tests
		all.Failures += s.Failures
		all.Errors += s.Errors
		all.Skipped += s.Skipped
	}
	io.WriteString(f.out, xml.Header)
	enc := xml.NewEncoder(f.out)
	enc.Indent("", "  ")
	enc.Encode(all)
	io.WriteString(f.out, "\n")
}

func seconds(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', 6, 64) }
