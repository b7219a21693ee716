package fuzz

import (
	"slices"
	"testing"

	"github.com/conform-suite/conform/reference"
)

// TestEveryOpHasAGenerator holds the generators to the ops the reference
// answers: an op added to the protocol without a generator would be fuzzed
// only by mutating its vectors, and a generator for an op the reference
// does not answer could never be judged.
func TestEveryOpHasAGenerator(t *testing.T) {
	gens, ops := GeneratedOps(), reference.Ops()
	for _, op := range ops {
		if !slices.Contains(gens, op) {
			t.Errorf("the reference answers %s, which has no input generator (registerGen in gen_*.go)", op)
		}
	}
	for _, op := range gens {
		if !slices.Contains(ops, op) {
			t.Errorf("op %s has an input generator but the reference does not answer it", op)
		}
	}
}

// GeneratedOps returns the ops that have an input generator, sorted.
func GeneratedOps() []string {
	ops := make([]string, 0, len(inputGens))
	for op := range inputGens {
		ops = append(ops, op)
	}
	slices.Sort(ops)
	return ops
}
