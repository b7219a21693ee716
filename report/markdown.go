package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/conform-suite/conform/internal/safetext"
	"github.com/conform-suite/conform/runner"
)

// maxMessage caps a one-line message (a JUnit message attribute, a TAP
// directive, a Markdown cell) quoting an implementation, in bytes.
const maxMessage = 300

// maxMarkdownRows caps the failure table of the Markdown report.
const maxMarkdownRows = 100

// Markdown writes a summary for a CI job page: the implementation, a
// table of outcomes, and a table of failures with their first difference.
func Markdown(w io.Writer, r *runner.Report) error {
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
	fmt.Fprintf(&b, "Profile **%s**: %s.\n\n", runner.ProfileName(r.Profile), profileDetail(r))
	if r.Conform != nil {
		fmt.Fprintf(&b, "Run by %s.\n\n", r.Conform.String()) // conform's own words, never an implementation's
	}
	b.WriteString("| outcome | vectors |\n|---|---:|\n")
	for _, o := range runner.Outcomes {
		if n := t.ByOutcome[o]; n > 0 {
			fmt.Fprintf(&b, "| %s%s | %d |\n", o, unsupportedNote(r, o, n), n)
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
	if l := codelessLine(r); l != "" {
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
		if res.Failed() && res.Outcome != runner.Interrupted && res.Outcome != runner.Unsupported {
			rows = append(rows, fmt.Sprintf("| %s | %s | %s | %s |", mdSpan(res.Vector.ID, true), res.Kind(), strings.Join(res.Vector.Requirements, " "), mdSpan(res.FirstLine(), true)))
		}
	}
	ops, judged := unsupportedOps(r)
	var skipped []string
	for _, u := range ops {
		if !u.required {
			skipped = append(skipped, mdSpan(u.op, false)+fmt.Sprintf(" %d", u.n))
			continue
		}
		note := "not listed in hello"
		if u.listed {
			note = "answered error kind unsupported"
		}
		rows = append(rows, fmt.Sprintf("| %s (%d %s) | unsupported | | %s; failed under `--require-ops` |", mdSpan(u.op, true), u.n, Plural(u.n, "vector", "vectors"), note))
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
	if judged != "" {
		fmt.Fprintf(&b, "\nTo require only the ops this run judged: %s.\n", mdSpan(judged, false))
	}
	if len(skipped) > 0 {
		fmt.Fprintf(&b, "\nUnsupported, not judged (`--require-ops` would fail them): %s.\n", strings.Join(skipped, ", "))
	}
	if l := staleLine(t); l != "" {
		fmt.Fprintf(&b, "\n**Failed: %s.**\n", l)
	}
	b.WriteString("\n" + closingLine(t))
	_, err := io.WriteString(w, b.String())
	return err
}

// mdSpan puts text in a Markdown code span (safetext.CodeSpan), cut to
// about maxMessage bytes: nothing in it is a link, an image, emphasis or
// HTML. cell is for a table cell.
func mdSpan(s string, cell bool) string {
	if len(s) > maxMessage {
		s = safetext.Head(s, maxMessage) + "…"
	}
	return safetext.CodeSpan(s, cell)
}
