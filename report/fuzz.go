package report

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/conform-suite/conform/fuzz"
	"github.com/conform-suite/conform/internal/safetext"
)

// FuzzRun is a differential fuzzing run, as its summary tells it.
type FuzzRun struct {
	Report    *fuzz.Report
	Seed      uint64
	Transport string // "stdio: CMD", "http: URL"
	Oracle    string // the oracle's command or URL; "" for the in-process reference
	Dir       string // where the findings' vectors were written
	Emitted   []fuzz.Emitted
	Replay    string // the command that replays the vectors written
	Profile   string // the profile whose recorded divergences are known (Report.Known)
}

// Fuzz writes the summary of a fuzzing run: what was fuzzed, every finding
// with its shrunk input (the implementation's words with their invisible
// characters escaped), where the vectors went, and how to replay them.
func Fuzz(w io.Writer, run FuzzRun) {
	rep, seed, transport, oracle, dir, emitted := run.Report, run.Seed, run.Transport, run.Oracle, run.Dir, run.Emitted
	fmt.Fprintf(w, "fuzzed %s with seed %d: %d %s, %d %s in %s (%.0f/s)",
		transport, seed, len(rep.Ops), Plural(len(rep.Ops), "op", "ops"), rep.Execs, Plural(rep.Execs, "execution", "executions"), rep.Elapsed.Round(time.Millisecond), rep.Rate())
	if rep.Shrinks > 0 {
		fmt.Fprintf(w, " and %d more while shrinking", rep.Shrinks)
	}
	if rep.Refused > 0 {
		fmt.Fprintf(w, ", %d %s outside the op's shape (the oracle refused them as bad requests; judged too)", rep.Refused, Plural(rep.Refused, "input", "inputs"))
	}
	if rep.Skipped > 0 {
		fmt.Fprintf(w, ", %d %s skipped (the implementation does not offer their op)", rep.Skipped, Plural(rep.Skipped, "input", "inputs"))
	}
	if rep.Inconclusive > 0 {
		fmt.Fprintf(w, ", %d %s inconclusive (in flight each time another input hung or crashed the implementation)", rep.Inconclusive, Plural(rep.Inconclusive, "input", "inputs"))
	}
	fmt.Fprintln(w)
	if oracle != "" {
		fmt.Fprintf(w, "oracle: %s (its answers are the expected ones)\n", oracle)
	} else {
		fmt.Fprintln(w, "oracle: the in-process reference")
	}
	if len(rep.Unsupported) > 0 {
		fmt.Fprintf(w, "unsupported by the implementation: %s\n", strings.Join(rep.Unsupported, ", "))
	}
	files := map[*fuzz.Finding]fuzz.Emitted{}
	written, kept := 0, 0
	for _, e := range emitted {
		files[e.Finding] = e
		if e.Kept {
			kept++
		} else {
			written++
		}
	}
	for _, f := range rep.Findings {
		fmt.Fprintf(w, "\n%s %s (%d %s, shrunk in %d %s)\n", f.Class, f.Op, f.Hits, Plural(f.Hits, "hit", "hits"), f.ShrinkRuns, Plural(f.ShrinkRuns, "run", "runs"))
		fmt.Fprintf(w, "    signature:      %s\n", clipLine(f.Signature))
		fmt.Fprintf(w, "    input:          %s\n", clipLine(string(f.Input)))
		switch {
		case f.Triage != "":
			fmt.Fprintf(w, "    triage:         %s\n", f.Triage)
			fmt.Fprintf(w, "    reference:      %s\n", clipLine(string(f.Expected)))
			if f.Oracle != nil {
				fmt.Fprintf(w, "    oracle:         %s\n", clipLine(string(f.Oracle)))
			}
		case f.Expected != nil && oracle != "":
			fmt.Fprintf(w, "    oracle:         %s\n", clipLine(string(f.Expected)))
		case f.Expected != nil:
			fmt.Fprintf(w, "    reference:      %s\n", clipLine(string(f.Expected)))
		}
		if f.Actual != nil {
			fmt.Fprintf(w, "    implementation: %s\n", clipLine(string(f.Actual)))
		}
		if f.Detail != "" {
			fmt.Fprintf(w, "    detail:         %s\n", clipLine(f.Detail))
		}
		for _, d := range f.Diffs {
			fmt.Fprintf(w, "    %s\n", clipLine(d))
		}
		switch em, ok := files[f]; {
		case f.Class == fuzz.ClassReference:
			fmt.Fprintln(w, "    (a failure of the reference itself: please report it; no vector written)")
		case f.Class == fuzz.ClassOracle:
			fmt.Fprintln(w, "    (the oracle failed, or answered an error the implementation did not give: no vector written)")
		case !f.Triage.PortOffSpec():
			fmt.Fprintln(w, "    (only the oracle is off the specification: no vector; --record-profile records it)")
		case ok && em.Kept:
			fmt.Fprintf(w, "    vector:         %s (already there)\n", em.Path)
		case ok:
			fmt.Fprintf(w, "    vector:         %s\n", em.Path)
		default:
			fmt.Fprintln(w, "    vector:         none written (see the error below)")
		}
	}
	if len(rep.Known) > 0 {
		n := 0
		for _, k := range rep.Known {
			n += k
		}
		fmt.Fprintf(w, "\nknown: %d divergent executions in %d %s that profile %s records (not findings)\n", n, len(rep.Known), Plural(len(rep.Known), "class", "classes"), run.Profile)
		for _, sig := range slices.Sorted(maps.Keys(rep.Known)) {
			fmt.Fprintf(w, "    %d × %s\n", rep.Known[sig], clipLine(sig))
		}
	}
	if !rep.Diverged() {
		fmt.Fprintln(w, "no divergences")
		return
	}
	fmt.Fprintf(w, "\n%d %s (%d divergent %s), %d vector %s written to %s, %d already there\n",
		len(rep.Findings), Plural(len(rep.Findings), "finding", "findings"), rep.Divergent, Plural(rep.Divergent, "execution", "executions"),
		written, Plural(written, "file", "files"), dir, kept)
	fmt.Fprintf(w, "replay: %s\n", run.Replay)
	if oracle != "" {
		fmt.Fprintln(w, "the vectors expect the reference's answers: each fails the implementation, which is off the specification there")
	}
}

// clipLine renders an implementation's text on one line (safetext.Text)
// and clips it to about 300 characters.
func clipLine(s string) string {
	s = safetext.Text(s)
	if r := []rune(s); len(r) > 300 {
		return string(r[:150]) + fmt.Sprintf("…(%d more)…", len(r)-300) + string(r[len(r)-150:])
	}
	return s
}
