package runner

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
)

// RequiredOps names the ops an implementation must offer (--require-ops):
// every op, or those listed. The zero value requires none.
type RequiredOps struct {
	All bool
	Ops []string
}

// Has reports whether op is required.
func (r RequiredOps) Has(op string) bool { return r.All || slices.Contains(r.Ops, op) }

// Any reports whether some op is required.
func (r RequiredOps) Any() bool { return r.All || len(r.Ops) > 0 }

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

// codelessRefusal returns the refusal of actual that leaves out the code
// expected gives it, or nil. Both outputs are objects; only their refusal
// members are looked at.
func codelessRefusal(expected, actual json.RawMessage) *CodelessRefusal {
	var want, got map[string]json.RawMessage
	if json.Unmarshal(expected, &want) != nil || json.Unmarshal(actual, &got) != nil {
		return nil
	}
	for _, key := range refusalMembers {
		w, ok1 := want[key]
		g, ok2 := got[key]
		if !ok1 || !ok2 {
			continue
		}
		var wantRef struct {
			Code *string `json:"code"`
		}
		var gotRef map[string]json.RawMessage
		if json.Unmarshal(w, &wantRef) != nil || wantRef.Code == nil {
			continue
		}
		if json.Unmarshal(g, &gotRef) != nil || gotRef == nil {
			continue
		}
		if c, has := gotRef["code"]; !has || bytes.Equal(bytes.TrimSpace(c), []byte("null")) {
			return &CodelessRefusal{Member: key, Code: *wantRef.Code}
		}
	}
	return nil
}

// refusalMembers are the output members that mark a refusal.
var refusalMembers = []string{"rejected", "dropped"}
