//go:build unix

package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/conform-suite/conform/internal/await"
	"github.com/conform-suite/conform/internal/hostileimpl"
	"github.com/conform-suite/conform/vectors"
)

// The hostile battery: implementations that attack the runner. Each run
// must end by itself (a generous ceiling, never a race), with the outcomes
// that the restart budget and the per-request deadline dictate, and leave
// no process behind.

func init() { hostileimpl.MaybeRun() }

// ceiling is the bound on each hostile run: far above what a correct runner
// needs on a loaded machine, far below the hangs it guards against.
const ceiling = 120 * time.Second

// echoVectors returns n echo.echo vectors, v1 to vn.
func echoVectors(t *testing.T, n int) []*vectors.Vector {
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
	c, err := vectors.Load(fstest.MapFS{"echo/echo.json": {Data: []byte(b.String())}})
	if err != nil {
		t.Fatal(err)
	}
	return c.Vectors()
}

// hostileEnv is the environment of a hostile implementation in mode that
// behaves for n echo requests, recording its pids in a file of t's.
func hostileEnv(t *testing.T, mode string, n int, helper bool) (env []string, pidFile string) {
	pidFile = filepath.Join(t.TempDir(), "pids")
	env = append(os.Environ(), hostileimpl.Env+"="+mode, hostileimpl.EnvN+"="+strconv.Itoa(n), hostileimpl.EnvPIDs+"="+pidFile)
	if helper {
		env = append(env, hostileimpl.EnvHelper+"=1")
	}
	t.Cleanup(func() { // never leave anything behind, even when a test fails
		for _, pid := range readPIDs(t, pidFile) {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	return env, pidFile
}

func readPIDs(t *testing.T, name string) []int {
	data, err := os.ReadFile(name)
	if err != nil && !os.IsNotExist(err) {
		t.Error(err)
	}
	var pids []int
	for _, f := range strings.Fields(string(data)) {
		if pid, err := strconv.Atoi(f); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// checkGone checks that every pid recorded in pidFile (at least want of
// them) ends, waiting for each to exit: the kills are sent, and the kernel
// delivers them when it gets to it.
func checkGone(t *testing.T, pidFile string, want int) {
	t.Helper()
	pids := readPIDs(t, pidFile)
	if len(pids) < want {
		t.Errorf("%d processes recorded their pid, want at least %d", len(pids), want)
	}
	ctx := await.Context(t)
	for _, pid := range pids {
		if err := await.Gone(ctx, pid); err != nil {
			t.Errorf("process %d is still running after the transport was closed: %v", pid, err)
		}
	}
}

// within runs f and fails the test if it has not returned within ceiling.
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(ceiling):
		t.Fatalf("%s did not end within %v", what, ceiling)
	}
}

// cycle is the expected outcomes of total vectors run one at a time against
// children that each answer n requests and then commit fault, with a budget
// of restarts: n passes and a fault per child, until the budget is spent,
// then crash. With total below what the children can take, it just cycles.
func cycle(total, n int, fault Outcome, restarts int) []Outcome {
	var want []Outcome
	for child := 0; child <= restarts; child++ {
		for range n {
			want = append(want, Pass)
		}
		want = append(want, fault)
	}
	for len(want) < total {
		want = append(want, Crash)
	}
	return want[:total]
}

// runAgainst connects to impl, runs vs one at a time and closes impl, all
// within the ceiling.
func runAgainst(t *testing.T, impl Implementation, timeout time.Duration, parallel int, vs []*vectors.Vector) []Result {
	t.Helper()
	var results []Result
	within(t, "the run", func() {
		defer impl.Close()
		ctx := context.Background()
		hello, err := Connect(ctx, impl)
		if err != nil {
			t.Errorf("Connect() = %v", err)
			return
		}
		r := &Runner{Impl: impl, Hello: hello, Timeout: timeout, Parallel: parallel}
		results = r.Run(ctx, vs)
	})
	return results
}

func checkCycle(t *testing.T, results []Result, want []Outcome, detail string) {
	t.Helper()
	if len(results) != len(want) {
		t.Fatalf("%d results, want %d", len(results), len(want))
	}
	for i, res := range results {
		if res.Outcome != want[i] {
			t.Errorf("%s: outcome %s (%s), want %s", res.Vector.ID, res.Outcome, res.Detail, want[i])
			continue
		}
		if res.Outcome != Pass && res.Outcome != Crash && !strings.Contains(res.Detail, detail) {
			t.Errorf("%s: detail %q, want it to contain %q", res.Vector.ID, res.Detail, detail)
		}
	}
}

// TestHostileDesync: a child that loses step with the protocol on every
// request after the fifth is killed and restarted each time, the request in
// flight is a protocol outcome, and once the restart budget is spent the
// rest are crashes: the run ends by itself.
func TestHostileDesync(t *testing.T) {
	tests := []struct {
		mode, detail string
	}{
		{hostileimpl.Huge, "longer than the limit"},
		{hostileimpl.Garbage, "not an answer"},
		{hostileimpl.Unmatched, "matches no request in flight"},
		{hostileimpl.StringID, "(a string, where the request's id was the integer"},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			env, pids := hostileEnv(t, tt.mode, 5, false)
			s := &Stdio{Command: []string{os.Args[0]}, Env: env, Restarts: 2}
			vs := echoVectors(t, 40)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			results := runAgainst(t, s, time.Minute, 1, vs)
			runtime.ReadMemStats(&after)
			checkCycle(t, results, cycle(len(vs), 5, ProtocolErr, 2), tt.detail)
			// Three children each wrote (or began to write) a 100 MB line:
			// the runner reads no more of one than the cap (16 MiB).
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 256<<20 {
				t.Errorf("the run allocated %d MB", alloc>>20)
			}
			checkGone(t, pids, 3)
		})
	}
}

// TestHostileDesyncParallel: with requests pipelined, every request in
// flight when the child loses step fails, and the run still ends by itself.
func TestHostileDesyncParallel(t *testing.T) {
	for _, mode := range []string{hostileimpl.Huge, hostileimpl.Garbage, hostileimpl.Unmatched} {
		t.Run(mode, func(t *testing.T) {
			env, pids := hostileEnv(t, mode, 5, false)
			s := &Stdio{Command: []string{os.Args[0]}, Env: env, Restarts: DefaultRestarts}
			results := runAgainst(t, s, time.Minute, 8, echoVectors(t, 200))
			count := map[Outcome]int{}
			for _, res := range results {
				count[res.Outcome]++
			}
			// Every child answers at most 5 requests and has at most 8 in
			// flight when it loses step, and DefaultRestarts+1 children
			// cannot take 200 requests: the budget runs out.
			if count[Pass] > 5*(DefaultRestarts+1) || count[ProtocolErr] == 0 || count[Crash] == 0 || count[Pass]+count[ProtocolErr]+count[Crash] != len(results) {
				t.Errorf("outcomes %v, want at most %d passes, some protocol, and crashes for the rest", count, 5*(DefaultRestarts+1))
			}
			if n := len(readPIDs(t, pids)); n != DefaultRestarts+1 {
				t.Errorf("%d children started, want %d (the first and every restart of the budget)", n, DefaultRestarts+1)
			}
			checkGone(t, pids, 1)
		})
	}
}

// TestHostileProcessTrees: a stdio child that leaves a process holding its
// stdout (a shell wrapper's background job, a helper it starts itself, a
// shell that runs it as a grandchild) is killed whole on a timeout or a
// crash, so the run goes on, and nothing is left running after Close.
func TestHostileProcessTrees(t *testing.T) {
	tests := []struct {
		name    string
		mode    string
		helper  bool
		wrap    func(bin, dir string) []string
		timeout time.Duration
		fault   Outcome
		detail  string
		pids    int // recorded at least
	}{
		{
			name: "background job of a shell wrapper", mode: hostileimpl.Hang,
			wrap: func(bin, dir string) []string {
				return []string{"sh", "-c", `sleep 300 & echo $! >> "$` + hostileimpl.EnvPIDs + `"; exec "$0"`, bin}
			},
			timeout: time.Second, fault: Timeout, detail: "no answer within", pids: 6,
		},
		{
			name: "grandchild of a cd wrapper", mode: hostileimpl.Hang,
			wrap: func(bin, dir string) []string {
				return []string{"sh", "-c", `cd "$1" && "$0"; echo wrapper: done >&2`, bin, dir}
			},
			timeout: time.Second, fault: Timeout, detail: "no answer within", pids: 3,
		},
		{
			name: "helper holding stdout, child crashes", mode: hostileimpl.Crash, helper: true,
			timeout: time.Minute, fault: Crash, pids: 6,
		},
		{
			name: "helper holding stdout, child hangs", mode: hostileimpl.Hang, helper: true,
			timeout: time.Second, fault: Timeout, detail: "no answer within", pids: 6,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env, pids := hostileEnv(t, tt.mode, 3, tt.helper)
			argv := []string{os.Args[0]}
			if tt.wrap != nil {
				argv = tt.wrap(os.Args[0], t.TempDir())
			}
			s := &Stdio{Command: argv, Env: env, Restarts: DefaultRestarts}
			vs := echoVectors(t, 10)
			results := runAgainst(t, s, tt.timeout, 1, vs)
			checkCycle(t, results, cycle(len(vs), 3, tt.fault, DefaultRestarts), tt.detail)
			checkGone(t, pids, tt.pids)
		})
	}
}

// TestHostileCloseWithHelper: a well-behaved child whose helper holds its
// stdout: Close ends it, and the helper, at once.
func TestHostileCloseWithHelper(t *testing.T) {
	env, pids := hostileEnv(t, hostileimpl.Hang, 1000, true)
	s := &Stdio{Command: []string{os.Args[0]}, Env: env}
	vs := echoVectors(t, 5)
	checkCycle(t, runAgainst(t, s, time.Minute, 4, vs), cycle(len(vs), 1000, Timeout, 0), "")
	checkGone(t, pids, 2)
}

// TestHostileSpawn: --spawn children get the same treatment: a wrapper's
// background job, a helper, a crash with the helper holding stdout and an
// endless line end with the request, and leave nothing behind.
func TestHostileSpawn(t *testing.T) {
	wrapper := func(bin string) []string {
		return []string{"sh", "-c", `sleep 300 & echo $! >> "$` + hostileimpl.EnvPIDs + `"; exec "$0"`, bin}
	}
	tests := []struct {
		name   string
		mode   string
		n      int
		helper bool
		argv   []string
		want   Outcome
		detail string
	}{
		{"background job of a shell wrapper", hostileimpl.Hang, 1000, false, wrapper(os.Args[0]), Pass, ""},
		{"helper holding stdout", hostileimpl.Hang, 1000, true, []string{os.Args[0]}, Pass, ""},
		{"helper holding stdout, child crashes", hostileimpl.Crash, 0, true, []string{os.Args[0]}, Crash, "ended without answering"},
		{"huge line", hostileimpl.Huge, 0, false, []string{os.Args[0]}, ProtocolErr, "longer than the limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env, pids := hostileEnv(t, tt.mode, tt.n, tt.helper)
			s := &Spawn{Command: tt.argv, Env: env}
			vs := echoVectors(t, 4)
			want := make([]Outcome, len(vs))
			for i := range want {
				want[i] = tt.want
			}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			results := runAgainst(t, s, time.Minute, 2, vs)
			runtime.ReadMemStats(&after)
			checkCycle(t, results, want, tt.detail)
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 256<<20 {
				t.Errorf("the run allocated %d MB", alloc>>20)
			}
			checkGone(t, pids, len(vs)+1) // one process per vector and hello
		})
	}
}

// TestStderrTailOnFail: a wrong answer's result carries the tail of the
// implementation's stderr, and the text report shows it (docs/runner.md).
func TestStderrTailOnFail(t *testing.T) {
	for _, transport := range []string{"stdio", "spawn"} {
		t.Run(transport, func(t *testing.T) {
			n := 2
			if transport == "spawn" {
				n = 0 // a process per request: each would answer its first echo right
			}
			env, _ := hostileEnv(t, hostileimpl.Wrong, n, false)
			var impl Implementation = &Stdio{Command: []string{os.Args[0]}, Env: env}
			if transport == "spawn" {
				impl = &Spawn{Command: []string{os.Args[0]}, Env: env}
			}
			vs := echoVectors(t, 4)
			results := runAgainst(t, impl, time.Minute, 1, vs)
			for i, res := range results {
				want := Fail
				if i < n {
					want = Pass
				}
				if res.Outcome != want {
					t.Errorf("%s: outcome %s (%s), want %s", res.Vector.ID, res.Outcome, res.Detail, want)
				}
				if want == Fail && !strings.Contains(res.Stderr, hostileimpl.StderrLine) {
					t.Errorf("%s: stderr %q, want it to contain %q", res.Vector.ID, res.Stderr, hostileimpl.StderrLine)
				}
			}
		})
	}
}
