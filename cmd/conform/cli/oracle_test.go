package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/conform-suite/conform/vectors"
)

// serveCommand is 'conform serve --stdio' run by the test binary, which the
// environment variable mainEnv makes the conform command; it is set on the
// command line so that another child of the same test is not made one.
func serveCommand() string {
	return "env " + mainEnv + "=1 " + quoteArg(os.Args[0]) + " serve --stdio"
}

// TestFuzzReferenceAgainstItselfAsOracle fuzzes the reference over stdio
// against the reference over stdio as an explicit oracle: nothing diverges.
func TestFuzzReferenceAgainstItselfAsOracle(t *testing.T) {
	serve := serveCommand()
	out := t.TempDir()
	code, stdout, stderr := conform(t, "", "fuzz", "--stdio", serve, "--oracle", serve, "--count", "600", "--seed", "3", "--out", out)
	if code != ExitOK || !strings.Contains(stdout, "no divergences") || !strings.Contains(stdout, "oracle: --oracle 'env") {
		t.Errorf("the reference against itself as the oracle: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

// TestFuzzPlantedFaultAgainstAnExplicitOracle fuzzes a faulty implementation
// against the reference as an explicit --oracle-stdio: the fault is found,
// and its vector records the oracle, passes on the oracle and fails on the
// faulty implementation.
func TestFuzzPlantedFaultAgainstAnExplicitOracle(t *testing.T) {
	faulty := faultyCommand(t, "1")
	out := t.TempDir()
	code, stdout, stderr := conform(t, "", "fuzz", "--stdio", faulty, "--oracle-stdio", serveCommand(), "--op", "selref.replay", "--count", "200", "--seed", "2", "--out", out)
	if code != ExitFailed || !strings.Contains(stdout, "mismatch selref.replay") || !strings.Contains(stdout, "    oracle:         {") {
		t.Fatalf("conform fuzz = exit %d, want %d and a selref.replay mismatch\nstdout:\n%s\nstderr:\n%s", code, ExitFailed, stdout, stderr)
	}
	c, err := vectors.Load(os.DirFS(out))
	if err != nil || len(c.Vectors()) != 1 {
		t.Fatalf("emitted vectors: %v, %v", c, err)
	}
	v := c.Vectors()[0]
	if !v.HasTag("oracle:external") || !strings.Contains(c.Files[0].Note, "with --oracle 'env") {
		t.Errorf("the vector does not record the oracle: tags %v, note %q", v.Tags, c.Files[0].Note)
	}
	if code, stdout, _ := conform(t, "", "run", "--vectors", out, "--stdio", serveCommand()); code != ExitOK {
		t.Errorf("the finding replayed on the oracle = exit %d, want 0\n%s", code, stdout)
	}
	if code, stdout, _ := conform(t, "", "run", "--vectors", out, "--stdio", faulty); code != ExitFailed {
		t.Errorf("the finding replayed on the faulty implementation = exit %d, want 1\n%s", code, stdout)
	}
	files, _ := filepath.Glob(filepath.Join(out, "selref", "*.json"))
	if len(files) != 1 {
		t.Errorf("files %v", files)
	}
}

func TestFuzzOracleUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"fuzz", "--oracle", "a", "--oracle-http", "http://127.0.0.1:1"}, "give one oracle"},
		{[]string{"fuzz", "--oracle-http", "ftp://x"}, "--oracle-http \"ftp://x\": not an http:// or https:// URL"},
		{[]string{"fuzz", "--count", "5", "--oracle", "/no/such/program"}, "conform: hint: that was the oracle"},
	} {
		code, _, stderr := conform(t, "", tc.args...)
		if code != ExitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("conform %q = exit %d, stderr %q; want exit %d and %q", tc.args, code, stderr, ExitUsage, tc.want)
		}
	}
}

// TestFuzzRecordsTheIncumbentsDivergences fuzzes a correct port (the
// reference over stdio) against an incumbent with a planted fault as the
// oracle: every finding is the incumbent's, so the run passes, writes no
// vector, and --record-profile writes a profile file under which the
// incumbent passes its findings and the port fails them.
func TestFuzzRecordsTheIncumbentsDivergences(t *testing.T) {
	incumbent := faultyCommand(t, "1")
	out, work := t.TempDir(), t.TempDir()
	t.Chdir(work) // the profile file goes to the working directory
	code, stdout, stderr := conform(t, "", "fuzz", "--stdio", serveCommand(), "--oracle", incumbent, "--op", "selref.replay",
		"--count", "200", "--seed", "2", "--out", out, "--record-profile", "incumbent")
	if code != ExitOK || !strings.Contains(stdout, "incumbent-off-spec") || !strings.Contains(stdout, "0 vector files written") ||
		!strings.Contains(stdout, "added to incumbent.profile.json") {
		t.Fatalf("conform fuzz = exit %d, want 0, incumbent-off-spec findings, no vector and a profile file\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	file := filepath.Join(work, "incumbent.profile.json")
	if code, stdout, _ := conform(t, "", "run", "--profile-file", file, "--tag", "triage:incumbent-off-spec", "--stdio", incumbent); code != ExitOK || !strings.Contains(stdout, "profile: incumbent") {
		t.Errorf("the incumbent under its profile file = exit %d, want 0\n%s", code, lastLines(stdout, 8))
	}
	// The profile records a real difference: the port, which keeps to the
	// specification, fails those vectors under it.
	if code, stdout, _ := conform(t, "", "run", "--profile-file", file, "--tag", "triage:incumbent-off-spec", "--stdio", serveCommand()); code != ExitFailed {
		t.Errorf("the port under the incumbent's profile file = exit %d, want 1\n%s", code, lastLines(stdout, 8))
	}
}
