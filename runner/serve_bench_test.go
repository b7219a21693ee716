package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"testing"
	"time"

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

// opCost returns the time of one call of op, in nanoseconds, averaged over
// at least 300 ms of calls (testing.Benchmark cannot run inside a
// benchmark).
func opCost(op func()) float64 {
	n, start := 0, time.Now()
	for time.Since(start) < 300*time.Millisecond || n < 10 {
		op()
		n++
	}
	return float64(time.Since(start).Nanoseconds()) / float64(n)
}

// BenchmarkServeStdio measures ServeStdio answering quote.parse requests
// with the reference, per request, and reports apart the op's own cost
// (quote.Parse on the href, measured alone) and the protocol's overhead (the
// rest: reading and decoding the request line, mapping the input, encoding
// and writing the answer), and their ratio.
func BenchmarkServeStdio(b *testing.B) {
	for _, c := range parseCases(b) {
		if _, err := quote.Parse(c.href); err != nil {
			b.Fatal(err)
		}
		opNs := opCost(func() { quote.Parse(c.href) })
		b.Run(c.name, func(b *testing.B) {
			in, _ := json.Marshal(map[string]string{"href": c.href})
			line := append(append([]byte(`{"id":1,"op":"quote.parse","input":`), in...), "}\n"...)
			var first bytes.Buffer
			if err := ServeStdio(context.Background(), InProcess{}, bytes.NewReader(line), &first, 0); err != nil || !bytes.Contains(first.Bytes(), []byte(`"output":{"citation"`)) {
				b.Fatalf("serve: %v: %.200s", err, first.Bytes())
			}
			b.SetBytes(int64(len(line)))
			b.ReportAllocs()
			b.ResetTimer()
			start := time.Now()
			if err := ServeStdio(context.Background(), InProcess{}, &repeatReader{line: line, n: b.N}, io.Discard, 0); err != nil {
				b.Fatal(err)
			}
			perReq := float64(time.Since(start).Nanoseconds()) / float64(b.N)
			b.ReportMetric(opNs, "op-ns/req")
			b.ReportMetric(perReq-opNs, "protocol-ns/req")
			b.ReportMetric((perReq-opNs)/opNs, "protocol/op")
		})
	}
}
