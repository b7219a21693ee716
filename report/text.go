package report

import (
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/conform-suite/conform/internal/safetext"
	"github.com/conform-suite/conform/runner"
)

// TextOptions tunes the human report.
type TextOptions struct {
	Verbose bool // one line per vector, passing ones too
}

// maxRequestShown caps the request line printed for a failure, in bytes;
// in a longer one, each string over maxStringShown bytes is shortened.
const (
	maxRequestShown = 2000
	maxStringShown  = 240
)

// Text writes the human report: one block per failing result (vector
// id, requirements with their text, the request sent, the difference or
// what happened, the stderr tail), then one line per op for the
// unsupported results (failed under --require-ops or not), a summary, and as its last line, alone,
// "N passed, N failed" (", N skipped" added when some were). Interrupted
// vectors are summed up in one block; refusals that passed without a code
// are listed; a run that judged nothing or was interrupted says so on a
// "verdict:" line.
func Text(w io.Writer, r *runner.Report, opt TextOptions) error {
	var b strings.Builder
	var interrupted []string
	shown := map[string]bool{} // requirements whose text a failure above gave
	for _, res := range failuresFirst(r) {
		if res.Outcome == runner.Interrupted {
			interrupted = append(interrupted, res.Vector.ID)
			continue
		}
		if !res.Failed() || res.Outcome == runner.Unsupported {
			if opt.Verbose {
				fmt.Fprintf(&b, "%-11s %s", strings.ToUpper(res.Kind()), res.Vector.ID)
				if res.Reason != "" {
					fmt.Fprintf(&b, "  # %s", safetext.Text(res.Reason))
				}
				b.WriteByte('\n')
			}
			continue
		}
		writeFailure(r, &b, res, shown)
	}
	ops, judged := unsupportedOps(r)
	for _, u := range ops {
		fmt.Fprintf(&b, "UNSUPPORTED %s\n", u.line())
	}
	if judged != "" {
		fmt.Fprintf(&b, "  (%s requires only the ops this run judged)\n", judged)
	}
	if len(ops) > 0 {
		b.WriteByte('\n')
	}
	for _, x := range r.Stale {
		fmt.Fprintf(&b, "STALE       %s (expectations line %d): names no vector; remove the entry\n\n", x.ID, x.Line)
	}
	if len(interrupted) > 0 {
		fmt.Fprintf(&b, "INTERRUPTED %d %s not judged: %s\n\n", len(interrupted), Plural(len(interrupted), "vector", "vectors"), listSome(interrupted, 5))
	}
	if codeless := r.CodelessResults(); len(codeless) > 0 {
		b.WriteString("CODELESS    refusals without the code the vector expects:\n")
		for _, res := range codeless {
			fmt.Fprintf(&b, "  %s (%s %s, want code %s)\n", res.Vector.ID, strings.ToUpper(res.Kind()), res.Codeless.Member, res.Codeless.Code)
		}
		b.WriteByte('\n')
	}
	t := r.Totals()
	if h := r.Implementation; h != nil {
		fmt.Fprintf(&b, "implementation: %s %s (%s), protocol %d, over %s\n", safetext.Clip(h.Name, 200), safetext.Clip(h.Version, 200), safetext.Clip(h.Language, 200), h.Protocol, safetext.Text(r.Transport))
	} else {
		fmt.Fprintf(&b, "implementation: no hello (every op assumed), over %s\n", safetext.Text(r.Transport))
	}
	fmt.Fprintf(&b, "profile: %s\n", profileLine(r))
	var parts []string
	for _, o := range runner.Outcomes {
		if n := t.ByOutcome[o]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s%s", n, o, unsupportedNote(r, o, n)))
		}
	}
	if len(parts) > 0 {
		fmt.Fprintf(&b, "outcomes: %s (conform %s, %d %s, %v)\n", strings.Join(parts, ", "), r.SuiteVersion, t.Total, Plural(t.Total, "vector", "vectors"), roundDuration(r.Duration))
	}
	for _, l := range r.Conformance() {
		if l.Tested+l.Unsupported > 0 {
			fmt.Fprintf(&b, "requirements: %s\n", l.Summary())
		}
	}
	if l := codelessLine(r); l != "" {
		fmt.Fprintf(&b, "codes: %s\n", l)
	}
	for _, p := range r.Problems() {
		fmt.Fprintf(&b, "verdict: failed: %s\n", p)
	}
	if r.Conform != nil {
		fmt.Fprintf(&b, "identity: %s\n", r.Conform)
	}
	if l := staleLine(t); l != "" {
		fmt.Fprintf(&b, "verdict: failed: %s\n", l)
	}
	b.WriteString(closingLine(t))
	_, err := io.WriteString(w, b.String())
	return err
}

// closingLine is the last line of the text and Markdown reports:
// "N passed, N failed", and ", N skipped" and ", N interrupted" when some
// were; stale expectation entries are not vectors and have their own line
// (see staleLine).
func closingLine(t runner.Totals) string {
	s := fmt.Sprintf("%d passed, %d failed", t.Passed, t.Failed)
	if t.Skipped > 0 {
		s += fmt.Sprintf(", %d skipped", t.Skipped)
	}
	if t.Interrupted > 0 {
		s += fmt.Sprintf(", %d interrupted", t.Interrupted)
	}
	return s + "\n"
}

// staleLine says how many expectation entries are stale, or "".
func staleLine(t runner.Totals) string {
	if t.Stale == 0 {
		return ""
	}
	return fmt.Sprintf("%d stale expectation %s (%s no vector)", t.Stale, Plural(t.Stale, "entry", "entries"), Plural(t.Stale, "names", "name"))
}

// listSome lists the first n ids and how many more there are.
func listSome(ids []string, n int) string {
	if len(ids) <= n {
		return strings.Join(ids, ", ")
	}
	return strings.Join(ids[:n], ", ") + fmt.Sprintf(" and %d more", len(ids)-n)
}

// writeFailure writes the block of one failure. A requirement in shown
// has had its text written by a block above in the same report: its id and
// level stand alone, "text above"; shown is nil where each block stands
// alone (a JUnit, TAP or Markdown entry), and every block gets every text.
func writeFailure(r *runner.Report, b *strings.Builder, res *runner.Result, shown map[string]bool) {
	fmt.Fprintf(b, "%-11s %s\n", strings.ToUpper(res.Kind()), res.Vector.ID)
	if res.Vector.Description != "" {
		fmt.Fprintf(b, "  vector:   %s\n", safetext.Text(res.Vector.Description))
	}
	for _, id := range res.Vector.Requirements {
		level, text := requirementText(r, id)
		switch {
		case text == "":
			fmt.Fprintf(b, "  requires: %s\n", id)
		case shown[id] && level == "":
			fmt.Fprintf(b, "  requires: %s (text above)\n", id)
		case shown[id]:
			fmt.Fprintf(b, "  requires: %s (%s, text above)\n", id, level)
		case level == "":
			fmt.Fprintf(b, "  requires: %s %s\n", id, text)
		default:
			fmt.Fprintf(b, "  requires: %s (%s) %s\n", id, level, text)
		}
		if shown != nil && text != "" {
			shown[id] = true
		}
	}
	if line, err := runner.RequestLine(res.Request); err == nil {
		line = strings.TrimSuffix(line, "\n")
		if n := len(line); n > maxRequestShown {
			line = shortenStrings(line, maxStringShown)
			if len(line) > maxRequestShown {
				line = safetext.Head(line, maxRequestShown) + "…"
			}
			line += fmt.Sprintf(" (%d bytes, long strings shortened; 'conform explain %s' prints it whole)", n, res.Vector.ID)
		}
		fmt.Fprintf(b, "  request:  %s\n", safetext.JSON(line))
	}
	if c := res.Clipped; c != nil {
		fmt.Fprintf(b, "  answer:   %s bytes, sha256 %s, begins %s\n", safetext.Thousands(c.Size), c.SHA256, safetext.Clip(c.Prefix, 200))
	}
	if res.ActualNote != "" {
		fmt.Fprintf(b, "  answer:   %s\n", res.ActualNote)
	}
	if d := res.Recorded; d != nil {
		fmt.Fprintf(b, "  recorded: graded against the answer recorded for %s: %s\n", d.System, d.Reason)
	}
	if res.Reason != "" {
		fmt.Fprintf(b, "  listed:   %s (the expectations file lists it as failing; outcome %s)\n", safetext.Text(res.Reason), res.Original)
	}
	if res.Detail != "" {
		fmt.Fprintf(b, "  detail:   %s\n", safetext.Text(res.Detail))
	}
	if len(res.Diffs) > 0 {
		b.WriteString("  diff (want, got):\n")
		for _, d := range res.Diffs {
			fmt.Fprintf(b, "    %s\n", safetext.JSON(d))
		}
	}
	if s := strings.TrimSpace(res.Stderr); s != "" {
		b.WriteString("  stderr (tail):\n")
		for _, l := range safetext.Tail(s, 20, 300) {
			fmt.Fprintf(b, "    | %s\n", l)
		}
	}
	b.WriteByte('\n')
}

// roundDuration keeps two or three significant figures of a run's duration.
func roundDuration(d time.Duration) time.Duration {
	switch {
	case d >= time.Second:
		return d.Round(10 * time.Millisecond)
	case d >= 10*time.Millisecond:
		return d.Round(time.Millisecond)
	}
	return d.Round(10 * time.Microsecond)
}

// failureText is the body of a failure in JUnit, TAP and Markdown.
func failureText(r *runner.Report, res *runner.Result) string {
	var b strings.Builder
	writeFailure(r, &b, res, nil)
	return strings.TrimRight(b.String(), "\n")
}

// shortenStrings shortens each string literal of the JSON text line that is
// longer than max bytes: its middle gives way to "…(N bytes)…", cut between
// characters and escapes, so that every member of a long request stays in
// view.
func shortenStrings(line string, max int) string {
	var b strings.Builder
	for i := 0; i < len(line); {
		if line[i] != '"' {
			b.WriteByte(line[i])
			i++
			continue
		}
		// A string literal: bounds holds where each character or escape of
		// its body starts.
		var bounds []int
		j := i + 1
		for j < len(line) && line[j] != '"' {
			bounds = append(bounds, j)
			switch {
			case line[j] == '\\' && j+1 < len(line) && line[j+1] == 'u':
				j += 6
			case line[j] == '\\':
				j += 2
			default:
				_, n := utf8.DecodeRuneInString(line[j:])
				j += n
			}
		}
		j = min(j, len(line))
		body := line[i+1 : j]
		if len(body) <= max {
			b.WriteString(line[i:min(j+1, len(line))])
			i = j + 1
			continue
		}
		head, tail := i+1, j
		for _, at := range bounds {
			if at-(i+1) <= max/2 {
				head = at
			}
			if j-at <= max/4 && tail == j {
				tail = at
			}
		}
		fmt.Fprintf(&b, "\"%s…(%d bytes)…%s", line[i+1:head], tail-head, line[tail:min(j+1, len(line))])
		i = j + 1
	}
	return b.String()
}
