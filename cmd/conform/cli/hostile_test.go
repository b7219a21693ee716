//go:build unix

package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/conform-suite/conform/internal/await"
	"github.com/conform-suite/conform/internal/hostileimpl"
)

// The hostile battery through the command line: 'conform run' against
// implementations that attack it ends by itself, with flags at their
// defaults, and leaves nothing running.

func init() { hostileimpl.MaybeRun() }

// hostileDir writes n echo.echo vectors to a directory.
func hostileDir(t *testing.T, n int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(`{"op":"echo.echo","description":"Echo: the output is the input.","vectors":[`)
	for i := 1; i <= n; i++ {
		if i > 1 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id":"echo.echo/v%d","description":"echo %d","requirements":["PROTO-FRAME-001"],"tags":["hostile"],"input":{"text":"v%d"},"expect":{"output":{"text":"v%d"}}}`, i, i, i, i)
	}
	b.WriteString("]}")
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "echo"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "echo", "echo.json"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// hostileSelf sets the environment for the test binary to be a hostile
// implementation in mode, and returns the file where its processes record
// their pids.
func hostileSelf(t *testing.T, mode string, n int) string {
	pids := filepath.Join(t.TempDir(), "pids")
	t.Setenv(hostileimpl.Env, mode)
	t.Setenv(hostileimpl.EnvN, strconv.Itoa(n))
	t.Setenv(hostileimpl.EnvPIDs, pids)
	t.Cleanup(func() {
		for _, pid := range recordedPIDs(pids) {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	return pids
}

func recordedPIDs(name string) []int {
	data, _ := os.ReadFile(name)
	var pids []int
	for _, f := range strings.Fields(string(data)) {
		if pid, err := strconv.Atoi(f); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// conformWithin runs the command line, failing the test if it has not
// ended by the test's deadline (go test -timeout, less a margin): a hostile
// implementation must not make the run hang. It reports the peak heap in
// use meanwhile, sampled.
func conformWithin(t *testing.T, args ...string) (code int, stdout, stderr string, peak uint64) {
	t.Helper()
	var base runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&base)
	done := make(chan struct{})
	go func() {
		defer close(done)
		code, stdout, stderr = conform(t, "", args...)
	}()
	limit := await.Context(t).Done()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-done:
			return code, stdout, stderr, peak
		case <-tick.C:
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			if m.HeapInuse > base.HeapInuse {
				peak = max(peak, m.HeapInuse-base.HeapInuse)
			}
		case <-limit:
			t.Fatalf("conform %q had not ended by the test's deadline", args)
		}
	}
}

var closingLine = regexp.MustCompile(`^(\d+) passed, (\d+) failed$`)

// TestRunHostileHugeLines: a child that answers every request after the
// fifth with a 100 MB line, at the default --max-line, --restarts and
// --parallel: the run ends by itself, with protocol outcomes and then
// crashes once the restart budget is spent, in bounded memory.
func TestRunHostileHugeLines(t *testing.T) {
	dir := hostileDir(t, 220)
	pids := hostileSelf(t, hostileimpl.Huge, 5)
	code, stdout, stderr, peak := conformWithin(t, "run", "--vectors", dir, "--stdio", quoteArg(os.Args[0]))
	m := closingLine.FindStringSubmatch(lastLine(stdout))
	if code != ExitFailed || m == nil {
		t.Fatalf("conform run = exit %d, last line %q; want exit %d and a closing line\nstderr:\n%s", code, lastLine(stdout), ExitFailed, stderr)
	}
	passed, _ := strconv.Atoi(m[1])
	// 11 children (the first and 10 restarts), 5 answers each.
	if passed > 55 || !strings.Contains(stdout, "PROTOCOL    echo.echo/") || !strings.Contains(stdout, "longer than the limit of 16777216 bytes") || !strings.Contains(stdout, "restart budget (10) is spent") {
		t.Errorf("conform run: %d passed; want at most 55, protocol outcomes naming the line limit, and crashes naming the restart budget:\n%s", passed, tail(stdout, 3000))
	}
	if peak > 256<<20 {
		t.Errorf("the heap in use grew by %d MB during the run", peak>>20)
	}
	ctx := await.Context(t)
	for _, pid := range recordedPIDs(pids) {
		if err := await.Gone(ctx, pid); err != nil {
			t.Errorf("child %d is still running after the run: %v", pid, err)
		}
	}
}

// TestRunHostileWrapper: an adapter started through a shell script that
// leaves a background job holding stdout, and that hangs on every request
// after the third: every hang is a timeout, the run ends, and neither the
// adapter nor the job is left running.
func TestRunHostileWrapper(t *testing.T) {
	dir := hostileDir(t, 10)
	pids := hostileSelf(t, hostileimpl.Hang, 3)
	script := filepath.Join(t.TempDir(), "adapter.sh")
	body := "#!/bin/sh\nsleep 300 &\necho $! >> \"$" + hostileimpl.EnvPIDs + "\"\ncd / && \"$@\"\necho adapter: done >&2\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr, _ := conformWithin(t, "run", "--vectors", dir, "--parallel", "1", "--timeout", "1s", "--stdio", quoteArg(script)+" "+quoteArg(os.Args[0]))
	if code != ExitFailed || lastLine(stdout) != "8 passed, 2 failed" || strings.Count(stdout, "TIMEOUT     echo.echo/") != 2 {
		t.Errorf("conform run = exit %d; want exit %d, 8 passed, 2 timeouts\nstdout:\n%s\nstderr:\n%s", code, ExitFailed, stdout, stderr)
	}
	got := recordedPIDs(pids)
	if len(got) < 6 { // three children, each an adapter and a background job
		t.Errorf("%d processes recorded their pid, want 6", len(got))
	}
	ctx := await.Context(t)
	for _, pid := range got {
		if err := await.Gone(ctx, pid); err != nil {
			t.Errorf("process %d is still running after the run: %v", pid, err)
		}
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}
