package runner

import (
	"context"
	"testing"

	"github.com/conform-suite/conform/internal/jsonv"
	"github.com/conform-suite/conform/protocol"

	"github.com/conform-suite/conform/vectors"
)

func TestCodelessRefusal(t *testing.T) {
	tests := []struct {
		want, got string
		codeless  *CodelessRefusal
	}{
		{`{"rejected":{"code":"bad_href"}}`, `{"rejected":{}}`, &CodelessRefusal{"rejected", "bad_href"}},
		{`{"dropped":{"code":"control"}}`, `{"dropped":{"code":null}}`, &CodelessRefusal{"dropped", "control"}},
		{`{"rejected":{"code":"bad_href"}}`, `{"rejected":{"code":"bad_href"}}`, nil},
		{`{"rejected":{}}`, `{"rejected":{}}`, nil},
		{`{"text":"a"}`, `{"text":"a"}`, nil},
		{`{"rejected":{"code":"x"}}`, `not json`, nil},
		{`{"rejected":{"code":"x"}}`, `{"rejected":"no"}`, nil},
		{`{"rejected":{"code":7}}`, `{"rejected":{}}`, nil},
		{`{"rejected":{"code":null}}`, `{"rejected":{}}`, nil},
		{`{"dropped":{"code":"x"}}`, `{"rejected":{}}`, nil},
	}
	for _, tt := range tests {
		want, err := jsonv.Parse([]byte(tt.want))
		if err != nil {
			t.Fatal(err)
		}
		got, _ := jsonv.Parse([]byte(tt.got)) // nil when not JSON
		c := codelessRefusal(want, got)
		if (c == nil) != (tt.codeless == nil) || c != nil && *c != *tt.codeless {
			t.Errorf("codelessRefusal(%s, %s) = %+v, want %+v", tt.want, tt.got, c, tt.codeless)
		}
	}
}

// TestInterruptedRun runs the corpus with a context the caller already
// cancelled: nothing is judged and every vector is interrupted.
func TestInterruptedRun(t *testing.T) {
	corpus, err := vectors.Load(vectors.FS())
	if err != nil {
		t.Fatal(err)
	}
	vs := corpus.Vectors()[:50]
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := &Runner{Impl: InProcess{}, Parallel: 4}
	rep := &Report{Results: r.Run(ctx, vs)}
	for _, res := range rep.Results {
		if res.Outcome != Interrupted {
			t.Fatalf("%s = %s (%s), want interrupted", res.Vector.ID, res.Outcome, res.Detail)
		}
	}
	tot := rep.Totals()
	if tot.Interrupted != 50 || tot.Passed != 0 || tot.Failed != 0 || !rep.Failed() || len(rep.Problems()) != 2 {
		t.Errorf("totals %+v, failed %v, problems %q", tot, rep.Failed(), rep.Problems())
	}
}

// TestRequireOps: an unsupported vector of a required op fails the run, one
// of an op not required stays skipped.
func TestRequireOps(t *testing.T) {
	corpus, err := vectors.Load(vectors.FS())
	if err != nil {
		t.Fatal(err)
	}
	var vs []*vectors.Vector
	for _, v := range corpus.Vectors() {
		if v.Op == "quote.parse" || v.Op == "selref.replay" {
			vs = append(vs, v)
		}
	}
	r := &Runner{Impl: InProcess{}, Hello: &protocol.Hello{Protocol: 1, Ops: []string{"quote.parse"}}, RequireOps: RequiredOps{Ops: []string{"selref.replay"}}}
	rep := &Report{Results: r.Run(context.Background(), vs)}
	parse, replay := 0, 0
	for _, res := range rep.Results {
		switch {
		case res.Vector.Op == "quote.parse" && res.Outcome == Pass:
			parse++
		case res.Vector.Op == "selref.replay" && res.Outcome == Unsupported && res.Required && res.Failed():
			replay++
		default:
			t.Errorf("%s = %s (required %v)", res.Vector.ID, res.Outcome, res.Required)
		}
	}
	if tot := rep.Totals(); tot.Passed != parse || tot.Failed != replay || tot.Skipped != 0 || replay == 0 || !rep.Failed() {
		t.Errorf("totals %+v; want %d passed, %d failed", tot, parse, replay)
	}
	r.RequireOps = RequiredOps{}
	rep = &Report{Results: r.Run(context.Background(), vs)}
	if tot := rep.Totals(); tot.Passed != parse || tot.Failed != 0 || tot.Skipped != replay || rep.Failed() {
		t.Errorf("without --require-ops: totals %+v; want %d passed, %d skipped", tot, parse, replay)
	}
}
