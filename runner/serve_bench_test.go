package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/reference/quote"
)

// parseCase is a quote.parse request for the serve benchmarks: a small href,
// and the corpus's largest citation (every field at its limit in CJK).
type parseCase struct {
	name string
	href string
}

func parseCases(b *testing.B) []parseCase {
	small, err := quote.FormatHref(quote.Citation{Version: 1, EnvironmentID: "env-1", ThreadID: "thread-1",
		MessageID: "message-1", Text: "Use the cache.", Start: 0, End: 14, Suffix: " Next."})
	if err != nil {
		b.Fatal(err)
	}
	cases := []parseCase{{"small", small}}
	for _, v := range corpus(b) {
		if v.ID == "quote.parse/max-cjk-citation" {
			var in struct{ Href string }
			if err := json.Unmarshal(v.Input, &in); err != nil {
				b.Fatal(err)
			}
			cases = append(cases, parseCase{"max-cjk", in.Href})
		}
	}
	if len(cases) != 2 {
		b.Fatal("the corpus has no quote.parse/max-cjk-citation")
	}
	return cases
}

// repeatReader yields line n times.
type repeatReader struct {
	line []byte
	n    int
	off  int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	k := copy(p, r.line[r.off:])
	if r.off += k; r.off == len(r.line) {
		r.off, r.n = 0, r.n-1
	}
	return k, nil
}

// BenchmarkServeStdio measures ServeStdio answering quote.parse requests
// with the reference, per request, and reports apart the op's own cost
// (quote.Parse on the href, measured alone) and the protocol's overhead (the
// rest: reading and decoding the request line, mapping the input, encoding
// and writing the answer), and their ratio. The machine is shared, so the
// two are measured in the process's CPU time (user and system, which load
// from other processes does not inflate as it does the wall clock), in
// alternating blocks of about 10 ms each (the op's blocks with the timer
// stopped), so that the garbage collector's work and the state of the
// machine fall on both alike. ns/op stays wall clock. The op is given a fresh copy of the
// href each call (made before its block is timed), as a server has it, so
// that neither side reads a string the cache still holds.
func BenchmarkServeStdio(b *testing.B) {
	for _, c := range parseCases(b) {
		if _, err := quote.Parse(c.href); err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			in, _ := json.Marshal(map[string]string{"href": c.href})
			line := append(append([]byte(`{"id":1,"op":"quote.parse","input":`), in...), "}\n"...)
			var first bytes.Buffer
			if err := protocol.ServeStdio(context.Background(), InProcess{}, bytes.NewReader(line), &first, 0); err != nil || !bytes.Contains(first.Bytes(), []byte(`"output":{"citation"`)) {
				b.Fatalf("serve: %v: %.200s", err, first.Bytes())
			}
			start := time.Now()
			quote.Parse(c.href)
			block := max(1, int(10*time.Millisecond/max(time.Since(start), 1)))
			b.SetBytes(int64(len(line)))
			b.ReportAllocs()
			b.ResetTimer()
			var serve, op time.Duration
			for done := 0; done < b.N; {
				n := min(block, b.N-done)
				start := cpuNow()
				if err := protocol.ServeStdio(context.Background(), InProcess{}, &repeatReader{line: line, n: n}, io.Discard, 0); err != nil {
					b.Fatal(err)
				}
				serve += cpuNow() - start
				b.StopTimer()
				hrefs := make([]string, n) // fresh copies, as a server has the href: just read
				for i := range hrefs {
					hrefs[i] = strings.Clone(c.href)
				}
				start = cpuNow()
				for _, h := range hrefs {
					quote.Parse(h)
				}
				op += cpuNow() - start
				b.StartTimer()
				done += n
			}
			perReq := float64(serve.Nanoseconds()) / float64(b.N)
			opNs := float64(op.Nanoseconds()) / float64(b.N)
			b.ReportMetric(opNs, "op-ns/req")
			b.ReportMetric(perReq-opNs, "protocol-ns/req")
			b.ReportMetric((perReq-opNs)/opNs, "protocol/op")
		})
	}
}
