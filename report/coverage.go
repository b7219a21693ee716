package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/conform-suite/conform/internal/coverage"
)

// Coverage writes the coverage report for people: one line per requirement
// with its level and counts, the vectors and scenarios indented below it
// when verbose, then the ids nothing exercises, the undefined ids named,
// the seeds' statements, and a summary per level.
func Coverage(w io.Writer, r *coverage.Report, verbose bool) error {
	var b strings.Builder
	for _, e := range r.Requirements {
		state := ""
		switch {
		case e.Withdrawn:
			state = "  withdrawn"
		case !e.Exercised():
			state = "  NOT EXERCISED"
		}
		line := fmt.Sprintf("%-22s %-11s %3d %-7s %3d %-9s%s", e.ID, e.Level, len(e.Vectors), Plural(len(e.Vectors), "vector", "vectors"),
			len(e.Scenarios), Plural(len(e.Scenarios), "scenario", "scenarios"), state)
		b.WriteString(strings.TrimRight(line, " ") + "\n")
		if verbose {
			for _, v := range e.Vectors {
				fmt.Fprintf(&b, "    vector   %s\n", v)
			}
			for _, s := range e.Scenarios {
				fmt.Fprintf(&b, "    scenario %s\n", s)
			}
		}
	}
	if len(r.Unexercised) > 0 {
		fmt.Fprintf(&b, "\nexercised by nothing: %s\n", strings.Join(r.Unexercised, " "))
	}
	if len(r.Vectorless) > 0 {
		fmt.Fprintf(&b, "\nmandatory, but named by no vector: %s\n", strings.Join(r.Vectorless, " "))
	}
	for _, u := range r.Undefined {
		fmt.Fprintf(&b, "\nundefined requirement %s named by %s", u.ID, u.By)
	}
	if len(r.Undefined) > 0 {
		b.WriteString("\n")
	}
	for _, sd := range r.Seeds {
		cites := 0
		for _, st := range sd.Statements {
			cites += len(st.Requirements)
		}
		fmt.Fprintf(&b, "\nseed %s %q (%s): %d statements cited by %d requirement references, %d out of scope\n",
			sd.Seed, sd.Title, sd.Suite, len(sd.Statements), cites, len(sd.OutOfScope))
		for _, st := range sd.Statements {
			fmt.Fprintf(&b, "    cited        %q: %s\n", st.Quote, strings.Join(st.Requirements, " "))
		}
		for _, o := range sd.OutOfScope {
			fmt.Fprintf(&b, "    out of scope %q: %s:%d\n", o.Quote, o.File, o.Line)
			if verbose {
				fmt.Fprintf(&b, "        %s\n", o.Reason)
			}
		}
	}
	for _, p := range r.SeedProblems {
		fmt.Fprintf(&b, "\nseed reference at %s:%d: %s", p.File, p.Line, p.Problem)
	}
	if len(r.SeedProblems) > 0 {
		b.WriteString("\n")
	}
	b.WriteString("\n")
	for _, t := range r.Totals {
		fmt.Fprintf(&b, "%-11s %d of %d exercised (%d by a vector)\n", t.Level, t.Exercised, t.Total, t.WithVector)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// CoverageJSON writes the coverage report as indented JSON.
func CoverageJSON(w io.Writer, r *coverage.Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
