package await

import (
	"context"
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// Gone returns nil once process pid has ended (a zombie not yet reaped has
// ended), whoever its parent is, and ctx's error if ctx is done first. It
// watches the process through a pidfd, so it wakes when the process exits.
func Gone(ctx context.Context, pid int) error {
	fd, err := unix.PidfdOpen(pid, 0)
	if errors.Is(err, unix.ESRCH) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("await: pidfd_open %d: %w", pid, err)
	}
	defer unix.Close(fd)
	for {
		// The pidfd becomes readable when the process exits; the poll's
		// timeout only lets ctx be checked.
		n, err := unix.Poll([]unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}, 100)
		if n > 0 {
			return nil
		}
		if err != nil && !errors.Is(err, unix.EINTR) {
			return fmt.Errorf("await: poll on the pidfd of %d: %w", pid, err)
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("await: process %d still runs: %w", pid, err)
		}
	}
}
