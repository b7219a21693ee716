package runner

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/conform-suite/conform/internal/fakeimpl"
	"github.com/conform-suite/conform/internal/jsonv"
	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/vectors"
)

// liar proxies the reference and rewrites each output it answers (hello
// excepted) with one of fakeimpl's liars.
type liar func([]byte) []byte

func (l liar) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	resp, err := InProcess{}.Call(ctx, req)
	if err == nil && resp.Output != nil && req.Op != "hello" {
		resp.Output = l(resp.Output)
	}
	return resp, err
}

func (liar) Close() error { return nil }

// anyCompared reports whether a value compared by Compare (a refusal's body
// other than its code is not) satisfies f.
func anyCompared(raw json.RawMessage, f func(*jsonv.Value) bool) bool {
	v, err := jsonv.Parse(raw)
	if err != nil {
		panic(err)
	}
	var walk func(v *jsonv.Value, inRefusal bool) bool
	walk = func(v *jsonv.Value, inRefusal bool) bool {
		if f(v) {
			return true
		}
		for i := range v.Elems {
			if walk(&v.Elems[i], false) {
				return true
			}
		}
		for i := range v.Members {
			m := &v.Members[i]
			name := jsonv.Key(m.Name)
			if inRefusal && name != "code" {
				continue
			}
			if slices.ContainsFunc(m.Name, func(u uint16) bool { return u == 0xfffd }) || walk(&m.Value, name == "rejected" || name == "dropped") {
				return true
			}
		}
		return false
	}
	return walk(v, false)
}

func holdsFFFD(v *jsonv.Value) bool { return slices.Contains(v.Units, 0xfffd) }

func holdsInteger(v *jsonv.Value) bool {
	d, ok := jsonv.ParseDecimal(v.Num)
	return v.Type == jsonv.Number && ok && d.IsInteger()
}

// checkLiar runs vs against a liar and checks each outcome: Fail with
// Mismatch where the vector's expected output holds what the liar changes
// (by the oracle lied), Pass elsewhere. It returns the failing vectors.
func checkLiar(t *testing.T, l liar, vs []*vectors.Vector, lied func(*jsonv.Value) bool) []*vectors.Vector {
	t.Helper()
	var failed []*vectors.Vector
	r := &Runner{Impl: l}
	for _, res := range r.Run(context.Background(), vs) {
		v := res.Vector
		if v.Expect.Output == nil {
			continue // judged against a declared choice: the reference declares none
		}
		if anyCompared(v.Expect.Output, lied) {
			if res.Outcome != Fail || res.Comparison != Mismatch {
				t.Errorf("%s: %s %s %q, want fail (mismatch)", v.ID, res.Outcome, res.Comparison, res.Diffs)
			}
			failed = append(failed, v)
		} else if res.Outcome != Pass {
			t.Errorf("%s: %s %s %q, want pass: the liar changed nothing compared", v.ID, res.Outcome, res.Detail, res.Diffs)
		}
	}
	return failed
}

// TestLoneSurrogateLiarFails runs the whole corpus against an implementation
// that answers \ud83d wherever U+FFFD is due: it fails exactly the vectors
// whose answer holds U+FFFD, and every requirement that makes U+FFFD of a
// lone surrogate has such a vector.
func TestLoneSurrogateLiarFails(t *testing.T) {
	failed := checkLiar(t, fakeimpl.LoneSurrogates, corpus(t), holdsFFFD)
	byReq := map[string]int{}
	for _, v := range failed {
		for _, req := range v.Requirements {
			byReq[req]++
		}
	}
	for _, req := range []string{"SELREF-TEXT-002", "SELREF-TEXT-003", "QUOTE-ANCHOR-002", "MARKER-STRIP-008"} {
		if byReq[req] == 0 {
			t.Errorf("no vector of %s fails the lone-surrogate liar", req)
		}
	}
	t.Logf("%d vectors fail the lone-surrogate liar", len(failed))
}

// TestTinyFractionLiarFails runs the whole corpus against an implementation
// that answers 4.000…(80 zeros)…1 for 4: every vector whose answer holds an
// integer fails.
func TestTinyFractionLiarFails(t *testing.T) {
	failed := checkLiar(t, fakeimpl.TinyFractions, corpus(t), holdsInteger)
	if len(failed) == 0 {
		t.Fatal("no vector fails the tiny-fraction liar")
	}
	t.Logf("%d vectors fail the tiny-fraction liar", len(failed))
}

// TestHugeDigitLiarFails answers a few vectors with 4 million digits more in
// every integer: each fails, and the comparison ends.
func TestHugeDigitLiarFails(t *testing.T) {
	var vs []*vectors.Vector
	for _, v := range corpus(t) {
		if v.Op == "quote.select" && v.Expect.Output != nil && strings.Contains(string(v.Expect.Output), `"selector"`) && len(vs) < 4 {
			vs = append(vs, v)
		}
	}
	if len(vs) == 0 {
		t.Fatal("no quote.select vector with a selector")
	}
	failed := checkLiar(t, fakeimpl.HugeDigits, vs, holdsInteger)
	if len(failed) != len(vs) {
		t.Errorf("%d of %d vectors failed, want all", len(failed), len(vs))
	}
}
