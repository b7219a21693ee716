package marker

import (
	"strings"
	"unicode/utf8"
)

// maxHoldBytes bounds the bytes of a held candidate: START, family, DELIM,
// an ASCII id, DELIM and a locator of four-byte runes.
const maxHoldBytes = headLen + MaxIDLen + len(delimS) + 4*MaxLocatorLen

// Stream strips markers from text that arrives in deltas. Each call to
// [Stream.Write] returns the text that became final with that delta: every
// rune that can no longer belong to a marker is released at once, and only
// a possible marker prefix (at most [MaxHold] runes) is held back.
// [Stream.Close] releases what is still held, verbatim. The concatenation of
// everything returned equals [Strip] of the concatenated deltas, and
// [Stream.Close]'s citations equal Strip's.
//
// A delta without U+E200, while nothing is held, is returned as it is
// without allocating. Memory does not grow with the length of the stream,
// only with the number of citations.
type Stream struct {
	k      sink
	m      machine
	active bool   // a candidate is held
	hold   []byte // the held candidate, from its START
	out    []byte // scratch for the slow path
	closed bool
}

// NewStream returns a stripper that cites the parts of cat.
func NewStream(cat *Catalog) *Stream { return &Stream{k: sink{cat: cat}} }

// Held returns the number of runes held back.
func (s *Stream) Held() int {
	if !s.active {
		return 0
	}
	return utf8.RuneCount(s.hold)
}

// Write feeds one delta and returns the text released by it. A delta is
// whole runes; to feed bytes cut anywhere, use [ByteStream]. After Close,
// Write ignores its delta and returns "".
func (s *Stream) Write(delta string) string {
	if s.closed {
		return ""
	}
	if !s.active && !strings.Contains(delta, startS) {
		s.k.releaseString(delta)
		return delta
	}
	out := s.out[:0]
	for pos := 0; pos < len(delta); {
		if !s.active {
			i := strings.Index(delta[pos:], startS)
			if i < 0 {
				out = append(out, delta[pos:]...)
				s.k.releaseString(delta[pos:])
				break
			}
			out = append(out, delta[pos:pos+i]...)
			s.k.releaseString(delta[pos : pos+i])
			if s.hold == nil {
				s.hold = make([]byte, 0, maxHoldBytes)
			}
			s.hold = append(s.hold[:0], startS...)
			s.m, s.active = newMachine(), true
			pos += i + len(startS)
			continue
		}
		r, n := utf8.DecodeRuneInString(delta[pos:])
		switch s.m.step(r, n) {
		case more:
			s.hold = append(s.hold, delta[pos:pos+n]...)
		case done:
			s.active = false
			s.k.cite(s.m.fields(string(s.hold)))
		case dead:
			s.active = false
			start := len(out)
			out = append(append(out, s.hold...), delta[pos:pos+n]...)
			s.k.releaseString(string(out[start:]))
		}
		pos += n
	}
	s.out = out
	return string(out)
}

// Close ends the stream: it returns the held text, verbatim, and the
// citations and cited parts of the whole stream.
func (s *Stream) Close() (tail string, cites []Citation, parts []string) {
	if !s.closed && s.active {
		tail = string(s.hold)
		s.k.releaseString(tail)
		s.active = false
	}
	s.closed = true
	cites, parts = s.k.finish()
	return tail, cites, parts
}

// Retry reports, after [Stream.Close], whether the artifact is to be
// retried instead of completed, as [Result.Retry] for the whole stream.
func (s *Stream) Retry() bool { return s.closed && s.k.retry() }

// ByteStream strips markers from a stream of bytes cut anywhere, even
// inside a UTF-8 sequence: the bytes of an incomplete rune at the end of a
// chunk wait for the next chunk. The bytes of the whole stream are UTF-8, or
// the stream is rejected with [CodeInvalidUTF8].
type ByteStream struct {
	s       *Stream
	partial []byte // an incomplete rune carried to the next chunk
	seen    int    // bytes consumed, for error offsets
	err     error
}

// NewByteStream returns a byte-level stripper that cites the parts of cat.
func NewByteStream(cat *Catalog) *ByteStream { return &ByteStream{s: NewStream(cat)} }

// Held returns the runes held back by the stripper and the bytes of an
// incomplete rune.
func (b *ByteStream) Held() (runes, bytes int) { return b.s.Held(), len(b.partial) }

// Write feeds one chunk of bytes and returns the text released by it. After
// the first invalid byte it returns "" and the error, which it keeps.
func (b *ByteStream) Write(chunk []byte) (string, error) {
	if b.err != nil {
		return "", b.err
	}
	data := chunk
	if len(b.partial) > 0 {
		data = append(b.partial, chunk...)
	}
	cut := len(data) - incompleteTail(data)
	if !utf8.Valid(data[:cut]) {
		return "", b.fail(data[:cut])
	}
	out := b.s.Write(string(data[:cut]))
	b.partial = append(b.partial[:0:0], data[cut:]...)
	b.seen += cut
	return out, nil
}

// Close ends the stream, like [Stream.Close]; an incomplete rune at the end
// is invalid UTF-8.
func (b *ByteStream) Close() (string, []Citation, []string, error) {
	if b.err == nil && len(b.partial) > 0 {
		b.err = reject(CodeInvalidUTF8, b.seen, "", "stream ends inside a UTF-8 sequence")
	}
	if b.err != nil {
		return "", nil, nil, b.err
	}
	tail, cites, parts := b.s.Close()
	return tail, cites, parts, nil
}

// Retry reports, after a successful [ByteStream.Close], whether the
// artifact is to be retried, as [Stream.Retry].
func (b *ByteStream) Retry() bool { return b.err == nil && b.s.Retry() }

func (b *ByteStream) fail(data []byte) error {
	off := b.seen
	for len(data) > 0 {
		r, n := utf8.DecodeRune(data)
		if r == utf8.RuneError && n == 1 {
			break
		}
		data, off = data[n:], off+n
	}
	b.err = reject(CodeInvalidUTF8, off, "", "invalid UTF-8")
	return b.err
}

// incompleteTail returns the length of a trailing prefix of a UTF-8
// sequence that more bytes could complete, or 0.
func incompleteTail(p []byte) int {
	for n := 1; n <= utf8.UTFMax-1 && n <= len(p); n++ {
		c := p[len(p)-n]
		if c&0xC0 == 0x80 {
			continue // a continuation byte: look further back
		}
		if !utf8.FullRune(p[len(p)-n:]) {
			return n
		}
		return 0
	}
	return 0
}
