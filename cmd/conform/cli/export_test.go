package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/conform-suite/conform/spec"
	"github.com/conform-suite/conform/vectors"
)

// TestExportRoundTrip exports the corpus and judges the two-op client
// (passes, failures and unsupported ops) from the exported files and from
// the embedded corpus: the same outcome for every vector, under the same
// corpus digest. The index lists each vector once under its op and under
// each requirement it names, and every requirement of the specification.
func TestExportRoundTrip(t *testing.T) {
	out := filepath.Join(t.TempDir(), "export")
	code, stdout, stderr := conform(t, "", "export", "--out", out)
	if code != ExitOK || !strings.HasPrefix(stdout, "exported ") {
		t.Fatalf("export = exit %d\n%s%s", code, stdout, stderr)
	}
	if code, _, stderr := conform(t, "", "export", "--out", out); code != ExitUsage || !strings.Contains(stderr, "not empty") {
		t.Errorf("export into a non-empty directory = exit %d, %s; want a usage error", code, stderr)
	}

	t.Setenv(partialEnv, "1")
	client := quoteArg(os.Args[0])
	dir := t.TempDir()
	run := func(name string, args ...string) (jsonReport, string) {
		p := filepath.Join(dir, name)
		_, stdout, stderr := conform(t, "", append([]string{"run", "--stdio", client, "--json", p}, args...)...)
		id, _, ok := strings.Cut(stdout[strings.LastIndex(stdout, "identity: "):], "\n")
		if !ok {
			t.Fatalf("run %v: no identity line\n%s%s", args, lastLines(stdout, 10), stderr)
		}
		return readJSONReport(t, p), id
	}
	embedded, idEmbedded := run("embedded.json")
	exported, idExported := run("exported.json", "--vectors", filepath.Join(out, "vectors"))
	if idEmbedded != idExported {
		t.Errorf("identity from the export %q, from the embedded corpus %q", idExported, idEmbedded)
	}
	if embedded.Totals != exported.Totals || len(embedded.Results) != len(exported.Results) || embedded.Totals.Failed == 0 || embedded.Totals.Passed == 0 {
		t.Fatalf("totals from the export %+v, from the embedded corpus %+v (want equal, with passes and failures)", exported.Totals, embedded.Totals)
	}
	for i := range embedded.Results {
		a, b := embedded.Results[i], exported.Results[i]
		if a.ID != b.ID || a.Outcome != b.Outcome {
			t.Errorf("result %d: %s %s from the embedded corpus, %s %s from the export", i, a.ID, a.Outcome, b.ID, b.Outcome)
		}
	}

	var index exportIndex
	data, err := os.ReadFile(filepath.Join(out, "index.json"))
	if err == nil {
		err = json.Unmarshal(data, &index)
	}
	if err != nil {
		t.Fatal(err)
	}
	corpus, err := vectors.Load(vectors.FS())
	if err != nil {
		t.Fatal(err)
	}
	sp, err := spec.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]int{}
	for _, op := range index.Ops {
		for _, id := range op.Vectors {
			listed[id]++
		}
	}
	for _, v := range corpus.Vectors() {
		if op := index.Ops[v.Op]; op == nil || !slices.Contains(op.Vectors, v.ID) || listed[v.ID] != 1 {
			t.Errorf("index: %s is not listed once under %s", v.ID, v.Op)
		}
		for _, r := range v.Requirements {
			if !slices.Contains(index.Requirements[r].Vectors, v.ID) {
				t.Errorf("index: %s is not listed under %s", v.ID, r)
			}
		}
	}
	if len(index.Requirements) != len(sp.Requirements) || index.CorpusDigest == "" || !strings.Contains(idEmbedded, index.CorpusDigest) {
		t.Errorf("index: %d requirements (the specification has %d), digest %q (the run's identity: %s)", len(index.Requirements), len(sp.Requirements), index.CorpusDigest, idEmbedded)
	}

	// The pytest loader of examples/export runs against the export as a
	// team's CI would (make export-check runs the JUnit 5 one too).
	t.Run("pytest", func(t *testing.T) {
		if exec.Command("python3", "-c", "import pytest").Run() != nil {
			t.Skip("python3 with pytest is not installed (make export-check installs it)")
		}
		cmd := exec.Command("python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", filepath.Join("..", "..", "..", "examples", "export", "pytest"))
		cmd.Env = append(os.Environ(), "CONFORM_EXPORT="+out, "PYTHONDONTWRITEBYTECODE=1")
		got, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(got), " passed") || strings.Contains(string(got), "failed") {
			t.Errorf("pytest over the export: %v\n%s", err, got)
		}
	})
}
