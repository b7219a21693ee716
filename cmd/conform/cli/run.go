package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/report"
	"github.com/conform-suite/conform/runner"
	"github.com/conform-suite/conform/vectors"
)

// selectFlags choose vectors.
type selectFlags struct {
	dir                     string
	suites, ops, tags, reqs listFlag
	ids                     repeatFlag
	shard                   string
	profile                 profileFlags // for the commands that register it; selection applies --profile-file
}

func (f *selectFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.dir, "vectors", "", "read vectors from `DIR` instead of the embedded corpus")
	fs.Var(&f.suites, "suite", "only vectors of this `SUITE` (quote, marker, selref); repeatable, or comma separated")
	fs.Var(&f.ops, "op", "only vectors of this `OP` (quote.parse); repeatable, or comma separated (--op quote.parse,marker.strip)")
	fs.Var(&f.ids, "id", "only vectors whose id matches this `GLOB` (quote.parse/*surrogate*); repeatable")
	fs.Var(&f.tags, "tag", "only vectors with this `TAG`; repeatable")
	fs.Var(&f.reqs, "req", "only vectors naming this requirement `ID`, or a prefix ending in '-' (QUOTE-LINK-); repeatable")
	fs.StringVar(&f.shard, "shard", "", "run only shard `i/n` of the selection")
}

// selection loads the corpus and returns it with the selected vectors.
func selection(f *selectFlags) (*vectors.Corpus, []*vectors.Vector, error) {
	sel := runner.Selection{Suites: f.suites, Ops: f.ops, IDs: f.ids, Tags: f.tags, Requirements: f.reqs}
	if f.shard != "" {
		sh, err := runner.ParseShard(f.shard)
		if err != nil {
			return nil, nil, fmt.Errorf("--shard: %w", err)
		}
		sel.Shard = sh
	}
	if err := sel.CheckGlobs(); err != nil {
		return nil, nil, fmt.Errorf("--id: %w", err)
	}
	corpus, err := loadCorpus(f.dir)
	if err == nil {
		err = f.profile.apply(corpus)
	}
	if err == nil {
		err = checkPicks(corpus, f)
	}
	if err != nil {
		return nil, nil, err
	}
	return corpus, sel.Select(corpus.Vectors()), nil
}

// checkPicks refuses a value of --suite, --op, --id, --tag or --req that
// selects no vector of the corpus on its own: a misspelt one would
// otherwise select nothing and pass silently, or be dropped without a word
// from a selection that the flag's other values fill.
func checkPicks(corpus *vectors.Corpus, f *selectFlags) error {
	vs := corpus.Vectors()
	var one runner.Selection // the value alone, in the field of its flag
	picks := []struct {
		flag, what string
		values     []string
		field      *[]string // of one
	}{
		{"--suite", "no vector of the corpus is in this suite (suites: " + valuesOf(vs, suiteOf) + ")", f.suites, &one.Suites},
		{"--op", "no vector of the corpus has this op (ops: " + valuesOf(vs, opOf) + ")", f.ops, &one.Ops},
		{"--id", "no vector id of the corpus matches this pattern", f.ids, &one.IDs},
		{"--tag", "no vector of the corpus has this tag (tags: " + valuesOf(vs, (*vectors.Vector).AllTags) + ")", f.tags, &one.Tags},
		{"--req", "no vector of the corpus names this requirement (conform coverage lists each requirement with its vectors and scenarios)", f.reqs, &one.Requirements},
	}
	for _, p := range picks {
		for _, v := range p.values {
			one = runner.Selection{}
			*p.field = []string{v}
			if !slices.ContainsFunc(vs, one.Matches) {
				return fmt.Errorf("%s %q: %s", p.flag, v, p.what)
			}
		}
	}
	return nil
}

// checkOps refuses an op of a flag other than --op (--require-ops=, say)
// that no vector of the corpus has. opFlag is how the flag is written
// before one ("--require-ops="), for the message.
func checkOps(corpus *vectors.Corpus, ops []string, opFlag string) error {
	vs := corpus.Vectors()
	for _, op := range ops {
		if !slices.ContainsFunc(vs, func(v *vectors.Vector) bool { return v.Op == op }) {
			return fmt.Errorf("%s%q: no vector of the corpus has this op (ops: %s)", opFlag, op, valuesOf(vs, opOf))
		}
	}
	return nil
}

func suiteOf(v *vectors.Vector) []string { return []string{v.Suite()} }
func opOf(v *vectors.Vector) []string    { return []string{v.Op} }

// valuesOf lists the values of vs that of gives, sorted, each once.
func valuesOf(vs []*vectors.Vector, of func(*vectors.Vector) []string) string {
	seen := map[string]bool{}
	for _, v := range vs {
		for _, x := range of(v) {
			seen[x] = true
		}
	}
	return strings.Join(slices.Sorted(maps.Keys(seen)), ", ")
}

const runHead = `Usage: conform run [flags]

Runs the selected vectors against an implementation (default: the in-process
reference) and prints one block per failure and a closing 'N passed, N failed'
line. Reports in other formats go to files given by --json, --junit, --tap and
--markdown ('-' for stdout).

Unsupported vectors (their op is not offered) are skipped, never passed;
--require-ops makes them failures. A refusal without the code the vector
expects passes (PROTO-REJECT-002) but is counted in every report;
--require-codes makes it a failure. The CI gate:

  conform run --stdio CMD --require-ops --require-codes --junit report.xml

--profile NAME grades against a real system's recorded answers wherever a
vector records one (bug-compatible), and against the specification elsewhere;
the default profile, spec, is strict (docs/porting.md).

Exit code 0 when something was judged and everything judged passed; 1 when
something failed, an expectations entry is stale, nothing was judged (every
vector skipped) or the run was interrupted; 2 on bad usage or an
implementation that cannot be started.
`

func (e *env) run(args []string) int {
	fs := e.newFlags("run", runHead)
	var (
		impl                  implFlags
		sel                   selectFlags
		parallel, batch       int
		expect                string
		verbose, requireCodes bool
		choices               listFlag
		requireOps            requireOpsFlag
		rep                   *runner.Report
		replay                func(id string) string
	)
	outputs := []output{ // the human report first, as checkOutputs wants it
		{flag: "text", path: "-", usage: "write the human report to `FILE`", write: func(w io.Writer) error { return report.Text(w, rep, report.TextOptions{Verbose: verbose}) }},
		{flag: "json", usage: "write the JSON report (schemas/report.schema.json) to `FILE`", write: func(w io.Writer) error { return report.JSON(w, rep) }},
		{flag: "junit", usage: "write a JUnit XML report to `FILE`", write: func(w io.Writer) error { return report.JUnit(w, rep) }},
		{flag: "tap", usage: "write a TAP 13 report to `FILE`", write: func(w io.Writer) error { return report.TAP(w, rep) }},
		{flag: "markdown", usage: "write a Markdown summary to `FILE`", write: func(w io.Writer) error { return report.Markdown(w, rep) }},
		{flag: "annotations", usage: "write the failures as GitHub workflow commands (an error annotation each, with its replay command) to `FILE`",
			write: func(w io.Writer) error {
				return report.Annotations(w, rep, replay)
			}},
		{flag: "write-expectations", usage: "write the current failures to `FILE` as an expectations file", write: func(w io.Writer) error { return runner.WriteExpectations(w, rep.Results) }},
	}
	impl.register(fs, runner.DefaultRestarts)
	sel.register(fs)
	sel.profile.register(fs, true)
	fs.IntVar(&parallel, "parallel", 0, "requests in flight at once (0: 4 per CPU)")
	fs.IntVar(&batch, "batch", 32, "vectors per HTTP request (--http only; 1 disables batching)")
	fs.StringVar(&expect, "expectations", "", "known failures `FILE`: one 'vector-id  # reason' per line")
	for i, o := range outputs {
		fs.StringVar(&outputs[i].path, o.flag, o.path, o.usage)
	}
	fs.BoolVar(&verbose, "v", false, "list every vector in the human report, passing ones too")
	fs.Var(&choices, "choice", "override an implementation-defined choice: `NAME=VALUE`; repeatable")
	fs.Var(&requireOps, "require-ops", "fail every vector whose op the implementation does not offer (`=OPS`: only these ops, comma separated)")
	fs.BoolVar(&requireCodes, "require-codes", false, "fail a refusal that leaves out the code the vector expects")
	if done, code := e.parse(fs, args, 0); done {
		return code
	}
	replay = replayRun(fs)
	if err := impl.check(); err != nil {
		return e.usagef("%v", err)
	}
	if err := sel.profile.check(); err != nil {
		return e.usagef("--profile: %v", err)
	}
	if parallel < 0 {
		return e.usagef("--parallel %d: give a positive number, or 0 for 4 per CPU", parallel)
	}
	if batch < 1 {
		return e.usagef("--batch %d: give a positive number (1 sends one vector per request)", batch)
	}
	exp, err := readExpectations(expect)
	if err != nil {
		return e.usagef("%v", err)
	}
	override, err := parseChoices(choices)
	if err != nil {
		return e.usagef("%v", err)
	}
	corpus, vs, err := selection(&sel)
	if err != nil {
		return e.usagef("%v", err)
	}
	if err := checkChoices(corpus, override); err != nil {
		return e.usagef("%v", err)
	}
	if err := checkOps(corpus, requireOps.ops.Ops, "--require-ops="); err != nil {
		return e.usagef("%v", err)
	}
	if len(vs) == 0 {
		return e.usageHint("no vectors to run", "check the selection flags; 'conform list' shows what is there")
	}
	if err := checkOutputs(fs, outputs); err != nil {
		return e.usagef("%v", err)
	}
	ctx, stop := stoppable()
	defer stop()
	im, hello, transport, ok := e.connect(ctx, &impl)
	if !ok {
		return ExitUsage
	}
	defer im.Close()
	prog := startProgress(e.stderr, "run", len(vs))
	defer prog.done()
	r := &runner.Runner{Impl: im, Hello: hello, Choices: mergeChoices(hello, override), Timeout: impl.timeout, Parallel: parallel, Batch: batch,
		RequireOps: requireOps.ops, RequireCodes: requireCodes, Profile: sel.profile.name, Answered: prog.answered}
	start := time.Now()
	results := r.Run(ctx, vs)
	prog.done()
	shard, _ := runner.ParseShard(sel.shard) // none, or checked by selection
	rep = &runner.Report{
		SuiteVersion: runner.SuiteVersion, Implementation: hello, Transport: transport,
		Started: start, Duration: time.Since(start), Results: results, Profile: sel.profile.name, Shard: shard,
		Stale: exp.Apply(results, corpus.Vectors()), Spec: embeddedSpec(),
	}
	if rep.Conform, err = identity(sel.dir); err != nil {
		e.errorf("%v", err)
	}
	if !e.writeOutputs(outputs) {
		return ExitUsage
	}
	for _, p := range rep.Problems() {
		e.errorf("%s", p)
	}
	if ctx.Err() != nil && rep.Totals().Interrupted == 0 {
		return e.failf("the run was interrupted")
	}
	if rep.Failed() {
		return ExitFailed
	}
	return ExitOK
}

// readExpectations reads the --expectations file, if one is given.
func readExpectations(path string) (*runner.Expectations, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--expectations: %w", err)
	}
	defer f.Close()
	exp, err := runner.ParseExpectations(f)
	if err != nil {
		return nil, fmt.Errorf("--expectations %s: %w", path, err)
	}
	return exp, nil
}

// parseChoices reads the --choice flags, NAME=VALUE each.
func parseChoices(choices listFlag) (map[string]string, error) {
	override := map[string]string{}
	for _, c := range choices {
		k, v, ok := strings.Cut(c, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("--choice %q: want NAME=VALUE", c)
		}
		override[k] = v
	}
	return override, nil
}

// checkChoices refuses a --choice that no vector of the corpus depends on,
// or a value none of them has an output for: a misspelt name would
// otherwise change nothing and pass silently.
func checkChoices(corpus *vectors.Corpus, override map[string]string) error {
	values := map[string]map[string]bool{}
	for _, v := range corpus.Vectors() {
		if v.Expect.Choice == "" {
			continue
		}
		if values[v.Expect.Choice] == nil {
			values[v.Expect.Choice] = map[string]bool{}
		}
		for value := range v.Expect.Outputs {
			values[v.Expect.Choice][value] = true
		}
	}
	for _, name := range slices.Sorted(maps.Keys(override)) {
		known, ok := values[name]
		switch {
		case !ok && len(values) == 0:
			return fmt.Errorf("--choice %s: no vector of the corpus depends on an implementation-defined choice", name)
		case !ok:
			return fmt.Errorf("--choice %s: no vector of the corpus depends on this choice (choices: %s)", name, strings.Join(slices.Sorted(maps.Keys(values)), ", "))
		case !known[override[name]]:
			return fmt.Errorf("--choice %s=%s: no vector of the corpus has an output for this value (values: %s)", name, override[name], strings.Join(slices.Sorted(maps.Keys(known)), ", "))
		}
	}
	return nil
}

// mergeChoices returns the choices hello declares with override applied,
// or nil (the declared choices stand) when nothing is overridden.
func mergeChoices(hello *protocol.Hello, override map[string]string) map[string]string {
	if len(override) == 0 {
		return nil
	}
	choices := map[string]string{}
	if hello != nil {
		maps.Copy(choices, hello.Choices)
	}
	maps.Copy(choices, override)
	return choices
}

// output is a report a flag asks for: the flag's name and usage, its file
// ("-" for standard output, "" for none; the flag's default before
// parsing), and its writer.
type output struct {
	flag, usage, path string
	write             func(io.Writer) error
	toStderr          bool // the human report, moved off standard output by checkOutputs
}

// checkOutputs checks, before anything runs, that the reports asked for
// can be written: no two to one file, each file writable (checkWritable).
// outputs[0] is the human report (--text): when another report goes to
// standard output ("-") and --text was not given, it goes to standard
// error, so that standard output holds that report alone (conform run
// --json - | jq).
func checkOutputs(fs *flag.FlagSet, outputs []output) error {
	textGiven := false
	fs.Visit(func(f *flag.Flag) { textGiven = textGiven || f.Name == "text" })
	outputs[0].toStderr = !textGiven && slices.ContainsFunc(outputs[1:], func(o output) bool { return o.path == "-" })
	by := map[string]string{} // path -> flag
	for _, o := range outputs {
		if o.path == "" || o.toStderr {
			continue
		}
		if other, ok := by[o.path]; ok {
			where := o.path
			if where == "-" {
				where = "standard output"
			}
			return fmt.Errorf("--%s and --%s both write to %s: give each a file of its own", other, o.flag, where)
		}
		by[o.path] = o.flag
		if o.path != "-" {
			if err := checkWritable(o.path); err != nil {
				return fmt.Errorf("--%s: %w", o.flag, err)
			}
		}
	}
	return nil
}

// writeOutputs writes each report asked for, on to the next when one
// fails; it reports whether all were written.
func (e *env) writeOutputs(outputs []output) bool {
	ok := true
	for _, o := range outputs {
		var err error
		switch {
		case o.toStderr:
			err = o.write(e.stderr)
		case o.path != "":
			err = e.writeTo(o.path, o.write)
		}
		if err != nil {
			e.errorf("--%s: %v", o.flag, err)
			ok = false
		}
	}
	return ok
}

// requireOpsFlag is --require-ops: alone it requires every op of the
// selection; --require-ops=OPS requires those listed (comma separated,
// repeatable).
type requireOpsFlag struct{ ops runner.RequiredOps }

func (f *requireOpsFlag) String() string { return f.ops.String() }

func (f *requireOpsFlag) IsBoolFlag() bool { return true }

func (f *requireOpsFlag) Set(s string) error {
	switch s {
	case "true", "all":
		f.ops.All = true
		return nil
	case "false":
		f.ops = runner.RequiredOps{}
		return nil
	}
	var l listFlag
	l.Set(s)
	if len(l) == 0 {
		return fmt.Errorf("give op names, such as quote.parse,marker.strip")
	}
	f.ops.Ops = append(f.ops.Ops, l...)
	return nil
}

// dirUsable reports why dir could not be made, found before any work is
// done: it, or its nearest ancestor that exists, is not a directory. The
// directory itself is made only when something is written into it.
func dirUsable(dir string) error {
	for p := filepath.Clean(dir); ; p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		switch {
		case err == nil && !fi.IsDir():
			return fmt.Errorf("%s is not a directory", p)
		case err == nil:
			return nil
		case !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR):
			return err
		case filepath.Dir(p) == p:
			return nil
		}
	}
}

// checkWritable reports why a report could not be written to path, found
// before any work is done, without changing what is there: an existing
// file is opened for writing, not truncated (a run that cannot start keeps
// the last report); for a new file, its directory must be writable, or
// makeable (its nearest existing ancestor a directory).
func checkWritable(path string) error {
	if fi, err := os.Stat(path); err == nil {
		if fi.IsDir() {
			return fmt.Errorf("%s is a directory", path)
		}
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		return f.Close()
	}
	dir := filepath.Dir(path)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return dirUsable(dir)
	}
	f, err := os.CreateTemp(dir, ".conform-check-*")
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

// writeTo writes to path, or to stdout for "-".
func (e *env) writeTo(path string, write func(io.Writer) error) error {
	if path == "-" {
		return write(e.stdout)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// profileFlags are --profile and, for the commands that read one,
// --profile-file.
type profileFlags struct{ name, file string }

// register adds --profile to a command's flags, and --profile-file when
// withFile.
func (p *profileFlags) register(fs *flag.FlagSet, withFile bool) {
	fs.StringVar(&p.name, "profile", runner.DefaultProfile, "grade under `PROFILE`: "+strings.Join(runner.Profiles(), ", ")+
		" (a system's name grades against its recorded answers where a vector records one)")
	if withFile {
		fs.StringVar(&p.file, "profile-file", "", "grade under the profile in `FILE`, a profile file ('conform profile export', 'conform fuzz --record-profile'); its vectors join the corpus")
	}
}

// check checks --profile before the corpus is read; with --profile-file,
// it only checks that --profile does not name another.
func (p *profileFlags) check() error {
	if p.file == "" {
		return runner.CheckProfile(p.name)
	}
	if p.name != runner.DefaultProfile {
		return errors.New("give --profile or --profile-file, not both")
	}
	return nil
}

// apply reads --profile-file, when given, into corpus and sets --profile
// to its profile's name.
func (p *profileFlags) apply(corpus *vectors.Corpus) error {
	if p.file == "" {
		return nil
	}
	data, err := os.ReadFile(p.file)
	if err == nil {
		p.name, err = corpus.ApplyProfile(p.file, data)
	}
	if err != nil {
		return fmt.Errorf("--profile-file: %w", err)
	}
	return nil
}

// notReplayed are the flags of conform run that the command replaying one
// vector leaves out: the selection (--id takes its place), the reports, and
// what cannot change one vector's verdict.
var notReplayed = map[string]bool{
	"suite": true, "op": true, "id": true, "tag": true, "req": true, "shard": true, "require-ops": true,
	"text": true, "json": true, "junit": true, "tap": true, "markdown": true, "annotations": true, "write-expectations": true,
	"verbose": true, "parallel": true,
}

// replayRun returns the command that judges one vector as this run did:
// conform run with every flag given except notReplayed's, each value quoted
// for a POSIX shell, and --id with the id as a pattern matching it.
func replayRun(fs *flag.FlagSet) func(id string) string {
	args := []string{"conform run"}
	fs.Visit(func(f *flag.Flag) {
		if notReplayed[f.Name] {
			return
		}
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() && f.Value.String() == "true" {
			args = append(args, "--"+f.Name)
			return
		}
		args = append(args, "--"+f.Name, shellQuote(f.Value.String()))
	})
	prefix := strings.Join(args, " ")
	return func(id string) string { return prefix + " --id " + shellQuote(idPattern(id)) }
}

// idPattern is the pattern of --id that matches id alone: id with
// path.Match's special characters escaped.
func idPattern(id string) string {
	var b strings.Builder
	for _, r := range id {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
