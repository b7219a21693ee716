//go:build unix

package await

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// A Pipe is a named pipe that a process under test writes to when
// something has happened: opening it for writing, and closing it, is the
// event.
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
		// Unblock the reader if no writer ever came, and a poke of Wait
		// if the reader had already gone.
		if f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
		if f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	})
	return p
}

// Wait returns what was written to the pipe once its writer has closed it.
// It returns an error if ended is closed first (the process that should
// have written has gone) or ctx is done. A writer that may end right after
// writing must write at least one byte, so that its event is told from its
// absence.
func (p *Pipe) Wait(ctx context.Context, ended <-chan struct{}) ([]byte, error) {
	select {
	case r := <-p.got:
		return r.data, r.err
	case <-ended:
		// The writer may have written just before it ended, and the reader
		// may still be reading it. Opening the pipe for writing, and
		// closing it, lets a reader still waiting for a writer see the end;
		// a reader that has read it all has its result already.
		go func() {
			if f, err := os.OpenFile(p.Path, os.O_WRONLY, 0); err == nil {
				f.Close()
			}
		}()
		if r := <-p.got; r.err != nil || len(r.data) > 0 {
			return r.data, r.err
		}
		return nil, errors.New("await: the process ended before it wrote to the pipe")
	case <-ctx.Done():
		return nil, fmt.Errorf("await: nothing was written to the pipe: %w", ctx.Err())
	}
}
