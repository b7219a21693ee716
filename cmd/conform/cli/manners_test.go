package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSuggestions(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"run", "--requre-ops"}, "conform: error: flag provided but not defined: -requre-ops; did you mean --require-ops?\n"},
		{[]string{"list", "-sute", "quote"}, "conform: error: flag provided but not defined: -sute; did you mean --suite?\n"},
		{[]string{"rnu"}, `conform: error: unknown command "rnu"; did you mean run?` + "\n"},
		{[]string{"verison"}, `conform: error: unknown command "verison"; did you mean version?` + "\n"},
	}
	for _, tt := range tests {
		code, stdout, stderr := conform(t, "", tt.args...)
		if code != ExitUsage || !strings.HasPrefix(stderr, tt.want) || stdout != "" || strings.Contains(stderr, "Flags:") {
			t.Errorf("conform %q = exit %d, stderr %q; want exit 2 and %q, without the usage text", tt.args, code, stderr, tt.want)
		}
	}
	// Nothing near: no suggestion.
	if _, _, stderr := conform(t, "", "run", "--zzzzzzzz"); strings.Contains(stderr, "did you mean") {
		t.Errorf("a flag unlike any got a suggestion: %q", stderr)
	}
}

// list -h says which columns list prints: checked against real output.
func TestListHelpMatchesOutput(t *testing.T) {
	_, help, _ := conform(t, "", "list", "-h")
	if !strings.Contains(help, "three tab-separated columns:\nthe vector id, the requirements it exercises (comma separated) and its\ndescription") {
		t.Fatalf("list -h does not describe the columns:\n%s", help)
	}
	_, out, _ := conform(t, "", "list", "--op", "quote.parse")
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		cols := strings.Split(l, "\t")
		if len(cols) != 3 || !strings.HasPrefix(cols[0], "quote.parse/") || !strings.Contains(cols[1], "-") {
			t.Fatalf("list line %q is not id, requirements, description", l)
		}
	}
}

func TestExplainNamesTheFileRead(t *testing.T) {
	dir := echoDir(t)
	_, ids, _ := conform(t, "", "list", "--ids", "--vectors", dir)
	id, _, _ := strings.Cut(ids, "\n")
	code, out, _ := conform(t, "", "explain", "--vectors", dir, id)
	var file string
	for _, l := range strings.Split(out, "\n") {
		if f, ok := strings.CutPrefix(l, "file:        "); ok {
			file = f
		}
	}
	if code != ExitOK || !strings.HasPrefix(file, dir+string(filepath.Separator)) {
		t.Fatalf("explain --vectors %s names file %q", dir, file)
	}
	if _, err := os.Stat(file); err != nil {
		t.Errorf("the file explain names is not there: %v", err)
	}
}

// Colours and progress lines never reach a pipe or a file, even on request
// of nothing.
func TestNoControlSequencesOffTerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if useColor(f, false) || startProgress(f, "run", 10) != nil {
		t.Errorf("a file counts as a terminal")
	}
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		defer tty.Close()
		t.Setenv("NO_COLOR", "1")
		if useColor(tty, false) {
			t.Errorf("NO_COLOR set, yet colours on a terminal")
		}
	}
	code := MainIO([]string{"features", "--format", "pretty", "selref"}, strings.NewReader(""), f, f)
	data, _ := os.ReadFile(f.Name())
	if code != ExitOK || strings.Contains(string(data), "\x1b[") {
		t.Errorf("features into a file = exit %d, control sequences: %v", code, strings.Contains(string(data), "\x1b["))
	}
}
