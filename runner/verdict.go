package runner

import (
	"slices"
	"strings"

	"github.com/conform-suite/conform/internal/jsonv"
	"github.com/conform-suite/conform/protocol"
)

// RequiredOps names the ops an implementation must offer (--require-ops):
// every op, or those listed. The zero value requires none.
type RequiredOps struct {
	All bool
	Ops []string
}

// Has reports whether op is required.
func (r RequiredOps) Has(op string) bool { return r.All || slices.Contains(r.Ops, op) }

// String is the flag's value: "" (none), "all", or the ops, comma separated.
func (r RequiredOps) String() string {
	if r.All {
		return "all"
	}
	return strings.Join(r.Ops, ",")
}

// CodelessRefusal is a refusal that matched the vector's but carried no
// code where the vector expects one. PROTO-REJECT-002 lets an
// implementation leave the code out; --require-codes does not.
type CodelessRefusal struct {
	Member string // "rejected" or "dropped"
	Code   string // the code the vector expects
}

// codelessRefusal returns the refusal of got that leaves out the code want
// gives it, or nil; want and got are decoded outputs (got nil: the answer is
// the expected output byte for byte, so it leaves out nothing). Only their
// refusal members are looked at: a refusal of want with a string "code",
// and the same refusal of got, an object whose "code" is missing or null.
func codelessRefusal(want, got *jsonv.Value) *CodelessRefusal {
	if got == nil {
		return nil
	}
	for _, key := range protocol.RefusalMembers {
		w, g := want.Get(key), got.Get(key)
		if w == nil || g == nil || g.Type != jsonv.Object {
			continue
		}
		code := w.Get("code")
		if code == nil || code.Type != jsonv.String {
			continue
		}
		if c := g.Get("code"); c == nil || c.Type == jsonv.Null {
			return &CodelessRefusal{Member: key, Code: protocol.Text(code.Units)}
		}
	}
	return nil
}
