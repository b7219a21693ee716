package report

import (
	"cmp"
	"fmt"
	"io"
	"strings"

	"github.com/conform-suite/conform/internal/safetext"
	"github.com/conform-suite/conform/runner"
)

// TAP writes a TAP version 13 report: one test point per vector, failures
// first, a YAML block for each failure; unsupported vectors are SKIP (unless their op is
// required) and xfails TODO. A refusal that passed without a code gets a
// diagnostic line. Stale expectation entries, and a run that judged nothing
// or was interrupted, are extra failing points at the end.
func TAP(w io.Writer, r *runner.Report) error {
	var b strings.Builder
	problems := r.Problems()
	b.WriteString("TAP version 13\n")
	fmt.Fprintf(&b, "1..%d\n", len(r.Results)+len(r.Stale)+len(problems))
	fmt.Fprintf(&b, "# profile: %s\n", profileLine(r))
	for i, res := range failuresFirst(r) {
		n := i + 1
		switch {
		case res.Outcome == runner.Pass:
			fmt.Fprintf(&b, "ok %d - %s\n", n, res.Vector.ID)
			if c := res.Codeless; c != nil {
				fmt.Fprintf(&b, "# refusal passed without a code: the vector expects %s with code %s\n", c.Member, c.Code)
			}
		case res.Outcome == runner.Unsupported && !res.Required:
			fmt.Fprintf(&b, "ok %d - %s # SKIP unsupported\n", n, res.Vector.ID)
		case res.Outcome == runner.XFail:
			fmt.Fprintf(&b, "not ok %d - %s # TODO %s\n", n, res.Vector.ID, tapEscape(cmp.Or(res.Reason, "known failure")))
		default:
			fmt.Fprintf(&b, "not ok %d - %s\n", n, res.Vector.ID)
			b.WriteString("  ---\n")
			fmt.Fprintf(&b, "  outcome: %s\n", res.Kind())
			fmt.Fprintf(&b, "  requirements: [%s]\n", strings.Join(res.Vector.Requirements, ", "))
			b.WriteString("  message: |-\n")
			for _, l := range strings.Split(failureText(r, res), "\n") {
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
	if l := codelessLine(r); l != "" {
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
