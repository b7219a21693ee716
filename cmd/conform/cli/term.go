package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"
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
	stop  context.CancelFunc
	wg    sync.WaitGroup
}

// startProgress starts a progress line on w for a run of total requests
// (0 when unknown); it returns nil when w is not a terminal.
func startProgress(w io.Writer, what string, total int) *progress {
	if !isTerminal(w) {
		return nil
	}
	ctx, stop := context.WithCancel(context.Background())
	p := &progress{w: w, what: what, total: total, stop: stop}
	p.wg.Go(func() { p.loop(ctx) })
	return p
}

func (p *progress) loop(ctx context.Context) {
	start := time.Now()
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	drawn := false
	for {
		select {
		case <-ctx.Done():
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
	p.stop()
	p.wg.Wait()
}

// answered counts n answers; p may be nil.
func (p *progress) answered(n int) {
	if p != nil {
		p.n.Add(int64(n))
	}
}
