package fuzz

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/conform-suite/conform/protocol"
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

// TestGeneratorsWriteValidInputs holds every generator to its promise of
// valid inputs most of the time: over a few hundred draws the reference must
// accept some of them. A generator whose inputs are all refused fuzzes only
// the parser's error paths (a misspelt key once made every quote.nav_decode
// location a miss). Many ops refuse nothing, so near misses are not counted.
func TestGeneratorsWriteValidInputs(t *testing.T) {
	for _, op := range GeneratedOps() {
		r := rand.New(rand.NewPCG(1, 2))
		accepted, refused := 0, 0
		for range 300 {
			out, err := reference.HandleValue(op, inputGens[op](r))
			if err != nil || refusal(t, out) {
				refused++
			} else {
				accepted++
			}
		}
		if accepted == 0 {
			t.Errorf("%s: the reference refused all %d of 300 generated inputs; the generator writes no valid one", op, refused)
		}
	}
}

// refusal reports whether an output carries a refusal member.
func refusal(t *testing.T, out any) bool {
	t.Helper()
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	var members map[string]json.RawMessage
	if json.Unmarshal(b, &members) != nil {
		return false
	}
	return slices.ContainsFunc(protocol.RefusalMembers, func(k string) bool { _, ok := members[k]; return ok })
}
