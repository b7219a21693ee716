package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/runner"
)

// isTerminal reports whether w is a terminal that takes control sequences:
// an *os.File on a character device, with TERM not "dumb". Pipes, files and
// buffers are not.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0 && os.Getenv("TERM") != "dumb"
}

// useColor reports whether output to w may be coloured: only on a
// terminal, never with --no-color (noColor) or with NO_COLOR set to
// anything but "" (no-color.org).
func useColor(w io.Writer, noColor bool) bool {
	return !noColor && os.Getenv("NO_COLOR") == "" && isTerminal(w)
}

// progressDelay is how long a run goes before its progress line appears.
const progressDelay = 3 * time.Second

// progress draws one line on a terminal, redrawn in place, counting the
// answers of a run that lasts longer than progressDelay; on anything but a
// terminal it writes nothing at all.
type progress struct {
	w     io.Writer
	what  string
	total int // 0: unknown
	n     atomic.Int64
	stop  chan struct{}
	wg    sync.WaitGroup
	once  sync.Once
}

// startProgress starts a progress line on w for a run of total requests
// (0 when unknown); it returns nil when w is not a terminal.
func startProgress(w io.Writer, what string, total int) *progress {
	if !isTerminal(w) {
		return nil
	}
	p := &progress{w: w, what: what, total: total, stop: make(chan struct{})}
	p.wg.Go(p.loop)
	return p
}

func (p *progress) loop() {
	start := time.Now()
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	drawn := false
	for {
		select {
		case <-p.stop:
			if drawn {
				fmt.Fprint(p.w, "\r\x1b[K")
			}
			return
		case <-tick.C:
			el := time.Since(start)
			if el < progressDelay {
				continue
			}
			n := p.n.Load()
			if p.total > 0 {
				fmt.Fprintf(p.w, "\r\x1b[Kconform: %s: %d of %d answered, %s", p.what, n, p.total, el.Round(time.Second))
			} else {
				fmt.Fprintf(p.w, "\r\x1b[Kconform: %s: %d answered, %s", p.what, n, el.Round(time.Second))
			}
			drawn = true
		}
	}
}

// done clears the line; p may be nil, and done may be called again.
func (p *progress) done() {
	if p == nil {
		return
	}
	p.once.Do(func() {
		close(p.stop)
		p.wg.Wait()
	})
}

// counted wraps an implementation so that p counts its answers; with a nil
// p it returns im unchanged. A Batcher stays one.
func (p *progress) counted(im runner.Implementation) runner.Implementation {
	if p == nil {
		return im
	}
	c := &countingImpl{Implementation: im, p: p}
	if b, ok := im.(runner.Batcher); ok {
		return &countingBatcher{countingImpl: c, b: b}
	}
	return c
}

type countingImpl struct {
	runner.Implementation
	p *progress
}

func (c *countingImpl) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	resp, err := c.Implementation.Call(ctx, req)
	c.p.n.Add(1)
	return resp, err
}

// CallWithin passes the per-request limit on to a
// runner.TimedImplementation, and applies it itself to any other.
func (c *countingImpl) CallWithin(ctx context.Context, req protocol.Request, limit time.Duration) (protocol.Response, error) {
	t, ok := c.Implementation.(runner.TimedImplementation)
	if !ok {
		cctx, cancel := context.WithTimeout(ctx, limit)
		defer cancel()
		return c.Call(cctx, req)
	}
	resp, err := t.CallWithin(ctx, req, limit)
	c.p.n.Add(1)
	return resp, err
}

// SetInflight passes the run's number of requests in flight on to a
// runner.Budgeted implementation.
func (c *countingImpl) SetInflight(n int) {
	if b, ok := c.Implementation.(runner.Budgeted); ok {
		b.SetInflight(n)
	}
}

type countingBatcher struct {
	*countingImpl
	b runner.Batcher
}

func (c *countingBatcher) CallBatch(ctx context.Context, reqs []protocol.Request) ([]protocol.Response, []error) {
	resps, errs := c.b.CallBatch(ctx, reqs)
	c.p.n.Add(int64(len(reqs)))
	return resps, errs
}
