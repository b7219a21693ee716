package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/conform-suite/conform/reference"
)

// Status is what happened to one mutant.
type Status string

// Statuses.
const (
	Killed       Status = "killed"
	Survived     Status = "survived"
	Uncompilable Status = "uncompilable" // discarded: the compiler refused it
)

// Result is what happened to one mutant, as cached.
type Result struct {
	Status  Status  `json:"status"`
	Detail  string  `json:"detail,omitempty"` // what killed it, or the first compile error
	Seconds float64 `json:"seconds"`          // time spent judging it
	// For a survivor listed as equivalent: what the equivalence check
	// found ("" when the mutant and the original answered alike).
	Diverged string `json:"diverged,omitempty"`
	// TimedOut: killed because a judging command ran past its bound, not
	// by a wrong answer.
	TimedOut bool `json:"timed_out,omitempty"`
}

// Cache maps a mutant and everything that judges it to a result: the key is
// the mutated file's hash, the mutant's id and edits, the judge key
// (JudgeKey: the vectors, features, schemas, spec, the rest of the
// reference, the source of the runner and the CLI, the judging command line
// and the Go version) and whether the equivalence check runs. Any change to
// one of them makes every result stale, so no cached kill outlives the
// vector that made it.
type Cache struct {
	mu      sync.Mutex
	path    string
	Results map[string]Result `json:"results"`
}

// cacheKey identifies a mutant by the hash of the file it mutates, its id
// and its edits, so that a change of the mutator that gives an id another
// meaning does not reuse a stale result.
func cacheKey(fileHash string, m *Mutation) string {
	h := sha256.New()
	for _, e := range m.Edits {
		fmt.Fprintf(h, "%d %d %q\n", e.Start, e.End, e.Text)
	}
	return fileHash + " " + m.ID + " " + hex.EncodeToString(h.Sum(nil)[:6])
}

// LoadCache reads the cache at path; a missing file, or any file when fresh
// is set, is an empty cache.
func LoadCache(path string, fresh bool) (*Cache, error) {
	c := &Cache{path: path, Results: map[string]Result{}}
	data, err := os.ReadFile(path)
	if fresh || errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(data, c); err != nil {
		return nil, fmt.Errorf("cache %s: %v (delete it to start afresh)", path, err)
	}
	if c.Results == nil {
		c.Results = map[string]Result{}
	}
	return c, nil
}

// judgeRoots are the trees whose content decides a result besides the
// mutated file: the corpus and scenarios (embedded or read at run time),
// the schemas and spec the runner embeds, the whole reference (a mutant
// runs with the rest of it), the runner's comparison and transports, the reports, the
// CLI that runs them and every package they use (protocol included: the
// reference writes its answers with it and the runner reads them with it),
// and this tool. TestJudgeRootsHoldTheBinary checks that every package of
// the module the conform command links lies under one of them.
var judgeRoots = []string{"vectors", "features", "schemas", "spec", "reference", "runner", "report", "protocol", "internal", "cmd", "tools/mutants", "fuzz", "go.mod", "go.sum"}

// ledgerFiles are left out of the judge key: whether a mutant is listed
// changes no result (the equivalence check it brings is in the cache key).
var ledgerFiles = map[string]bool{"equivalent.txt": true, "unjudgeable.txt": true}

// JudgeKey hashes everything that judges a mutant other than the mutated
// file itself: every regular file under judgeRoots (missing roots are
// skipped), paths and contents, tests excepted; the judging command line
// and the Go version.
func JudgeKey(root, commandLine, goVersion string) (string, error) {
	h := sha256.New()
	for _, r := range judgeRoots {
		err := filepath.WalkDir(filepath.Join(root, r), func(p string, d fs.DirEntry, err error) error {
			if errors.Is(err, fs.ErrNotExist) {
				return fs.SkipDir
			}
			if err != nil || d.IsDir() || strings.HasSuffix(p, "_test.go") || d.Name() == ".gitignore" || ledgerFiles[d.Name()] {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			fmt.Fprintf(h, "%s %d\n", filepath.ToSlash(rel), len(data))
			h.Write(data)
			return nil
		})
		if err != nil {
			return "", err
		}
	}
	tree := hex.EncodeToString(h.Sum(nil)[:8])
	return hashBytes([]byte(tree + "\n" + commandLine + "\n" + goVersion)), nil
}

// GoVersion returns the version of the go command that builds the mutants.
func GoVersion(ctx context.Context, root string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", "env", "GOVERSION")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go env GOVERSION: %v", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// Commit names the checked-out commit, with " (modified)" when the work
// tree differs from it in tracked files; "unknown" outside git.
func Commit(ctx context.Context, root string) string {
	cmd := exec.CommandContext(ctx, "git", "rev-parse", "HEAD")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return "unknown"
	}
	commit := strings.TrimSpace(string(out))
	diff := exec.CommandContext(ctx, "git", "diff", "--quiet", "HEAD", "--")
	diff.Dir = root
	if diff.Run() != nil {
		commit += " (modified)"
	}
	return commit
}

// Store records a result and writes the cache file, atomically.
func (c *Cache) Store(key string, r Result) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.Results[key] = r
	data, err := json.MarshalIndent(c, "", " ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(c.path), 0o755); err != nil {
		return err
	}
	// The cache directory ignores itself, so that no top-level
	// .gitignore entry is needed.
	ignore := filepath.Join(filepath.Dir(c.path), ".gitignore")
	if _, err := os.Stat(ignore); errors.Is(err, fs.ErrNotExist) {
		if err := os.WriteFile(ignore, []byte("*\n"), 0o644); err != nil {
			return err
		}
	}
	tmp := c.path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, c.path)
}

func hashBytes(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// Judge builds the conform command with one file replaced through a build
// overlay and runs it against the mutated in-process reference.
type Judge struct {
	Root     string     // module root
	Tmp      string     // scratch directory
	Commands [][]string // conform subcommands to run; any failure kills
	// Protocol holds the commands that also judge the mutants of
	// ProtocolFiles: the op routing and hello handshake, and the serve
	// path's own answer writer (InProcess.AppendAnswer), which only a run
	// over a transport sees. BIN in an argument stands for the binary.
	Protocol      [][]string
	ProtocolFiles []string
	// Timeout bounds one run of a judging command; when it is 0,
	// calibrate gives each command its own bound from its unmutated run
	// (limits), so that a mutant stuck in a loop is stopped after ten times
	// what that command takes (at least minLimit), not after twenty times
	// what the whole set takes.
	Timeout time.Duration
	limits  map[string]time.Duration // by the command's arguments, BIN unexpanded
	// EqCheck is how long an equivalent mutant and the original are fuzzed
	// against each other, each way (0: no check).
	EqCheck time.Duration
	// EqCount, when positive, bounds the equivalence check by this many
	// fuzz inputs each way instead of by EqCheck's time: a fixed sample,
	// as the tests use.
	EqCount  int
	baseline string // the unmutated conform binary

	reachOnce sync.Once
	reach     reach // the ops each function of the reference is reached from; nil if the graph failed
}

// CommandLine describes how mutants are judged, for the judge key: the
// commands, the conditions under which more run, and the timeout setting.
func (j *Judge) CommandLine() string {
	return fmt.Sprintf("conform %v, built with %v; conform features when help lists it; conform doctor, run and features (when help lists it) --stdio 'BIN serve --stdio' for %v when help lists doctor and serve --stdio; timeout %v (0: 10x each command's unmutated run, at least %v)",
		j.Commands, buildFlags, j.ProtocolFiles, j.Timeout, minLimit)
}

// checkKey describes the equivalence check a mutant gets, for the cache key.
func (j *Judge) checkKey(equivalent bool) string {
	if !equivalent || j.EqCheck == 0 {
		return "no-eqcheck"
	}
	if j.EqCount > 0 {
		return "eqcount:" + strconv.Itoa(j.EqCount) + ":reach"
	}
	return "eqcheck:" + j.EqCheck.String() + ":reach" // over the ops that reach the function
}

// Overlay returns the JSON of a go build overlay replacing file orig by
// file repl (both absolute).
func Overlay(orig, repl string) ([]byte, error) {
	return json.Marshal(struct{ Replace map[string]string }{map[string]string{orig: repl}})
}

// build builds the conform command into dir, with the overlay file when
// it is not empty. It returns the compiler's complaint on failure.
func (j *Judge) build(ctx context.Context, dir, overlay string) (string, error) {
	return j.buildPackage(ctx, dir, overlay, "./cmd/conform", "conform")
}

// buildFlags leave the symbol table and debug information out of every
// binary the judge builds: a quarter less link time a mutant, and nothing
// that a judging command reads (a panic's trace keeps its function names).
var buildFlags = []string{"-ldflags=-s -w"}

// buildPackage builds the main package pkg of the module into dir/name.
func (j *Judge) buildPackage(ctx context.Context, dir, overlay, pkg, name string) (string, error) {
	bin := filepath.Join(dir, name)
	args := append([]string{"build", "-o", bin}, buildFlags...)
	if overlay != "" {
		args = append(args, "-overlay", overlay)
	}
	cmd := exec.CommandContext(ctx, "go", append(args, pkg)...)
	cmd.Dir = j.Root
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", errors.New(firstLines(string(out), 2))
	}
	return bin, nil
}

// run runs every judging command with bin; it returns "" when all pass
// and a one-line account of the first failure otherwise, and whether that
// failure was a command running past its bound.
func (j *Judge) run(ctx context.Context, bin string, cmds [][]string) (string, bool) {
	for _, args := range cmds {
		limit := j.limit(args)
		args = slices.Clone(args)
		for i := range args {
			args[i] = strings.ReplaceAll(args[i], "BIN", bin)
		}
		out, timedOut, err := j.command(ctx, limit, bin, args...)
		switch {
		case timedOut:
			return fmt.Sprintf("conform %s: timeout after %v", strings.Join(args, " "), limit), true
		case err != nil:
			return fmt.Sprintf("conform %s: %v: %s", strings.Join(args, " "), err, firstLines(out, 1)), false
		}
	}
	return "", false
}

// command runs bin with args in the module root for at most limit, and
// returns its output (stdout and stderr), whether it ran past limit, and
// its error.
func (j *Judge) command(ctx context.Context, limit time.Duration, bin string, args ...string) (string, bool, error) {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = j.Root
	cmd.WaitDelay = time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), ctx.Err() != nil, err
}

// limit is the bound on one run of the judging command args.
func (j *Judge) limit(args []string) time.Duration {
	if d, ok := j.limits[strings.Join(args, " ")]; ok {
		return d
	}
	return j.Timeout
}

// minLimit is the least time a judging command is given. A mutant that
// only makes the reference slower (a length counted inside a loop's
// condition) must not be killed by one run and survive the next as the
// machine's load varies: 30s is about three times the slowest such mutant
// seen (about 10s for conform run, whose unmutated run takes 0.6s).
const minLimit = 30 * time.Second

// calibrate builds and runs the unmutated command: every judging command
// must pass, or no mutant can be judged. When no timeout was given, it sets
// each judging command's timeout from its own unmutated run: ten times what
// it took, at least minLimit. It returns the time one run of the commands
// takes.
func (j *Judge) calibrate(ctx context.Context) (time.Duration, error) {
	auto := j.Timeout == 0
	if auto {
		j.Timeout = 5 * time.Minute // for the unmutated run
	}
	dir := filepath.Join(j.Tmp, "baseline")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	bin, err := j.build(ctx, dir, "")
	if err != nil {
		return 0, fmt.Errorf("building conform: %v", err)
	}
	// Judge with `conform features` too when the command has it.
	help, _ := exec.CommandContext(ctx, bin, "help").CombinedOutput()
	if bytes.Contains(help, []byte("conform features")) {
		j.Commands = append(j.Commands, []string{"features"})
	}
	// Over stdio: conform doctor, then every judging command.
	if bytes.Contains(help, []byte("conform doctor")) && bytes.Contains(help, []byte("conform serve --stdio")) {
		for _, args := range slices.Concat([][]string{{"doctor"}}, j.Commands) {
			j.Protocol = append(j.Protocol, slices.Concat(args, []string{"--stdio", "BIN serve --stdio"}))
		}
	}
	limits := map[string]time.Duration{}
	var d time.Duration
	for i, args := range slices.Concat(j.Commands, j.Protocol) {
		start := time.Now()
		if msg, _ := j.run(ctx, bin, [][]string{args}); msg != "" {
			return 0, fmt.Errorf("the unmutated reference fails: %s", msg)
		}
		t := time.Since(start)
		limits[strings.Join(args, " ")] = max(minLimit, 10*t)
		if i < len(j.Commands) {
			d += t
		}
	}
	j.baseline = bin
	if j.EqCheck > 0 {
		// The check must find nothing between the original and itself,
		// or a difference it reports would mean nothing.
		if msg := j.Equivalence(ctx, dir, bin, "reference/reference.go", ""); msg != "" {
			return 0, fmt.Errorf("the equivalence check finds a difference between the unmutated reference and itself: %s", msg)
		}
	}
	if auto {
		j.limits = limits
	}
	return d, nil
}

// suiteOps returns the ops a file of the reference answers: the ops of its
// suite, or none (every op) for a shared file.
func suiteOps(file string) []string {
	suite, ok := strings.CutPrefix(file, "reference/")
	suite, _, ok2 := strings.Cut(suite, "/")
	if !ok || !ok2 || suite == "internal" {
		return nil
	}
	return slices.DeleteFunc(reference.Ops(), func(op string) bool { return !strings.HasPrefix(op, suite+".") })
}

// opsFor returns the --op flags that fuzz the ops whose handlers reach the
// function fn of file (the call graph of reach.go), so that the check
// spends its time where the mutant can show; the ops of the file's suite
// when the graph does not know the function (a package-level variable's
// initializer) or could not be built.
func (j *Judge) opsFor(file, fn string) []string {
	j.reachOnce.Do(func() {
		r, err := buildReach(j.Root)
		if err != nil {
			fmt.Fprintf(os.Stderr, "mutants: the call graph of the reference: %v; the equivalence check fuzzes whole suites\n", err)
			return
		}
		j.reach = r
	})
	ops, ok := j.reach[strings.TrimPrefix(file, "reference/")+":"+fn]
	if fn == "" || !ok {
		ops = suiteOps(file)
	}
	var flags []string
	for _, op := range ops {
		flags = append(flags, "--op", op)
	}
	return flags
}

// Equivalence fuzzes the conform binary bin (its in-process reference
// mutated in function fn of file) against the unmutated one, both ways:
// each side's in-process reference is the oracle once while the other
// serves over stdio, since the fuzzer compares only the inputs its oracle
// accepts. It fuzzes only the ops whose handlers reach fn (opsFor). The
// seed is fixed, the run bounded by EqCheck (or EqCount). It returns ""
// when no answer differed and an account of the first difference otherwise.
func (j *Judge) Equivalence(ctx context.Context, dir, bin, file, fn string) string {
	found := filepath.Join(dir, "eqcheck")
	bound := []string{"--time", j.EqCheck.String()}
	if j.EqCount > 0 {
		bound = []string{"--count", strconv.Itoa(j.EqCount)}
	}
	for _, pair := range [][2]string{{bin, j.baseline}, {j.baseline, bin}} {
		os.RemoveAll(found)
		args := slices.Concat([]string{"fuzz", "--stdio", pair[1] + " serve --stdio"}, bound, []string{"--seed", "1", "--out", found}, j.opsFor(file, fn))
		out, _, err := j.command(ctx, j.EqCheck+max(j.Timeout, time.Minute), pair[0], args...)
		os.RemoveAll(found)
		if err != nil {
			side := "the mutant as oracle, the original served"
			if pair[0] == j.baseline {
				side = "the original as oracle, the mutant served"
			}
			return fmt.Sprintf("conform fuzz (%s): %v: %s", side, err, lastLines(out, 3))
		}
	}
	return ""
}

// lastLines returns the last n non-empty lines of s, joined by " | ".
func lastLines(s string, n int) string {
	lines := nonEmptyLines(s)
	return joinClipped(lines[max(0, len(lines)-n):], 400)
}

// nonEmptyLines returns the lines of s that hold more than space, trimmed.
func nonEmptyLines(s string) []string {
	var lines []string
	for line := range strings.Lines(s) {
		if line = strings.TrimSpace(line); line != "" {
			lines = append(lines, line)
		}
	}
	return lines
}

// Mutant judges one mutation of the file whose content is src; worker
// names a scratch directory of its own. A survivor listed as equivalent is
// also put through the equivalence check (Judge.Equivalence).
func (j *Judge) Mutant(ctx context.Context, worker int, m *Mutation, src []byte, equivalent bool) Result {
	start := time.Now()
	dir := filepath.Join(j.Tmp, fmt.Sprint("worker", worker))
	mutated := filepath.Join(dir, filepath.Base(m.File))
	overlay := filepath.Join(dir, "overlay.json")
	ov, err := Overlay(filepath.Join(j.Root, filepath.FromSlash(m.File)), mutated)
	if err == nil {
		err = os.MkdirAll(dir, 0o755)
	}
	if err == nil {
		err = os.WriteFile(mutated, m.Apply(src), 0o644)
	}
	if err == nil {
		err = os.WriteFile(overlay, ov, 0o644)
	}
	cmds := j.Commands
	if slices.Contains(j.ProtocolFiles, m.File) {
		cmds = slices.Concat(cmds, j.Protocol)
	}
	r := Result{Status: Survived}
	if err != nil {
		r = Result{Status: Killed, Detail: "scratch: " + err.Error()}
	} else if bin, err := j.build(ctx, dir, overlay); err != nil {
		r = Result{Status: Uncompilable, Detail: err.Error()}
	} else if msg, timedOut := j.run(ctx, bin, cmds); msg != "" {
		r = Result{Status: Killed, Detail: msg, TimedOut: timedOut}
	} else if equivalent && j.EqCheck > 0 {
		r.Diverged = j.Equivalence(ctx, dir, bin, m.File, m.Func)
	}
	r.Seconds = time.Since(start).Seconds()
	return r
}

// firstLines returns the first n non-empty lines of s that are not
// comments (#), joined by " | ".
func firstLines(s string, n int) string {
	lines := slices.DeleteFunc(nonEmptyLines(s), func(line string) bool { return strings.HasPrefix(line, "#") })
	return joinClipped(lines[:min(n, len(lines))], 240)
}

// joinClipped joins lines by " | ", cut to limit bytes and an ellipsis when
// longer.
func joinClipped(lines []string, limit int) string {
	out := strings.Join(lines, " | ")
	if len(out) > limit {
		out = out[:limit] + "…"
	}
	return out
}

// describeLimits lists the timeout of each judging command, for the log.
func (j *Judge) describeLimits() string {
	if len(j.limits) == 0 {
		return j.Timeout.String() + " each"
	}
	var parts []string
	for _, args := range slices.Concat(j.Commands, j.Protocol) {
		parts = append(parts, fmt.Sprintf("%s %v", strings.Join(args, " "), j.limit(args).Round(time.Millisecond)))
	}
	return strings.Join(parts, ", ")
}
