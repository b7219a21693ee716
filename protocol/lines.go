package protocol

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// LineTooLongError reports a line longer than the cap. Either the rest of
// the line was read and discarded, so the stream stays in step, or (Partial)
// reading stopped at the cap.
type LineTooLongError struct {
	Max     int   // the cap, in bytes
	Size    int64 // the line's length, in bytes, without its newline; with Partial, the bytes read
	Partial bool  // the line was not read to its end
}

func (e *LineTooLongError) Error() string {
	if e.Partial {
		return fmt.Sprintf("a line longer than the limit of %d bytes (not read past its first %d bytes)", e.Max, e.Size)
	}
	return fmt.Sprintf("a line of %d bytes, longer than the limit of %d bytes", e.Size, e.Max)
}

// LineReader reads newline-terminated lines of at most max bytes. A longer
// line is streamed past, never held in memory: ReadLine returns a
// *LineTooLongError for it and the next call reads the line after it.
type LineReader struct {
	r   *bufio.Reader
	max int
	buf []byte
	// Stop makes ReadLine give up on a line as soon as it passes the cap,
	// without reading the rest: for a stream that is abandoned after it.
	Stop bool
}

// NewLineReader reads lines of at most max bytes from r (DefaultMaxLine
// when max is not positive).
func NewLineReader(r io.Reader, max int) *LineReader {
	l := &LineReader{r: bufio.NewReaderSize(r, 64<<10)}
	l.SetMax(max)
	return l
}

// SetMax changes the cap for the lines still to be read (DefaultMaxLine
// when max is not positive).
func (l *LineReader) SetMax(max int) {
	if max <= 0 {
		max = DefaultMaxLine
	}
	l.max = max
}

// Buffered is the number of bytes read from the stream and not yet
// returned as lines: zero when no more input is waiting.
func (l *LineReader) Buffered() int { return l.r.Buffered() }

// ReadLine returns the next line without its newline (and without a
// trailing carriage return). The slice is valid until the next call. At the
// end of the stream it returns io.EOF; a last line without a newline is
// returned as a line.
func (l *LineReader) ReadLine() ([]byte, error) {
	l.buf = l.buf[:0]
	var size int64
	for {
		chunk, err := l.r.ReadSlice('\n')
		size += int64(len(chunk))
		if size <= int64(l.max)+1 {
			if len(l.buf)+len(chunk) > cap(l.buf) {
				// Double, as append does only for small slices: a long
				// line costs twice its length in allocations, not five
				// times.
				grown := make([]byte, len(l.buf), min(2*cap(l.buf)+len(chunk), l.max+1+len(chunk)))
				copy(grown, l.buf)
				l.buf = grown
			}
			l.buf = append(l.buf, chunk...)
		}
		switch {
		case err == nil:
			size-- // the newline
			if size > int64(l.max) {
				return nil, &LineTooLongError{Max: l.max, Size: size}
			}
			return bytes.TrimSuffix(l.buf[:len(l.buf)-1], []byte("\r")), nil
		case errors.Is(err, bufio.ErrBufferFull):
			if l.Stop && size > int64(l.max) {
				return nil, &LineTooLongError{Max: l.max, Size: size, Partial: true}
			}
			continue
		case errors.Is(err, io.EOF) && size > 0:
			if size > int64(l.max) {
				return nil, &LineTooLongError{Max: l.max, Size: size}
			}
			return l.buf, nil
		default:
			return nil, err
		}
	}
}

// BlankLine reports whether line (without its newline) is empty or holds
// only JSON white space, U+0020, U+0009 and U+000D: a line that carries no
// request and gets no answer (PROTO-FRAME-008). Any other character, even
// white space of another kind (U+00A0, U+000B), makes a line that is not
// JSON.
func BlankLine(line []byte) bool {
	for _, c := range line {
		if c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}
