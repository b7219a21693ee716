package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/conform-suite/conform/internal/safetext"
	"github.com/conform-suite/conform/runner"
)

// MaxAnnotations is how many failures Annotations writes an annotation
// for: GitHub shows at most 50 a job (and 10 a step), so more would only
// be dropped unseen.
const MaxAnnotations = 50

// Annotations writes the failures as GitHub workflow commands, one
// "::error title=...::..." line a failing vector (the unsupported ones one
// a op, as in the text report), failures in the order the text report
// gives them: the vector id, its outcome, its requirements, the first
// difference, and the command that replays it (replay(id)). Past
// MaxAnnotations, a "::notice::" line counts the rest.
func Annotations(w io.Writer, r *runner.Report, replay func(id string) string) error {
	var b strings.Builder
	n, more := 0, 0
	add := func(title, msg string) {
		if n == MaxAnnotations {
			more++
			return
		}
		n++
		fmt.Fprintf(&b, "::error title=%s::%s\n", escapeProperty(title), escapeData(msg))
	}
	for i := range r.Results {
		res := &r.Results[i]
		if !res.Failed() || res.Outcome == runner.Unsupported || res.Outcome == runner.Interrupted {
			continue
		}
		id := safetext.Text(res.Vector.ID)
		msg := fmt.Sprintf("%s %s", res.Kind(), id)
		if reqs := res.Vector.Requirements; len(reqs) > 0 {
			msg += " (" + strings.Join(reqs, ", ") + ")"
		}
		if l := res.FirstLine(); l != "" {
			msg += ": " + safetext.Clip(l, maxMessage)
		}
		add("conform: "+id, msg+"\nreplay: "+safetext.Text(replay(res.Vector.ID)))
	}
	ops, judged := unsupportedOps(r)
	for _, u := range ops {
		if u.required {
			msg := "UNSUPPORTED " + u.line()
			if judged != "" {
				msg += "\n" + judged + " requires only the ops this run judged"
			}
			add("conform: "+u.op+" unsupported", msg)
		}
	}
	for _, p := range r.Problems() {
		add("conform: failed", p)
	}
	if more > 0 {
		fmt.Fprintf(&b, "::notice title=conform::%d more failures; the job summary and the reports list them all\n", more)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// escapeData escapes the message of a workflow command (what follows
// "::"); text from an implementation or a vector has been through
// safetext.Text before.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a property of a workflow command (title=...),
// where ':' and ',' end the value.
func escapeProperty(s string) string {
	return strings.NewReplacer(":", "%3A", ",", "%2C").Replace(escapeData(s))
}
