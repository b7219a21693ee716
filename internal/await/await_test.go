//go:build unix

package await

import (
	"context"
	"io"
	"os/exec"
	"strings"
	"testing"
)

// TestGone: a running process is not gone (the wait ends with its context),
// and once killed, not yet reaped, it is.
func TestGone(t *testing.T) {
	cmd := exec.Command("sleep", "300")
	if err := cmd.Start(); err != nil {
		t.Skip("no sleep command:", err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Gone(done, cmd.Process.Pid); err == nil {
		t.Fatal("Gone said a running process had ended")
	}
	cmd.Process.Kill()
	if err := Gone(Context(t), cmd.Process.Pid); err != nil {
		t.Fatalf("Gone on a killed process: %v", err)
	}
}

// TestPipe: what a process writes to the pipe is what Wait returns; a
// process that ends without writing makes Wait fail, not hang.
func TestPipe(t *testing.T) {
	p := NewPipe(t)
	cmd := exec.Command("sh", "-c", `echo started >"$0"`, p.Path)
	if err := cmd.Start(); err != nil {
		t.Skip("no sh:", err)
	}
	_, ended := Exit(cmd)
	got, err := p.Wait(Context(t), ended)
	if err != nil || string(got) != "started\n" {
		t.Fatalf("Wait = %q, %v; want \"started\\n\"", got, err)
	}

	silent := NewPipe(t)
	quiet := exec.Command("true")
	if err := quiet.Start(); err != nil {
		t.Skip("no true:", err)
	}
	_, quietEnded := Exit(quiet)
	if _, err := silent.Wait(Context(t), quietEnded); err == nil || !strings.Contains(err.Error(), "ended before") {
		t.Fatalf("Wait on a pipe nobody wrote = %v, want the process ended before it wrote", err)
	}
}

func TestLine(t *testing.T) {
	read, found, rest := Line(strings.NewReader("a\nwant this\nb\n"), "want")
	if !found || read != "a\nwant this\n" {
		t.Fatalf("Line = %q, %v", read, found)
	}
	if b, err := io.ReadAll(rest); err != nil || string(b) != "b\n" {
		t.Fatalf("rest = %q, %v", b, err)
	}
	if _, found, _ := Line(strings.NewReader("a\n"), "want"); found {
		t.Fatal("Line found a line that is not there")
	}
}
