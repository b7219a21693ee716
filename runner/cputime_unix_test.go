//go:build unix

package runner

import (
	"syscall"
	"time"
)

// cpuNow returns the CPU time (user and system) the process has used: the
// serve benchmark's clock, which load from other processes does not move.
func cpuNow() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
