// Command mutants measures how strong conform's vectors are: it mutates the
// reference implementation one small fault at a time (reference/**/*.go,
// tests excepted), builds the conform command with each mutant through a go
// build overlay, and runs `conform run` (and `conform features` when the
// command has it) against the mutated in-process reference. A mutant that
// makes any vector or scenario fail, crash or time out is killed; one that
// passes everything survived.
//
// Every survivor needs a vector that kills it, or an entry in the ledger:
// tools/mutants/equivalent.txt (`mutant-id  # reason`: no input can tell it
// apart) or tools/mutants/unjudgeable.txt (observable, but not through
// protocol v1: the reason says what would observe it). An equivalent entry
// is checked: the mutant and the original are fuzzed against each other
// (`conform fuzz`, both ways) for a bounded time, and any difference in
// their answers fails the entry. Unjudgeable mutants count as not killed.
// The report goes to docs/mutants.md. The command exits 1 when a survivor is
// left, or when the ledger names a mutant that does not exist, was killed,
// or fails its check.
//
// Usage (from the module root; `make mutants` does this):
//
//	go run ./tools/mutants [-workers 2] [-run REGEXP] [-fresh] [-list] [-budget DURATION] [-eqcheck DURATION]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/conform-suite/conform/runner"
)

func main() {
	os.Exit(Main(os.Args[1:]))
}

// Options of a run.
type Options struct {
	Root        string
	Workers     int
	Run         *regexp.Regexp // only mutants whose id matches
	Fresh       bool           // ignore the cache
	List        bool           // list the mutants, judge none
	Budget      time.Duration  // stop starting mutants after this long (0: no limit)
	Timeout     time.Duration  // per run of the judging commands (0: from the baseline)
	Report      string
	CachePath   string
	Equivalent  string
	Unjudgeable string
	EqCheck     time.Duration // fuzzing time per direction for an equivalent entry (0: no check)
}

// Main runs the command and returns its exit code.
func Main(args []string) int {
	fl := flag.NewFlagSet("mutants", flag.ContinueOnError)
	var o Options
	var run string
	fl.IntVar(&o.Workers, "workers", 2, "mutants judged in parallel")
	fl.StringVar(&run, "run", "", "judge only the mutants whose id matches `REGEXP` (the report says so)")
	fl.BoolVar(&o.Fresh, "fresh", false, "ignore cached results")
	fl.BoolVar(&o.List, "list", false, "list the mutants without judging them")
	fl.DurationVar(&o.Budget, "budget", 0, "start no mutant after this long; the rest are reported as not judged")
	fl.DurationVar(&o.Timeout, "timeout", 0, "bound on one run of the judging commands (default: each command 10x its unmutated run, at least 30s)")
	fl.StringVar(&o.Report, "report", "docs/mutants.md", "write the report to `FILE`")
	fl.StringVar(&o.CachePath, "cache", ".cache/mutants/results.json", "cache `FILE`")
	fl.StringVar(&o.Equivalent, "equivalent", "tools/mutants/equivalent.txt", "equivalent mutants `FILE`")
	fl.StringVar(&o.Unjudgeable, "unjudgeable", "tools/mutants/unjudgeable.txt", "mutants observable only outside protocol v1 `FILE`")
	fl.DurationVar(&o.EqCheck, "eqcheck", 2*time.Second, "fuzz each equivalent mutant against the original for `D` each way (0: no check; the report says so)")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	if run != "" {
		re, err := regexp.Compile(run)
		if err != nil {
			fmt.Fprintf(os.Stderr, "mutants: error: -run: %v\n", err)
			return 2
		}
		o.Run = re
	}
	var err error
	if o.Root, err = os.Getwd(); err != nil {
		fmt.Fprintf(os.Stderr, "mutants: error: %v\n", err)
		return 2
	}
	// An interrupt or a kill stops the judging commands too, so that no
	// mutant stuck in a loop outlives the run.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	code, err := execute(ctx, &o)
	if err != nil {
		fmt.Fprintf(os.Stderr, "mutants: error: %v\n", err)
	}
	return code
}

// Source is one file of the reference and its mutations.
type Source struct {
	Path      string // slash path relative to the module root
	Content   []byte
	Hash      string
	Mutations []*Mutation
}

// generated matches the first line of a generated Go file (the convention
// of 'go generate').
var generated = regexp.MustCompile(`\A// Code generated .* DO NOT EDIT\.\n`)

// Collect finds the reference's mutable files under root and generates
// their mutations. A generated file (its first line says "Code generated
// ... DO NOT EDIT.", as reference/marker/snapset.go's does) is not mutated:
// it is data, held to its source by its generator's test, and mutating
// each of its numbers would add a thousand builds to a run.
func Collect(root string) ([]*Source, error) {
	var sources []*Source
	err := filepath.WalkDir(filepath.Join(root, "reference"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, root+string(filepath.Separator)))
		if d.IsDir() {
			if d.Name() == "testdata" {
				return fs.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if generated.Match(data) {
			return nil
		}
		sources = append(sources, &Source{Path: rel, Content: data, Hash: hashBytes(data)})
		return nil
	})
	if err != nil {
		return nil, err
	}
	// Constants per package directory, UTF-16 helpers across the tree.
	helpers := map[string]bool{}
	pkgs := map[string]*Package{}
	fset := token.NewFileSet()
	for _, s := range sources {
		f, err := parser.ParseFile(fset, s.Path, s.Content, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		dir := filepath.Dir(s.Path)
		if pkgs[dir] == nil {
			pkgs[dir] = &Package{Consts: map[string]bool{}, Helpers: helpers}
		}
		pkgs[dir].Scan(f)
	}
	for _, s := range sources {
		if s.Mutations, err = Generate(s.Path, s.Content, pkgs[filepath.Dir(s.Path)]); err != nil {
			return nil, err
		}
	}
	return sources, nil
}

// Equivalents reads a part of the ledger (equivalent.txt, unjudgeable.txt),
// in the format of the runner's expectations files: one `mutant-id  #
// reason` per line; blank lines and lines starting with # are ignored. Here
// every entry needs a reason. A missing file is an empty part.
func Equivalents(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	list, err := runner.ParseExpectations(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	eq := map[string]string{}
	for _, e := range list.Entries {
		if e.Reason == "" {
			return nil, fmt.Errorf("%s:%d: %s has no reason", path, e.Line, e.ID)
		}
		eq[e.ID] = e.Reason
	}
	return eq, nil
}

// Entry is one mutant with its result.
type Entry struct {
	*Mutation
	Result
	Source      *Source // the file it mutates
	Judged      bool    // false: not judged (budget, or filtered out by -run)
	Cached      bool    // the result came from the cache
	Equivalent  string  // the reason, when listed as equivalent
	Unjudgeable string  // the reason, when listed as unjudgeable
}

func execute(ctx context.Context, o *Options) (int, error) {
	start := time.Now()
	sources, err := Collect(o.Root)
	if err != nil {
		return 2, err
	}
	var all []*Entry
	for _, s := range sources {
		for _, m := range s.Mutations {
			all = append(all, &Entry{Mutation: m, Source: s})
		}
	}
	if o.List {
		for _, v := range all {
			fmt.Printf("%s\t%s:%d:%d\t%s -> %s\n", v.ID, v.File, v.Line, v.Col, oneLine(v.Orig), oneLine(v.Mutated))
		}
		return 0, nil
	}
	problems, err := readLedgers(o, all)
	if err != nil {
		return 2, err
	}
	cache, err := LoadCache(o.path(o.CachePath), o.Fresh)
	if err != nil {
		return 2, err
	}
	j := &Judge{Root: o.Root, Commands: [][]string{{"run"}}, ProtocolFiles: []string{"reference/reference.go", "reference/inprocess.go"}, Timeout: o.Timeout, EqCheck: o.EqCheck}
	goVersion, err := GoVersion(ctx, o.Root)
	if err != nil {
		return 2, err
	}
	judgeHash, err := JudgeKey(o.Root, j.CommandLine(), goVersion)
	if err != nil {
		return 2, err
	}
	key := func(v *Entry) string {
		return cacheKey(v.Source.Hash, v.Mutation) + " " + judgeHash + " " + j.checkKey(v.Equivalent != "")
	}
	// The selected mutants' results come from the cache when it has them;
	// the others are judged in priority order (unit counting and limits
	// first).
	var queue []*Entry
	cached := 0
	for _, v := range slices.SortedStableFunc(slices.Values(all), func(a, b *Entry) int { return kindPriority[a.Kind] - kindPriority[b.Kind] }) {
		if !o.selects(v.ID) {
			continue
		}
		if r, ok := cache.Results[key(v)]; ok {
			v.Result, v.Judged, v.Cached = r, true, true
			cached++
			continue
		}
		queue = append(queue, v)
	}

	var baseline time.Duration
	if len(queue) > 0 {
		tmp, err := os.MkdirTemp("", "conform-mutants-")
		if err != nil {
			return 2, err
		}
		defer os.RemoveAll(tmp)
		j.Tmp = tmp
		if baseline, err = j.calibrate(ctx); err != nil {
			return 2, err
		}
		fmt.Fprintf(os.Stderr, "mutants: %d to judge (%d from the cache, %d not selected), %d workers, unmutated run %v, judged by conform %v (and %v for %s), timeouts %s\n",
			len(queue), cached, len(all)-len(queue)-cached, o.Workers, baseline.Round(time.Millisecond), j.Commands, j.Protocol, strings.Join(j.ProtocolFiles, ", "), j.describeLimits())
	}
	judgeQueue(ctx, o, j, queue, cache, key, start)
	if ctx.Err() != nil {
		return 2, errors.New("interrupted; the verdicts so far are cached")
	}
	settleSlow(all)
	problems = append(problems, verdictProblems(o, all)...)
	s := Summarize(all, o, time.Since(start), baseline, problems)
	s.Commit, s.GoVersion = Commit(ctx, o.Root), goVersion
	if err := os.WriteFile(o.path(o.Report), []byte(s.Markdown()), 0o644); err != nil {
		return 2, err
	}
	fmt.Fprintln(os.Stderr, s.Line())
	for _, p := range problems {
		fmt.Fprintf(os.Stderr, "mutants: error: %s\n", p)
	}
	for _, v := range s.Survivors {
		fmt.Fprintf(os.Stderr, "mutants: survived: %s (%s:%d:%d) %s -> %s\n", v.ID, v.File, v.Line, v.Col, oneLine(v.Orig), oneLine(v.Mutated))
	}
	if len(s.Survivors) > 0 || len(problems) > 0 {
		return 1, nil
	}
	return 0, nil
}

// readLedgers marks the mutants the equivalent and unjudgeable ledgers
// list, and returns the ledgers' problems: an entry matching no mutant, a
// mutant in both. A mutant id generated twice is an error.
func readLedgers(o *Options, all []*Entry) ([]string, error) {
	files := []string{o.Equivalent, o.Unjudgeable}
	parts := make([]map[string]string, len(files))
	for i, file := range files {
		var err error
		if parts[i], err = Equivalents(o.path(file)); err != nil {
			return nil, err
		}
	}
	eq, unj := parts[0], parts[1]
	byID := map[string]*Entry{}
	for _, v := range all {
		if byID[v.ID] != nil {
			return nil, fmt.Errorf("mutant id %s generated twice", v.ID)
		}
		byID[v.ID] = v
		v.Equivalent, v.Unjudgeable = eq[v.ID], unj[v.ID]
	}
	var problems []string
	for i, ids := range parts {
		for _, id := range slices.Sorted(maps.Keys(ids)) {
			if byID[id] == nil {
				problems = append(problems, fmt.Sprintf("%s lists %s, which matches no mutant", files[i], id))
			}
			if i == 0 && unj[id] != "" {
				problems = append(problems, fmt.Sprintf("%s is listed both as equivalent and as unjudgeable", id))
			}
		}
	}
	return problems, nil
}

// judgeQueue judges the queued mutants on o.Workers workers until the
// queue is empty, the budget is spent or ctx is done, storing each result
// in the cache as it comes.
func judgeQueue(ctx context.Context, o *Options, j *Judge, queue []*Entry, cache *Cache, key func(*Entry) string, start time.Time) {
	var (
		mu   sync.Mutex
		next int
		done int
		wg   sync.WaitGroup
	)
	tty := onTerminal(os.Stderr)
	defer func() {
		if tty {
			fmt.Fprint(os.Stderr, "\r\x1b[K") // the last progress line goes
		}
	}()
	for w := range max(1, o.Workers) {
		wg.Go(func() {
			for {
				mu.Lock()
				if next == len(queue) || o.Budget > 0 && time.Since(start) > o.Budget || ctx.Err() != nil {
					mu.Unlock()
					return
				}
				v := queue[next]
				next++
				mu.Unlock()
				r := j.Mutant(ctx, w, v.Mutation, v.Source.Content, v.Equivalent != "")
				if ctx.Err() != nil {
					return // interrupted: the verdict is not to be trusted
				}
				v.Result, v.Judged = r, true
				if err := cache.Store(key(v), v.Result); err != nil {
					fmt.Fprintf(os.Stderr, "mutants: warning: cache: %v\n", err)
				}
				mu.Lock()
				done++
				progressLine(os.Stderr, tty, fmt.Sprintf("[%d/%d] %-9s %s %s", done, len(queue), v.Status, v.ID, v.Detail), v.Status == Killed)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
}

// settleSlow counts a mutant listed as unjudgeable and killed only by a
// judging command's time bound as not killed, as every unjudgeable one: it
// answers alike but slower (unjudgeable.txt's "only the time a request
// takes"), passes on an idle machine and times out on a loaded one, and
// either is its verdict. Its Detail still says that it timed out.
func settleSlow(all []*Entry) {
	for _, v := range all {
		if v.Unjudgeable != "" && v.Status == Killed && v.TimedOut {
			v.Status = Survived
		}
	}
}

// verdictProblems returns the ledger entries the result contradict: a
// listed mutant that was killed or does not compile, an equivalent one
// whose answers differ from the original's.
func verdictProblems(o *Options, all []*Entry) []string {
	var problems []string
	for _, v := range all {
		if !v.Judged || v.Equivalent == "" && v.Unjudgeable == "" {
			continue
		}
		file := o.Equivalent
		if v.Unjudgeable != "" {
			file = o.Unjudgeable
		}
		switch {
		case v.Status == Killed:
			problems = append(problems, fmt.Sprintf("%s lists %s, but it was killed: %s", file, v.ID, v.Detail))
		case v.Status == Uncompilable:
			problems = append(problems, fmt.Sprintf("%s lists %s, but it does not compile", file, v.ID))
		case v.Status == Survived && v.Equivalent != "" && v.Diverged != "":
			problems = append(problems, fmt.Sprintf("%s lists %s as equivalent, but the mutant and the original answer differently: %s (kill it with a vector, or move it to %s with what would observe it)", file, v.ID, v.Diverged, o.Unjudgeable))
		}
	}
	return problems
}

// selects reports whether the -run regexp (if any) selects the mutant id.
func (o *Options) selects(id string) bool { return o.Run == nil || o.Run.MatchString(id) }

// path resolves a file named by a flag: relative to the module root
// unless absolute.
func (o *Options) path(name string) string {
	if filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(o.Root, name)
}

// progressLine writes one result line. On a terminal a routine result
// (transient) only redraws the progress line in place, and the others stay
// on their own lines; anywhere else (a pipe, a CI log) every result is a
// line of its own and nothing is redrawn.
func progressLine(w io.Writer, tty bool, line string, transient bool) {
	switch {
	case !tty:
		fmt.Fprintln(w, line)
	case transient:
		fmt.Fprint(w, "\r\x1b[K"+line)
	default:
		fmt.Fprint(w, "\r\x1b[K"+line+"\n")
	}
}

// onTerminal reports whether f is a terminal (and not a dumb one).
func onTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0 && os.Getenv("TERM") != "dumb"
}
