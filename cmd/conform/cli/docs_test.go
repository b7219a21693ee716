package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// quotedCommands are the commands whose output the docs quote: a fenced
// block whose introducing line names the command (in backquotes) holds
// lines of that command's output on this commit.
var quotedCommands = map[string][]string{
	"`go run ./cmd/conform run`":                        {"run"},
	"`go run ./cmd/conform features --format progress`": {"features", "--format", "progress"},
}

// TestDocsQuoteRealOutput: every line the docs quote from a command they
// name is a line that command prints now, so no quoted figure goes stale.
// Inline quotes of such output are not allowed: a doc quotes it in a block.
func TestDocsQuoteRealOutput(t *testing.T) {
	docs, _ := filepath.Glob("../../../docs/*.md")
	docs = append(docs, "../../../README.md")
	outputs := map[string]map[string]bool{}
	run := func(cmd string) map[string]bool {
		if lines, ok := outputs[cmd]; ok {
			return lines
		}
		_, out, _ := conform(t, "", quotedCommands[cmd]...)
		lines := map[string]bool{}
		for l := range strings.SplitSeq(out, "\n") {
			lines[l] = true
		}
		outputs[cmd] = lines
		return lines
	}
	checked := 0
	for _, doc := range docs {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		for i, l := range lines {
			for cmd := range quotedCommands {
				if !strings.Contains(l, cmd) {
					continue
				}
				if inlineFigure.MatchString(l) {
					t.Errorf("%s:%d quotes the output of %s inline; quote it in a block after the line that names it", doc, i+1, cmd)
				}
				k := i + 1
				for k < len(lines) && strings.TrimSpace(lines[k]) == "" {
					k++
				}
				if k >= len(lines) || !strings.HasPrefix(lines[k], "```") {
					continue
				}
				want := run(cmd)
				for j := k + 1; j < len(lines) && !strings.HasPrefix(lines[j], "```"); j++ {
					checked++
					if !want[lines[j]] {
						t.Errorf("%s:%d quotes %q as output of %s, which does not print it on this commit", doc, j+1, lines[j], cmd)
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Error("no quoted output found in the docs: the test checks nothing")
	}
}

// inlineFigure matches a line that names a command and quotes a count of
// its output in the same line.
var inlineFigure = regexp.MustCompile("(prints|ends with) `[^`]*[0-9]")

// divergentCounts matches the sentence of docs/porting.md that states how
// many lines 'conform list --profile NAME --divergent' prints per system.
var divergentCounts = regexp.MustCompile("prints ([0-9]+) lines for `t3code`, ([0-9]+) for `vance` and ([0-9]+) for `seed`")

// TestDocsDivergentCounts: the per-profile counts docs/porting.md gives for
// 'conform list --profile NAME --divergent' are what it prints now.
func TestDocsDivergentCounts(t *testing.T) {
	data, err := os.ReadFile("../../../docs/porting.md")
	if err != nil {
		t.Fatal(err)
	}
	m := divergentCounts.FindStringSubmatch(strings.Join(strings.Fields(string(data)), " "))
	if m == nil {
		t.Fatal("docs/porting.md states no count of 'conform list --profile NAME --divergent' lines per system")
	}
	for i, sys := range []string{"t3code", "vance", "seed"} {
		code, out, stderr := conform(t, "", "list", "--profile", sys, "--divergent", "--ids")
		if code != 0 {
			t.Fatalf("list --profile %s --divergent --ids: exit %d: %s", sys, code, stderr)
		}
		if got := strconv.Itoa(strings.Count(out, "\n")); got != m[i+1] {
			t.Errorf("docs/porting.md says 'conform list --profile %s --divergent' prints %s lines; it prints %s", sys, m[i+1], got)
		}
	}
}
