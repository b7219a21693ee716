// Package scripts holds the tests of the shell scripts beside it.
package scripts

import (
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/conform-suite/conform/internal/await"
)

// classify runs fuzz-classify.sh on a log and returns its verdict.
func classify(t *testing.T, log string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fuzz.log")
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("bash", "fuzz-classify.sh", path).CombinedOutput()
	if err != nil {
		t.Fatalf("fuzz-classify.sh: %v\n%s", err, out)
	}
	return strings.TrimSpace(string(out))
}

// The end of a CI log of go1.26.8 in which the coordinator's deadline race
// failed a target that had found nothing.
const deadlineRace = `fuzz: elapsed: 0s, gathering baseline coverage: 0/103 completed
fuzz: elapsed: 1s, gathering baseline coverage: 103/103 completed, now fuzzing with 2 workers
fuzz: elapsed: 3s, execs: 14982 (4994/sec), new interesting: 3 (total: 106)
fuzz: elapsed: 4s, execs: 14982 (0/sec), new interesting: 3 (total: 106)
--- FAIL: FuzzExpand (4.70s)
    context deadline exceeded
FAIL
exit status 1
FAIL	github.com/conform-suite/conform/fuzz	4.726s
`

func TestClassifyDeadlineRace(t *testing.T) {
	if got := classify(t, deadlineRace); got != "deadline-flake" {
		t.Fatalf("got %q, want deadline-flake", got)
	}
}

func TestClassifyDeadlineWithMoreIsNotAFlake(t *testing.T) {
	// The same failure with anything else said by the test is not the race.
	log := strings.Replace(deadlineRace, "    context deadline exceeded\n",
		"    context deadline exceeded\n    expand_test.go:40: output differs\n", 1)
	if got := classify(t, log); got != "other" {
		t.Fatalf("got %q, want other", got)
	}
}

func TestClassifyBuildFailure(t *testing.T) {
	log := "# github.com/conform-suite/conform/fuzz\nfuzz/x_test.go:3:1: syntax error\nFAIL\tgithub.com/conform-suite/conform/fuzz [build failed]\n"
	if got := classify(t, log); got != "other" {
		t.Fatalf("got %q, want other", got)
	}
}

// TestClassifyFinding: the log of a fuzz run that wrote a failing input is
// a finding. Go's own log of a real finding is checked by
// fuzz-classify-check.sh, which make fuzz-smoke runs.
func TestClassifyFinding(t *testing.T) {
	if got := classify(t, finding); got != "finding" {
		t.Fatalf("got %q, want finding", got)
	}
}

// TestClassifyCheck: fuzz-classify-check.sh passes when the planted
// target's log is classified a finding, and fails when the planted target
// finds nothing or when its log is classified as anything else. A stand-in
// for go answers with the logs; a copy of the scripts, with a stand-in
// classifier, tells the classifier's word.
func TestClassifyCheck(t *testing.T) {
	check := func(goLog string, goExit int, classifier string) (string, int) {
		t.Helper()
		dir := t.TempDir()
		goPath := filepath.Join(dir, "go")
		logPath := filepath.Join(dir, "log")
		if err := os.WriteFile(logPath, []byte(goLog), 0o644); err != nil {
			t.Fatal(err)
		}
		stand := "#!/usr/bin/env bash\nif [ \"$1\" = env ]; then echo go1.0-fake; exit 0; fi\ncat " + logPath + "\nexit " + strconv.Itoa(goExit) + "\n"
		if err := os.WriteFile(goPath, []byte(stand), 0o755); err != nil {
			t.Fatal(err)
		}
		script := "fuzz-classify-check.sh"
		if classifier != "" {
			b, err := os.ReadFile(script)
			if err != nil {
				t.Fatal(err)
			}
			script = filepath.Join(dir, "fuzz-classify-check.sh")
			if err := os.WriteFile(script, b, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "fuzz-classify.sh"), []byte("#!/usr/bin/env bash\necho "+classifier+"\n"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		cmd := exec.Command("bash", script)
		cmd.Env = append(os.Environ(), "GO="+goPath)
		return combined(t, cmd)
	}
	if out, code := check(finding, 1, ""); code != 0 || !strings.Contains(out, `is classified "finding"`) {
		t.Errorf("a finding: exit %d, output:\n%s", code, out)
	}
	if out, code := check(passed, 0, ""); code != 1 || !strings.Contains(out, "found nothing") {
		t.Errorf("nothing found: exit %d, want 1; output:\n%s", code, out)
	}
	if out, code := check(finding, 1, "other"); code != 1 || !strings.Contains(out, `is classified "other", want "finding"`) {
		t.Errorf("a finding classified other: exit %d, want 1; output:\n%s", code, out)
	}
}

// fakeGo writes a stand-in for the go command that lists one package with one
// fuzz target and answers its fuzz runs, in order, with the given logs and exit
// codes; it counts the fuzz runs in a file beside it.
func fakeGo(t *testing.T, runs ...fuzzRun) (goPath, countPath string) {
	t.Helper()
	dir := t.TempDir()
	countPath = filepath.Join(dir, "count")
	var script strings.Builder
	script.WriteString("#!/usr/bin/env bash\nset -eu\n")
	script.WriteString(`case "$1 ${2:-}" in
"list ./...") echo github.com/conform-suite/conform/fuzz; exit 0 ;;
"test -list") echo FuzzExpand; exit 0 ;;
esac
n=$(cat "` + countPath + `" 2>/dev/null || echo 0); n=$((n + 1)); echo "$n" > "` + countPath + `"
`)
	for i, r := range runs {
		logPath := filepath.Join(dir, "log"+string(rune('0'+i)))
		if err := os.WriteFile(logPath, []byte(r.log), 0o644); err != nil {
			t.Fatal(err)
		}
		script.WriteString("if [ \"$n\" = " + string(rune('1'+i)) + " ]; then cat " + logPath + "; exit " + string(rune('0'+r.code)) + "; fi\n")
	}
	script.WriteString("echo 'fake go: too many runs' >&2; exit 9\n")
	goPath = filepath.Join(dir, "go")
	if err := os.WriteFile(goPath, []byte(script.String()), 0o755); err != nil {
		t.Fatal(err)
	}
	return goPath, countPath
}

func runFuzzScript(t *testing.T, goPath string) (string, int) {
	t.Helper()
	cmd := exec.Command("bash", "scripts/fuzz.sh")
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "GO="+goPath, "FUZZTIME=1s")
	return combined(t, cmd)
}

// combined runs cmd and returns its output (stdout and stderr together)
// and its exit code; a command that could not run fails the test.
func combined(t *testing.T, cmd *exec.Cmd) (string, int) {
	t.Helper()
	out, err := cmd.CombinedOutput()
	if exit, ok := err.(*exec.ExitError); ok {
		return string(out), exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), 0
}

// fuzzRun is one answer of the fake go command to a fuzz run.
type fuzzRun struct {
	log  string
	code int
}

const passed = "fuzz: elapsed: 0s, gathering baseline coverage: 3/3 completed, now fuzzing with 2 workers\nfuzz: elapsed: 1s, execs: 100 (100/sec), new interesting: 0 (total: 3)\nPASS\nok  \tgithub.com/conform-suite/conform/fuzz\t1.1s\n"

const finding = "fuzz: elapsed: 0s, gathering baseline coverage: 3/3 completed, now fuzzing with 2 workers\nfuzz: minimizing 40-byte failing input file\n--- FAIL: FuzzExpand (0.20s)\n    --- FAIL: FuzzExpand (0.00s)\n        testing.go:1: boom\n    Failing input written to testdata/fuzz/FuzzExpand/0123\nFAIL\nexit status 1\n"

func TestFuzzScriptRetriesTheDeadlineRaceOnce(t *testing.T) {
	goPath, count := fakeGo(t, fuzzRun{deadlineRace, 1}, fuzzRun{passed, 0})
	out, code := runFuzzScript(t, goPath)
	if code != 0 || !strings.Contains(out, "running it once more") || !strings.Contains(out, "FuzzExpand: fuzzed, 100 execs") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	if n, _ := os.ReadFile(count); strings.TrimSpace(string(n)) != "2" {
		t.Fatalf("fuzz runs: %q, want 2", n)
	}
}

func TestFuzzScriptToleratesTheRaceTwiceAndSaysSo(t *testing.T) {
	goPath, _ := fakeGo(t, fuzzRun{deadlineRace, 1}, fuzzRun{deadlineRace, 1})
	out, code := runFuzzScript(t, goPath)
	if code != 0 || !strings.Contains(out, "FuzzExpand: deadline race twice") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
}

func TestFuzzScriptFailsOnAFindingWithoutRetrying(t *testing.T) {
	goPath, count := fakeGo(t, fuzzRun{finding, 1}, fuzzRun{passed, 0})
	out, code := runFuzzScript(t, goPath)
	if code != 1 || !strings.Contains(out, "FuzzExpand failed (exit 1)") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	if n, _ := os.ReadFile(count); strings.TrimSpace(string(n)) != "1" {
		t.Fatalf("fuzz runs: %q, want 1 (a finding is never retried)", n)
	}
}

func TestFuzzScriptFailsWhenTheRaceIsFollowedByAFinding(t *testing.T) {
	goPath, _ := fakeGo(t, fuzzRun{deadlineRace, 1}, fuzzRun{finding, 1})
	out, code := runFuzzScript(t, goPath)
	if code != 1 || !strings.Contains(out, "FuzzExpand failed (exit 1)") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
}

var native struct {
	once    sync.Once
	targets []string // "PKGDIR TARGET", as go test -list '^Fuzz' gives them
	err     error
}

// nativeTargets lists the module's native fuzz targets the way
// scripts/fuzz.sh finds them: go test -list '^Fuzz'. It asks only the
// packages with a test file that holds "func Fuzz" (a fuzz target is such
// a declaration), so that it links a handful of test binaries, not all.
func nativeTargets(t *testing.T) []string {
	t.Helper()
	native.once.Do(func() {
		pkgs := map[string]bool{}
		err := filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && path != ".." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
				return nil
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if strings.Contains(string(b), "func Fuzz") {
				pkgs["./"+filepath.ToSlash(filepath.Dir(strings.TrimPrefix(path, "../")))] = true
			}
			return nil
		})
		if err != nil {
			native.err = err
			return
		}
		cmd := exec.Command("go", append([]string{"test", "-list", "^Fuzz"}, slices.Sorted(maps.Keys(pkgs))...)...)
		cmd.Dir = ".."
		out, err := cmd.CombinedOutput()
		if err != nil {
			native.err = fmt.Errorf("go test -list: %v\n%s", err, out)
			return
		}
		var names []string
		for line := range strings.SplitSeq(string(out), "\n") {
			if strings.HasPrefix(line, "Fuzz") {
				names = append(names, line)
			} else if rest, ok := strings.CutPrefix(line, "ok  \tgithub.com/conform-suite/conform/"); ok {
				pkg, _, _ := strings.Cut(rest, "\t")
				for _, n := range names {
					native.targets = append(native.targets, pkg+" "+n)
				}
				names = nil
			}
		}
		if len(names) != 0 {
			native.err = fmt.Errorf("go test -list: targets %v without their package line in:\n%s", names, out)
		}
	})
	if native.err != nil {
		t.Fatal(native.err)
	}
	return native.targets
}

// TestLibFuzzerTargetsAreTheNativeTargets: the targets fuzz-libfuzzer.sh
// builds (and .clusterfuzzlite/build.sh with it) are exactly those go test
// runs, in the same packages; this module quotes a fuzz target in a string
// (TestClassifyRealFinding) and keeps one behind a build tag (FuzzSeededCrash).
func TestLibFuzzerTargetsAreTheNativeTargets(t *testing.T) {
	want := slices.Clone(nativeTargets(t))
	cmd := exec.Command("bash", "scripts/fuzz-libfuzzer.sh", "list")
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "WORK="+t.TempDir())
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("fuzz-libfuzzer.sh list: %v\n%s", err, stderr.String())
	}
	got := strings.Split(strings.TrimSpace(string(out)), "\n")
	slices.Sort(got)
	slices.Sort(want)
	if len(want) < 2 || !slices.Equal(got, want) {
		t.Fatalf("fuzz-libfuzzer.sh list gives:\n%s\ngo test -list gives:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestNativeFuzzTargetNamesAreUnique: no two packages declare a fuzz target
// of the same name, as each libFuzzer binary is $OUT/TARGET and
// FUZZ_TARGETS names targets without their package.
func TestNativeFuzzTargetNamesAreUnique(t *testing.T) {
	seen := map[string]string{}
	for _, pt := range nativeTargets(t) {
		pkg, name, _ := strings.Cut(pt, " ")
		if other, dup := seen[name]; dup {
			t.Errorf("fuzz target %s is declared in both %s and %s", name, other, pkg)
		}
		seen[name] = pkg
	}
}

// runCampaign runs fuzz-campaign.sh with a fake go command on a document
// holding an old table between the markers, and returns the document after
// the run, the script's output and its exit code.
// Each of env (NAME=value) is set for the script after the defaults.
func runCampaign(t *testing.T, goPath string, env ...string) (doc, out string, code int) {
	t.Helper()
	docPath := filepath.Join(t.TempDir(), "fuzzing.md")
	old := "# Fuzzing\n\nBefore.\n\n<!-- fuzz-campaign: begin. Generated by make fuzz-campaign (scripts/fuzz-campaign.sh); do not edit by hand. -->\n\n| old | table |\n\n<!-- fuzz-campaign: end -->\n\nAfter.\n"
	if err := os.WriteFile(docPath, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "scripts/fuzz-campaign.sh")
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "GO="+goPath, "CAMPAIGN_TIME=1m", "CAMPAIGN_LONG_TIME=10m", "CAMPAIGN_PARALLEL=1",
		"CAMPAIGN_DOC="+docPath, "CAMPAIGN_LOG_DIR="+t.TempDir())
	cmd.Env = append(cmd.Env, env...)
	out, code = combined(t, cmd)
	d, err := os.ReadFile(docPath)
	if err != nil {
		t.Fatal(err)
	}
	return string(d), out, code
}

// TestCampaignRowSaysHowLongTheTargetRan: a target asked to run for 1m that
// found a crash after 7s (go's last status line) is written with both times,
// go's figures and its failing input, in place of the old table, and the
// campaign exits 1.
func TestCampaignRowSaysHowLongTheTargetRan(t *testing.T) {
	log := "fuzz: elapsed: 0s, gathering baseline coverage: 0/3 completed\n" +
		"fuzz: elapsed: 1s, gathering baseline coverage: 3/3 completed, now fuzzing with 1 workers\n" +
		"fuzz: elapsed: 3s, execs: 900 (450/sec), new interesting: 2 (total: 5)\n" +
		"fuzz: elapsed: 6s, execs: 1800 (300/sec), new interesting: 3 (total: 6)\n" +
		"fuzz: elapsed: 7s, execs: 2100 (300/sec), new interesting: 4 (total: 7)\n" +
		"--- FAIL: FuzzExpand (7.02s)\n    --- FAIL: FuzzExpand (0.00s)\n        testing.go:1: boom\n" +
		"    Failing input written to testdata/fuzz/FuzzExpand/0123\nFAIL\nexit status 1\n"
	goPath, _ := fakeGo(t, fuzzRun{log, 1})
	doc, out, code := runCampaign(t, goPath)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (a finding), output:\n%s", code, out)
	}
	for _, want := range []string{
		"| target | package | time | elapsed | fuzzed | execs | peak execs/s | corpus | new interesting | finding |\n|---|---|---|---|---|---:|---:|---:|---:|---|\n",
		"\n| FuzzExpand | fuzz | 1m | 7s | yes | 2100 | 450 | 7 | 4 | crash: testdata/fuzz/FuzzExpand/0123 |\n",
		" CAMPAIGN_PARALLEL=1 CAMPAIGN_JOBS=1`:\n",
		", 1 fuzzing worker per target, 1 target at a time, on a machine with ",
		"# Fuzzing\n\nBefore.\n\n<!-- fuzz-campaign: begin. Generated by make fuzz-campaign (scripts/fuzz-campaign.sh); do not edit by hand. -->\n",
		"\n<!-- fuzz-campaign: end -->\n\nAfter.\n",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("document lacks %q:\n%s", want, doc)
		}
	}
	if strings.Contains(doc, "| old | table |") {
		t.Errorf("the old table is still there:\n%s", doc)
	}
}

// TestCampaignRowWithoutStatusLine: a target whose test binary did not build
// printed no status line: its elapsed time is "-", not the time asked for.
func TestCampaignRowWithoutStatusLine(t *testing.T) {
	goPath, _ := fakeGo(t, fuzzRun{"# github.com/conform-suite/conform/fuzz\nfuzz/x_test.go:3:1: syntax error\nFAIL\tgithub.com/conform-suite/conform/fuzz [build failed]\n", 1})
	doc, out, code := runCampaign(t, goPath)
	if want := "\n| FuzzExpand | fuzz | 1m | - | no | 0 | 0 | 0 | 0 | failed (exit 1) |\n"; code != 1 || !strings.Contains(doc, want) {
		t.Fatalf("exit %d, want 1, and a document with %q; got:\n%s\noutput:\n%s", code, want, doc, out)
	}
}

// campaignLog is a fuzz log whose last status line gives elapsed, execs
// and the corpus of one target, passing or with a crash.
func campaignLog(target string, elapsed, execs, total int, crash bool) string {
	log := fmt.Sprintf("fuzz: elapsed: 0s, gathering baseline coverage: 0/3 completed\n"+
		"fuzz: elapsed: 1s, gathering baseline coverage: 3/3 completed, now fuzzing with 1 workers\n"+
		"fuzz: elapsed: %ds, execs: %d (%d/sec), new interesting: %d (total: %d)\n", elapsed, execs, execs/elapsed, total-3, total)
	if crash {
		return log + "--- FAIL: " + target + " (3.00s)\n    --- FAIL: " + target + " (0.00s)\n        testing.go:1: boom\n" +
			"    Failing input written to testdata/fuzz/" + target + "/77aa\nFAIL\nexit status 1\n"
	}
	return log + "PASS\nok  \tgithub.com/conform-suite/conform/x\t1.0s\n"
}

// TestCampaignJobsKeepTheSequentialOrder: with CAMPAIGN_JOBS=2, four targets
// in two packages, FuzzAlpha running until FuzzBeta has ended (so the two
// ran at the same time, and FuzzBeta ends first) and FuzzGamma failing,
// the table's rows are in the order of go list then go test -list, each
// from its own log, never more than two targets ran at once, and the
// campaign exits 1 for the one finding.
func TestCampaignJobsKeepTheSequentialOrder(t *testing.T) {
	dir := t.TempDir()
	logs := map[string]string{
		"FuzzAlpha": campaignLog("FuzzAlpha", 4, 4000, 11, false),
		"FuzzBeta":  campaignLog("FuzzBeta", 2, 600, 5, false),
		"FuzzGamma": campaignLog("FuzzGamma", 3, 900, 8, true),
		"FuzzDelta": campaignLog("FuzzDelta", 5, 2500, 20, false),
	}
	for target, log := range logs {
		if err := os.WriteFile(filepath.Join(dir, target+".log"), []byte(log), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "run"), 0o755); err != nil {
		t.Fatal(err)
	}
	// The fake go: FuzzAlpha waits for FuzzBeta's end, told through a
	// file and a named pipe, then for the end of FuzzBeta's job, and says
	// so in overlap; run one after the other, Alpha
	// would wait in vain until the test's deadline. Every run writes how
	// many runs it saw going on as it started.
	if err := syscall.Mkfifo(filepath.Join(dir, "beta-done"), 0o600); err != nil {
		t.Fatal(err)
	}
	wait := 600
	if deadline, ok := t.Deadline(); ok {
		wait = max(1, int(time.Until(deadline).Seconds())-30)
	}
	script := `#!/usr/bin/env bash
set -eu
d=` + dir + `
case "$1 ${2:-}" in
"list ./...") printf '%s\n' github.com/conform-suite/conform/fuzz github.com/conform-suite/conform/runner; exit 0 ;;
"test -list")
  case "$4" in
  */fuzz) printf 'FuzzAlpha\nFuzzBeta\nok\n' ;;
  */runner) printf 'FuzzGamma\nFuzzDelta\n' ;;
  esac
  exit 0 ;;
esac
target=${5#^}; target=${target%$}
touch "$d/run/$target"
ls "$d/run" | wc -l >>"$d/concurrent"
if [ "$target" = FuzzAlpha ]; then
  # Opened for reading and writing, the pipe never blocks the open; a
  # FuzzBeta that ended before it was opened left its file. Then FuzzAlpha
  # waits for FuzzBeta's job (which prints its row) to be gone.
  exec 3<>"$d/beta-done"
  if [ -e "$d/done.FuzzBeta" ] || read -r -t ` + strconv.Itoa(wait) + ` _ <&3; then
    job=$(cat "$d/beta.job")
    while kill -0 "$job" 2>/dev/null; do sleep 0.01; done
    echo yes >"$d/overlap"
  fi
fi
[ "$target" != FuzzBeta ] || echo "$PPID" >"$d/beta.job"
rm "$d/run/$target"
touch "$d/done.$target"
[ "$target" != FuzzBeta ] || echo done 1<>"$d/beta-done"
cat "$d/$target.log"
[ "$target" != FuzzGamma ] || exit 1
`
	goPath := filepath.Join(dir, "go")
	if err := os.WriteFile(goPath, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	doc, out, code := runCampaign(t, goPath, "CAMPAIGN_JOBS=2")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (one finding), output:\n%s", code, out)
	}
	rows := "| target | package | time | elapsed | fuzzed | execs | peak execs/s | corpus | new interesting | finding |\n" +
		"|---|---|---|---|---|---:|---:|---:|---:|---|\n" +
		"| FuzzAlpha | fuzz | 1m | 4s | yes | 4000 | 1000 | 11 | 8 | none |\n" +
		"| FuzzBeta | fuzz | 1m | 2s | yes | 600 | 300 | 5 | 2 | none |\n" +
		"| FuzzGamma | runner | 1m | 3s | yes | 900 | 300 | 8 | 5 | crash: testdata/fuzz/FuzzGamma/77aa |\n" +
		"| FuzzDelta | runner | 1m | 5s | yes | 2500 | 500 | 20 | 17 | none |\n\n<!-- fuzz-campaign: end -->\n"
	for _, want := range []string{
		rows,
		" CAMPAIGN_PARALLEL=1 CAMPAIGN_JOBS=2`:\n",
		", 1 fuzzing worker per target, 2 targets at a time, on a machine with ",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("document lacks %q:\n%s", want, doc)
		}
	}
	if !strings.Contains(out, "1 target(s) with a finding") {
		t.Errorf("output does not count one finding:\n%s", out)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "overlap")); err != nil || string(b) != "yes\n" {
		t.Errorf("FuzzAlpha did not see FuzzBeta end while it ran (%v): the targets ran one at a time", err)
	}
	// FuzzBeta ended first and its row was printed first: the table's
	// order is not the order the rows came in.
	if a, b := strings.Index(out, "\n| FuzzAlpha |"), strings.Index(out, "\n| FuzzBeta |"); a < 0 || b < 0 || b > a {
		t.Errorf("the output does not print FuzzBeta's row before FuzzAlpha's:\n%s", out)
	}
	b, err := os.ReadFile(filepath.Join(dir, "concurrent"))
	if err != nil {
		t.Fatal(err)
	}
	counts := strings.Fields(string(b))
	if len(counts) != 4 {
		t.Errorf("the fake go ran %d fuzz targets, want 4", len(counts))
	}
	for _, c := range counts {
		if n, _ := strconv.Atoi(c); n < 1 || n > 2 {
			t.Errorf("a target started with %s targets running, want 1 or 2", c)
		}
	}
}

// TestCampaignInterruptedStopsItsJobs: a campaign sent TERM while two
// targets run stops them (the fake go and the process it started, in each
// job), writes no table and exits 130.
func TestCampaignInterruptedStopsItsJobs(t *testing.T) {
	dir := t.TempDir()
	// Each job writes its pids to a named pipe as it starts: the test
	// waits for those writes, not for the clock.
	started := map[string]*await.Pipe{}
	for _, target := range []string{"FuzzOne", "FuzzTwo"} {
		started[target] = await.PipeAt(t, filepath.Join(dir, target+".pids"))
	}
	script := `#!/usr/bin/env bash
set -eu
d=` + dir + `
case "$1 ${2:-}" in
"list ./...") echo github.com/conform-suite/conform/fuzz; exit 0 ;;
"test -list") printf 'FuzzOne\nFuzzTwo\nFuzzThree\n'; exit 0 ;;
esac
target=${5#^}; target=${target%$}
sleep 300 &
echo "$$ $!" >"$d/$target.pids"
wait
`
	goPath := filepath.Join(dir, "go")
	if err := os.WriteFile(goPath, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	docPath := filepath.Join(dir, "fuzzing.md")
	old := "<!-- fuzz-campaign: begin -->\n| old | table |\n<!-- fuzz-campaign: end -->\n"
	if err := os.WriteFile(docPath, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "scripts/fuzz-campaign.sh")
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "GO="+goPath, "CAMPAIGN_TIME=1m", "CAMPAIGN_LONG_TIME=10m", "CAMPAIGN_PARALLEL=1",
		"CAMPAIGN_JOBS=2", "CAMPAIGN_DOC="+docPath, "CAMPAIGN_LOG_DIR="+t.TempDir())
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waited, ended := await.Exit(cmd)
	var pids []int
	t.Cleanup(func() {
		for _, pid := range pids {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	ctx := await.Context(t)
	for _, target := range []string{"FuzzOne", "FuzzTwo"} {
		b, err := started[target].Wait(ctx, ended)
		if err != nil {
			cmd.Process.Kill()
			<-waited
			t.Fatalf("%s did not start with CAMPAIGN_JOBS=2 (%v); output:\n%s", target, err, out.String())
		}
		for _, f := range strings.Fields(string(b)) {
			n, _ := strconv.Atoi(f)
			pids = append(pids, n)
		}
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	var err error
	select {
	case err = <-waited:
	case <-ctx.Done():
		cmd.Process.Kill()
		t.Fatalf("the campaign had not ended by the test's deadline after TERM; output:\n%s", out.String())
	}
	if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != 130 {
		t.Errorf("campaign ended with %v, want exit 130; output:\n%s", err, out.String())
	}
	for _, pid := range pids {
		if err := await.Gone(ctx, pid); err != nil {
			t.Errorf("process %d of a job still runs after the campaign ended: %v", pid, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "FuzzThree.pids")); err == nil {
		t.Errorf("FuzzThree started after the campaign was interrupted")
	}
	if b, _ := os.ReadFile(docPath); string(b) != old {
		t.Errorf("the interrupted campaign changed the document:\n%s", b)
	}
}

// TestCampaignJobsMustBeAWholeNumber: CAMPAIGN_JOBS=0 or a word is refused
// with exit 2 and a message naming it, before any target runs or the
// document changes.
func TestCampaignJobsMustBeAWholeNumber(t *testing.T) {
	for _, jobs := range []string{"0", "two", "-1", "1.5"} {
		goPath, countPath := fakeGo(t)
		doc, out, code := runCampaign(t, goPath, "CAMPAIGN_JOBS="+jobs)
		if want := "fuzz-campaign: CAMPAIGN_JOBS=" + jobs + ": want a whole number"; code != 2 || !strings.Contains(out, want) {
			t.Errorf("CAMPAIGN_JOBS=%s: exit %d, want 2 and %q; output:\n%s", jobs, code, want, out)
		}
		if !strings.Contains(doc, "| old | table |") {
			t.Errorf("CAMPAIGN_JOBS=%s changed the document:\n%s", jobs, doc)
		}
		if _, err := os.Stat(countPath); err == nil {
			t.Errorf("CAMPAIGN_JOBS=%s ran a target", jobs)
		}
	}
}

// runStress runs stress-test.sh with a stand-in make on PATH whose run
// number n (counted across both clones) exits with codes[n-1], 0 past the
// end, and returns the output and the exit code.
func runStress(t *testing.T, env []string, codes ...int) (string, int) {
	t.Helper()
	bin := t.TempDir()
	count := filepath.Join(bin, "count")
	script := "#!/usr/bin/env bash\nn=$(cat " + count + " 2>/dev/null || echo 0); n=$((n + 1)); echo $n >" + count + "\necho \"make $* (run $n)\"\ncase $n in\n"
	for i, c := range codes {
		script += fmt.Sprintf("%d) exit %d ;;\n", i+1, c)
	}
	script += "esac\nexit 0\n"
	if err := os.WriteFile(filepath.Join(bin, "make"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "scripts/stress-test.sh")
	cmd.Dir = ".."
	cmd.Env = append(append(os.Environ(), "PATH="+bin+":"+os.Getenv("PATH"), "TMPDIR="+t.TempDir()), env...)
	return combined(t, cmd)
}

// TestStressVerdict: the stress script passes when every make test passed,
// fails when one of the runs in a row failed or one beside them did, and
// refuses a number of runs that is not a whole number.
func TestStressVerdict(t *testing.T) {
	if out, code := runStress(t, nil); code != 0 || !strings.Contains(out, "stress-test: passed: 2 make test run(s) in a row") {
		t.Errorf("every make test passing: exit %d, output:\n%s", code, out)
	}
	// Some run fails (the runs in a row and beside share the count): the
	// script fails, whichever side it was on.
	if out, code := runStress(t, nil, 0, 2, 2, 2); code != 1 || !strings.Contains(out, "stress-test: FAILED") {
		t.Errorf("a failing make test: exit %d, want 1; output:\n%s", code, out)
	}
	if out, code := runStress(t, []string{"STRESS_RUNS=two"}); code != 2 || !strings.Contains(out, "STRESS_RUNS=two: want a whole number") {
		t.Errorf("STRESS_RUNS=two: exit %d, want 2; output:\n%s", code, out)
	}
}
