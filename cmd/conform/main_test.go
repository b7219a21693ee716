package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// build builds the conform binary as 'go install' would, into a temporary
// directory.
func build(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "conform")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func runIn(t *testing.T, dir string, env []string, name string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	code := exitCode(t, cmd.Run())
	return code, out.String(), errb.String()
}

// exitCode is the exit code of a command that ran, from what Run or Wait
// returned; an error that is not an exit status fails the test.
func exitCode(t *testing.T, err error) int {
	t.Helper()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return 0
}

// The built binary needs no source tree: from an empty directory it prints
// its identity and runs the embedded vectors against the reference.
func TestBinaryFromAnyDirectory(t *testing.T) {
	bin := build(t)
	dir := t.TempDir()
	code, out, stderr := runIn(t, dir, nil, bin, "version", "--json")
	var id struct {
		Version      string `json:"version"`
		Protocol     int    `json:"protocol"`
		CorpusDigest string `json:"corpus_digest"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &id) != nil || !strings.HasPrefix(id.CorpusDigest, "sha256:") || id.Protocol != 1 {
		t.Fatalf("conform version --json = exit %d, %q, %s", code, out, stderr)
	}
	code, out, stderr = runIn(t, dir, nil, bin, "run", "--op", "quote.parse", "--json", "r.json")
	if code != 0 || !strings.HasSuffix(out, " passed, 0 failed\n") {
		t.Fatalf("conform run from %s = exit %d:\n%s\n%s", dir, code, out, stderr)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "r.json"))
	if !bytes.Contains(data, []byte(id.CorpusDigest)) {
		t.Errorf("the JSON report does not carry the corpus digest 'conform version' prints")
	}
	// Nothing meant for a terminal reaches a pipe or a file.
	if strings.Contains(out+stderr, "\x1b") || strings.Contains(out+stderr, "\r") {
		t.Errorf("control sequences in piped output: %q", out+stderr)
	}
}

// The action's run script, run as GitHub runs it: the reports land at the
// paths it outputs, the Markdown report in the job summary, and its exit
// code is conform's.
func TestActionRunScript(t *testing.T) {
	bin := build(t)
	script, _ := filepath.Abs("../../.github/action/run.sh")
	work := t.TempDir()
	summary := filepath.Join(work, "summary.md")
	output := filepath.Join(work, "output.txt")
	env := []string{"CONFORM=" + bin, "GITHUB_STEP_SUMMARY=" + summary, "GITHUB_OUTPUT=" + output,
		"INPUT_STDIO=" + bin + " serve --stdio", "INPUT_OP=quote.parse,marker.strip", "INPUT_SHARD=2/3",
		"INPUT_REQUIRE_OPS=true", "INPUT_REQUIRE_CODES=true", "INPUT_REPORT_DIR=out"}
	code, stdout, stderr := runIn(t, work, env, "bash", script)
	if code != 0 {
		t.Fatalf("run.sh = exit %d\n%s\n%s", code, stdout, stderr)
	}
	outputs := readOutputs(t, output)
	if outputs["exit-code"] != "0" || outputs["json"] != "out/conform-shard-2-of-3.json" {
		t.Errorf("outputs = %v", outputs)
	}
	sum, _ := os.ReadFile(summary)
	if !strings.HasPrefix(string(sum), "## conform: passed\n") || !strings.Contains(string(sum), "Run by conform ") {
		t.Errorf("summary:\n%s", sum)
	}
	var report struct {
		Transport string
		Results   []struct{ Op string }
	}
	data, err := os.ReadFile(filepath.Join(work, outputs["json"]))
	if err != nil || json.Unmarshal(data, &report) != nil || len(report.Results) == 0 || !strings.HasPrefix(report.Transport, "stdio: ") {
		t.Fatalf("JSON report at %s: %v", outputs["json"], err)
	}
	for _, r := range report.Results {
		if r.Op != "quote.parse" && r.Op != "marker.strip" {
			t.Errorf("the op selection was not passed on: a %s result", r.Op)
		}
	}
	junit, _ := os.ReadFile(filepath.Join(work, outputs["junit"]))
	if err := xml.Unmarshal(junit, new(struct{})); err != nil {
		t.Errorf("JUnit report: %v", err)
	}

	// Neither stdio nor http (an input set from an unset secret): the
	// script refuses to run rather than judge conform's own reference.
	empty := append(slices.Clone(env), "INPUT_STDIO=")
	code, stdout, _ = runIn(t, work, empty, "bash", script)
	if code != 2 || !strings.Contains(stdout, "::error title=conform::no implementation") {
		t.Errorf("without an implementation: exit %d, want 2 and an error annotation\n%s", code, stdout)
	}

	// A liar: an expectations file lists a vector that passes, so the run
	// fails (an xpass); the script exits 1 and still writes its outputs.
	ids, _ := exec.Command(bin, "list", "--ids", "--op", "quote.parse").Output()
	first, _, _ := strings.Cut(string(ids), "\n")
	os.WriteFile(filepath.Join(work, "expect.txt"), []byte(first+"  # claimed broken\n"), 0o644)
	os.Remove(summary)
	os.Remove(output)
	env = append(env, "INPUT_EXPECTATIONS=expect.txt", "INPUT_SHARD=")
	code, _, _ = runIn(t, work, env, "bash", script)
	outputs = readOutputs(t, output)
	sum, _ = os.ReadFile(summary)
	if code != 1 || outputs["exit-code"] != "1" || !strings.HasPrefix(string(sum), "## conform: failed\n") || !strings.Contains(string(sum), "xpass") {
		t.Errorf("with a wrong expectation: exit %d, outputs %v, summary:\n%s", code, outputs, sum)
	}
	// Its failure is an annotation on the step's output, with the replay.
	code, stdout, _ = runIn(t, work, env, "bash", script)
	want := "::error title=conform%3A " + first + "::xpass " + first
	if code != 1 || !strings.Contains(stdout, want) || !strings.Contains(stdout, "%0Areplay: conform run --expectations expect.txt --require-codes --stdio ") {
		t.Errorf("with a wrong expectation: no annotation %q in the step's output\n%s", want, stdout)
	}

	// features and a time-boxed fuzz beside the run: both reports, the
	// scenarios in the summary, the findings directory as an output.
	os.Remove(summary)
	os.Remove(output)
	env = append(env, "INPUT_EXPECTATIONS=", "INPUT_OP=quote.parse", "INPUT_FEATURES=true", "INPUT_FUZZ_TIME=1s")
	code, stdout, stderr = runIn(t, work, env, "bash", script)
	outputs = readOutputs(t, output)
	sum, _ = os.ReadFile(summary)
	if code != 0 || outputs["exit-code"] != "0" || outputs["features-junit"] != "out/features.xml" || outputs["findings"] != "out/findings" || outputs["findings-artifact"] != "conform-findings" {
		t.Fatalf("with features and fuzz: exit %d, outputs %v\n%s%s", code, outputs, stdout, stderr)
	}
	if !strings.Contains(string(sum), "### conform features") || !strings.Contains(string(sum), "### conform fuzz") {
		t.Errorf("the summary lacks the scenarios or the fuzzing:\n%s", sum)
	}
	if data, err := os.ReadFile(filepath.Join(work, outputs["features-junit"])); err != nil || xml.Unmarshal(data, new(struct{})) != nil || !bytes.Contains(data, []byte("<testcase")) {
		t.Errorf("the scenarios' JUnit report: %v", err)
	}
}

func readOutputs(t *testing.T, path string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		k, v, _ := strings.Cut(l, "=")
		out[k] = v
	}
	return out
}

// overlongServer answers every POST with a correct answer followed by bytes
// its Content-Length does not count: Go's HTTP transport then prints its
// own "Unsolicited response received on idle HTTP channel" line through
// the standard logger. It answers hello with quote.parse and every other
// request with error kind internal.
func overlongServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				br := bufio.NewReader(c)
				for {
					req, err := http.ReadRequest(br)
					if err != nil {
						return
					}
					var in struct {
						ID json.RawMessage `json:"id"`
						Op string          `json:"op"`
					}
					json.NewDecoder(req.Body).Decode(&in)
					answer := `{"id":` + string(in.ID) + `,"error":{"kind":"internal","message":"no"}}`
					if in.Op == "hello" {
						answer = `{"id":` + string(in.ID) + `,"output":{"protocol":1,"name":"overlong","version":"0","language":"go","ops":["quote.parse"]}}`
					}
					fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%sHTTP/1.1 200 OK\r\n\r\n", len(answer), answer)
				}
			}()
		}
	}()
	return "http://" + ln.Addr().String() + "/"
}

// What a library prints to the standard logger reaches stderr as
// conform's own warning lines, never in a format of its own.
func TestLibraryLogInConformsFormat(t *testing.T) {
	bin := build(t)
	url := overlongServer(t)
	_, _, stderr := runIn(t, t.TempDir(), nil, bin, "run", "--http", url, "--op", "quote.parse", "--batch", "1", "--parallel", "1")
	if !strings.Contains(stderr, "conform: warning: Unsolicited response received on idle HTTP channel") {
		t.Errorf("stderr lacks the transport's line as a warning:\n%s", stderr)
	}
	for _, l := range strings.Split(strings.TrimRight(stderr, "\n"), "\n") {
		if !strings.HasPrefix(l, "conform: ") {
			t.Errorf("a line of stderr not in conform's format: %q", l)
		}
	}
}

// The action's install script, outside GitHub: from a directory laid out as
// a release it installs the binary of a release tag, checked against
// checksums.txt and checksums.txt against its signature (a tampered archive
// is refused, with or without checksums to match it, and so is a release
// without a signature; a missing one sends the action to build); for a
// commit it builds conform with the commit stamped in, and a second run
// finds the build in place (as the cache restores it), unless the binary is
// not the one whose digest the build recorded.
func TestActionInstallScript(t *testing.T) {
	script, _ := filepath.Abs("../../.github/action/install.sh")
	root, _ := filepath.Abs("../..")
	work := t.TempDir()

	// A release v1.2.3 of a binary stamped as the release workflow stamps it.
	const sha = "0123456789abcdef0123456789abcdef01234567"
	stage := filepath.Join(work, "stage")
	os.MkdirAll(stage, 0o755)
	ldflags := "-X github.com/conform-suite/conform/runner.StampedVersion=1.2.3 -X github.com/conform-suite/conform/runner.StampedRevision=" + sha
	if out, err := exec.Command("go", "build", "-ldflags", ldflags, "-o", filepath.Join(stage, "conform"), ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	releases := filepath.Join(work, "releases")
	os.MkdirAll(filepath.Join(releases, "v1.2.3"), 0o755)
	archive := filepath.Join(releases, "v1.2.3", "conform_1.2.3_linux_amd64.tar.gz")
	if out, err := exec.Command("tar", "-czf", archive, "-C", stage, "conform").CombinedOutput(); err != nil {
		t.Fatalf("tar: %v\n%s", err, out)
	}
	sum, err := exec.Command("sha256sum", archive).Output()
	if err != nil {
		t.Fatal(err)
	}
	checksums := filepath.Join(releases, "v1.2.3", "checksums.txt")
	os.WriteFile(checksums, []byte(strings.Fields(string(sum))[0]+"  conform_1.2.3_linux_amd64.tar.gz\n"), 0o644)

	// checksums.txt signed as the release workflow signs it, with a local
	// key in place of the workflow's keyless identity (no Sigstore here)
	cosign := cosignBinary(t)
	keys := t.TempDir()
	cosignIn := func(args ...string) {
		t.Helper()
		cmd := exec.Command(cosign, args...)
		cmd.Dir = keys
		cmd.Env = append(os.Environ(), "COSIGN_PASSWORD=")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("cosign %v: %v\n%s", args, err, out)
		}
	}
	cosignIn("generate-key-pair")
	sign := func() {
		cosignIn("sign-blob", "--key", "cosign.key", "--tlog-upload=false", "--yes", "--bundle", checksums+".sigstore.json", checksums)
	}
	sign()

	install := func(ref, step string) (code int, outputs map[string]string, stdout, stderr, binDir string) {
		t.Helper()
		binDir = filepath.Join(t.TempDir(), "bin")
		output, path := filepath.Join(work, "output-"+step), filepath.Join(work, "path-"+step)
		os.Remove(output)
		os.WriteFile(output, nil, 0o644)
		env := []string{"ACTION_PATH=" + root, "ACTION_REF=" + ref, "ACTION_REPO=conform-suite/conform", "RUNNER_OS=Linux", "RUNNER_ARCH=X64",
			"BIN_DIR=" + binDir, "RELEASE_URL=file://" + releases, "GITHUB_OUTPUT=" + output, "GITHUB_PATH=" + path,
			"RELEASE_KEY=" + filepath.Join(keys, "cosign.pub"), "PATH=" + filepath.Dir(cosign) + string(os.PathListSeparator) + os.Getenv("PATH")}
		code, stdout, stderr = runIn(t, work, env, "bash", script, step)
		return code, readOutputs(t, output), stdout, stderr, binDir
	}

	code, outputs, stdout, stderr, binDir := install("v1.2.3", "release")
	if code != 0 || outputs["source"] != "release" || outputs["sha256"] != sha256Hex(t, filepath.Join(stage, "conform")) || !strings.Contains(stdout, "conform 1.2.3\n") || !strings.Contains(stdout, "revision: "+sha) {
		t.Fatalf("install.sh release v1.2.3 = exit %d, outputs %v\n%s%s", code, outputs, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(binDir, "conform")); err != nil {
		t.Errorf("no binary in %s: %v", binDir, err)
	}

	// A liar: checksums.txt lists another digest (and is signed); nothing
	// is installed.
	good, _ := os.ReadFile(checksums)
	os.WriteFile(checksums, []byte(strings.Repeat("0", 64)+"  conform_1.2.3_linux_amd64.tar.gz\n"), 0o644)
	sign()
	code, _, _, stderr, binDir = install("v1.2.3", "release")
	if _, err := os.Stat(filepath.Join(binDir, "conform")); code != 1 || err == nil || !strings.Contains(stderr, "does not match checksums.txt") {
		t.Errorf("install.sh release with a wrong checksum = exit %d (binary installed: %v), want 1 and nothing installed\n%s", code, err == nil, stderr)
	}
	// A tampered release: another archive, and a checksums.txt that lists
	// it, not signed again; nothing is installed.
	os.WriteFile(checksums, good, 0o644)
	sign()
	genuine, _ := os.ReadFile(archive)
	os.WriteFile(filepath.Join(stage, "conform"), []byte("#!/bin/sh\necho '1955 passed, 0 failed'\n"), 0o755)
	if out, err := exec.Command("tar", "-czf", archive, "-C", stage, "conform").CombinedOutput(); err != nil {
		t.Fatalf("tar: %v\n%s", err, out)
	}
	os.WriteFile(checksums, []byte(sha256Hex(t, archive)+"  conform_1.2.3_linux_amd64.tar.gz\n"), 0o644)
	code, _, _, stderr, binDir = install("v1.2.3", "release")
	if _, err := os.Stat(filepath.Join(binDir, "conform")); code != 1 || err == nil || !strings.Contains(stderr, "is not signed by") {
		t.Errorf("install.sh release of a tampered archive with matching checksums = exit %d (binary installed: %v), want 1 and nothing installed\n%s", code, err == nil, stderr)
	}
	// No signature at all: nothing is installed either.
	os.WriteFile(archive, genuine, 0o644)
	os.WriteFile(checksums, good, 0o644)
	os.Remove(checksums + ".sigstore.json")
	code, _, _, stderr, binDir = install("v1.2.3", "release")
	if _, err := os.Stat(filepath.Join(binDir, "conform")); code != 1 || err == nil || !strings.Contains(stderr, "has no signature") {
		t.Errorf("install.sh release without a signature = exit %d (binary installed: %v), want 1 and nothing installed\n%s", code, err == nil, stderr)
	}
	// No release for the tag, or a ref that is no tag: build instead.
	for _, ref := range []string{"v9.9.9", "main", sha} {
		if code, _, _, stderr, _ := install(ref, "release"); code != 3 {
			t.Errorf("install.sh release %s = exit %d, want 3 (build instead)\n%s", ref, code, stderr)
		}
	}

	if _, outputs, _, _, _ := install(sha, "key"); outputs["key"] != sha {
		t.Errorf("the cache key of a commit = %q, want the commit", outputs["key"])
	}
	if _, outputs, _, _, _ := install("main", "key"); !strings.HasPrefix(outputs["key"], "src-") || len(outputs["key"]) != len("src-")+64 {
		t.Errorf("the cache key of a branch = %q, want a digest of the source", outputs["key"])
	}
	code, outputs, stdout, stderr, binDir = install(sha, "build")
	if code != 0 || outputs["source"] != "build" || !strings.Contains(stdout, "conform action@0123456789ab\n") || !strings.Contains(stdout, "revision: "+sha) {
		t.Fatalf("install.sh build at a commit = exit %d, outputs %v\n%s%s", code, outputs, stdout, stderr)
	}
	if built := sha256Hex(t, filepath.Join(binDir, "conform")); outputs["sha256"] != built {
		t.Errorf("install.sh build outputs sha256=%q, the binary's is %s", outputs["sha256"], built)
	}
	// The cache restored the binary: it is used as it is.
	cmd := exec.Command("bash", script, "build")
	cmd.Env = append(os.Environ(), "ACTION_PATH=/nonexistent", "ACTION_REF="+sha, "BIN_DIR="+binDir)
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "restored from the cache") {
		t.Errorf("install.sh build with the binary in place: %v\n%s", err, out)
	}
	// A liar: the restored binary is not the one built (its digest file
	// says otherwise): it is built again.
	os.WriteFile(filepath.Join(binDir, "conform"), []byte("#!/bin/sh\necho 'conform action@0123456789ab'\n"), 0o755)
	cmd = exec.Command("bash", script, "build")
	cmd.Env = append(os.Environ(), "ACTION_PATH="+root, "ACTION_REF="+sha, "BIN_DIR="+binDir)
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "does not match the digest recorded") || !strings.Contains(string(out), "revision: "+sha) {
		t.Errorf("install.sh build with a restored binary that is not the one built: %v\n%s", err, out)
	}
}

// cosignBinary is cosign as tools/cosign/go.mod pins it, built into the
// cache by scripts/cosign.sh.
func cosignBinary(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("../../scripts/cosign.sh").Output()
	if err != nil {
		t.Fatalf("scripts/cosign.sh: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// sha256Hex is the SHA-256 of a file, in hex.
func sha256Hex(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// The example workflow pins conform to one commit everywhere (the action
// and the go install), and gives the action only inputs that action.yml
// declares.
func TestExampleWorkflowPinned(t *testing.T) {
	example, err := os.ReadFile("../../examples/workflows/conform.yml")
	if err != nil {
		t.Fatal(err)
	}
	action, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	pins := regexp.MustCompile(`conform-suite/conform(?:/cmd/conform)?@(\S+)`).FindAllStringSubmatch(string(example), -1)
	if len(pins) < 2 {
		t.Fatalf("the example names conform %d times, want the action and the go install", len(pins))
	}
	for _, p := range pins {
		if !regexp.MustCompile(`^[0-9a-f]{40}$`).MatchString(p[1]) || p[1] != pins[0][1] {
			t.Errorf("conform pinned at %q, want one full commit SHA everywhere (first: %s)", p[1], pins[0][1])
		}
	}
	declared := map[string]bool{}
	inInputs := false
	for _, l := range strings.Split(string(action), "\n") {
		switch {
		case l == "inputs:":
			inInputs = true
		case inInputs && regexp.MustCompile(`^\S`).MatchString(l):
			inInputs = false
		case inInputs && regexp.MustCompile(`^  [a-z-]+:$`).MatchString(l):
			declared[strings.TrimSuffix(strings.TrimSpace(l), ":")] = true
		}
	}
	_, step, _ := strings.Cut(string(example), "uses: conform-suite/conform@")
	_, with, _ := strings.Cut(step, "with:\n")
	n := 0
	for _, l := range strings.Split(with, "\n") {
		if !strings.HasPrefix(l, "          ") {
			break
		}
		if m := regexp.MustCompile(`^          ([a-z-]+):`).FindStringSubmatch(l); m != nil {
			n++
			if !declared[m[1]] {
				t.Errorf("the example passes %q, which action.yml does not declare (it declares %v)", m[1], declared)
			}
		}
	}
	if n == 0 || len(declared) == 0 {
		t.Errorf("read %d inputs of the example and %d of action.yml", n, len(declared))
	}
}
