package fuzz

import (
	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/vectors"
)

// A divergence class is what a finding and a recorded divergence must share
// for the record to explain the finding: the signature a finding would
// have if the implementation gave the recorded answer to the vector's
// input (the op, the outcome against the expected answer, and its shape:
// which paths differ and how, which refusal either side gave). It holds no
// value of the input, so it reaches past the inputs recorded: a profile
// that records a system's bare query fields explains every later input
// that it answers the same wrong way.

// Known returns the divergence classes the corpus records for the system
// (a profile's name), each with the id of a vector that records it.
// 'conform fuzz --profile NAME' counts a finding of one of these classes
// as known: a line in the summary, not a finding.
func Known(c *vectors.Corpus, system string) map[string]string {
	known := map[string]string{}
	for _, v := range c.Vectors() {
		if sig := recordedClass(v, system); sig != "" && known[sig] == "" {
			known[sig] = v.ID
		}
	}
	return known
}

// recordedClass is the divergence class of the system's record on v, or ""
// when v records none, or one no fuzzing finding can have (a vector
// expecting an error or one output per choice).
func recordedClass(v *vectors.Vector, system string) string {
	d := v.Divergence(system)
	if d == nil || v.Expect.Output == nil {
		return ""
	}
	resp := protocol.Response{ID: protocol.IntID(1), Output: d.Output}
	if d.Error != nil {
		resp = protocol.Response{ID: resp.ID, Error: &protocol.Error{Kind: d.Error.Kind, Message: d.Error.Message}}
	}
	res := judge(protocol.Request{ID: resp.ID, Op: v.Op, Input: v.Input}, vectors.Expect{Output: v.Expect.Output}, resp, nil, 0)
	o := probe{expected: v.Expect.Output}
	o.describe(res, resp, "reference")
	return finish(v.Op, o).sig // "" when the record passes
}
