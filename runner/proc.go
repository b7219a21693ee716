package runner

import (
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// exitGrace is how long the runner keeps reading a child's stdout and stderr
// once the child has exited: whatever the child wrote before it exited is
// already in the pipe, so this only bounds the wait for a process that
// escaped the group and still holds a pipe.
const exitGrace = time.Second

// proc is one started child process in a process group of its own, with its
// three standard streams on pipes that the runner owns. Killing it kills
// the whole group, so that a shell wrapper's child or a background helper
// dies with it; once the child has exited, the rest of its group is killed
// too, and the read sides of its pipes are closed after exitGrace, so that
// no read and no wait outlives the child by more than that.
type proc struct {
	cmd    *exec.Cmd
	stdin  *os.File // write side of the child's stdin
	stdout *os.File // read side of the child's stdout
	stderr *boundedTail
	errR   *os.File // read side of the child's stderr

	exited     chan struct{} // closed once the child is reaped and its stderr read
	stdoutDone chan struct{} // closed by doneReading
	doneOnce   sync.Once

	mu     sync.Mutex
	reaped bool
	werr   error // from Wait
}

// stderrKept is how much of a child's stderr is kept: its last 64 KiB.
const stderrKept = 64 << 10

// startProc starts argv with the environment env (nil for the runner's own)
// in a new process group, with stderr kept in a tail of stderrKept bytes.
func startProc(argv []string, env []string) (*proc, error) {
	if len(argv) == 0 {
		return nil, &StartError{Msg: "no command to start"}
	}
	var files []*os.File
	closeAll := func() {
		for _, f := range files {
			f.Close()
		}
	}
	for range 3 { // stdin, stdout and stderr: read and write sides
		r, w, err := os.Pipe()
		if err != nil {
			closeAll()
			return nil, &StartError{Msg: err.Error()}
		}
		files = append(files, r, w)
	}
	inR, inW, outR, outW, errR, errW := files[0], files[1], files[2], files[3], files[4], files[5]
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	newProcessGroup(cmd)
	if err := cmd.Start(); err != nil {
		closeAll()
		return nil, &StartError{Msg: "cannot start " + argv[0] + ": " + err.Error()}
	}
	inR.Close()
	outW.Close()
	errW.Close()
	p := &proc{
		cmd: cmd, stdin: inW, stdout: outR, stderr: &boundedTail{max: stderrKept}, errR: errR,
		exited:     make(chan struct{}),
		stdoutDone: make(chan struct{}),
	}
	stderrDone := make(chan struct{})
	go func() {
		io.Copy(p.stderr, errR)
		close(stderrDone)
	}()
	go p.wait(stderrDone)
	return p, nil
}

// wait reaps the child, kills what is left of its group, and closes the
// pipes once they are read to their end or exitGrace has passed.
func (p *proc) wait(stderrDone chan struct{}) {
	werr := p.cmd.Wait() // the pipes are the runner's own: this waits for the process only
	p.mu.Lock()
	p.reaped, p.werr = true, werr
	p.mu.Unlock()
	// The child is gone; whatever it started in its group goes too, and
	// with it the last writers of the pipes.
	killGroup(p.cmd.Process.Pid)
	grace := time.AfterFunc(exitGrace, func() {
		p.stdout.Close()
		p.errR.Close()
	})
	<-stderrDone
	p.errR.Close()
	p.stdin.Close()
	close(p.exited)
	<-p.stdoutDone
	grace.Stop()
	p.stdout.Close()
}

// kill kills the child and its process group.
func (p *proc) kill() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.reaped {
		return // the group was killed when the child was reaped
	}
	killGroup(p.cmd.Process.Pid)
	p.cmd.Process.Kill()
}

// doneReading tells the proc that stdout is no longer read.
func (p *proc) doneReading() {
	p.doneOnce.Do(func() { close(p.stdoutDone) })
}

// status describes how the child ended; valid once exited is closed.
func (p *proc) status() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if s := p.cmd.ProcessState; s != nil {
		return s.String()
	}
	if p.werr != nil {
		return p.werr.Error()
	}
	return "exited"
}
