package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"
)

// An action is action.yml as far as a simulated job reads it.
type action struct {
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Runs struct {
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

type actionStep struct {
	Name string            `yaml:"name"`
	ID   string            `yaml:"id"`
	If   string            `yaml:"if"`
	Uses string            `yaml:"uses"`
	Run  string            `yaml:"run"`
	Env  map[string]string `yaml:"env"`
	With map[string]string `yaml:"with"`
}

func readAction(t *testing.T) *action {
	t.Helper()
	data, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var a action
	if err := yaml.Unmarshal(data, &a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	return &a
}

// A job runs the composite action's steps as GitHub's runner does, on this
// machine: its run steps with bash, in a runner.temp of its own, with the
// outputs, PATH and environment files the runner gives them; the caches
// are directories of cache, shared by the jobs that share it. setup-go,
// cosign-installer and upload-artifact do nothing (Go is on PATH, a job at
// a commit installs no release, artifacts are not read).
type job struct {
	t       *testing.T
	action  *action
	inputs  map[string]string
	cache   string // a directory per cache key
	root    string // the action's checkout (github.action_path)
	ref     string // github.action_ref
	temp    string // runner.temp
	work    string // the workspace
	outputs map[string]map[string]string
	path    []string // added by GITHUB_PATH, last first
	post    []func() // post steps, run at the end of the job
	failed  bool
	log     bytes.Buffer
	runCode int // the exit code of the step with id "run", -1 if it did not run
}

func newJob(t *testing.T, a *action, cache string, inputs map[string]string) *job {
	root, _ := filepath.Abs("../..")
	j := &job{t: t, action: a, inputs: map[string]string{}, cache: cache, root: root,
		ref: "0123456789abcdef0123456789abcdef01234567", temp: t.TempDir(), work: t.TempDir(),
		outputs: map[string]map[string]string{}, runCode: -1}
	for name, in := range a.Inputs {
		j.inputs[name] = in.Default
	}
	for name, v := range inputs {
		if _, ok := a.Inputs[name]; !ok {
			t.Fatalf("input %q: action.yml declares no such input", name)
		}
		j.inputs[name] = v
	}
	return j
}

var expression = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

// value evaluates the expressions action.yml uses: a context value, or
// "a || b".
func (j *job) value(expr string) string {
	for _, alt := range strings.Split(expr, "||") {
		if v := j.context(strings.TrimSpace(alt)); v != "" {
			return v
		}
	}
	return ""
}

func (j *job) context(name string) string {
	parts := strings.Split(name, ".")
	switch {
	case len(parts) == 2 && parts[0] == "inputs":
		return j.inputs[parts[1]]
	case name == "runner.temp":
		return j.temp
	case name == "runner.os":
		return "Linux"
	case name == "runner.arch":
		return "X64"
	case name == "github.action_path":
		return j.root
	case name == "github.action_ref":
		return j.ref
	case name == "github.action_repository":
		return "conform-suite/conform"
	case len(parts) == 4 && parts[0] == "steps" && parts[2] == "outputs":
		return j.outputs[parts[1]][parts[3]]
	}
	j.t.Fatalf("action.yml: an expression the simulated runner does not know: %q", name)
	return ""
}

func (j *job) expand(s string) string {
	return expression.ReplaceAllStringFunc(s, func(m string) string { return j.value(expression.FindStringSubmatch(m)[1]) })
}

// condition evaluates an if: terms joined by &&, each always(), or a
// comparison of a context value with a quoted string.
func (j *job) condition(cond string) bool {
	cond = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(cond), "${{"), "}}"))
	if cond == "" {
		return !j.failed
	}
	always := false
	for _, term := range strings.Split(cond, "&&") {
		term = strings.TrimSpace(term)
		if term == "always()" {
			always = true
			continue
		}
		if m := regexp.MustCompile(`^startsWith\((\S+), '([^']*)'\)$`).FindStringSubmatch(term); m != nil {
			if !strings.HasPrefix(j.context(m[1]), m[2]) {
				return false
			}
			continue
		}
		m := regexp.MustCompile(`^(\S+) (==|!=) '([^']*)'$`).FindStringSubmatch(term)
		if m == nil {
			j.t.Fatalf("action.yml: a condition the simulated runner does not know: %q", term)
		}
		if (j.context(m[1]) == m[3]) != (m[2] == "==") {
			return false
		}
	}
	return always || !j.failed
}

// run runs every step, then the post steps.
func (j *job) run() {
	for _, s := range j.action.Runs.Steps {
		if !j.condition(s.If) {
			continue
		}
		switch uses := strings.SplitN(s.Uses, "@", 2)[0]; uses {
		case "":
			j.runStep(s)
		case "actions/setup-go", "actions/upload-artifact", "sigstore/cosign-installer":
		case "actions/cache/restore":
			j.restore(s)
		case "actions/cache/save":
			j.save(s)
		case "actions/cache":
			j.restore(s)
			j.post = append(j.post, func() { j.save(s) })
		default:
			j.t.Fatalf("action.yml uses %s, which the simulated runner does not know", s.Uses)
		}
	}
	for _, p := range j.post {
		p()
	}
}

func (j *job) cacheDir(s actionStep) (string, string) {
	return filepath.Join(j.cache, j.expand(s.With["key"])), j.expand(s.With["path"])
}

func (j *job) restore(s actionStep) {
	stored, path := j.cacheDir(s)
	hit := "false"
	if _, err := os.Stat(stored); err == nil {
		copyDir(j.t, stored, path)
		hit = "true"
	}
	if s.ID != "" {
		j.outputs[s.ID] = map[string]string{"cache-hit": hit}
	}
}

func (j *job) save(s actionStep) {
	stored, path := j.cacheDir(s)
	if _, err := os.Stat(stored); err == nil {
		return // a cache entry is never overwritten
	}
	if _, err := os.Stat(path); err == nil {
		copyDir(j.t, path, stored)
	}
}

func (j *job) runStep(s actionStep) {
	output := filepath.Join(j.temp, "output-"+s.ID+"-"+fmt.Sprint(len(j.outputs)))
	pathFile := filepath.Join(j.temp, "path")
	os.WriteFile(output, nil, 0o644)
	os.WriteFile(pathFile, nil, 0o644)
	cmd := exec.Command("bash", "-e", "-c", s.Run)
	cmd.Dir = j.work
	env := []string{"GITHUB_ACTION_PATH=" + j.root, "GITHUB_OUTPUT=" + output, "GITHUB_PATH=" + pathFile,
		"GITHUB_STEP_SUMMARY=" + filepath.Join(j.temp, "summary.md"), "RUNNER_OS=Linux", "RUNNER_ARCH=X64", "RUNNER_TEMP=" + j.temp,
		"PATH=" + strings.Join(append(append([]string(nil), j.path...), os.Getenv("PATH")), string(os.PathListSeparator))}
	for k, v := range s.Env {
		env = append(env, k+"="+j.expand(v))
	}
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = &j.log, &j.log
	code := exitCode(j.t, cmd.Run())
	if s.ID == "run" {
		j.runCode = code
	}
	if code != 0 {
		j.failed = true
	}
	if s.ID != "" {
		j.outputs[s.ID] = readOutputs(j.t, output)
	}
	if added, _ := os.ReadFile(pathFile); len(bytes.TrimSpace(added)) > 0 {
		for _, p := range strings.Split(strings.TrimSpace(string(added)), "\n") {
			j.path = append([]string{p}, j.path...)
		}
	}
}

// copyDir copies the regular files of src into dst, modes kept.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, info.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Two jobs of one workflow share the cache of the built binary. In the
// first, the implementation under test replaces the binary (and the digest
// beside it) with one that passes everything; the second job, against an
// implementation that fails every quote.normalize vector, still gets the
// real verdict: the cache was saved before the first implementation ran.
// Within one job, the command after the swap (the scenarios') finds the
// binary replaced and is not run. The liar: the same action with the cache
// saved at the end of a successful job (as the combined cache action does)
// hands the second job the swapped binary, and a green run.
func TestActionCachedBinaryCannotBeSwapped(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	swapper := map[string]string{"stdio": self, "op": "quote.parse"}
	failing := map[string]string{"stdio": self, "op": "quote.normalize"}
	// jobs runs a job with the swapping implementation, then one with the
	// failing implementation, on one cache.
	jobs := func(a *action) (first, second *job) {
		cache := t.TempDir()
		t.Setenv(hostileEnv, hostileSwap)
		first = newJob(t, a, cache, swapper)
		first.run()
		t.Setenv(hostileEnv, hostileLog)
		second = newJob(t, a, cache, failing)
		second.run()
		return first, second
	}

	a := readAction(t)
	first, second := jobs(a)
	if first.runCode != 0 {
		t.Errorf("job 1: the run step = exit %d, want 0 (the swapping implementation answers as the reference)\n%s", first.runCode, first.log.String())
	}
	if second.runCode != 1 || !strings.Contains(second.log.String(), "restored from the cache") {
		t.Errorf("job 2: the run step = exit %d, want 1 (the real verdict) with the binary restored from the cache\n%s", second.runCode, second.log.String())
	}

	t.Setenv(hostileEnv, hostileSwap)
	within := newJob(t, a, t.TempDir(), map[string]string{"stdio": self, "op": "quote.parse", "features": "true"})
	within.run()
	if within.runCode != 2 || !strings.Contains(within.log.String(), "is not the one the install step recorded") {
		t.Errorf("a job whose implementation swaps the binary before the scenarios: the run step = exit %d, want 2 and the binary found replaced\n%s", within.runCode, within.log.String())
	}

	// the liar: the cache saved at the end of the job
	late := *a
	late.Runs.Steps = nil
	var save actionStep
	for _, s := range a.Runs.Steps {
		if strings.HasPrefix(s.Uses, "actions/cache/save@") {
			save = s
			continue
		}
		late.Runs.Steps = append(late.Runs.Steps, s)
	}
	if save.Uses == "" {
		t.Fatal("action.yml has no actions/cache/save step")
	}
	late.Runs.Steps = append(late.Runs.Steps, save)
	if _, second = jobs(&late); second.runCode != 0 || !strings.Contains(second.log.String(), "1955 passed, 0 failed") {
		t.Errorf("the liar (the cache saved after the run): job 2 = exit %d, want the swapped binary's green run\n%s", second.runCode, second.log.String())
	}
}
