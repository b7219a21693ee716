package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/conform-suite/conform/protocol"
)

// FuzzServeLine checks that the stdio server answers any line with exactly
// one well-formed answer line, never a panic: a request gets its id back, a
// line that is not a request a bad_request error.
func FuzzServeLine(f *testing.F) {
	var lines [][]byte
	if flag.Lookup("test.fuzz") != nil { // not a libFuzzer build: see thinSeedLines
		for i, v := range corpus(f) {
			line, err := RequestLine(protocol.Request{ID: protocol.IntID(int64(i)), Op: v.Op, Input: v.Input})
			if err != nil {
				f.Fatal(err)
			}
			lines = append(lines, []byte(line[:len(line)-1]))
		}
		if len(lines) == 0 {
			f.Fatal("no seed: the corpus has no vectors")
		}
	}
	for _, line := range thinSeedLines(lines) {
		f.Add(line)
	}
	for _, s := range []string{`not json`, `{"id":"x","op":"nosuch.op","input":{}}`, `{"id":1}`, `[1]`, `{"id":1.5,"op":"hello","input":{}}`, `{"id":"\ud800","op":"hello","input":{"protocol":1}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		out := protocol.ServeLine(context.Background(), InProcess{}, line)
		if bytes.Count(out, []byte("\n")) != 1 || out[len(out)-1] != '\n' {
			t.Fatalf("ServeLine(%q) = %q, want one line", line, out)
		}
		resp, err := protocol.ParseAnswer(out[:len(out)-1], 0)
		if err != nil && !bytes.HasPrefix(out, []byte(`{"id":null,"error":`)) {
			t.Fatalf("ServeLine(%q) = %q, not an answer: %v", line, out, err)
		}
		var req protocol.Request
		if json.Unmarshal(line, &req) == nil && protocol.ValidID(req.ID) && req.Op != "" && len(req.Input) > 0 && req.Input[0] == '{' {
			// A string id that decodes to U+FFFD may be invalid UTF-8 or
			// hold a lone surrogate, which is refused (PROTO-ID-004).
			var s string
			mayRefuse := json.Unmarshal(req.ID, &s) == nil && strings.ContainsRune(s, utf8.RuneError)
			refused := bytes.HasPrefix(out, []byte(`{"id":null,"error":{"kind":"bad_request"`))
			if !bytes.Equal(resp.ID, compactID(req.ID)) && !(mayRefuse && refused) {
				t.Fatalf("ServeLine(%q) answered id %s, want %s", line, resp.ID, req.ID)
			}
		}
	})
}

// FuzzLineReader compares the capped line reader with a naive split: a line
// within the cap comes back whole, a longer one as a LineTooLongError of
// its exact size, and the lines after it are unaffected.
func FuzzLineReader(f *testing.F) {
	f.Add([]byte("a\nbb\n\nccc"), uint8(2))
	f.Add([]byte("0123456789\nx\r\n"), uint8(4))
	f.Add(bytes.Repeat([]byte("z"), 70000), uint8(9))
	f.Fuzz(func(t *testing.T, data []byte, max uint8) {
		limit := int(max) + 1
		lr := protocol.NewLineReader(iotestOneByte(data), limit)
		want := bytes.Split(data, []byte("\n"))
		if len(want[len(want)-1]) == 0 {
			want = want[:len(want)-1] // a final newline ends the last line
		}
		for i, w := range want {
			got, err := lr.ReadLine()
			var tooLong *protocol.LineTooLongError
			switch {
			case len(w) > limit:
				if !errors.As(err, &tooLong) || tooLong.Size != int64(len(w)) {
					t.Fatalf("line %d (%d bytes, cap %d): ReadLine() = %q, %v; want a LineTooLongError of %d", i, len(w), limit, got, err, len(w))
				}
			case err != nil:
				t.Fatalf("line %d: ReadLine() error %v, want %q", i, err, w)
			default:
				terminated := i < len(want)-1 || data[len(data)-1] == '\n'
				if terminated && bytes.HasSuffix(w, []byte("\r")) {
					w = w[:len(w)-1] // a CR before the newline is dropped
				}
				if !bytes.Equal(got, w) {
					t.Fatalf("line %d: ReadLine() = %q, want %q", i, got, w)
				}
			}
		}
		if got, err := lr.ReadLine(); !errors.Is(err, io.EOF) {
			t.Fatalf("after %d lines: ReadLine() = %q, %v; want io.EOF", len(want), got, err)
		}
	})
}

// iotestOneByte returns a reader that hands data out in small pieces, so
// that lines straddle reads.
func iotestOneByte(data []byte) io.Reader {
	return &smallReader{data: data}
}

type smallReader struct{ data []byte }

func (r *smallReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	n := min(len(p), 7, len(r.data))
	copy(p, r.data[:n])
	r.data = r.data[n:]
	return n, nil
}
