//go:build !unix

package runner

import "time"

var cpuStart = time.Now()

// cpuNow returns the wall clock where the process's CPU time is not at hand.
func cpuNow() time.Duration { return time.Since(cpuStart) }
