package features

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	messages "github.com/cucumber/messages/go/v34"
)

// The formatters of a run. "pretty" and "progress" count the scenarios as
// conform does (see Tally), "junit" makes a skipped scenario a <skipped/>
// test case whose totals add up, and "cucumber" writes Cucumber JSON with
// each step's status.

// report receives the results of a run: each feature, then the results of
// its pickles, then the end of the run.
type report interface {
	feature(f *feature)
	pickle(r *pickleResult)
	summary(elapsed time.Duration)
}

// formats are the formatters by name.
var formats = map[string]func(w io.Writer, c paint, vs *verdicts) report{
	"pretty":   func(w io.Writer, c paint, vs *verdicts) report { return &pretty{w: w, c: c, vs: vs} },
	"progress": func(w io.Writer, c paint, vs *verdicts) report { return &progress{w: w, c: c, vs: vs} },
	"junit": func(w io.Writer, _ paint, vs *verdicts) report {
		return &junitFormatter{out: w, suite: "conform", vs: vs, start: time.Now(), byURI: map[string]*junitSuite{}}
	},
	"cucumber": func(w io.Writer, _ paint, _ *verdicts) report { return &cucumber{w: w} },
}

type multiReport []report

func (m multiReport) feature(f *feature) {
	for _, r := range m {
		r.feature(f)
	}
}

func (m multiReport) pickle(p *pickleResult) {
	for _, r := range m {
		r.pickle(p)
	}
}

func (m multiReport) summary(d time.Duration) {
	for _, r := range m {
		r.summary(d)
	}
}

// paint colours text with ANSI escapes when true.
type paint bool

func (c paint) code(code, s string) string {
	if !c {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

func (c paint) status(st stepStatus, s string) string {
	switch st {
	case stepPassed:
		return c.code("32", s)
	case stepSkipped:
		return c.code("36", s)
	case stepFailed:
		return c.code("31", s)
	}
	return c.code("33", s)
}

// stepCounts is the steps line of the pretty and progress reports.
func stepCounts(c paint, n map[stepStatus]int) string {
	total := 0
	var parts []string
	for _, st := range []stepStatus{stepPassed, stepFailed, stepPending, stepAmbiguous, stepUndefined, stepSkipped} {
		total += n[st]
		if n[st] > 0 {
			parts = append(parts, c.status(st, fmt.Sprintf("%d %s", n[st], st)))
		}
	}
	if total == 0 {
		return "No steps\n"
	}
	return fmt.Sprintf("%d steps (%s)\n", total, strings.Join(parts, ", "))
}

// progress prints a character per step, 70 to a line, then the failed
// steps and the summary.
type progress struct {
	w      io.Writer
	c      paint
	vs     *verdicts
	n      int
	counts map[stepStatus]int
	failed []string
}

func (f *progress) feature(*feature) {}

func (f *progress) pickle(r *pickleResult) {
	if f.counts == nil {
		f.counts = map[stepStatus]int{}
	}
	for _, s := range r.steps {
		if !s.shown {
			continue
		}
		f.counts[s.status]++
		ch := map[stepStatus]string{stepPassed: ".", stepSkipped: "-", stepFailed: "F", stepUndefined: "U", stepAmbiguous: "A", stepPending: "P"}[s.status]
		io.WriteString(f.w, f.c.status(s.status, ch))
		if f.n++; f.n%70 == 0 {
			fmt.Fprintf(f.w, " %d\n", f.n)
		}
		if s.status == stepFailed {
			sc := r.feature.scenarioOf(r.pickle)
			ast := r.feature.stepOf(s.step)
			f.failed = append(f.failed,
				"  "+f.c.code("31", sc.Keyword+": "+r.pickle.Name)+f.c.code("1;30", " # "+uriLine(r.pickle.Uri, sc.Location.Line)),
				"    "+f.c.code("31", strings.TrimSpace(ast.Keyword)+" "+s.step.Text)+f.c.code("1;30", " # "+uriLine(r.pickle.Uri, ast.Location.Line)),
				"      "+f.c.code("31", "Error: ")+f.c.code("1;31", fmt.Sprint(s.err)),
				"")
		}
	}
}

func (f *progress) summary(elapsed time.Duration) {
	if left := f.n % 70; left != 0 {
		if f.n > 70 {
			io.WriteString(f.w, strings.Repeat(" ", 70-left))
		}
		fmt.Fprintf(f.w, " %d\n", f.n)
	}
	if len(f.failed) > 0 {
		fmt.Fprint(f.w, "\n\n--- "+f.c.code("31", "Failed steps:")+"\n\n")
		fmt.Fprint(f.w, strings.Join(f.failed, "\n"))
	}
	fmt.Fprintln(f.w)
	writeSummary(f.w, f.c, f.vs, f.counts, elapsed)
}

// writeSummary ends the pretty and progress reports: the scenarios, the
// profile, the steps and the time taken.
func writeSummary(w io.Writer, c paint, vs *verdicts, counts map[stepStatus]int, elapsed time.Duration) {
	fmt.Fprintln(w)
	io.WriteString(w, vs.summary())
	io.WriteString(w, stepCounts(c, counts))
	fmt.Fprintln(w, elapsed)
}

// pretty prints every scenario with its steps, coloured by status, the
// error under a failed step, then the summary.
type pretty struct {
	w      io.Writer
	c      paint
	vs     *verdicts
	counts map[stepStatus]int
}

func (f *pretty) feature(ft *feature) {
	fmt.Fprintf(f.w, "%s: %s\n", ft.doc.Feature.Keyword, ft.doc.Feature.Name)
	if d := strings.TrimSpace(ft.doc.Feature.Description); d != "" {
		for line := range strings.SplitSeq(d, "\n") {
			fmt.Fprintf(f.w, "  %s\n", strings.TrimSpace(line))
		}
	}
}

func (f *pretty) pickle(r *pickleResult) {
	if f.counts == nil {
		f.counts = map[stepStatus]int{}
	}
	sc := r.feature.scenarioOf(r.pickle)
	var b strings.Builder
	head := "  " + sc.Keyword + ": " + r.pickle.Name
	width := len([]rune(head))
	for _, s := range r.steps {
		width = max(width, len([]rune("    "+strings.TrimSpace(r.feature.stepOf(s.step).Keyword)+" "+s.step.Text)))
	}
	pad := func(s string) string { return s + strings.Repeat(" ", width-len([]rune(s))) }
	fmt.Fprintf(&b, "\n%s %s\n", pad(head), f.c.code("1;30", "# "+uriLine(r.pickle.Uri, r.feature.line(r.pickle))))
	for _, s := range r.steps {
		if !s.shown {
			continue
		}
		f.counts[s.status]++
		ast := r.feature.stepOf(s.step)
		text := "    " + strings.TrimSpace(ast.Keyword) + " " + s.step.Text
		if s.def != nil && s.def.where != "" {
			text = f.c.status(s.status, pad(text)) + " " + f.c.code("1;30", "# "+s.def.where)
		} else {
			text = f.c.status(s.status, text)
		}
		b.WriteString(text + "\n")
		if a := s.step.Argument; a != nil && a.DocString != nil {
			b.WriteString("      \"\"\"" + strings.TrimSpace(" "+a.DocString.MediaType) + "\n")
			for line := range strings.SplitSeq(a.DocString.Content, "\n") {
				b.WriteString("      " + line + "\n")
			}
			b.WriteString("      \"\"\"\n")
		}
		if a := s.step.Argument; a != nil && a.DataTable != nil {
			b.WriteString(tableText(a.DataTable, "      "))
		}
		switch s.status {
		case stepFailed, stepAmbiguous:
			b.WriteString("      " + f.c.code("1;31", "Error: "+fmt.Sprint(s.err)) + "\n")
		case stepUndefined:
			b.WriteString("      " + f.c.code("33", "no step definition matches it") + "\n")
		}
	}
	io.WriteString(f.w, b.String())
}

// tableText is a table with its columns aligned.
func tableText(t *messages.PickleTable, indent string) string {
	var width []int
	for _, row := range t.Rows {
		for i, c := range row.Cells {
			if i == len(width) {
				width = append(width, 0)
			}
			width[i] = max(width[i], len([]rune(c.Value)))
		}
	}
	var b strings.Builder
	for _, row := range t.Rows {
		b.WriteString(indent + "|")
		for i, c := range row.Cells {
			b.WriteString(" " + c.Value + strings.Repeat(" ", width[i]-len([]rune(c.Value))) + " |")
		}
		b.WriteString("\n")
	}
	return b.String()
}

func (f *pretty) summary(elapsed time.Duration) {
	fmt.Fprintln(f.w)
	writeSummary(f.w, f.c, f.vs, f.counts, elapsed)
}

// cucumber writes the run as Cucumber JSON: the features, their scenarios
// and each step's status.
type cucumber struct {
	w        io.Writer
	features []*cukeFeature
}

type cukeFeature struct {
	URI         string        `json:"uri"`
	ID          string        `json:"id"`
	Keyword     string        `json:"keyword"`
	Name        string        `json:"name"`
	Description string        `json:"description"`
	Line        int64         `json:"line"`
	Tags        []cukeTag     `json:"tags,omitempty"`
	Elements    []cukeElement `json:"elements,omitempty"`
}

type cukeTag struct {
	Name string `json:"name"`
	Line int64  `json:"line"`
}

type cukeElement struct {
	ID          string     `json:"id"`
	Keyword     string     `json:"keyword"`
	Name        string     `json:"name"`
	Description string     `json:"description"`
	Line        int64      `json:"line"`
	Type        string     `json:"type"`
	Tags        []cukeTag  `json:"tags,omitempty"`
	Steps       []cukeStep `json:"steps,omitempty"`
}

type cukeStep struct {
	Keyword   string         `json:"keyword"`
	Name      string         `json:"name"`
	Line      int64          `json:"line"`
	DocString *cukeDocString `json:"doc_string,omitempty"`
	Match     struct {
		Location string `json:"location"`
	} `json:"match"`
	Result struct {
		Status   string `json:"status"`
		Error    string `json:"error_message,omitempty"`
		Duration *int64 `json:"duration,omitempty"`
	} `json:"result"`
	Rows []cukeRow `json:"rows,omitempty"`
}

type cukeDocString struct {
	Value       string `json:"value"`
	ContentType string `json:"content_type"`
	Line        int64  `json:"line"`
}

type cukeRow struct {
	Cells []string `json:"cells"`
}

// cukeID is a name made into an id: lower case, spaces as dashes.
func cukeID(s string) string { return strings.ReplaceAll(strings.ToLower(s), " ", "-") }

func (f *cucumber) feature(ft *feature) {
	d := ft.doc.Feature
	cf := &cukeFeature{URI: ft.uri, ID: cukeID(d.Name), Keyword: d.Keyword, Name: d.Name, Description: d.Description, Line: d.Location.Line}
	for _, t := range d.Tags {
		cf.Tags = append(cf.Tags, cukeTag{Name: t.Name, Line: t.Location.Line})
	}
	f.features = append(f.features, cf)
}

func (f *cucumber) pickle(r *pickleResult) {
	cf := f.features[len(f.features)-1]
	sc := r.feature.scenarioOf(r.pickle)
	el := cukeElement{ID: cf.ID + ";" + cukeID(r.pickle.Name), Keyword: sc.Keyword, Name: r.pickle.Name,
		Description: sc.Description, Line: r.feature.line(r.pickle), Type: "scenario"}
	if len(r.pickle.AstNodeIds) > 1 {
		for _, ex := range sc.Examples {
			for i, row := range ex.TableBody {
				if row.Id == r.pickle.AstNodeIds[1] {
					el.ID += fmt.Sprintf(";%s;%d", cukeID(ex.Name), i+2)
				}
			}
		}
	}
	for _, t := range r.pickle.Tags {
		line := int64(0)
		if at := r.feature.tags[t.AstNodeId]; at != nil {
			line = at.Location.Line
		}
		el.Tags = append(el.Tags, cukeTag{Name: t.Name, Line: line})
	}
	for _, s := range r.steps {
		if !s.shown {
			continue
		}
		ast := r.feature.stepOf(s.step)
		cs := cukeStep{Keyword: ast.Keyword, Name: s.step.Text, Line: ast.Location.Line}
		cs.Match.Location = uriLine(r.pickle.Uri, ast.Location.Line)
		if s.def != nil {
			cs.Match.Location = s.def.where
		}
		cs.Result.Status = s.status.String()
		if s.status == stepFailed || s.status == stepAmbiguous {
			cs.Result.Error = fmt.Sprint(s.err)
		}
		if s.status != stepUndefined && s.status != stepSkipped {
			ns := s.took.Nanoseconds()
			cs.Result.Duration = &ns
		}
		if a := s.step.Argument; a != nil && a.DocString != nil {
			line := int64(0)
			if ast.DocString != nil {
				line = ast.DocString.Location.Line
			}
			cs.DocString = &cukeDocString{Value: a.DocString.Content, ContentType: a.DocString.MediaType, Line: line}
		}
		if a := s.step.Argument; a != nil && a.DataTable != nil {
			for _, row := range a.DataTable.Rows {
				var cells []string
				for _, c := range row.Cells {
					cells = append(cells, c.Value)
				}
				cs.Rows = append(cs.Rows, cukeRow{Cells: cells})
			}
		}
		el.Steps = append(el.Steps, cs)
	}
	cf.Elements = append(cf.Elements, el)
}

func (f *cucumber) summary(time.Duration) {
	list := f.features
	if list == nil {
		list = []*cukeFeature{}
	}
	data, err := json.MarshalIndent(list, "", "    ")
	if err != nil {
		fmt.Fprintf(f.w, "features: cucumber report: %v\n", err)
		return
	}
	f.w.Write(append(data, '\n'))
}

// junitFormatter writes a JUnit XML report of the scenarios: one testsuite
// per feature, one testcase per scenario; a failed scenario has a
// <failure>, one with an undefined or ambiguous step an <error>,
// a skipped one <skipped> with the reason. The totals count exactly the
// test cases that hold each element. A refusal taken without the code its
// step expects says so in its test case's system-out, and its suite counts
// them in the property codeless_refusals.
type junitFormatter struct {
	out    io.Writer
	suite  string
	vs     *verdicts
	start  time.Time
	suites []*junitSuite
	byURI  map[string]*junitSuite
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
	SystemOut string        `xml:"system-out,omitempty"`

	pickle  string
	took    time.Duration
	failed  string // the first failing step and its error
	errored string // the first undefined or ambiguous step
	kind    string
	skipped bool
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
}

func (f *junitFormatter) feature(ft *feature) {
	if _, ok := f.byURI[ft.uri]; ok {
		return
	}
	name := ft.uri
	if ft.doc.Feature != nil && ft.doc.Feature.Name != "" {
		name = ft.doc.Feature.Name
	}
	s := &junitSuite{Name: name}
	f.byURI[ft.uri] = s
	f.suites = append(f.suites, s)
}

func (f *junitFormatter) pickle(r *pickleResult) {
	s := f.byURI[r.pickle.Uri]
	if s == nil {
		s = &junitSuite{Name: r.pickle.Uri}
		f.byURI[r.pickle.Uri] = s
		f.suites = append(f.suites, s)
	}
	c := &junitCase{Name: r.pickle.Name, Classname: s.Name, pickle: r.pickle.Id, took: r.end.Sub(r.start)}
	s.Cases = append(s.Cases, c)
	for _, st := range r.steps {
		if !st.shown {
			continue
		}
		switch st.status {
		case stepFailed:
			if c.failed == "" {
				c.failed = fmt.Sprintf("Step %s: %v", st.step.Text, st.err)
			}
		case stepSkipped:
			c.skipped = true
		case stepUndefined:
			if c.errored == "" {
				c.errored, c.kind = fmt.Sprintf("Step %s: no step definition matches it", st.step.Text), "undefined"
			}
		case stepAmbiguous:
			if c.errored == "" {
				c.errored, c.kind = fmt.Sprintf("Step %s: %v", st.step.Text, st.err), "ambiguous"
			}
		}
	}
}

func (f *junitFormatter) summary(time.Duration) {
	all := junitSuites{Name: f.suite, Time: seconds(time.Since(f.start)), Suites: f.suites}
	for _, s := range f.suites {
		codeless := 0
		if f.vs != nil {
			for _, c := range s.Cases {
				var lines []string
				for _, cl := range f.vs.codelessOf(c.pickle) {
					codeless++
					if cl.Failed {
						lines = append(lines, fmt.Sprintf("refusal without a code failed (--require-codes): the scenario expects %s with code %s", cl.Member, cl.Code))
					} else {
						lines = append(lines, fmt.Sprintf("refusal passed without a code: the scenario expects %s with code %s (PROTO-REJECT-002 allows leaving it out; --require-codes does not)", cl.Member, cl.Code))
					}
				}
				c.SystemOut = strings.Join(lines, "\n")
			}
			props := []junitProperty{{Name: "profile", Value: f.vs.profile}}
			if codeless > 0 {
				props = append(props, junitProperty{Name: "codeless_refusals", Value: fmt.Sprint(codeless)})
			}
			s.Properties = &junitProperties{Property: props}
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
			c.Time = seconds(c.took)
			d += c.took
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
