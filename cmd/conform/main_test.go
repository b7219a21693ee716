package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
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
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String(), errb.String()
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
