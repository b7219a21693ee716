//go:build unix && !linux

package await

import (
	"context"
	"errors"
	"fmt"
	"syscall"
	"time"
)

// Gone returns nil once process pid has ended, and ctx's error if ctx is
// done first. Without Linux's pidfd it asks the kernel every few
// milliseconds whether pid still exists (a zombie still does: reaping is
// its parent's business).
func Gone(ctx context.Context, pid int) error {
	for {
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("await: process %d still runs: %w", pid, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}
