//go:build unix

package cli

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/conform-suite/conform/internal/fakeimpl"
)

// onTerminal runs the conform command line cmd (a shell line) on a real
// pseudo-terminal, through script(1), and returns what the terminal shows.
func onTerminal(t *testing.T, cmd string, env ...string) string {
	t.Helper()
	script, err := exec.LookPath("script")
	if err != nil {
		t.Skip("script(1) is not installed: no pseudo-terminal to test on")
	}
	c := exec.Command(script, "-qec", "env "+mainEnv+"=1 "+quoteArg(os.Args[0])+" "+cmd, "/dev/null")
	c.Env = append(os.Environ(), env...)
	out, _ := c.CombinedOutput()
	return string(out)
}

// coloured reports whether terminal output holds an SGR colour sequence
// (the progress line's erase-line sequence is not one).
func coloured(s string) bool { return strings.Contains(strings.ReplaceAll(s, "\x1b[K", ""), "\x1b[") }

// TestTerminalProgress: a run that lasts past the progress delay draws its
// progress line on a terminal (the pipe side, where nothing of it may
// appear, is TestNoColourOrProgressInPipes).
func TestTerminalProgress(t *testing.T) {
	dir := echoDir(t)
	fake := "env " + fakeimpl.Env + "=" + fakeimpl.Hang + " " + quoteArg(os.Args[0])
	// The hanging vector keeps the run going for --timeout, past the delay.
	out := onTerminal(t, "run --vectors "+quoteArg(dir)+" --parallel 1 --timeout 5s --stdio "+quoteArg(fake))
	if !strings.Contains(out, "conform: run: ") || !strings.Contains(out, " answered, ") {
		t.Errorf("no progress line on the terminal:\n%q", out)
	}
}

// TestTerminalColour: the scenario report is coloured on a terminal, and
// not with NO_COLOR or --no-color.
func TestTerminalColour(t *testing.T) {
	const cmd = "features --format pretty quote/link.feature"
	if out := onTerminal(t, cmd); !coloured(out) {
		t.Errorf("no colour on a terminal:\n%.400q", out)
	}
	if out := onTerminal(t, cmd, "NO_COLOR=1"); coloured(out) {
		t.Errorf("colour on a terminal with NO_COLOR=1:\n%.400q", out)
	}
	if out := onTerminal(t, cmd+" --no-color"); coloured(out) {
		t.Errorf("colour on a terminal with --no-color:\n%.400q", out)
	}
}
