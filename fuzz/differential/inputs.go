// Package differential holds FuzzDifferential, a native fuzz target that
// compares an implementation's answers with the reference's over protocol
// v1, with op inputs made by the fuzz engine's generators from the
// fuzzer's bytes. It is for porting teams that run coverage-guided fuzzing
// (go test -fuzz, ClusterFuzzLite, OSS-Fuzz) on their own implementation;
// docs/fuzzing.md says how.
package differential

import (
	"encoding/json"

	"github.com/conform-suite/conform/fuzz"
)

// opInputs lists the ops the target fuzzes: every op whose descriptor
// (fuzz/ops.go) does not say why not.
var opInputs = func() []string {
	var out []string
	for _, d := range fuzz.Descriptors() {
		if d.NoDifferential == "" {
			out = append(out, d.Op)
		}
	}
	return out
}()

// fill decodes the fuzzer's bytes into one of ops and its input: the first
// byte picks the op, the rest drive its generator (fuzz.Generate), which
// draws characters from the same alphabets as conform fuzz.
func fill(data []byte, ops []string) (op string, input json.RawMessage, err error) {
	var choice byte
	if len(data) > 0 {
		choice, data = data[0], data[1:]
	}
	op = ops[int(choice)%len(ops)]
	input, err = fuzz.Generate(op, data)
	return op, input, err
}
