package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/reference"
	"github.com/conform-suite/conform/vectors"
)

// partialEnv makes the test binary a client that implements two ops,
// quote.parse and marker.strip, with the reference's answers except a
// planted bug: every href holding a comment is refused with one code.
const partialEnv = "CONFORM_TEST_PARTIAL"

// partialOps are the ops the partial client offers.
var partialOps = []string{"quote.parse", "marker.strip"}

// partialCode is the one code the planted bug refuses with.
const partialCode = "QUOTE_COMMENT_UNSUPPORTED"

type partial struct{ reference.InProcess }

func (p partial) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	switch {
	case req.Op == "hello":
		h := reference.Hello()
		h.Name, h.Ops = "two-op client", partialOps
		out, err := json.Marshal(h)
		return protocol.Response{ID: req.ID, Output: out}, err
	case req.Op == "quote.parse" && hrefHasComment(req.Input):
		return protocol.Response{ID: req.ID, Output: json.RawMessage(`{"rejected":{"code":"` + partialCode + `"}}`)}, nil
	case req.Op != "quote.parse" && req.Op != "marker.strip":
		return protocol.Response{ID: req.ID, Error: &protocol.Error{Kind: protocol.KindUnsupported, Message: "op " + req.Op + " is not implemented"}}, nil
	}
	return p.InProcess.Call(ctx, req)
}

// hrefHasComment reports whether the input's href has a comment field.
func hrefHasComment(input json.RawMessage) bool {
	var in struct {
		Href string `json:"href"`
	}
	return json.Unmarshal(input, &in) == nil && (strings.Contains(in.Href, "?comment=") || strings.Contains(in.Href, "&comment="))
}

func servePartial() int {
	if err := protocol.ServeStdio(context.Background(), partial{}, os.Stdin, os.Stdout, protocol.DefaultMaxLine); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// TestPartialClientGate gates the two-op client as a CI job would. Every
// quote.parse vector whose href holds a comment fails (the oracle: the
// vectors, none of which expects the planted code); nothing else does.
// Under --require-ops=quote.parse,marker.strip the report begins with those
// failures; under plain --require-ops the text report stays under 300
// lines, the unsupported ops take a line each, its counts agree, and the
// Markdown summary lists every failure.
func TestPartialClientGate(t *testing.T) {
	corpus, err := vectors.Load(vectors.FS())
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	unsupported := map[string]int{}
	for _, v := range corpus.Vectors() {
		switch {
		case v.Op == "quote.parse" && hrefHasComment(v.Input):
			want = append(want, v.ID)
		case !slices.Contains(partialOps, v.Op):
			unsupported[v.Op]++
		}
	}
	if len(want) == 0 || len(unsupported) == 0 {
		t.Fatalf("the corpus has %d quote.parse vectors with a comment and %d ops the client lacks; the test needs both", len(want), len(unsupported))
	}
	t.Setenv(partialEnv, "1")
	client := quoteArg(os.Args[0])
	dir := t.TempDir()

	code, stdout, stderr := conform(t, "", "run", "--stdio", client, "--require-ops="+strings.Join(partialOps, ","))
	blocks := regexp.MustCompile(`(?m)^(FAIL|REJECTED-WRONGLY|ACCEPTED-WRONGLY) +(\S+)$`).FindAllStringSubmatch(stdout, -1)
	var failed []string
	for _, m := range blocks {
		failed = append(failed, m[2])
	}
	if code != ExitFailed || !slices.Equal(sorted(failed), sorted(want)) {
		t.Fatalf("--require-ops=%s: exit %d, failure blocks %v, want exit %d and %v\n%s%s", strings.Join(partialOps, ","), code, failed, ExitFailed, want, lastLines(stdout, 20), stderr)
	}
	if first, _, _ := strings.Cut(stdout, "\n"); !strings.HasSuffix(first, " "+failed[0]) {
		t.Errorf("the report begins %q, want its first failure", first)
	}

	md, tap := filepath.Join(dir, "summary.md"), filepath.Join(dir, "r.tap")
	code, stdout, stderr = conform(t, "", "run", "--stdio", client, "--require-ops", "--markdown", md, "--tap", tap)
	total := len(corpus.Vectors())
	nUnsupported := total - len(want) - passedOf(t, stdout)
	if lines := strings.Count(stdout, "\n"); code != ExitFailed || lines >= 300 {
		t.Fatalf("--require-ops: exit %d, %d lines of text report, want exit %d and under 300\n%s%s", code, lines, ExitFailed, lastLines(stdout, 20), stderr)
	}
	for op, n := range unsupported {
		line := fmt.Sprintf("UNSUPPORTED %s: %d vectors, the op is not listed in hello; failed under --require-ops\n", op, n)
		if strings.Count(stdout, line) != 1 {
			t.Errorf("the text report lacks, or repeats, the line %q", line)
		}
	}
	if !strings.Contains(stdout, fmt.Sprintf(" %d unsupported failing under --require-ops ", nUnsupported)) ||
		!strings.HasSuffix(stdout, fmt.Sprintf("%d failed\n", len(want)+nUnsupported)) {
		t.Errorf("the summary's counts disagree: want %d unsupported failing under --require-ops and %d failed\n%s", nUnsupported, len(want)+nUnsupported, lastLines(stdout, 8))
	}
	if !strings.Contains(stdout, "(--require-ops=marker.strip,quote.parse requires only the ops this run judged)") {
		t.Errorf("the text report does not name the ops it judged as a flag\n%s", lastLines(stdout, 12))
	}
	// The TAP report lists the same failures first.
	tapData, err := os.ReadFile(tap)
	if err != nil {
		t.Fatal(err)
	}
	var points []string
	for _, m := range regexp.MustCompile(`(?m)^(?:not )?ok \d+ - (\S+)`).FindAllStringSubmatch(string(tapData), len(want)) {
		points = append(points, m[1])
	}
	if !slices.Equal(sorted(points), sorted(want)) || !strings.Contains(string(tapData), "\nnot ok 1 - ") {
		t.Errorf("the TAP report begins with %v, want the failures %v", points, want)
	}
	data, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range want {
		if !strings.Contains(string(data), "| `"+id+"` |") {
			t.Errorf("the Markdown summary does not list the failure %s", id)
		}
	}
}

// passedOf reads the number passed from a text report's closing line.
func passedOf(t *testing.T, report string) int {
	t.Helper()
	var passed, failed int
	if _, err := fmt.Sscanf(lastLine(report), "%d passed, %d failed", &passed, &failed); err != nil {
		t.Fatalf("closing line %q: %v", lastLine(report), err)
	}
	return passed
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}
