package runner

import (
	"context"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/vectors"
)

// benchVectors repeats the corpus up to at least 2,000 vectors, so that one
// Run is long enough to measure whatever the corpus holds.
func benchVectors(b *testing.B) []*vectors.Vector {
	vs := corpus(b)
	out := vs
	for len(out) < 2000 {
		out = append(out, vs...)
	}
	return out
}

// benchRun measures whole runs of the corpus against impl and reports
// vectors per second.
func benchRun(b *testing.B, impl Implementation, batch int) {
	defer impl.Close()
	ctx := context.Background()
	hello, err := Connect(ctx, impl)
	if err != nil {
		b.Fatal(err)
	}
	vs := benchVectors(b)
	r := &Runner{Impl: impl, Hello: hello, Timeout: 30 * time.Second, Batch: batch}
	b.ResetTimer()
	start := time.Now()
	for b.Loop() {
		for _, res := range r.Run(ctx, vs) {
			if res.Outcome != Pass {
				b.Fatalf("%s: %s %s", res.Vector.ID, res.Outcome, res.Detail)
			}
		}
	}
	b.ReportMetric(float64(b.N*len(vs))/time.Since(start).Seconds(), "vectors/s")
}

func BenchmarkInProcess(b *testing.B) { benchRun(b, InProcess{}, 1) }

// BenchmarkStdio runs the test binary as 'conform serve --stdio' does:
// ServeStdio over the reference, one persistent process, pipelined.
func BenchmarkStdio(b *testing.B) {
	s := NewStdio(os.Args[0])
	s.Env = append(os.Environ(), serveEnv+"=stdio")
	benchRun(b, s, 1)
}

func BenchmarkHTTP(b *testing.B) {
	srv := httptest.NewServer(protocol.ServeOptions{}.Handler(InProcess{}))
	defer srv.Close()
	benchRun(b, NewHTTP(srv.URL), 1)
}

func BenchmarkHTTPBatch32(b *testing.B) {
	srv := httptest.NewServer(protocol.ServeOptions{}.Handler(InProcess{}))
	defer srv.Close()
	benchRun(b, NewHTTP(srv.URL), 32)
}
