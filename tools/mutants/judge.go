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
	"strings"
	"sync"
	"time"
)

// Status is the verdict on one mutant.
type Status string

// Statuses.
const (
	Killed       Status = "killed"
	Survived     Status = "survived"
	Uncompilable Status = "uncompilable" // discarded: the compiler refused it
)

// Result is the verdict on one mutant, as cached.
type Result struct {
	Status  Status  `json:"status"`
	Detail  string  `json:"detail,omitempty"` // what killed it, or the first compile error
	Seconds float64 `json:"seconds"`          // time spent judging it
	Judge   string  `json:"judge,omitempty"`  // for a survivor: hash of the judging corpus
}

// Cache maps (file hash, mutation id) to a result. Killed and uncompilable
// results stand while the mutated file is unchanged: vectors and features
// only grow. A survivor stands only while the judging corpus (vectors,
// features, runner, CLI) is unchanged too, so that a new vector is given
// its chance to kill it.
type Cache struct {
	mu      sync.Mutex
	path    string
	Results map[string]Result `json:"results"`
}

// cacheKey identifies a mutant by the hash of the file it mutates, its id
// and its edits, so that a change of the mutator that gives an id another
// meaning does not reuse a stale verdict.
func cacheKey(fileHash string, m *Mutation) string {
	h := sha256.New()
	for _, e := range m.Edits {
		fmt.Fprintf(h, "%d %d %q\n", e.Start, e.End, e.Text)
	}
	return fileHash + " " + m.ID + " " + hex.EncodeToString(h.Sum(nil)[:6])
}

// LoadCache reads the cache at path; a missing file is an empty cache.
func LoadCache(path string) (*Cache, error) {
	c := &Cache{path: path, Results: map[string]Result{}}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
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

// Lookup returns a cached result that still holds.
func (c *Cache) Lookup(key, judge string) (Result, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.Results[key]
	if !ok || r.Status == Survived && r.Judge != judge {
		return Result{}, false
	}
	return r, true
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

// hashTree hashes every regular file under the given roots of dir (missing
// roots are skipped), paths and contents, skipping tests.
func hashTree(dir string, roots ...string) (string, error) {
	h := sha256.New()
	for _, root := range roots {
		err := filepath.WalkDir(filepath.Join(dir, root), func(p string, d fs.DirEntry, err error) error {
			if errors.Is(err, fs.ErrNotExist) {
				return fs.SkipDir
			}
			if err != nil || d.IsDir() || strings.HasSuffix(p, "_test.go") {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			fmt.Fprintf(h, "%s %d\n", p, len(data))
			h.Write(data)
			return nil
		})
		if err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:8]), nil
}

// Judge builds the conform command with one file replaced through a build
// overlay and runs it against the mutated in-process reference.
type Judge struct {
	Root     string     // module root
	Tmp      string     // scratch directory
	Commands [][]string // conform subcommands to run; any failure kills
	// Protocol holds the commands that also judge the mutants of
	// ProtocolFile, the op routing and hello handshake, which only a run
	// over a transport sees. BIN in an argument stands for the binary.
	Protocol     [][]string
	ProtocolFile string
	Timeout      time.Duration // per command run
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

// buildPackage builds the main package pkg of the module into dir/name.
func (j *Judge) buildPackage(ctx context.Context, dir, overlay, pkg, name string) (string, error) {
	bin := filepath.Join(dir, name)
	args := []string{"build", "-o", bin}
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
// and a one-line account of the first failure otherwise.
func (j *Judge) run(ctx context.Context, bin string, cmds [][]string) string {
	for _, args := range cmds {
		args = slices.Clone(args)
		for i := range args {
			args[i] = strings.ReplaceAll(args[i], "BIN", bin)
		}
		cctx, cancel := context.WithTimeout(ctx, j.Timeout)
		cmd := exec.CommandContext(cctx, bin, args...)
		cmd.Dir = j.Root
		cmd.WaitDelay = time.Second
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		timedOut := cctx.Err() != nil
		cancel()
		switch {
		case timedOut:
			return fmt.Sprintf("conform %s: timeout after %v", strings.Join(args, " "), j.Timeout)
		case err != nil:
			return fmt.Sprintf("conform %s: %v: %s", strings.Join(args, " "), err, firstLines(out.String(), 1))
		}
	}
	return ""
}

// Baseline builds and runs the unmutated command: every judging command
// must pass, or no mutant can be judged. It returns the time one run of the
// commands takes.
func (j *Judge) Baseline(ctx context.Context) (time.Duration, error) {
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
	if bytes.Contains(help, []byte("conform features")) && !slices.ContainsFunc(j.Commands, func(c []string) bool { return c[0] == "features" }) {
		j.Commands = append(j.Commands, []string{"features"})
	}
	if bytes.Contains(help, []byte("conform doctor")) && bytes.Contains(help, []byte("conform serve --stdio")) {
		j.Protocol = [][]string{{"doctor", "--stdio", "BIN serve --stdio"}}
	}
	start := time.Now()
	if msg := j.run(ctx, bin, j.Commands); msg != "" {
		return 0, fmt.Errorf("the unmutated reference fails: %s", msg)
	}
	d := time.Since(start)
	if msg := j.run(ctx, bin, j.Protocol); msg != "" {
		return 0, fmt.Errorf("the unmutated reference fails: %s", msg)
	}
	return d, nil
}

// Mutant judges one mutation of the file whose content is src; worker
// names a scratch directory of its own.
func (j *Judge) Mutant(ctx context.Context, worker int, m *Mutation, src []byte) Result {
	start := time.Now()
	dir := filepath.Join(j.Tmp, fmt.Sprint("worker", worker))
	res := func(s Status, detail string) Result {
		return Result{Status: s, Detail: detail, Seconds: time.Since(start).Seconds()}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return res(Killed, "scratch: "+err.Error())
	}
	mutated := filepath.Join(dir, filepath.Base(m.File))
	overlay := filepath.Join(dir, "overlay.json")
	ov, err := Overlay(filepath.Join(j.Root, filepath.FromSlash(m.File)), mutated)
	if err == nil {
		err = os.WriteFile(mutated, m.Apply(src), 0o644)
	}
	if err == nil {
		err = os.WriteFile(overlay, ov, 0o644)
	}
	if err != nil {
		return res(Killed, "scratch: "+err.Error())
	}
	bin, err := j.build(ctx, dir, overlay)
	if err != nil {
		return res(Uncompilable, err.Error())
	}
	cmds := j.Commands
	if m.File == j.ProtocolFile {
		cmds = append(slices.Clone(cmds), j.Protocol...)
	}
	if msg := j.run(ctx, bin, cmds); msg != "" {
		return res(Killed, msg)
	}
	return res(Survived, "")
}

// firstLines returns the first n non-empty lines of s, joined by " | ".
func firstLines(s string, n int) string {
	var lines []string
	for line := range strings.Lines(s) {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if lines = append(lines, line); len(lines) == n {
			break
		}
	}
	out := strings.Join(lines, " | ")
	if len(out) > 240 {
		out = out[:240] + "…"
	}
	return out
}
