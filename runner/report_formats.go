package runner

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/conform-suite/conform/internal/safetext"
	"github.com/conform-suite/conform/protocol"
)

// jsonHead is the JSON report (schemas/report.schema.json) but for its
// results, which WriteJSON writes one by one.
type jsonHead struct {
	Schema         string            `json:"$schema"`
	SuiteVersion   string            `json:"suite_version"`
	Protocol       int               `json:"protocol"`
	Implementation *protocol.Hello   `json:"implementation"`
	Conform        *Identity         `json:"conform,omitempty"`
	Transport      string            `json:"transport"`
	Profile        string            `json:"profile"`
	Shard          *string           `json:"shard"`
	Started        string            `json:"started"`
	DurationMS     float64           `json:"duration_ms"`
	Totals         jsonTotals        `json:"totals"`
	Stale          []jsonStale       `json:"stale_expectations"`
	Codeless       []jsonCodeless    `json:"codeless_refusals"`
	Verdict        jsonVerdict       `json:"verdict"`
	Requirements   []jsonRequirement `json:"requirements"`
	Conformance    []LevelRollup     `json:"conformance"`
}

type jsonTotals struct {
	Total       int             `json:"total"`
	Passed      int             `json:"passed"`
	Failed      int             `json:"failed"`
	Skipped     int             `json:"skipped"`
	Interrupted int             `json:"interrupted"`
	Codeless    int             `json:"codeless"`
	Stale       int             `json:"stale"`
	ByOutcome   map[Outcome]int `json:"by_outcome"`
}

type jsonCodeless struct {
	ID      string  `json:"id"`
	Outcome Outcome `json:"outcome"`
	Member  string  `json:"member"`
	Code    string  `json:"code"`
}

type jsonVerdict struct {
	Passed   bool     `json:"passed"`
	Problems []string `json:"problems"`
}

type jsonResult struct {
	ID           string          `json:"id"`
	Op           string          `json:"op"`
	Outcome      Outcome         `json:"outcome"`
	Kind         string          `json:"kind"`
	Required     bool            `json:"required,omitempty"`
	Codeless     string          `json:"codeless,omitempty"`
	Requirements []string        `json:"requirements"`
	DurationMS   float64         `json:"duration_ms"`
	Detail       string          `json:"detail,omitempty"`
	Diffs        []string        `json:"diffs,omitempty"`
	Reason       string          `json:"reason,omitempty"`
	Request      string          `json:"request,omitempty"`
	Expected     json.RawMessage `json:"expected,omitempty"`
	Actual       json.RawMessage `json:"actual,omitempty"`
	Clipped      *jsonClipped    `json:"actual_clipped,omitempty"`
	Stderr       string          `json:"stderr,omitempty"`
	Recorded     *jsonRecorded   `json:"recorded,omitempty"`
}

// jsonRecorded is the divergence record a result was graded against.
type jsonRecorded struct {
	System string `json:"system"`
	Reason string `json:"reason"`
}

type jsonClipped struct {
	Size   int    `json:"size"`
	SHA256 string `json:"sha256"`
	Prefix string `json:"prefix"`
}

type jsonStale struct {
	ID     string `json:"id"`
	Reason string `json:"reason"`
	Line   int    `json:"line"`
}

type jsonRequirement struct {
	ID      string   `json:"id"`
	Level   string   `json:"level,omitempty"`
	Outcome Outcome  `json:"outcome"`
	Vectors int      `json:"vectors"`
	Failing []string `json:"failing,omitempty"`
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// WriteJSON writes the JSON report. Failing results carry the request line,
// the expected and actual outputs and the details; passing ones only their
// outcome and duration. An actual output longer than MaxAnswerKept is given
// by its size, SHA-256 and first bytes (actual_clipped). The results are
// written one at a time: the report is never held whole in memory.
func (r *Report) WriteJSON(w io.Writer) error {
	t := r.Totals()
	head := jsonHead{
		Schema:         "https://conform-suite.github.io/schemas/report.schema.json",
		SuiteVersion:   r.SuiteVersion,
		Protocol:       protocol.Version,
		Implementation: r.Implementation,
		Conform:        r.Conform,
		Transport:      r.Transport,
		Profile:        ProfileName(r.Profile),
		Started:        r.Started.UTC().Format(time.RFC3339Nano),
		DurationMS:     ms(r.Duration),
		Totals:         jsonTotals(t),
		Stale:          []jsonStale{},
		Codeless:       []jsonCodeless{},
		Verdict:        jsonVerdict{Passed: !r.Failed(), Problems: r.Problems()},
		Requirements:   []jsonRequirement{},
		Conformance:    r.Conformance(),
	}
	if sh := r.Shard.String(); sh != "" {
		head.Shard = &sh
	}
	for _, res := range r.CodelessResults() {
		head.Codeless = append(head.Codeless, jsonCodeless{res.Vector.ID, res.Outcome, res.Codeless.Member, res.Codeless.Code})
	}
	if head.Verdict.Problems == nil {
		head.Verdict.Problems = []string{}
	}
	for _, x := range r.Stale {
		head.Stale = append(head.Stale, jsonStale(x))
	}
	for _, rr := range r.Requirements() {
		head.Requirements = append(head.Requirements, jsonRequirement{rr.ID, string(rr.Level), rr.Outcome, rr.Vectors, rr.Failing})
	}
	bw := bufio.NewWriter(w)
	jw := &jsonWriter{w: bw}
	jw.raw("{\n")
	jw.member("$schema", head.Schema)
	jw.member("suite_version", head.SuiteVersion)
	jw.member("protocol", head.Protocol)
	jw.member("implementation", head.Implementation)
	if head.Conform != nil {
		jw.member("conform", head.Conform)
	}
	jw.member("transport", head.Transport)
	jw.member("profile", head.Profile)
	jw.member("shard", head.Shard)
	jw.member("started", head.Started)
	jw.member("duration_ms", head.DurationMS)
	jw.member("totals", head.Totals)
	if len(r.Results) == 0 {
		jw.raw(`  "results": [],` + "\n")
	} else {
		jw.raw(`  "results": [`)
		for i := range r.Results {
			if i > 0 {
				jw.raw(",")
			}
			jw.raw("\n    ")
			jw.value(jsonResultOf(&r.Results[i]), "    ")
		}
		jw.raw("\n  ],\n")
	}
	jw.member("stale_expectations", head.Stale)
	jw.member("codeless_refusals", head.Codeless)
	jw.member("verdict", head.Verdict)
	jw.member("requirements", head.Requirements)
	jw.last("conformance", head.Conformance)
	jw.raw("}\n")
	if jw.err != nil {
		return jw.err
	}
	return bw.Flush()
}

// jsonResultOf is one result of the JSON report.
func jsonResultOf(res *Result) jsonResult {
	jr := jsonResult{
		ID: res.Vector.ID, Op: res.Vector.Op, Outcome: res.Outcome, Kind: res.Kind(),
		Requirements: res.Vector.Requirements, DurationMS: ms(res.Duration),
		Detail: res.Detail, Diffs: res.Diffs, Reason: res.Reason, Required: res.Required,
	}
	if d := res.Recorded; d != nil {
		jr.Recorded = &jsonRecorded{d.System, d.Reason}
	}
	if c := res.Codeless; c != nil {
		jr.Codeless = c.Member
	}
	if jr.Requirements == nil {
		jr.Requirements = []string{}
	}
	if res.Failed() || res.Outcome == XFail {
		jr.Request, _ = RequestLine(res.Request)
		jr.Request = strings.TrimSuffix(jr.Request, "\n")
		jr.Expected, jr.Actual, jr.Stderr = res.Expected, res.Actual, res.Stderr
		if c := res.Clipped; c != nil {
			jr.Clipped = &jsonClipped{c.Size, c.SHA256, c.Prefix}
		}
	}
	return jr
}

// jsonWriter writes an indented JSON object member by member, keeping the
// first error.
type jsonWriter struct {
	w   *bufio.Writer
	err error
}

func (j *jsonWriter) raw(s string) {
	if j.err == nil {
		_, j.err = j.w.WriteString(s)
	}
}

// value writes v indented as a value nested at the given prefix.
func (j *jsonWriter) value(v any, prefix string) {
	if j.err != nil {
		return
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent(prefix, "  ")
	if err := enc.Encode(v); err != nil {
		j.err = err
		return
	}
	_, j.err = j.w.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

func (j *jsonWriter) member(name string, v any) {
	j.last(name, v)
	j.raw(",\n")
}

func (j *jsonWriter) last(name string, v any) {
	j.raw("  " + strconv.Quote(name) + ": ")
	j.value(v, "  ")
	if name == "conformance" {
		j.raw("\n")
	}
}

// failureText is the body of a failure in JUnit, TAP and Markdown.
func (r *Report) failureText(res *Result) string {
	var b strings.Builder
	r.writeFailure(&b, res)
	return strings.TrimRight(b.String(), "\n")
}

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string           `xml:"name,attr"`
	Tests      int              `xml:"tests,attr"`
	Failures   int              `xml:"failures,attr"`
	Errors     int              `xml:"errors,attr"`
	Skipped    int              `xml:"skipped,attr"`
	Time       string           `xml:"time,attr"`
	Properties *junitProperties `xml:"properties,omitempty"`
	Cases      []junitCase      `xml:"testcase"`
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
	Time      string        `xml:"time,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
	Skipped   *junitProblem `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Body    string `xml:",chardata"`
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.6f", d.Seconds()) }

// WriteJUnit writes a JUnit XML report: one testsuite per op, one testcase
// per vector. Wrong answers, xpasses and unsupported vectors of a required
// op are failures; error, crash, timeout, protocol and interrupted outcomes
// are errors; other unsupported vectors and xfails are skipped. A refusal
// that passed without a code says so in its system-out, and its suite
// counts them in the property codeless_refusals. A run that judged nothing
// or was interrupted ends with a failing testcase "conform/verdict".
// JUnit has no roll-up by requirement: the JSON report has it.
func (r *Report) WriteJUnit(w io.Writer) error {
	all := junitSuites{Name: "conform", Time: seconds(r.Duration)}
	index := map[string]int{}
	codeless := map[int]int{} // suite index -> refusals without a code
	for i := range r.Results {
		res := &r.Results[i]
		k, ok := index[res.Vector.Op]
		if !ok {
			k = len(all.Suites)
			index[res.Vector.Op] = k
			all.Suites = append(all.Suites, junitSuite{Name: res.Vector.Op})
		}
		s := &all.Suites[k]
		c := junitCase{Name: res.Vector.ID, Classname: res.Vector.Op, Time: seconds(res.Duration)}
		if res.Codeless != nil {
			codeless[k]++
		}
		switch res.Outcome {
		case Pass:
			if res.Codeless != nil {
				c.SystemOut = fmt.Sprintf("refusal passed without a code: the vector expects %s with code %s (PROTO-REJECT-002 allows leaving it out; --require-codes does not)", res.Codeless.Member, res.Codeless.Code)
			}
		case Unsupported, XFail:
			if res.Required {
				c.Failure = &junitProblem{Message: res.Kind() + ": " + safetext.Clip(res.Detail, maxMessage), Type: res.Kind(), Body: r.failureText(res)}
				s.Failures++
				break
			}
			c.Skipped = &junitProblem{Message: res.Kind() + ": " + safetext.Clip(firstOr(res.Reason, res.Detail), maxMessage)}
			s.Skipped++
		case Fail, XPass:
			c.Failure = &junitProblem{Message: res.Kind() + ": " + safetext.Clip(firstLine(res), maxMessage), Type: res.Kind(), Body: r.failureText(res)}
			s.Failures++
		default:
			c.Error = &junitProblem{Message: res.Kind() + ": " + safetext.Clip(firstLine(res), maxMessage), Type: res.Kind(), Body: r.failureText(res)}
			s.Errors++
		}
		s.Tests++
		s.Cases = append(s.Cases, c)
	}
	if problems := r.Problems(); len(problems) > 0 {
		all.Suites = append(all.Suites, junitSuite{Name: "conform", Tests: 1, Failures: 1, Cases: []junitCase{{
			Name: "verdict", Classname: "conform", Time: "0",
			Failure: &junitProblem{Message: strings.Join(problems, "; "), Type: "verdict"},
		}}})
	}
	if len(r.Stale) > 0 {
		s := junitSuite{Name: "expectations"}
		for _, x := range r.Stale {
			s.Cases = append(s.Cases, junitCase{Name: x.ID, Classname: "expectations", Time: "0",
				Failure: &junitProblem{Message: fmt.Sprintf("stale entry on line %d: names no vector", x.Line), Type: "stale"}})
			s.Tests++
			s.Failures++
		}
		all.Suites = append(all.Suites, s)
	}
	identity := []junitProperty{{Name: "profile", Value: ProfileName(r.Profile)}}
	if id := r.Conform; id != nil {
		identity = append(identity, []junitProperty{{"conform_version", id.Version}, {"conform_revision", id.Revision}, {"protocol", fmt.Sprint(id.Protocol)}, {"suite_version", id.Suite}, {"corpus_digest", id.CorpusDigest}}...)
	}
	for i := range all.Suites {
		s := &all.Suites[i]
		props := append([]junitProperty(nil), identity...)
		if n := codeless[i]; n > 0 {
			props = append(props, junitProperty{Name: "codeless_refusals", Value: fmt.Sprint(n)})
		}
		if len(props) > 0 {
			s.Properties = &junitProperties{Property: props}
		}
		s.Time = seconds(r.suiteTime(s.Name, i < len(index)))
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

// suiteTime is the wall-clock time of one op's suite: from the first of its
// requests sent to the last answered, so concurrent requests are not added
// up. Results without a send time (unsupported ones) take none; a report
// whose results carry no send times falls back to the sum of durations.
func (r *Report) suiteTime(op string, isOp bool) time.Duration {
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

func firstOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// WriteTAP writes a TAP version 13 report: one test point per vector, a YAML
// block for each failure; unsupported vectors are SKIP (unless their op is
// required) and xfails TODO. A refusal that passed without a code gets a
// diagnostic line. Stale expectation entries, and a run that judged nothing
// or was interrupted, are extra failing points at the end.
func (r *Report) WriteTAP(w io.Writer) error {
	var b strings.Builder
	problems := r.Problems()
	b.WriteString("TAP version 13\n")
	fmt.Fprintf(&b, "1..%d\n", len(r.Results)+len(r.Stale)+len(problems))
	fmt.Fprintf(&b, "# profile: %s\n", r.profileLine())
	for i := range r.Results {
		res := &r.Results[i]
		n := i + 1
		switch {
		case res.Outcome == Pass:
			fmt.Fprintf(&b, "ok %d - %s\n", n, res.Vector.ID)
			if c := res.Codeless; c != nil {
				fmt.Fprintf(&b, "# refusal passed without a code: the vector expects %s with code %s\n", c.Member, c.Code)
			}
		case res.Outcome == Unsupported && !res.Required:
			fmt.Fprintf(&b, "ok %d - %s # SKIP unsupported\n", n, res.Vector.ID)
		case res.Outcome == XFail:
			fmt.Fprintf(&b, "not ok %d - %s # TODO %s\n", n, res.Vector.ID, tapEscape(firstOr(res.Reason, "known failure")))
		default:
			fmt.Fprintf(&b, "not ok %d - %s\n", n, res.Vector.ID)
			b.WriteString("  ---\n")
			fmt.Fprintf(&b, "  outcome: %s\n", res.Kind())
			fmt.Fprintf(&b, "  requirements: [%s]\n", strings.Join(res.Vector.Requirements, ", "))
			b.WriteString("  message: |-\n")
			for _, l := range strings.Split(r.failureText(res), "\n") {
				fmt.Fprintf(&b, "    %s\n", l)
			}
			b.WriteString("  ...\n")
		}
	}
	for k, x := range r.Stale {
		fmt.Fprintf(&b, "not ok %d - expectations: %s names no vector (line %d)\n", len(r.Results)+k+1, x.ID, x.Line)
	}
	for k, p := range problems {
		fmt.Fprintf(&b, "not ok %d - conform: %s\n", len(r.Results)+len(r.Stale)+k+1, p)
	}
	if l := r.codelessLine(); l != "" {
		fmt.Fprintf(&b, "# %s\n", l)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// tapEscape keeps a directive's text on one line, rendered safely, and
// free of '#'.
func tapEscape(s string) string {
	return strings.ReplaceAll(safetext.Clip(s, maxMessage), "#", `\#`)
}

// maxMessage caps a one-line message (a JUnit message attribute, a TAP
// directive, a Markdown cell) quoting an implementation, in bytes.
const maxMessage = 300

// maxMarkdownRows caps the failure table of the Markdown report.
const maxMarkdownRows = 100

// WriteMarkdown writes a summary for a CI job page: the implementation, a
// table of outcomes, and a table of failures with their first difference.
func (r *Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	t := r.Totals()
	status := "passed"
	if r.Failed() {
		status = "failed"
	}
	b.WriteString("## conform: " + status + "\n\n")
	if h := r.Implementation; h != nil {
		fmt.Fprintf(&b, "Implementation %s %s (%s), protocol %d, over %s; conform %s.\n\n", mdSpan(h.Name, false), mdSpan(h.Version, false), mdSpan(h.Language, false), h.Protocol, mdSpan(r.Transport, false), r.SuiteVersion)
	} else {
		fmt.Fprintf(&b, "Implementation without hello, over %s; conform %s.\n\n", mdSpan(r.Transport, false), r.SuiteVersion)
	}
	fmt.Fprintf(&b, "Profile **%s**: %s.\n\n", ProfileName(r.Profile), r.profileDetail())
	if r.Conform != nil {
		fmt.Fprintf(&b, "Run by %s.\n\n", r.Conform.String()) // conform's own words, never an implementation's
	}
	b.WriteString("| outcome | vectors |\n|---|---:|\n")
	for _, o := range Outcomes {
		if n := t.ByOutcome[o]; n > 0 {
			fmt.Fprintf(&b, "| %s | %d |\n", o, n)
		}
	}
	if len(r.Stale) > 0 {
		fmt.Fprintf(&b, "| stale expectation | %d |\n", len(r.Stale))
	}
	sep := "\n"
	for _, l := range r.Conformance() {
		if l.Tested+l.Unsupported == 0 {
			continue
		}
		b.WriteString(sep)
		sep = ""
		s := l.Summary()
		fmt.Fprintf(&b, "%s%s.\n", strings.ToUpper(s[:1]), s[1:])
	}
	if l := r.codelessLine(); l != "" {
		var ids []string
		for _, res := range r.CodelessResults() {
			ids = append(ids, mdSpan(res.Vector.ID, false))
		}
		fmt.Fprintf(&b, "\n%s%s: %s.\n", strings.ToUpper(l[:1]), l[1:], listSome(ids, maxMarkdownRows))
	}
	for _, p := range r.Problems() {
		fmt.Fprintf(&b, "\n**Failed: %s.**\n", p)
	}
	var rows []string
	for i := range r.Results {
		res := &r.Results[i]
		if res.Failed() && res.Outcome != Interrupted {
			rows = append(rows, fmt.Sprintf("| %s | %s | %s | %s |", mdSpan(res.Vector.ID, true), res.Kind(), strings.Join(res.Vector.Requirements, " "), mdSpan(firstLine(res), true)))
		}
	}
	for _, x := range r.Stale {
		rows = append(rows, fmt.Sprintf("| %s | stale | | expectations line %d names no vector |", mdSpan(x.ID, true), x.Line))
	}
	if len(rows) > 0 {
		b.WriteString("\n| vector | outcome | requirements | first difference |\n|---|---|---|---|\n")
		for i, row := range rows {
			if i == maxMarkdownRows {
				fmt.Fprintf(&b, "\n… and %d more; see the text or JSON report.\n", len(rows)-maxMarkdownRows)
				break
			}
			b.WriteString(row + "\n")
		}
	}
	if l := t.staleLine(); l != "" {
		fmt.Fprintf(&b, "\n**Failed: %s.**\n", l)
	}
	b.WriteString("\n" + t.closingLine())
	_, err := io.WriteString(w, b.String())
	return err
}

// mdSpan puts text in a Markdown code span (safetext.CodeSpan), cut to
// about maxMessage bytes: nothing in it is a link, an image, emphasis or
// HTML. cell is for a table cell.
func mdSpan(s string, cell bool) string {
	if len(s) > maxMessage {
		s = string(headUTF8([]byte(s), maxMessage)) + "…"
	}
	return safetext.CodeSpan(s, cell)
}
