package cli

import (
	"cmp"
	"flag"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/conform-suite/conform/features"
	"github.com/conform-suite/conform/fuzz"
	"github.com/conform-suite/conform/report"
	"github.com/conform-suite/conform/runner"
	"github.com/conform-suite/conform/vectors"
)

const fuzzHead = `Usage: conform fuzz [--stdio CMD | --http URL] [--oracle CMD | --oracle-http URL] [--op OP]... [--time D | --count N] [--seed S] [--no-corpus] [--out DIR]
       conform fuzz --envelopes [--stdio CMD | --http URL] [--count N] ...

Fuzzes an implementation differentially: generated and mutated inputs go to the
implementation and to the oracle (default: the in-process reference); every
divergence, crash, timeout or protocol error is shrunk to a small input,
de-duplicated, and written under DIR as a vector file that 'conform run
--vectors DIR' replays, expecting the oracle's answer. Inputs outside an op's
shape (unknown, misspelt, repeated, missing and wrongly typed members, in every
object the op reads) are generated on purpose; one the oracle refuses as a bad
request is sent to the implementation too, which must refuse it the same way
(accepting it is accepted-wrongly).
--envelopes sends malformed request lines instead (no op, an op that is not a
string, input missing or not an object, ids of every type, members named twice,
lines that are not JSON or not UTF-8, blank and white-space lines), one at a
time, each followed by a hello request; the answers are judged by
spec/protocol.md (the error kind, the id echoed, serving going on), and each
distinct wrong answer is written as DIR/envelope/NAME.feature, a scenario that
'conform features --dir DIR' replays.
Without --stdio, --http or --spawn the reference is fuzzed against the oracle
(against itself by default: a self-check). --oracle CMD (or --oracle-stdio CMD)
and --oracle-http URL make another implementation the oracle, such as the
incumbent a port replaces. Every input then goes to the reference too, and a
finding says who is off the specification: port-off-spec (the reference
agrees with the oracle), incumbent-off-spec (it agrees with the
implementation), both-off-spec (the two agree, the reference does not) or
three-way. Only findings where the implementation is off the specification
become vectors, expecting the reference's answer; --record-profile NAME
writes the incumbent-off-spec ones to a profile file. An error answer of the
oracle agrees with an error of the same kind, and an oracle failure is an
oracle-error finding without a vector.
Inputs are generated for each op (from the spec's character classes and the
platform tables) and mutated, and so are the inputs of the corpus's vectors;
--no-corpus fuzzes from the generators alone, to measure what the fuzzer
reaches without the vectors (finding vectors still take their requirement
ids from the corpus).
--profile NAME (or --profile-file FILE) counts a divergence of a class the
profile records (the signature its recorded answer would have) as known: a
line in the summary, not a finding.
A progress bar is drawn on a terminal, a line every 10 seconds otherwise, then
a summary. Exit code 0 when inputs were judged and no finding has the
implementation off the specification; 1 when one has, a finding could not be
written, or no input was judged; 2 on bad usage or an implementation that
cannot be started.
A --stdio child is restarted up to 1000 times unless --restarts says otherwise.
`

// fuzzRestarts is the default restart budget of a --stdio child under
// conform fuzz.
const fuzzRestarts = 1000

func (e *env) fuzz(args []string) int {
	fs := e.newFlags("fuzz", fuzzHead)
	var (
		impl  implFlags
		ops   listFlag
		dur   time.Duration
		count int
		seed  uint64
		out   string
		par   int
		shr   int
		ora   implFlags
		noCor bool
	)
	// Crashing the implementation is what fuzzing is for: the restart
	// budget's default is fuzz's own, and -h says so.
	impl.register(fs, fuzzRestarts)
	fs.StringVar(&ora.stdio, "oracle", "", "take the answers of `CMD` (a persistent child speaking protocol v1 on stdio) as expected, instead of the reference's")
	fs.StringVar(&ora.stdio, "oracle-stdio", "", "the same as --oracle `CMD`")
	fs.StringVar(&ora.http, "oracle-http", "", "take the answers of the protocol v1 service at `URL` as expected")
	fs.Var(&ops, "op", "fuzz only `OP` (repeatable, or comma separated: --op a,b; default every op both sides offer)")
	fs.DurationVar(&dur, "time", 0, "stop after `D` (default 30s unless --count is given)")
	fs.IntVar(&count, "count", 0, "stop after `N` executions")
	fs.Uint64Var(&seed, "seed", 0, "random seed `S` (default: from the clock; printed in the summary)")
	fs.StringVar(&out, "out", "fuzz-findings", "write finding vectors under `DIR`")
	fs.IntVar(&par, "parallel", 0, "requests in flight at once (0: 4 per CPU; the findings of a seed do not depend on it)")
	fs.BoolVar(&noCor, "no-corpus", false, "fuzz from the generators alone: mutate no vector's input")
	fs.IntVar(&shr, "shrink", 2000, "spend at most `N` executions shrinking each finding")
	var recordProfile string
	var envelopes bool
	fs.BoolVar(&envelopes, "envelopes", false, "send malformed request lines, judged by spec/protocol.md; findings are scenarios (DIR/envelope/*.feature) for 'conform features --dir DIR'")
	var profile profileFlags
	profile.register(fs, true)
	fs.StringVar(&recordProfile, "record-profile", "", "with --oracle: record the findings where only the oracle is off the specification as profile `NAME`, in NAME.profile.json ('conform run --profile-file' reads it)")
	if done, code := e.parse(fs, args, 0); done {
		return code
	}
	seedSet := false
	fs.Visit(func(f *flag.Flag) { seedSet = seedSet || f.Name == "seed" })
	// The oracle is started with the implementation's limits.
	ora.timeout, ora.restarts, ora.maxLine, ora.maxBody, ora.noGrease = impl.timeout, impl.restarts, impl.maxLine, impl.maxBody, impl.noGrease
	oracle := ora.stdio != "" || ora.http != ""
	if ora.stdio != "" && ora.http != "" {
		return e.usagef("give one oracle: --oracle (or --oracle-stdio) or --oracle-http")
	}
	if oracle {
		if err := ora.check(); err != nil {
			msg := strings.Replace(strings.Replace(err.Error(), "--http", "--oracle-http", 1), "--stdio", "--oracle", 1)
			return e.usagef("%s", msg)
		}
	}
	switch {
	case dur < 0 || count < 0 || par < 0 || impl.timeout <= 0 || shr <= 0:
		return e.usagef("--time, --count and --parallel take non-negative values, --timeout and --shrink positive ones")
	case out == "":
		return e.usagef("--out needs a directory")
	case recordProfile != "" && !oracle:
		return e.usagef("--record-profile records an oracle's divergences: give --oracle or --oracle-http")
	case recordProfile != "" && vectors.CheckProfileName(recordProfile) != nil:
		return e.usagef("--record-profile: %v", vectors.CheckProfileName(recordProfile))
	}
	if err := dirUsable(out); err != nil {
		return e.usagef("--out %s: %v", out, err)
	}
	if err := profile.check(); err != nil {
		return e.usagef("--profile: %v", err)
	}
	if dur == 0 && count == 0 {
		dur = 30 * time.Second
	}
	if !seedSet {
		seed = uint64(time.Now().UnixNano())
	}
	if envelopes {
		if oracle || len(ops) > 0 || profile.name != "" && profile.name != runner.DefaultProfile || recordProfile != "" {
			return e.usagef("--envelopes judges by the protocol's rules: it takes no --oracle, --op, --profile or --record-profile")
		}
		return e.fuzzEnvelopes(&impl, seed, count, dur, out)
	}
	corpus := embeddedCorpus()
	if err := profile.apply(corpus); err != nil {
		return e.usagef("%v", err)
	}
	var known map[string]string
	if profile.name != "" && profile.name != runner.DefaultProfile {
		known = fuzz.Known(corpus, profile.name)
	}
	ctx, stop := stoppable()
	defer stop()
	im, _, transport, ok := e.connect(ctx, &impl)
	if !ok {
		return ExitUsage
	}
	defer im.Close()
	var (
		ref        runner.Implementation // nil: the in-process reference
		oracleName string                // "" for the reference
	)
	if oracle {
		o, _, _, ok := e.connect(ctx, &ora)
		if !ok {
			e.hintf("that was the oracle")
			return ExitUsage
		}
		defer o.Close()
		ref, oracleName = o, strings.Join(givenFlags([][2]string{{"--oracle", ora.stdio}, {"--oracle-http", ora.http}}), " ")
	}
	prog := &fuzzProgress{w: e.stderr, tty: isTerminal(e.stderr)}
	started := time.Now()
	rep, err := fuzz.Run(ctx, fuzz.Config{
		Impl: im, Ref: ref, Ops: ops, Corpus: corpus, NoCorpus: noCor, Seed: seed, Count: count, Duration: dur, Timeout: impl.timeout, Parallel: cmp.Or(par, 4*runtime.GOMAXPROCS(0)),
		ShrinkExecs: shr, Progress: prog.update, Known: known,
	})
	prog.done()
	if err != nil {
		return e.usagef("%v", err)
	}
	replay := strings.Join(implArgs(&impl), " ")
	prov := fuzz.Provenance{Impl: replay, Oracle: oracleName, Date: started}
	emitted, werr := fuzz.WriteVectors(out, rep.Findings, corpus, prov)
	report.Fuzz(e.stdout, report.FuzzRun{Report: rep, Seed: seed, Transport: transport, Oracle: oracleName, Dir: out, Emitted: emitted,
		Replay: strings.TrimSpace(strings.Join([]string{"conform run --vectors", shellQuote(out), replay}, " ")), Profile: profile.name})
	if werr != nil {
		e.errorf("%v", werr)
	}
	if recordProfile != "" {
		file := recordProfile + ".profile.json"
		added, err := fuzz.RecordProfile(file, recordProfile, rep.Findings, corpus, prov)
		if err != nil {
			e.errorf("%v", err)
			werr = err
		} else {
			fmt.Fprintf(e.stdout, "profile %s: %d %s where only the oracle is off the specification added to %s; grade under it with 'conform run --profile-file %s'\n",
				recordProfile, added, report.Plural(added, "record", "records"), file, shellQuote(file))
		}
	}
	if rep.Stopped != "" {
		e.errorf("stopped early: %s", rep.Stopped)
		e.hintf("raise --restarts, or look at the implementation's stderr for why it died")
	}
	switch {
	case slices.ContainsFunc(rep.Findings, func(f *fuzz.Finding) bool { return f.Triage.PortOffSpec() }):
		// Findings where only the oracle is off the specification are the
		// incumbent's: they fail no port that keeps to the specification.
		return ExitFailed
	case werr != nil:
		return ExitFailed
	case ctx.Err() != nil:
		// The run asked for was not made: finding nothing in part of it is
		// no verdict, so a gate must not pass on it.
		return e.failf("interrupted after %d inputs: the run did not finish, so finding nothing is no verdict", rep.Execs)
	case rep.Execs-rep.Skipped-rep.Inconclusive <= 0:
		// Nothing was compared: a gate that judged nothing must not pass.
		return e.failf("no input was judged: the implementation answered every op as unsupported")
	}
	return ExitOK
}

// implArgs returns the flags that choose the implementation (at most one
// is given), quoted for a shell, for the replay line.
func implArgs(f *implFlags) []string {
	return givenFlags([][2]string{{"--stdio", f.stdio}, {"--http", f.http}, {"--spawn", f.spawn}})
}

// givenFlags returns the flags (name, value) given a value, each followed
// by its value quoted for a shell.
func givenFlags(flags [][2]string) []string {
	var args []string
	for _, a := range flags {
		if a[1] != "" {
			args = append(args, a[0], shellQuote(a[1]))
		}
	}
	return args
}

// shellQuote quotes s as one word of a POSIX shell command line: left as
// it is when it holds only characters no shell treats specially, else in
// single quotes, where a single quote of s closes the quotes, is escaped
// with a backslash and opens them again.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./_-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// fuzzProgress draws a progress bar on a terminal; otherwise it prints a
// plain line as soon as fuzzing has begun, then every 10 seconds.
type fuzzProgress struct {
	w     io.Writer
	tty   bool
	last  time.Time
	drawn bool
}

func (p *fuzzProgress) update(s fuzz.Stats) {
	// The run ends at its time or at its count, whichever comes first.
	frac, left := -1.0, time.Duration(-1)
	if s.Duration > 0 {
		frac, left = float64(s.Elapsed)/float64(s.Duration), s.Duration-s.Elapsed
	}
	if s.Count > 0 && s.Execs > 0 {
		if f := float64(s.Execs) / float64(s.Count); f > frac {
			frac, left = f, time.Duration(float64(s.Elapsed)/f*(1-f))
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
	if time.Since(p.last) >= 10*time.Second {
		p.last = time.Now()
		fmt.Fprintf(p.w, "conform: fuzz: %s\n", stats)
	}
}

func (p *fuzzProgress) done() {
	if p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

// fuzzEnvelopes is conform fuzz --envelopes.
func (e *env) fuzzEnvelopes(impl *implFlags, seed uint64, count int, dur time.Duration, out string) int {
	raw, err := rawFor(impl)
	if err != nil {
		return e.usagef("%v", err)
	}
	ctx, stop := stoppable()
	defer stop()
	lines := features.NewSession(raw)
	defer lines.Close()
	_, isHTTP := raw.(features.HTTPRaw)
	started := time.Now()
	rep, err := fuzz.RunEnvelopes(ctx, fuzz.EnvelopeConfig{Lines: lines, Blank: !isHTTP, Seed: seed, Count: count, Duration: dur, Timeout: impl.timeout})
	if err != nil {
		return e.usagef("%v", err)
	}
	replay := strings.Join(implArgs(impl), " ")
	emitted, werr := fuzz.WriteEnvelopeFeatures(out, rep.Findings, fuzz.Provenance{Impl: replay, Date: started})
	transport := "the reference in process"
	if replay != "" {
		transport = replay
	}
	fmt.Fprintf(e.stdout, "fuzzed request envelopes of %s with seed %d: %d %s in %s\n", transport, seed, rep.Execs, report.Plural(rep.Execs, "line", "lines"), rep.Elapsed.Round(time.Millisecond))
	for i, f := range rep.Findings {
		fmt.Fprintf(e.stdout, "\n%s (%d %s)\n    sent:     %q\n    answered: %q\n", f.Signature, f.Hits, report.Plural(f.Hits, "hit", "hits"), f.Line, f.Answers)
		if i < len(emitted) {
			fmt.Fprintf(e.stdout, "    scenario: %s\n", emitted[i].Path)
		}
	}
	if len(rep.Findings) == 0 {
		fmt.Fprintln(e.stdout, "no wrong answers")
	} else {
		fmt.Fprintf(e.stdout, "\n%d %s; replay: %s\n", len(rep.Findings), report.Plural(len(rep.Findings), "finding", "findings"),
			strings.TrimSpace(strings.Join([]string{"conform features --dir", shellQuote(out), replay}, " ")))
	}
	switch {
	case werr != nil:
		e.errorf("%v", werr)
		return ExitFailed
	case len(rep.Findings) > 0:
		return ExitFailed
	case ctx.Err() != nil:
		return e.failf("interrupted after %d lines: the run did not finish, so finding nothing is no verdict", rep.Execs)
	case rep.Execs == 0:
		return e.failf("no line was judged")
	}
	return ExitOK
}
