// Package hostileimpl holds protocol v1 implementations that attack the
// runner rather than merely get answers wrong: they flood it, lose step with
// the protocol, or leave processes behind that hold its pipes. A test binary
// calls MaybeRun early (from an init function or TestMain): when the
// environment variable Env names a mode, the binary becomes that
// implementation and exits.
//
// Every mode answers hello with the op "echo.echo" and echoes its first N
// echo requests (EnvN, default 5) correctly; the fault starts at the next
// one. Each process appends its pid to the file named by EnvPIDs, if any,
// so that a test can check that nothing is left running. With EnvHelper set,
// the process first starts a helper that inherits its stdout and stderr and
// sleeps for five minutes, and records the helper's pid too.
package hostileimpl

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/conform-suite/conform/internal/fakeimpl"
	"github.com/conform-suite/conform/protocol"
)

// Environment variables.
const (
	Env       = "CONFORM_HOSTILE_IMPL"
	EnvN      = "CONFORM_HOSTILE_N"
	EnvPIDs   = "CONFORM_HOSTILE_PIDS"
	EnvHelper = "CONFORM_HOSTILE_HELPER"
)

// Modes: what the process does with each echo request after the N-th.
const (
	Huge      = "huge"      // answers with a line of HugeSize bytes (the right id)
	Garbage   = "garbage"   // answers with a line that is not JSON
	Unmatched = "unmatched" // answers with an id that was never sent
	StringID  = "stringid"  // echoes an integer id as a JSON string
	Hang      = "hang"      // never answers, and never reads again
	Crash     = "crash"     // exits with status 3
	Wrong     = "wrong"     // writes a line to stderr, then a wrong output
	Sleeper   = "sleeper"   // (the helper) sleeps for five minutes, holding its stdout
)

// HugeSize is the length of a Huge answer line, in bytes.
const HugeSize = 100 << 20

// StderrLine is what Wrong writes to stderr before a wrong answer.
const StderrLine = "hostile: about to answer wrongly"

// MaybeRun runs the mode named by Env, if any, and exits.
func MaybeRun() {
	mode := os.Getenv(Env)
	if mode == "" {
		return
	}
	if mode == Sleeper {
		time.Sleep(5 * time.Minute) // long enough to outlive any test, short enough not to linger
		os.Exit(0)
	}
	recordPID(os.Getpid())
	if os.Getenv(EnvHelper) != "" {
		helper := exec.Command(os.Args[0])
		helper.Env = append(os.Environ(), Env+"="+Sleeper, EnvHelper+"=")
		helper.Stdout, helper.Stderr = os.Stdout, os.Stderr
		if err := helper.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "hostile: cannot start the helper:", err)
			os.Exit(1)
		}
		recordPID(helper.Process.Pid) // here: the helper may be killed before it runs
	}
	n := 5
	if s := os.Getenv(EnvN); s != "" {
		n, _ = strconv.Atoi(s)
	}
	os.Exit(run(mode, n, os.Stdin, os.Stdout, os.Stderr))
}

// recordPID appends pid to the EnvPIDs file.
func recordPID(pid int) {
	name := os.Getenv(EnvPIDs)
	if name == "" {
		return
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return
	}
	fmt.Fprintln(f, pid)
	f.Close()
}

func run(mode string, n int, in io.Reader, out, errOut io.Writer) int {
	w := bufio.NewWriter(out)
	defer w.Flush()
	count := 0
	return fakeimpl.Serve(bufio.NewReader(in), w, func(req protocol.Request) (int, bool) {
		id := string(req.ID)
		switch req.Op {
		case "hello":
			fmt.Fprintf(w, `{"id":%s,"output":{"protocol":1,"name":"hostile-%s","version":"0","language":"go","ops":["echo.echo"]}}`+"\n", id, mode)
		case "echo.echo":
			count++
			if count <= n {
				fmt.Fprintf(w, `{"id":%s,"output":%s}`+"\n", id, req.Input)
				break
			}
			switch mode {
			case Huge:
				fmt.Fprintf(w, `{"id":%s,"output":{"text":"`, id)
				chunk := strings.Repeat("a", 64<<10)
				for size := 0; size < HugeSize; size += len(chunk) {
					if _, err := w.WriteString(chunk); err != nil {
						return 1, true // the reader went away
					}
				}
				w.WriteString("\"}}\n")
			case Garbage:
				fmt.Fprintln(w, "garbage where an answer belongs")
			case Unmatched:
				fmt.Fprintf(w, `{"id":%d,"output":%s}`+"\n", 1<<40+count, req.Input)
			case StringID:
				fmt.Fprintf(w, `{"id":"%s","output":%s}`+"\n", id, req.Input)
			case Hang:
				w.Flush()
				time.Sleep(5 * time.Minute)
			case Crash:
				w.Flush()
				fmt.Fprintf(errOut, "hostile: exiting on echo request %d\n", count)
				return 3, true
			case Wrong:
				w.Flush()
				fmt.Fprintln(errOut, StderrLine)
				// Give the runner's stderr reader a head start on the
				// answer: stdout and stderr are separate pipes.
				time.Sleep(200 * time.Millisecond)
				fmt.Fprintf(w, `{"id":%s,"output":{"text":"wrong"}}`+"\n", id)
			default:
				fmt.Fprintf(errOut, "hostile: unknown mode %q\n", mode)
				return 2, true
			}
		default:
			fmt.Fprintf(w, `{"id":%s,"error":{"kind":"unsupported","message":"no such op"}}`+"\n", id)
		}
		return 0, false
	})
}
