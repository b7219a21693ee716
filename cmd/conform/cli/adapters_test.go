package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/conform-suite/conform/vectors"
)

// miniNormalize is a stand-in corpus for the adapters' test while the
// embedded corpus has no quote.normalize vectors: three cases read off
// spec/quote-anchor.md (each whitespace run becomes one space; no trimming;
// a lone surrogate becomes U+FFFD), and one vector of an op the adapters do
// not offer.
const miniNormalize = `{"op":"quote.normalize","description":"Stand-in cases.","vectors":[
 {"id":"quote.normalize/adapter-runs","description":"runs of mixed whitespace","requirements":["QUOTE-ANCHOR-004"],"input":{"text":" a \t\r\n\u00a0\u3000b "},"expect":{"output":{"text":" a b "}}},
 {"id":"quote.normalize/adapter-astral","description":"astral text untouched","requirements":["QUOTE-ANCHOR-004"],"input":{"text":"\ud83d\ude00\u200b\u0085x"},"expect":{"output":{"text":"\ud83d\ude00\u200b\u0085x"}}},
 {"id":"quote.normalize/adapter-lone-surrogate","description":"a lone surrogate","requirements":["QUOTE-ANCHOR-004"],"input":{"text":"a\ud83d\t\tb"},"expect":{"output":{"text":"a\ufffd b"}}}]}`

const miniOther = `{"op":"selref.replay","description":"Stand-in.","vectors":[
 {"id":"selref.replay/adapter-other-op","description":"an op the adapters do not offer","requirements":["SELREF-REPLAY-001"],"input":{"body":"hi"},"expect":{"output":{"text":"hi"}}}]}`

// adapterCorpus returns a vectors directory for the adapter tests: the
// embedded corpus when it covers quote.normalize, the stand-in otherwise.
func adapterCorpus(t *testing.T) string {
	c, err := vectors.Load(vectors.FS())
	if err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(c.Vectors(), func(v *vectors.Vector) bool { return v.Op == "quote.normalize" }) {
		return "" // the embedded corpus
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "normalize.json"), []byte(miniNormalize), 0o644)
	os.WriteFile(filepath.Join(dir, "replay.json"), []byte(miniOther), 0o644)
	return dir
}

// TestExampleAdapters runs the Python and Node.js example adapters through
// 'conform run --stdio': every vector of an op they list in hello passes,
// and every other vector is unsupported.
func TestExampleAdapters(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "..", "..", "examples", "adapters"))
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []struct{ interpreter, script string }{
		{"python3", filepath.Join(root, "python", "conform_adapter.py")},
		{"node", filepath.Join(root, "node", "conform_adapter.js")},
	} {
		t.Run(a.interpreter, func(t *testing.T) {
			if _, err := exec.LookPath(a.interpreter); err != nil {
				t.Skipf("%s is not installed", a.interpreter)
			}
			report := filepath.Join(t.TempDir(), "report.json")
			args := []string{"run", "--stdio", a.interpreter + " " + quoteArg(a.script), "--json", report, "--text", filepath.Join(t.TempDir(), "report.txt")}
			if dir := adapterCorpus(t); dir != "" {
				args = append(args, "--vectors", dir)
			}
			code, _, stderr := conform(t, "", args...)
			data, err := os.ReadFile(report)
			if err != nil {
				t.Fatalf("conform run = exit %d, no report: %v\n%s", code, err, stderr)
			}
			var r struct {
				Implementation struct{ Ops []string }
				Results        []struct{ ID, Op, Outcome, Detail string }
			}
			if err := json.Unmarshal(data, &r); err != nil {
				t.Fatal(err)
			}
			if len(r.Implementation.Ops) == 0 {
				t.Fatalf("the adapter lists no op in hello")
			}
			claimed := 0
			for _, res := range r.Results {
				want := "unsupported"
				if slices.Contains(r.Implementation.Ops, res.Op) {
					want = "pass"
					claimed++
				}
				if res.Outcome != want {
					t.Errorf("%s: outcome %s (%s), want %s", res.ID, res.Outcome, res.Detail, want)
				}
			}
			if claimed == 0 || code != ExitOK {
				t.Errorf("conform run = exit %d with %d vectors of claimed ops; want exit 0 and some", code, claimed)
			}
		})
	}
}

// TestExampleAdaptersFeatures runs conform features against the Python and
// Node.js example adapters: every scenario either passes or is skipped (a
// scenario of an op they do not list in hello, raw request lines included,
// is skipped), and some pass. The exit bound is set far above the
// scenario's 5s, which measures the interpreter's start too: this test is
// about the adapters, not about how loaded the machine is.
// With --require-ops the scenarios of an op they do not offer fail: one
// feature file of such ops shows it. With an exit bound of 1ns, which no
// process meets, the exit scenario fails: the bound is the one set.
func TestExampleAdaptersFeatures(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", "..", "..", "examples", "adapters"))
	if err != nil {
		t.Fatal(err)
	}
	summary := regexp.MustCompile(`(?m)^(\d+) scenarios \((\d+) passed(?:, (\d+) failed)?(?:, (\d+) skipped)?\)$`)
	for _, a := range []struct{ interpreter, script string }{
		{"python3", filepath.Join(root, "python", "conform_adapter.py")},
		{"node", filepath.Join(root, "node", "conform_adapter.js")},
	} {
		t.Run(a.interpreter, func(t *testing.T) {
			if _, err := exec.LookPath(a.interpreter); err != nil {
				t.Skipf("%s is not installed: the example adapter cannot run", a.interpreter)
			}
			cmd := a.interpreter + " " + quoteArg(a.script)
			code, stdout, stderr := conform(t, "", "features", "--stdio", cmd, "--format", "progress", "--no-color", "--exit-within", "10m")
			m := summary.FindStringSubmatch(stdout)
			if code != ExitOK || m == nil || m[3] != "" || m[2] == "0" || m[4] == "" {
				t.Errorf("features against the %s adapter = exit %d, summary %q; want exit 0, some passed, the rest skipped, none failed\n%s%s", a.interpreter, code, m, lastLines(stdout, 40), stderr)
			}
			// The op they offer, required: every scenario of it passes, a
			// request naming a member twice among them (PROTO-ERROR-003).
			code, stdout, _ = conform(t, "", "features", "--stdio", cmd, "--format", "progress", "--no-color", "--exit-within", "10m", "--require-ops=quote.normalize")
			if m := summary.FindStringSubmatch(stdout); code != ExitOK || m == nil || m[3] != "" {
				t.Errorf("features --require-ops=quote.normalize against the %s adapter = exit %d, summary %q; want exit 0, none failed\n%s", a.interpreter, code, m, lastLines(stdout, 40))
			}
			code, stdout, _ = conform(t, "", "features", "--stdio", cmd, "--format", "progress", "--no-color", "--require-ops", "selref/selref.feature")
			if m := regexp.MustCompile(`(?m)^(\d+) scenarios \((\d+) failed\)$`).FindStringSubmatch(stdout); code != ExitFailed || m == nil || m[1] != m[2] {
				t.Errorf("features --require-ops selref/selref.feature against the %s adapter = exit %d, summary %q; want exit 1 and every scenario failed", a.interpreter, code, m)
			}
			code, stdout, _ = conform(t, "", "features", "--stdio", cmd, "--format", "progress", "--no-color", "--exit-within", "1ns", "--tags", "@PROTO-STDIO-003")
			if code != ExitFailed || !strings.Contains(stdout, "\n1 scenario (1 failed)\n") || !strings.Contains(stdout, "want within 1ns (--exit-within)") {
				t.Errorf("features --exit-within 1ns against the %s adapter = exit %d; want exit 1 and its one exit scenario failed against --exit-within\n%s", a.interpreter, code, lastLines(stdout, 20))
			}
		})
	}
}

// lastLines is the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.SplitAfter(s, "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "")
}
