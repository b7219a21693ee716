package cli

import (
	"encoding/xml"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestFeaturesLiarCodeless runs conform features against the proxy of the
// reference that strips every refusal's code: the refusals pass by default
// (PROTO-REJECT-002's MAY), and the summary and the JUnit report count and
// list each; --require-codes fails them (exit 1). The reference passes the
// gate.
func TestFeaturesLiarCodeless(t *testing.T) {
	t.Setenv(codelessEnv, "1")
	liar := quoteArg(os.Args[0])
	xmlPath := filepath.Join(t.TempDir(), "f.xml")
	code, stdout, stderr := conform(t, "", "features", "--stdio", liar, "--no-color", "--format", "progress,junit:"+xmlPath)
	m := regexp.MustCompile(`(?m)^codes: (\d+) refusals passed without a code \(PROTO-REJECT-002 allows it; --require-codes fails them\)$`).FindStringSubmatch(stdout)
	if code != ExitOK || m == nil {
		t.Fatalf("features against the codeless proxy = exit %d, want 0 and a line counting the refusals without a code\n%s\n%s", code, stdout, stderr)
	}
	n, _ := strconv.Atoi(m[1])
	listed := regexp.MustCompile(`(?m)^  \S.*: .* \((rejected|dropped), want code [A-Z0-9_]+\)$`).FindAllString(stdout, -1)
	if n == 0 || len(listed) != n {
		t.Errorf("the summary counts %d refusals without a code and lists %d, want the same, above 0\n%s", n, len(listed), stdout)
	}
	data, err := os.ReadFile(xmlPath)
	if err != nil {
		t.Fatal(err)
	}
	junitTotals(t, data)
	var doc struct {
		Suites []struct {
			Props []struct {
				Name  string `xml:"name,attr"`
				Value string `xml:"value,attr"`
			} `xml:"properties>property"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	props := 0
	for _, s := range doc.Suites {
		for _, p := range s.Props {
			if p.Name == "codeless_refusals" {
				v, _ := strconv.Atoi(p.Value)
				props += v
			}
		}
	}
	if got := strings.Count(string(data), "refusal passed without a code: the scenario expects "); got != n || props != n {
		t.Errorf("JUnit names %d refusals passed without a code and its properties count %d, want %d", got, props, n)
	}

	code, stdout, _ = conform(t, "", "features", "--stdio", liar, "--no-color", "--format", "progress", "--require-codes")
	if want := fmt.Sprintf("\ncodes: %d refusals without a code failed (--require-codes)\n", n); code != ExitFailed || !strings.Contains(stdout, want) || !strings.Contains(stdout, "got no code (--require-codes)") {
		t.Errorf("features --require-codes against the codeless proxy = exit %d, want %d and %q\n%s", code, ExitFailed, want, stdout)
	}
	if !regexp.MustCompile(`(?m)^\d+ scenarios \(\d+ passed, \d+ failed\)$`).MatchString(stdout) {
		t.Errorf("features --require-codes: the failures are not counted as failed scenarios\n%s", stdout)
	}

	// The reference gives every code: the gate passes it.
	t.Setenv(codelessEnv, "")
	code, stdout, _ = conform(t, "", "features", "--no-color", "--format", "progress", "--require-codes")
	if code != ExitOK || strings.Contains(stdout, "without a code") {
		t.Errorf("features --require-codes against the reference = exit %d\n%s", code, stdout)
	}
}

// TestHugeDigitLiarThroughTheCLI runs conform run against the reference
// answering every integer with 4 million digits more (4.000…0001 for 4):
// the vector fails, the run exits 1, and it ends at all (a generous
// ceiling: a comparison quadratic in the digits would take minutes).
func TestHugeDigitLiarThroughTheCLI(t *testing.T) {
	t.Setenv(liarEnv, "huge")
	const id = "quote.select/lone-surrogate-counts-one-unit"
	done := make(chan struct{})
	var (
		code           int
		stdout, stderr string
	)
	go func() {
		defer close(done)
		code, stdout, stderr = conform(t, "", "run", "--stdio", quoteArg(os.Args[0]), "--id", id)
	}()
	select {
	case <-done:
	case <-time.After(120 * time.Second):
		t.Fatal("conform run against the huge-digit liar did not end within 120s")
	}
	if code != ExitFailed || !strings.Contains(stdout, "FAIL        "+id) || !strings.Contains(stdout, "$.selector.start: want 2, got 2.000") || !strings.HasSuffix(lastLine(stdout), "1 failed") {
		t.Errorf("conform run against the huge-digit liar = exit %d, want %d and %s failed on $.selector.start\n%s%s", code, ExitFailed, id, lastLines(stdout, 30), stderr)
	}
}
