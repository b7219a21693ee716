package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// Summary is what the report says.
type Summary struct {
	Options     *Options
	All         []*Entry
	Duration    time.Duration // this run
	Baseline    time.Duration // one unmutated run of the judging commands (0: none was needed)
	Problems    []string
	Counts      map[Status]int
	Equivalent  int
	Unjudgeable int
	NotJudged   int    // selected, but not judged (the budget ran out)
	NotSelected int    // left out by -run
	Cached      int    // verdicts taken from the cache
	Commit      string // the commit judged
	GoVersion   string
	Survivors   []*Entry
	Fresh       float64 // seconds of worker time to judge every mutant afresh
}

// Summarize counts the verdicts.
func Summarize(all []*Entry, o *Options, d, baseline time.Duration, problems []string) *Summary {
	s := &Summary{Options: o, All: all, Duration: d, Baseline: baseline, Problems: problems, Counts: map[Status]int{}}
	for _, v := range all {
		if !s.Options.selects(v.ID) {
			s.NotSelected++
			continue
		}
		if !v.Judged {
			s.NotJudged++
			continue
		}
		s.Fresh += v.Seconds
		if v.Cached {
			s.Cached++
		}
		switch column(v) {
		case "equivalent":
			s.Equivalent++
		case "unjudgeable":
			s.Unjudgeable++
		case "survived":
			s.Survivors = append(s.Survivors, v)
		}
		s.Counts[v.Status]++
	}
	return s
}

// Partial reports whether the run judged less than every mutant: -run
// selected some of them, or the budget stopped it.
func (s *Summary) Partial() bool { return s.NotSelected > 0 || s.NotJudged > 0 }

// Judged is the number of verdicts the run has, afresh or from the cache.
func (s *Summary) Judged() int { return len(s.All) - s.NotSelected - s.NotJudged }

// Scope says in words which mutants the run judged.
func (s *Summary) Scope() string {
	scope := fmt.Sprintf("every mutant (%d)", len(s.All))
	if s.Options.Run != nil {
		scope = fmt.Sprintf("only the %d of %d mutants whose id matches `%s`", len(s.All)-s.NotSelected, len(s.All), s.Options.Run)
	}
	if s.NotJudged > 0 {
		scope += fmt.Sprintf("; the budget of %v ran out with %d of them not judged", s.Options.Budget, s.NotJudged)
	}
	if s.Partial() {
		return "partial: " + scope
	}
	return scope
}

// Files lists the files with at least one mutant judged by the run.
func (s *Summary) Files() []string {
	set := map[string]bool{}
	for _, v := range s.All {
		if v.Judged && s.Options.selects(v.ID) {
			set[v.File] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// KillRate is killed / (compiled - equivalent), in percent: unjudgeable
// mutants and survivors count as not killed.
func (s *Summary) KillRate() float64 {
	n := s.Counts[Killed] + s.Counts[Survived] - s.Equivalent
	if n == 0 {
		return 100
	}
	return 100 * float64(s.Counts[Killed]) / float64(n)
}

// rateText is the kill rate as a report shows it: none when no mutant was
// left to kill, never a rate over nothing.
func (s *Summary) rateText() string {
	if s.Counts[Killed]+s.Counts[Survived]-s.Equivalent == 0 {
		return "none (no mutant was judged that could be killed)"
	}
	return fmt.Sprintf("%.1f%%", s.KillRate())
}

// Line is the one-line summary printed at the end of a run.
func (s *Summary) Line() string {
	rate := "kill rate"
	if s.Partial() {
		rate = fmt.Sprintf("kill rate over the %d judged", s.Judged())
	}
	return fmt.Sprintf("mutants: %s; %d did not compile, %d killed, %d equivalent, %d unjudgeable, %d survived, %d not judged; %s %s; %d judged afresh, %d from the cache; %v",
		s.Scope(), s.Counts[Uncompilable], s.Counts[Killed], s.Equivalent, s.Unjudgeable, len(s.Survivors), s.NotJudged, rate, s.rateText(),
		s.Judged()-s.Cached, s.Cached, s.Duration.Round(time.Second))
}

// howTo is the closing section of the report; ´ stands for a backquote.
var howTo = strings.ReplaceAll(`## How to run it

´make mutants´ (or ´go run ./tools/mutants´ from the module root) regenerates this file. CI does not run
it. It walks reference/**/*.go (tests excepted; reference/internal/opkit included) with go/ast and makes one
mutant per fault: an integer literal or a compared character off by one; ´<´↔´<=´, ´>´↔´>=´, ´==´↔´!=´,
´&&´↔´||´; an early-exit ´if´ or a tagless-switch case that never fires; an ´if´ about surrogates that
never fires; ´len(s)´ counting runes or UTF-16 units, a rune count counting bytes or units, a UTF-16
count (´UTF16Len´, ´units´) counting bytes or runes, ´utf16.RuneLen´ answering 1, ´utf16.AppendRune´
appending one unit; a sort dropped or its comparison reversed. It leaves alone what no answer can
show: capacity hints (´Grow´, the capacity of ´make´), panic messages, ´Error´ and ´String´ methods, the
other results of a return that reports a failure, and the fields of an error value other than its
´Code´.

Each mutant is built into the conform command by ´go build -overlay´ (the mutated file swapped in
from a temporary directory) and judged by ´conform run´ (and ´conform features´ when the command has
it) against the mutated in-process reference; mutants of reference/reference.go (the op router and
the hello handshake) and of reference/inprocess.go (the serve path's answer writer) are also judged
over stdio against ´conform serve --stdio´, by ´conform doctor´, by ´conform run´ on the whole corpus and
by ´conform features´ (whose framing scenarios send raw lines).
Any failing vector or check, crash or timeout (10 times the unmutated run of the command that timed out, at least 30s) kills it.
Mutants that do not compile are discarded and counted. Two workers judge in parallel (´-workers´).

Verdicts are cached in .cache/mutants/results.json under a key made of the mutated file's hash, the
mutant's id and edits, and a judge key: a hash of everything else that decides the verdict (the
vectors, features, schemas and spec, the rest of the reference, the source of runner/, internal/,
cmd/, fuzz/ and this tool, go.mod and go.sum, the judging command line and the Go version), and
whether the equivalence check runs. Any change to any of them makes every cached verdict stale, so
no kill outlives the vector or comparison that made it. The table above says how many verdicts this
run judged afresh and how many it took from the cache. ´-fresh´ ignores the cache, ´-run REGEXP´
judges a subset, ´-list´ prints every mutant, ´-budget 30m´ starts no mutant after that long.
Flags go through ´MUTANTS_FLAGS´ (´make mutants MUTANTS_FLAGS=-fresh´).

A survivor needs a vector that kills it (in vectors/<suite>/<op>-mutants.json) or an entry in the
ledger, ´mutant-id  # reason´ on a line: tools/mutants/equivalent.txt when no input can tell it
apart, tools/mutants/unjudgeable.txt when it is observable but not through protocol v1 (the reason
says what would observe it). Unjudgeable mutants count as not killed in the kill rate. Every
equivalent entry is checked: the mutant's conform binary and the original's are fuzzed against
each other (´conform fuzz --stdio´ with a fixed seed, each side the oracle once, over the ops whose
handlers reach the mutated function in the reference's call graph, or the ops of the file's suite
where the graph does not know the function) for ´-eqcheck´ (2s) each way, and any difference in
their answers fails the entry. The run fails on a survivor, on a listed id that matches no mutant, on a listed mutant that
is killed (an unjudgeable one may time out: only the time of a request tells it apart) or does not compile, and on an equivalent entry that fails its check. Mutant ids are
´file:function:kind:n´, n counting that kind of mutation in that function in source order, so an
id moves only when its own function changes.
`, "´", "`")

// Markdown is the report.
func (s *Summary) Markdown() string {
	var b strings.Builder
	b.WriteString("<!-- Generated by `make mutants` (tools/mutants); do not edit. -->\n\n")
	b.WriteString("# Mutation score of the conformance vectors\n\n")
	b.WriteString("How many wrong reference implementations the vectors and features catch.\n\n")
	rateOver, what := "every mutant", "every mutant"
	if s.Partial() {
		fmt.Fprintf(&b, "**This run was %s. Its figures, kill rate included, are about the %d mutants it judged, not about the whole reference.**\n\n", s.Scope(), s.Judged())
		rateOver = fmt.Sprintf("the %d mutants judged by this run only", s.Judged())
		what = fmt.Sprintf("the %d mutants of this run", s.Judged())
	}
	if s.Options.EqCheck == 0 {
		b.WriteString("**This run did not check the equivalent entries (-eqcheck 0).**\n\n")
	}
	fmt.Fprintf(&b, "| figure | value |\n|---|---|\n")
	fmt.Fprintf(&b, "| commit | %s |\n", s.Commit)
	fmt.Fprintf(&b, "| Go | %s |\n", s.GoVersion)
	fmt.Fprintf(&b, "| scope of this run | %s |\n", s.Scope())
	if s.Partial() {
		files := s.Files()
		fmt.Fprintf(&b, "| files judged by this run (%d) | %s |\n", len(files), strings.Join(files, ", "))
	}
	fmt.Fprintf(&b, "| mutants generated | %d |\n", len(s.All))
	if s.NotSelected > 0 {
		fmt.Fprintf(&b, "| left out by -run (not judged) | %d |\n", s.NotSelected)
	}
	if s.NotJudged > 0 {
		fmt.Fprintf(&b, "| selected but not judged (budget) | %d |\n", s.NotJudged)
	}
	fmt.Fprintf(&b, "| judged by this run | %d |\n", s.Judged())
	fmt.Fprintf(&b, "| verdicts judged afresh by this run | %d |\n", s.Judged()-s.Cached)
	fmt.Fprintf(&b, "| verdicts taken from the cache | %d |\n", s.Cached)
	fmt.Fprintf(&b, "| did not compile (discarded) | %d |\n", s.Counts[Uncompilable])
	fmt.Fprintf(&b, "| compiled and judged | %d |\n", s.Counts[Killed]+s.Counts[Survived])
	fmt.Fprintf(&b, "| killed | %d |\n", s.Counts[Killed])
	fmt.Fprintf(&b, "| equivalent (tools/mutants/equivalent.txt, each checked by fuzzing) | %d |\n", s.Equivalent)
	fmt.Fprintf(&b, "| unjudgeable through protocol v1 (tools/mutants/unjudgeable.txt; not killed) | %d |\n", s.Unjudgeable)
	fmt.Fprintf(&b, "| survived | %d |\n", len(s.Survivors))
	fmt.Fprintf(&b, "| **kill rate over %s** (killed / (compiled − equivalent)) | **%s** |\n", rateOver, s.rateText())
	fmt.Fprintf(&b, "| duration of this run (%d workers) | %v |\n", s.Options.Workers, s.Duration.Round(time.Second))
	fmt.Fprintf(&b, "| judging %s afresh | %v of worker time, about %v with %d workers |\n", what,
		time.Duration(s.Fresh*float64(time.Second)).Round(time.Second),
		time.Duration(s.Fresh/float64(max(1, s.Options.Workers))*float64(time.Second)).Round(time.Second), s.Options.Workers)
	s.table(&b, "file", func(v *Entry) string { return v.File })
	s.table(&b, "kind", func(v *Entry) string { return v.Kind })

	b.WriteString("\n## Survivors\n\n")
	if len(s.Survivors) == 0 {
		b.WriteString("None: every compiled mutant is killed or listed in the ledger.\n")
	} else {
		b.WriteString("| mutant | location | mutation |\n|---|---|---|\n")
		for _, v := range s.Survivors {
			fmt.Fprintf(&b, "| `%s` | %s:%d:%d | %s |\n", v.ID, v.File, v.Line, v.Col, mutationCell(v.Mutation))
		}
	}
	if len(s.Problems) > 0 {
		b.WriteString("\n## Problems\n\n")
		for _, p := range s.Problems {
			fmt.Fprintf(&b, "- %s\n", p)
		}
	}

	s.ledgerSection(&b, "Equivalent mutants", "Listed in tools/mutants/equivalent.txt; each changes no answer any input can observe, and fuzzing it against the original found no difference.",
		"why it is equivalent", func(v *Entry) string { return escapeCell(v.Equivalent) })
	s.ledgerSection(&b, "Unjudgeable mutants", "Listed in tools/mutants/unjudgeable.txt; each changes something protocol v1 cannot show, counted as not killed.",
		"what would observe it", func(v *Entry) string {
			if v.Unjudgeable != "" && v.TimedOut {
				return escapeCell(v.Unjudgeable) + " (this run: " + escapeCell(v.Detail) + ")"
			}
			return escapeCell(v.Unjudgeable)
		})
	b.WriteString("\n")
	b.WriteString(howTo)
	return b.String()
}

// ledgerSection writes the section of one part of the ledger: a table of
// the selected mutants that reason gives a reason for ("" for a mutant the
// part does not list), with that reason.
func (s *Summary) ledgerSection(b *strings.Builder, title, intro, column string, reason func(*Entry) string) {
	fmt.Fprintf(b, "\n## %s\n\n%s", title, intro)
	if s.NotSelected > 0 {
		b.WriteString(" Only the entries this run selected are shown.")
	}
	fmt.Fprintf(b, "\n\n| mutant | location | mutation | %s |\n|---|---|---|---|\n", column)
	for _, v := range s.All {
		if r := reason(v); r != "" && s.Options.selects(v.ID) {
			fmt.Fprintf(b, "| `%s` | %s:%d:%d | %s | %s |\n", v.ID, v.File, v.Line, v.Col, mutationCell(v.Mutation), r)
		}
	}
}

// table writes the section "By <name>": a row per key of the selected
// mutants, how many were generated and how many of them fall in each
// column (column).
func (s *Summary) table(b *strings.Builder, name string, key func(*Entry) string) {
	fmt.Fprintf(b, "\n## By %s\n\n| %s | generated | did not compile | killed | equivalent | unjudgeable | survived |\n|---|---|---|---|---|---|---|\n", name, name)
	rows := map[string]map[string]int{}
	for _, v := range s.All {
		if !s.Options.selects(v.ID) {
			continue // a partial run's tables count only what it selected
		}
		k := key(v)
		if rows[k] == nil {
			rows[k] = map[string]int{}
		}
		rows[k]["generated"]++
		rows[k][column(v)]++
	}
	for _, k := range slices.Sorted(maps.Keys(rows)) {
		r := rows[k]
		fmt.Fprintf(b, "| %s | %d | %d | %d | %d | %d | %d |\n", k, r["generated"], r["uncompilable"], r["killed"], r["equivalent"], r["unjudgeable"], r["survived"])
	}
}

// column is where a mutant counts in the tables: its status, a survivor
// as equivalent or unjudgeable when the ledger lists it, "" when it was not
// judged.
func column(v *Entry) string {
	switch {
	case !v.Judged:
		return ""
	case v.Status == Survived && v.Equivalent != "":
		return "equivalent"
	case v.Status == Survived && v.Unjudgeable != "":
		return "unjudgeable"
	}
	return string(v.Status)
}

func mutationCell(m *Mutation) string {
	return "`" + escapeCell(clip(oneLine(m.Orig))) + "` → `" + escapeCell(clip(oneLine(m.Mutated))) + "`"
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func clip(s string) string {
	if r := []rune(s); len(r) > 90 {
		return string(r[:90]) + "…"
	}
	return s
}

func escapeCell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
