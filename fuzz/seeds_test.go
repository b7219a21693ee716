package fuzz

import (
	"encoding/json"
	"flag"
	"fmt"
	"sync"
	"testing"

	"github.com/conform-suite/conform/vectors"
)

// Seeds of the native fuzz targets come from the vectors. Plain `go test`
// replays every vector's input as a seed. Under -test.fuzz the engine first
// runs every seed to gather baseline coverage before it mutates anything,
// so a target seeded with hundreds of vectors spends a short run (the smoke's
// few seconds on two cores) replaying them and never fuzzes: there the seeds
// are thinned to fuzzSeedCount inputs of at most fuzzSeedBytes, spread evenly
// over the op's vectors. Built as a libFuzzer binary (scripts/fuzz-libfuzzer.sh)
// the target's setup runs before every input and its f.Add is a no-op: there
// no seed is loaded at all.
const (
	fuzzSeedCount = 24
	fuzzSeedBytes = 4 << 10
)

// seedMode tells how the seeds of a target are used in this process.
type seedMode int

const (
	seedsAll  seedMode = iota // go test: every vector is a seed
	seedsFew                  // go test -fuzz: a thinned set
	seedsNone                 // not under go test: f.Add does nothing
)

func currentSeedMode() seedMode {
	f := flag.Lookup("test.fuzz")
	switch {
	case f == nil:
		return seedsNone
	case f.Value.String() == "":
		return seedsAll
	}
	return seedsFew
}

// embeddedCorpus loads the embedded vectors once per process.
var embeddedCorpus = sync.OnceValues(func() (*vectors.Corpus, error) { return vectors.Load(vectors.FS()) })

// thinSeeds returns the seeds to add, out of all (see seedMode); size gives
// the size of a seed in bytes.
func thinSeeds[T any](all []T, size func(T) int) []T {
	switch currentSeedMode() {
	case seedsNone:
		return nil
	case seedsAll:
		return all
	}
	var small []T
	for _, s := range all {
		if size(s) <= fuzzSeedBytes {
			small = append(small, s)
		}
	}
	if len(small) <= fuzzSeedCount {
		return small
	}
	out := make([]T, 0, fuzzSeedCount)
	for i := range fuzzSeedCount {
		out = append(out, small[i*len(small)/fuzzSeedCount])
	}
	return out
}

// opInputs returns the input of each vector of op, thinned by thinSeeds.
// It fails the target when the corpus holds no vector of op (except where
// no seed is loaded at all).
func opInputs(t testing.TB, op string) []json.RawMessage {
	t.Helper()
	if currentSeedMode() == seedsNone {
		return nil
	}
	c, err := embeddedCorpus()
	if err != nil {
		t.Fatal(err)
	}
	var ins []json.RawMessage
	for _, v := range c.Vectors() {
		if v.Op == op && v.Expect.Error == nil { // a malformed input is no seed for a target that decodes its input
			ins = append(ins, v.Input)
		}
	}
	if len(ins) == 0 {
		t.Fatalf("no %s vector loaded: the fuzz target has no seeds", op)
	}
	return thinSeeds(ins, func(in json.RawMessage) int { return len(in) })
}

// Setup that a libFuzzer build would otherwise redo before every input (its
// shim runs the whole target function each time), computed once.
var (
	quoteCodesOnce   = sync.OnceValue(func() map[string]bool { return quoteCodes(panicTB{}) })
	generatedOpsOnce = sync.OnceValue(GeneratedOps)
)

// panicTB reports a setup failure of quoteCodesOnce by panicking.
type panicTB struct{ testing.TB }

func (panicTB) Fatal(args ...any) { panic(fmt.Sprint(args...)) }
