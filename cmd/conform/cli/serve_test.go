package cli

import (
	"bufio"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestServeHTTP starts 'conform serve --http :0' as a child process, runs
// the vectors against it, and checks that a body that is not JSON is a
// bad request.
func TestServeHTTP(t *testing.T) {
	cmd := exec.Command(os.Args[0], "serve", "--http", ":0")
	cmd.Env = append(os.Environ(), mainEnv+"=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
	}()
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if _, url, ok := strings.Cut(sc.Text(), "serving the reference at "); ok {
				addr <- url
			}
		}
		close(addr)
	}()
	url, ok := <-addr
	if !ok {
		t.Fatal("conform serve --http ended without printing its address")
	}
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Errorf("serve --http :0 listens at %s, want the loopback interface", url)
	}
	code, stdout, stderrText := conform(t, "", "run", "--vectors", echoDir(t), "--http", url)
	if code != ExitFailed || lastLine(stdout) != "0 passed, 0 failed, 9 skipped" || !strings.Contains(stderrText, "nothing was judged") {
		t.Errorf("run of echo vectors against serve --http = exit %d\n%s%s", code, stdout, stderrText)
	}
	code, stdout, stderrText = conform(t, "", "run", "--op", "selref.replay", "--http", url, "--require-ops")
	if code != ExitOK || !strings.HasSuffix(lastLine(stdout), " passed, 0 failed") {
		t.Errorf("run against serve --http = exit %d\n%s%s", code, stdout, stderrText)
	}
	resp, err := http.Post(url, "application/json", strings.NewReader(`{"id":1,`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), `"kind":"bad_request"`) {
		t.Errorf("POST of a body that is not JSON = %d %s, want 400 and a bad_request error", resp.StatusCode, body)
	}
}

// TestRunHTTPStatus500 checks the exit code of a run whose every answer is
// an HTTP 500 after the handshake.
func TestRunHTTPStatus500(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if strings.Contains(string(body), `"op":"hello"`) {
			w.Write([]byte(`{"id":0,"output":{"protocol":1,"name":"flaky","version":"1","language":"go","ops":["echo.echo"]}}`))
			return
		}
		http.Error(w, "upstream timeout", http.StatusInternalServerError)
	}))
	defer srv.Close()
	code, stdout, _ := conform(t, "", "run", "--vectors", echoDir(t), "--http", srv.URL, "--batch", "1")
	if code != ExitFailed || lastLine(stdout) != "0 passed, 9 failed" || !strings.Contains(stdout, "HTTP 500 Internal Server Error") {
		t.Errorf("run against HTTP 500 = exit %d:\n%s", code, stdout)
	}
}
