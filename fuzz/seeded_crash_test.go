//go:build conform_seeded_crash

package fuzz

import "testing"

// FuzzSeededCrash is not a check of conform: it fails on one input only, the
// bytes "CRSH" at the start, so that the libFuzzer build path is known to
// report a failing target (scripts/fuzz-libfuzzer.sh check builds it and
// asserts that the binary finds that input, exits non-zero and writes it as
// a crash file). Each byte is compared on its own, which the engine's
// comparison tracing solves in a few thousand executions. It is built only
// with the conform_seeded_crash tag, so `go test` and the fuzz smoke never
// see it.
func FuzzSeededCrash(f *testing.F) {
	f.Add([]byte("seed"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) >= 4 && data[0] == 'C' && data[1] == 'R' && data[2] == 'S' && data[3] == 'H' {
			t.Fatalf("planted failure on %q", data)
		}
	})
}
