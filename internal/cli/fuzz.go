package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/conform-suite/conform/fuzz"
	"github.com/conform-suite/conform/runner"
	"github.com/conform-suite/conform/vectors"
)

const fuzzUsage = `Usage: conform fuzz [--stdio CMD | --http URL] [--op OP]... [--time D | --count N] [--seed S] [--out DIR]

Fuzzes an implementation differentially: generated and mutated inputs go to the
implementation and to the reference; every divergence, crash, timeout or
protocol error is shrunk to a small input, de-duplicated, and written to DIR as
a vector file that 'conform run --vectors DIR' replays. Without --stdio or
--http the in-process reference is fuzzed against itself (a self-check).

A progress bar is shown on a terminal, periodic lines otherwise, then a summary.
Exit codes: 0 nothing diverged, 1 something diverged, 2 usage error or nothing
could be fuzzed.

Flags:
`

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

// fuzzTransport opens the implementation under test for conform fuzz; a
// variable so that tests can substitute faulty implementations.
var fuzzTransport = openFuzzImpl

func fuzzCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("conform fuzz", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var ops stringList
	stdio := fs.String("stdio", "", "run `CMD` (through the shell) as the implementation, speaking protocol v1 on stdin and stdout")
	httpURL := fs.String("http", "", "POST protocol v1 requests to `URL`")
	fs.Var(&ops, "op", "fuzz only `OP` (repeatable; default every op both sides offer)")
	dur := fs.Duration("time", 0, "stop after `D` (default 30s unless --count is given)")
	count := fs.Int("count", 0, "stop after `N` executions")
	seed := fs.Uint64("seed", 0, "random seed `S` (default: from the clock; printed in the summary)")
	out := fs.String("out", "fuzz-findings", "write finding vectors under `DIR`")
	timeout := fs.Duration("timeout", 5*time.Second, "per-request `timeout`")
	fs.Usage = func() {
		fmt.Fprint(stderr, fuzzUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK
		}
		return ExitUsage
	}
	seedSet := false
	fs.Visit(func(f *flag.Flag) { seedSet = seedSet || f.Name == "seed" })
	switch {
	case fs.NArg() > 0:
		fmt.Fprintf(stderr, "conform: error: unexpected argument %q\n", fs.Arg(0))
		return ExitUsage
	case *stdio != "" && *httpURL != "":
		fmt.Fprintln(stderr, "conform: error: --stdio and --http exclude each other")
		return ExitUsage
	case *dur < 0 || *count < 0 || *timeout <= 0:
		fmt.Fprintln(stderr, "conform: error: --time and --count take non-negative values, --timeout a positive one")
		return ExitUsage
	case *out == "":
		fmt.Fprintln(stderr, "conform: error: --out needs a directory")
		return ExitUsage
	}
	if *dur == 0 && *count == 0 {
		*dur = 30 * time.Second
	}
	if !seedSet {
		*seed = uint64(time.Now().UnixNano())
	}
	impl, name, err := fuzzTransport(*stdio, *httpURL, *timeout)
	if err != nil {
		fmt.Fprintf(stderr, "conform: error: %v\n", err)
		return ExitUsage
	}
	defer impl.Close()
	corpus, err := vectors.Load(vectors.FS())
	if err != nil {
		fmt.Fprintf(stderr, "conform: error: %v\n", err)
		return ExitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	prog := newFuzzProgress(stderr)
	started := time.Now()
	rep, err := fuzz.Run(ctx, fuzz.Config{
		Impl: impl, Ops: ops, Corpus: corpus, Seed: *seed, Count: *count, Duration: *dur, Timeout: *timeout,
		Progress: prog.update,
	})
	prog.done()
	if err != nil {
		fmt.Fprintf(stderr, "conform: error: %v\n", err)
		return ExitUsage
	}
	written, kept, werr := fuzz.WriteVectors(*out, rep.Findings, corpus, fuzz.Provenance{Impl: name, Date: started})
	writeFuzzSummary(stdout, rep, *seed, name, *out, written, kept)
	if werr != nil {
		fmt.Fprintf(stderr, "conform: error: %v\n", werr)
	}
	if rep.Diverged() {
		return ExitFailed
	}
	return ExitOK
}

func openFuzzImpl(stdio, httpURL string, timeout time.Duration) (runner.Implementation, string, error) {
	switch {
	case stdio != "":
		return nil, "", errors.New("--stdio needs the runner's stdio transport, not in this build yet")
	case httpURL != "":
		return nil, "", errors.New("--http needs the runner's HTTP transport, not in this build yet")
	}
	return runner.InProcess{}, "the in-process reference", nil
}

func quoteArg(s string) string {
	if strings.ContainsAny(s, " \t'\"$\\") {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return s
}

// writeFuzzSummary prints what was fuzzed, every finding with its shrunk
// input, where the vectors went, and how to reproduce the run.
func writeFuzzSummary(w io.Writer, rep *fuzz.Report, seed uint64, name, dir string, written, kept []string) {
	fmt.Fprintf(w, "fuzzed %s with seed %d: %d ops, %d executions in %s (%.0f/s), %d more shrinking",
		name, seed, len(rep.Ops), rep.Execs, rep.Elapsed.Round(time.Millisecond), rep.Rate(), rep.Shrinks)
	if rep.Skipped > 0 {
		fmt.Fprintf(w, ", %d inputs the reference refused as bad requests", rep.Skipped)
	}
	fmt.Fprintln(w)
	if len(rep.Unsupported) > 0 {
		fmt.Fprintf(w, "unsupported by the implementation: %s\n", strings.Join(rep.Unsupported, ", "))
	}
	files := map[string]string{}
	for _, p := range append(append([]string(nil), written...), kept...) {
		for _, f := range rep.Findings {
			if strings.Contains(p, strings.TrimPrefix(f.ID(), f.Op+"/")) {
				files[f.ID()] = p
			}
		}
	}
	for _, f := range rep.Findings {
		fmt.Fprintf(w, "\n%s %s (%d hits, shrunk in %d runs)\n", f.Kind, f.Op, f.Hits, f.ShrinkRuns)
		fmt.Fprintf(w, "    input:          %s\n", clipLine(string(f.Input)))
		fmt.Fprintf(w, "    reference:      %s\n", clipLine(string(f.Expected)))
		if f.Actual != nil {
			fmt.Fprintf(w, "    implementation: %s\n", clipLine(string(f.Actual)))
		}
		if f.Detail != "" {
			fmt.Fprintf(w, "    detail:         %s\n", clipLine(f.Detail))
		}
		for _, d := range f.Diffs {
			fmt.Fprintf(w, "    %s\n", clipLine(d))
		}
		switch p, ok := files[f.ID()]; {
		case f.Kind == fuzz.KindReference:
			fmt.Fprintln(w, "    (a failure of the reference itself: please report it; no vector written)")
		case ok:
			fmt.Fprintf(w, "    vector:         %s\n", p)
		}
	}
	if !rep.Diverged() {
		fmt.Fprintln(w, "no divergences")
		return
	}
	fmt.Fprintf(w, "\n%d findings (%d divergent executions), %d vector files written to %s, %d already there\n",
		len(rep.Findings), rep.Divergent, len(written), dir, len(kept))
	fmt.Fprintf(w, "replay: conform run --vectors %s %s\n", dir, strings.TrimPrefix(name, "the in-process reference"))
}

func clipLine(s string) string {
	s = strings.ReplaceAll(s, "\n", `\n`)
	if r := []rune(s); len(r) > 300 {
		return string(r[:150]) + fmt.Sprintf("…(%d more)…", len(r)-300) + string(r[len(r)-150:])
	}
	return s
}

// fuzzProgress draws a progress bar on a terminal and prints a plain line
// every 10 seconds otherwise.
type fuzzProgress struct {
	w        io.Writer
	tty      bool
	last     time.Time
	drawn    bool
	interval time.Duration
}

func newFuzzProgress(w io.Writer) *fuzzProgress {
	p := &fuzzProgress{w: w, interval: 10 * time.Second, last: time.Now()}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 && os.Getenv("TERM") != "dumb" {
			p.tty = true
		}
	}
	return p
}

func (p *fuzzProgress) update(s fuzz.Stats) {
	frac, left := -1.0, time.Duration(-1)
	switch {
	case s.Duration > 0:
		frac = float64(s.Elapsed) / float64(s.Duration)
		left = s.Duration - s.Elapsed
	case s.Count > 0 && s.Execs > 0:
		frac = float64(s.Execs) / float64(s.Count)
		left = time.Duration(float64(s.Elapsed) / frac * (1 - frac))
	}
	if s.Count > 0 && s.Duration > 0 {
		if f := float64(s.Execs) / float64(s.Count); f > frac {
			frac = f
			left = time.Duration(float64(s.Elapsed) / frac * (1 - frac))
		}
	}
	frac = min(max(frac, 0), 1)
	left = max(left, 0).Round(time.Second)
	stats := fmt.Sprintf("%d execs, %d divergences (%d distinct), %.0f/s, %s left", s.Execs, s.Divergent, s.Findings, s.Rate(), left)
	if p.tty {
		const width = 24
		n := int(frac * width)
		fmt.Fprintf(p.w, "\r\x1b[K[%s%s] %3.0f%% %s", strings.Repeat("#", n), strings.Repeat(".", width-n), frac*100, stats)
		p.drawn = true
		return
	}
	if time.Since(p.last) >= p.interval {
		p.last = time.Now()
		fmt.Fprintf(p.w, "conform: fuzz: %s\n", stats)
	}
}

func (p *fuzzProgress) done() {
	if p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}
