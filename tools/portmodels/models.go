package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// A language is one program of port models: its runtime, its file (from the
// module root), the command that runs it, whose words may be $(SCRIPT) (see
// expand), and the languages of spec/data/platform.jsonl whose rows its
// models stand for.
type language struct {
	name    string
	runtime string
	program string
	command []string
	rows    []string
}

// languages are the programs of port models, one a client language (Kotlin's
// models run in the Java program, which calls kotlin-stdlib; jars.sh fetches
// the jars and prints their classpath; the Node.js program's models stand for
// the browser's rows too; build.sh builds the Go models and prints the
// binary's path). Swift's rows have no program: no Swift runs here.
var languages = []language{
	{name: "python", runtime: "python3", program: "tools/portmodels/python/models.py",
		command: []string{"python3", "tools/portmodels/python/models.py"}, rows: []string{"python"}},
	{name: "node", runtime: "node", program: "tools/portmodels/node/models.mjs",
		command: []string{"node", "tools/portmodels/node/models.mjs"}, rows: []string{"javascript", "chromium"}},
	{name: "java", runtime: "java", program: "tools/portmodels/java/Models.java",
		command: []string{"java", "-cp", "$(tools/portmodels/java/jars.sh --compiled)", "Models"}, rows: []string{"java", "kotlin"}},
	{name: "go", runtime: "go", program: "tools/portmodels/go/main.go",
		command: []string{"$(tools/portmodels/go/build.sh)"}, rows: []string{"go"}},
}

// A model is one port model as its program lists it (tools/portmodels/README.md).
type model struct {
	Model        string   `json:"model"`
	Row          *string  `json:"row"`  // a key of spec/data/platform.jsonl, or null for a structural case
	Case         string   `json:"case"` // the structural case, when Row is null
	Class        string   `json:"class"`
	Ops          []string `json:"ops"`
	Requirements []string `json:"requirements"`
	Slip         string   `json:"slip"`
	Check        string   `json:"check"` // "features" when the scenarios, not the vectors, catch it

	lang language
}

// identity is the model that forwards everything: it must pass.
const identity = "identity"

// argv is the command that serves m.
func (m *model) argv() ([]string, error) {
	argv, err := expand(m.lang.command)
	return append(argv, m.Model), err
}

// expand returns a command with each word $(SCRIPT) replaced by what that
// script of the tree prints (the Java models' classpath).
func expand(command []string) ([]string, error) {
	var argv []string
	for _, w := range command {
		if sub := scriptWord.FindStringSubmatch(w); sub != nil {
			out, err := scriptOutput(sub[2], strings.Fields(sub[3])...)
			if err != nil {
				return nil, err
			}
			w = sub[1] + out + sub[4]
		}
		argv = append(argv, w)
	}
	return argv, nil
}

// scriptWord is a word holding $(SCRIPT).
var scriptWord = regexp.MustCompile(`^(.*)\$\(([^()$ ]+)( [^()$]*)?\)(.*)$`)

var scripts sync.Map // script and arguments -> its output, or the error running it

// scriptOutput runs a script of the tree once and returns what it printed,
// trimmed.
func scriptOutput(script string, args ...string) (string, error) {
	key := strings.Join(append([]string{script}, args...), " ")
	if v, ok := scripts.Load(key); ok {
		if err, bad := v.(error); bad {
			return "", err
		}
		return v.(string), nil
	}
	var stderr bytes.Buffer
	cmd := exec.Command(script, args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		err = fmt.Errorf("%s: %v: %s", script, err, bytes.TrimSpace(stderr.Bytes()))
		scripts.Store(key, err)
		return "", err
	}
	s := strings.TrimSpace(string(out))
	scripts.Store(key, s)
	return s, nil
}

// stdio is m's command for conform's --stdio, each word quoted for its POSIX
// splitting.
func (m *model) stdio() (string, error) {
	argv, err := m.argv()
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for i, w := range argv {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString("'" + strings.ReplaceAll(w, "'", `'\''`) + "'")
	}
	return b.String(), nil
}

// errMissing is a runtime that is not on PATH, or a program that is not
// there.
var errMissing = errors.New("not on PATH, or not there")

// list runs the program of lang with --list and reads its models.
func list(lang language) ([]*model, error) {
	if _, err := exec.LookPath(lang.runtime); err != nil {
		return nil, fmt.Errorf("%s: %s %w", lang.name, lang.runtime, errMissing)
	}
	if _, err := os.Stat(lang.program); err != nil {
		return nil, fmt.Errorf("%s: %v: %w", lang.name, err, errMissing)
	}
	argv, err := expand(lang.command)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", lang.name, err)
	}
	cmd := exec.Command(argv[0], append(argv[1:], "--list")...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s --list: %v: %s", strings.Join(argv, " "), err, lastLines(stderr.String(), 10))
	}
	var models []*model
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		m := &model{lang: lang}
		if err := json.Unmarshal(line, m); err != nil {
			return nil, fmt.Errorf("%s --list, line %d: %v", lang.program, n, err)
		}
		if err := m.valid(); err != nil {
			return nil, fmt.Errorf("%s --list, line %d: %v", lang.program, n, err)
		}
		models = append(models, m)
	}
	if !slices.ContainsFunc(models, func(m *model) bool { return m.Model == identity }) {
		return nil, fmt.Errorf("%s --list has no %q model", lang.program, identity)
	}
	return models, nil
}

// valid checks what a listed model must say.
func (m *model) valid() error {
	switch {
	case m.Model == "":
		return errors.New("a model without a name")
	case m.Model == identity:
		return nil
	case m.Row == nil && m.Case == "":
		return fmt.Errorf("%s: neither a row nor a case", m.Model)
	case len(m.Ops) == 0 && m.Check != "features":
		return fmt.Errorf("%s: no ops", m.Model)
	case m.Slip == "" || len(m.Requirements) == 0:
		return fmt.Errorf("%s: no slip or no requirement", m.Model)
	case m.Check != "" && m.Check != "features":
		return fmt.Errorf("%s: check %q is neither empty nor \"features\"", m.Model, m.Check)
	}
	return nil
}

// all lists the models of every language whose runtime is there; missing
// names the languages whose runtime is not.
func all() (models []*model, missing []string, err error) {
	for _, lang := range languages {
		ms, err := list(lang)
		if errors.Is(err, errMissing) {
			missing = append(missing, lang.name)
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		models = append(models, ms...)
	}
	return models, missing, nil
}
