//go:build unix

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
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// margin is what Context keeps of the test's deadline for the test to
// report what it was waiting for.
const margin = 15 * time.Second

// Context is cancelled when t ends, or shortly before its deadline
// (go test -timeout) so that a wait that never ends fails with its own
// message rather than with the test binary's timeout panic.
func Context(t testing.TB) context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if deadline, has := d.Deadline(); has {
			ctx, cancel = context.WithDeadline(context.Background(), deadline.Add(-margin))
		}
	}
	t.Cleanup(cancel)
	return ctx
}

// A Pipe is a named pipe that a process under test writes to when
// something has happened: opening it for writing is the event.
type Pipe struct {
	Path string
	got  chan result
}

type result struct {
	data []byte
	err  error
}

// NewPipe makes a named pipe in a temporary directory of t and starts
// reading it, so that the writer never blocks for long.
func NewPipe(t testing.TB) *Pipe {
	t.Helper()
	return PipeAt(t, filepath.Join(t.TempDir(), "event"))
}

// PipeAt is NewPipe with the pipe at path, which must not exist.
func PipeAt(t testing.TB, path string) *Pipe {
	t.Helper()
	if err := unix.Mkfifo(path, 0o600); err != nil {
		t.Fatalf("await: mkfifo: %v", err)
	}
	p := &Pipe{Path: path, got: make(chan result, 1)}
	go func() {
		// Opening for reading blocks until a writer opens it.
		f, err := os.Open(path)
		if err != nil {
			p.got <- result{err: err}
			return
		}
		defer f.Close()
		data, err := io.ReadAll(f)
		p.got <- result{data, err}
	}()
	t.Cleanup(func() {
		// Unblock the reader if no writer ever came.
		if f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	})
	return p
}

// Wait returns what was written to the pipe once its writer has closed it.
// It returns an error if ended is closed first (the process that should
// have written has gone) or ctx is done.
func (p *Pipe) Wait(ctx context.Context, ended <-chan struct{}) ([]byte, error) {
	select {
	case r := <-p.got:
		return r.data, r.err
	case <-ended:
		// The writer may have written just before it ended.
		select {
		case r := <-p.got:
			return r.data, r.err
		default:
		}
		return nil, errors.New("await: the process ended before it wrote to the pipe")
	case <-ctx.Done():
		return nil, fmt.Errorf("await: nothing was written to the pipe: %w", ctx.Err())
	}
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
