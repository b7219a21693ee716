// Package await lets tests wait for the events they are about (a process
// gone, a named pipe written, a line printed) instead of sleeping or polling
// against the clock. It is imported by tests only.
//
// A wait ends when its event happens. When the event never comes, it ends
// with the test's own deadline (go test -timeout), less a margin so that the
// test can say what it was waiting for: a loaded machine makes a test slower,
// never wrong.
package await

import (
	"bufio"
	"context"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// margin is what Context keeps of the test's deadline for the test to
// report what it was waiting for.
const margin = 15 * time.Second

// Deadline is the time Context is cancelled at: shortly before t's
// deadline, or the zero time (no deadline) when t has none. It suits
// net.Conn.SetDeadline.
func Deadline(t testing.TB) time.Time {
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if deadline, has := d.Deadline(); has {
			return deadline.Add(-margin)
		}
	}
	return time.Time{}
}

// Context is cancelled when t ends, or shortly before its deadline
// (go test -timeout) so that a wait that never ends fails with its own
// message rather than with the test binary's timeout panic.
func Context(t testing.TB) context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	if deadline := Deadline(t); !deadline.IsZero() {
		ctx, cancel = context.WithDeadline(context.Background(), deadline)
	}
	t.Cleanup(cancel)
	return ctx
}

// Exit waits for cmd, which has been started, in the background: waited
// receives what cmd.Wait returns, and ended is closed once it has returned
// (the process has ended), for waits that must stop when it does.
func Exit(cmd *exec.Cmd) (waited <-chan error, ended <-chan struct{}) {
	w, e := make(chan error, 1), make(chan struct{})
	go func() {
		w <- cmd.Wait()
		close(e)
	}()
	return w, e
}

// Line reads r until a line holding want has been read, and returns what it
// read, whether it found the line, and a reader of what follows. It returns
// at the line, or at the end of r.
func Line(r io.Reader, want string) (read string, found bool, rest io.Reader) {
	var b strings.Builder
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadString('\n')
		b.WriteString(line)
		if strings.Contains(line, want) {
			return b.String(), true, br
		}
		if err != nil {
			return b.String(), false, br
		}
	}
}
