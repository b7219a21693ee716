package fuzz

import (
	"context"
	"encoding/json"
	"net/url"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/conform-suite/conform/internal/schemaset"
	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/reference"
	"github.com/conform-suite/conform/runner"
	"github.com/conform-suite/conform/vectors"
)

// Planted bugs: implementations that are the reference except for one
// deliberate fault each, as a porting team might make it. The differential
// fuzzer must find each, shrink it, and emit a vector that fails on the
// faulty implementation and passes on the reference.

type plantedBug struct {
	name  string
	op    string
	kind  Class // the kind of finding the fault produces
	count int   // executions the fuzzer gets to find it
	// alter turns the reference's answer to req into the faulty one.
	alter func(ctx context.Context, req protocol.Request, out json.RawMessage) json.RawMessage
	// check verifies the shrunk finding still shows the fault, from the
	// input and the answers alone.
	check func(t *testing.T, f *Finding)
}

func (p *plantedBug) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	resp, err := reference.InProcess{}.Call(ctx, req)
	if err != nil || req.Op != p.op || resp.Output == nil {
		return resp, err
	}
	resp.Output = p.alter(ctx, req, resp.Output)
	return resp, nil
}

func (p *plantedBug) Close() error { return nil }

// found reports whether f is the finding the fault is expected to produce.
func (p *plantedBug) found(f *Finding) bool { return f.Class == p.kind }

var plantedBugs = []*plantedBug{
	{
		name: "bytes-for-units", op: "quote.parse", kind: ClassRejectedWrongly, count: 4000,
		alter: func(_ context.Context, _ protocol.Request, out json.RawMessage) json.RawMessage {
			var o struct {
				Citation *struct{ Prefix, Suffix, Text string }
			}
			if json.Unmarshal(out, &o) != nil || o.Citation == nil {
				return out
			}
			// The fault: the limits counted in UTF-8 bytes, not UTF-16 units.
			if len(o.Citation.Prefix) > 32 || len(o.Citation.Suffix) > 32 {
				return json.RawMessage(`{"rejected":{"code":"QUOTE_CONTEXT_TOO_LONG"}}`)
			}
			if len(o.Citation.Text) > 8000 {
				return json.RawMessage(`{"rejected":{"code":"QUOTE_TEXT_TOO_LONG"}}`)
			}
			return out
		},
		check: func(t *testing.T, f *Finding) {
			var o struct {
				Citation struct{ Prefix, Suffix, Text string }
			}
			if err := json.Unmarshal(f.Expected, &o); err != nil {
				t.Fatalf("reference answer %s: %v", f.Expected, err)
			}
			c := o.Citation
			over := func(s string, limit int) bool { return len(s) > limit && units16(s) <= limit }
			if !over(c.Prefix, 32) && !over(c.Suffix, 32) && !over(c.Text, 8000) {
				t.Errorf("shrunk citation %+v has no field over its limit in bytes and within it in units", c)
			}
		},
	},
	{
		name: "surrogate-split-context", op: "quote.select", kind: ClassMismatch, count: 4000,
		alter: func(ctx context.Context, req protocol.Request, out json.RawMessage) json.RawMessage {
			var in struct{ Text string }
			var o struct {
				Selector *struct {
					Start, End int
				}
			}
			if json.Unmarshal(req.Input, &in) != nil || json.Unmarshal(out, &o) != nil || o.Selector == nil {
				return out
			}
			norm, err := reference.InProcess{}.Call(ctx, protocol.Request{ID: req.ID, Op: "quote.normalize", Input: mustJSON(map[string]string{"text": in.Text})})
			var n struct{ Text string }
			if err != nil || json.Unmarshal(norm.Output, &n) != nil {
				return out
			}
			u := utf16.Encode([]rune(n.Text))
			s, e := o.Selector.Start, o.Selector.End
			if s < 0 || e > len(u) || s > e {
				return out
			}
			// The fault: the context window is cut at 32 units even inside a
			// surrogate pair.
			tree, err := parseJSON16(out)
			if err != nil {
				return out
			}
			sel := tree.Get("selector")
			if p := sel.Get("prefix"); p != nil {
				p.Units = slices.Clone(u[max(0, s-32):s])
			}
			if x := sel.Get("suffix"); x != nil {
				x.Units = slices.Clone(u[e:min(len(u), e+32)])
			}
			return encode(tree)
		},
		check: func(t *testing.T, f *Finding) {
			if !strings.Contains(string(f.Actual), `\ud8`) && !strings.Contains(string(f.Actual), `\ud9`) &&
				!strings.Contains(string(f.Actual), `\udc`) && !strings.Contains(string(f.Actual), `\udd`) &&
				!strings.Contains(string(f.Actual), `\ude`) && !strings.Contains(string(f.Actual), `\udf`) {
				t.Errorf("faulty answer %s holds no lone surrogate", f.Actual)
			}
			if strings.Contains(string(f.Expected), `\ud`) {
				t.Errorf("reference answer %s holds a lone surrogate", f.Expected)
			}
		},
	},
	{
		name: "duplicate-comment-accepted", op: "quote.parse", kind: ClassAcceptedWrongly, count: 6000,
		alter: func(ctx context.Context, req protocol.Request, out json.RawMessage) json.RawMessage {
			var in struct{ Href string }
			if outputRefusal(out) == "" || json.Unmarshal(req.Input, &in) != nil {
				return out
			}
			// The fault: of several comment fields the last one wins.
			base, query, ok := strings.Cut(in.Href, "?")
			if !ok {
				return out
			}
			fields := strings.Split(query, "&")
			var comments []int
			for i, f := range fields {
				if k, _, _ := strings.Cut(f, "="); unescapeKey(k) == "comment" {
					comments = append(comments, i)
				}
			}
			if len(comments) < 2 {
				return out
			}
			for _, i := range slices.Backward(comments[:len(comments)-1]) {
				fields = slices.Delete(fields, i, i+1)
			}
			again, err := reference.InProcess{}.Call(ctx, protocol.Request{ID: req.ID, Op: req.Op, Input: mustJSON(map[string]string{"href": base + "?" + strings.Join(fields, "&")})})
			if err != nil || again.Output == nil {
				return out
			}
			return again.Output
		},
		check: func(t *testing.T, f *Finding) {
			var in struct{ Href string }
			if err := json.Unmarshal(f.Input, &in); err != nil {
				t.Fatal(err)
			}
			_, query, _ := strings.Cut(in.Href, "?")
			n := 0
			for _, field := range strings.Split(query, "&") {
				if k, _, _ := strings.Cut(field, "="); unescapeKey(k) == "comment" {
					n++
				}
			}
			if n < 2 {
				t.Errorf("shrunk href %q has %d comment fields, want 2 or more", in.Href, n)
			}
		},
	},
	{
		name: "stream-held-back", op: "marker.stream", kind: ClassMismatch, count: 1000,
		alter: func(_ context.Context, _ protocol.Request, out json.RawMessage) json.RawMessage {
			var o map[string]any
			if json.Unmarshal(out, &o) != nil {
				return out
			}
			deltas, ok := o["deltas"].([]any)
			if !ok || len(deltas) == 0 {
				return out
			}
			// The fault: nothing is released until the stream ends.
			for i := range deltas {
				deltas[i] = ""
			}
			deltas[len(deltas)-1] = o["text"]
			return mustJSON(o)
		},
		check: func(t *testing.T, f *Finding) {
			var o struct{ Deltas []string }
			if err := json.Unmarshal(f.Expected, &o); err != nil {
				t.Fatal(err)
			}
			if len(o.Deltas) < 2 || o.Deltas[0] == "" {
				t.Errorf("reference deltas %q: want text released before the end", o.Deltas)
			}
		},
	},
}

func unescapeKey(k string) string {
	if u, err := url.QueryUnescape(k); err == nil {
		return u
	}
	return k
}

func mustJSON(v any) json.RawMessage {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return data
}

// TestPlantedBugs fuzzes each planted bug in process: it is found, shrunk
// to a smaller input that still shows the fault, and emitted as a vector
// that fails on the faulty implementation and passes on the reference.
func TestPlantedBugs(t *testing.T) {
	for _, pb := range plantedBugs {
		t.Run(pb.name, func(t *testing.T) {
			rep, err := Run(context.Background(), Config{Impl: pb, Ops: []string{pb.op}, Seed: 1, Count: pb.count, StopWhen: pb.found})
			if err != nil {
				t.Fatal(err)
			}
			checkPlanted(t, pb, rep, pb)
		})
	}
}

func checkPlanted(t *testing.T, pb *plantedBug, rep *Report, faulty runner.Implementation) {
	t.Helper()
	i := slices.IndexFunc(rep.Findings, func(f *Finding) bool { return f.Class == pb.kind })
	if i < 0 {
		t.Fatalf("no %s finding in %d executions (findings: %d)", pb.kind, rep.Execs, len(rep.Findings))
	}
	for _, f := range rep.Findings {
		if f.Class == ClassReference {
			t.Errorf("the reference failed: %s on %s", f.Detail, f.Input)
		}
	}
	f := rep.Findings[i]
	if len(f.Input) > len(f.Original) {
		t.Errorf("shrunk input %s is longer than the original %s", f.Input, f.Original)
	}
	t.Logf("%s: %s shrunk from %d to %d bytes in %d runs: %.300s", pb.name, f.Class, len(f.Original), len(f.Input), f.ShrinkRuns, f.Input)
	pb.check(t, f)
	embedded, err := vectors.Load(vectors.FS())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	emitted, err := WriteVectors(dir, rep.Findings, embedded, Provenance{Impl: pb.name, Date: time.Now()})
	written, _ := emittedPaths(emitted)
	if err != nil || len(written) == 0 {
		t.Fatalf("WriteVectors = %v, %v", written, err)
	}
	checkVectorFiles(t, written)
	corpus, err := vectors.Load(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		impl runner.Implementation
		pass bool
	}{{reference.InProcess{}, true}, {faulty, false}} {
		r := &runner.Runner{Impl: tc.impl}
		for _, res := range r.Run(context.Background(), corpus.Vectors()) {
			if (res.Outcome == runner.Pass) != tc.pass {
				t.Errorf("%s on %T: %s, want pass=%v", res.Vector.ID, tc.impl, res.Outcome, tc.pass)
			}
		}
	}
}

// checkVectorFiles validates emitted vector files against the vector
// schema, and their inputs and outputs against their op's schema when
// schemas/ops has one; it returns the files' contents.
func checkVectorFiles(t *testing.T, paths []string) [][]byte {
	t.Helper()
	set, err := schemaset.Load()
	if err != nil {
		t.Fatal(err)
	}
	var all [][]byte
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, data)
		if err := set.Validate("vector.schema.json", "", data); err != nil {
			t.Errorf("%s: %v", path, err)
		}
		vf, err := vectors.Parse(path, data)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range vf.Vectors {
			if !set.Has("ops/" + v.Op + ".json") {
				continue
			}
			if err := set.Validate("ops/"+v.Op+".json", "/$defs/input", v.Input); err != nil {
				t.Errorf("%s: input: %v", v.ID, err)
			}
			if err := set.Validate("ops/"+v.Op+".json", "/$defs/output", v.Expect.Output); err != nil {
				t.Errorf("%s: expected output: %v", v.ID, err)
			}
		}
	}
	return all
}
