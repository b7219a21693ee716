//go:build !unix

package runner

import "os/exec"

// newProcessGroup does nothing where there are no process groups: only the
// child itself is killed.
func newProcessGroup(cmd *exec.Cmd) {}

// killGroup does nothing where there are no process groups; proc.kill kills
// the child itself.
func killGroup(pid int) {}
