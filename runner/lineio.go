package runner

import (
	"fmt"
	"sync"
)

// boundedTail keeps the last max bytes written to it and counts the rest:
// a child's stderr is captured without letting a flood exhaust memory.
type boundedTail struct {
	mu      sync.Mutex
	max     int
	buf     []byte
	dropped int64
}

func (t *boundedTail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	if len(p) > t.max {
		t.dropped += int64(len(p) - t.max)
		p = p[len(p)-t.max:]
	}
	if over := len(t.buf) + len(p) - t.max; over > 0 {
		t.dropped += int64(over)
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	t.buf = append(t.buf, p...)
	return n, nil
}

// String returns the kept tail, prefixed by a note of how much was dropped.
func (t *boundedTail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.dropped > 0 {
		return fmt.Sprintf("[%d earlier bytes dropped]\n%s", t.dropped, t.buf)
	}
	return string(t.buf)
}
