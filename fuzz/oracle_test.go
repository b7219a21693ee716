package fuzz

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/runner"
	"github.com/conform-suite/conform/vectors"
)

// codelessOracle answers as the toy does, but refuses without a code, as
// an incumbent that cannot say why it refuses.
type codelessOracle struct{}

func (codelessOracle) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	resp, err := toyImpl{toyCorrect}.Call(ctx, req)
	if err == nil && strings.Contains(string(resp.Output), "rejected") {
		resp.Output = json.RawMessage(`{"rejected":{}}`)
	}
	return resp, err
}

func (codelessOracle) Close() error { return nil }

// TestOracleOtherThanTheReference fuzzes with oracles that are not the
// reference: the findings are judged against the oracle's answers, and the
// emitted vectors expect them and say so.
func TestOracleOtherThanTheReference(t *testing.T) {
	// The correct toy against an oracle that counts bytes: where they
	// differ, the oracle's answer (a refusal) is the expected one.
	rep := toyRun(t, toyCorrect, func(c *Config) { c.Ref = toyImpl{toyCountBytes} })
	if len(rep.Findings) == 0 {
		t.Fatal("no finding against an oracle that counts bytes")
	}
	dir := t.TempDir()
	p := Provenance{Impl: "--stdio port", Oracle: "--oracle incumbent", Date: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)}
	emitted, err := WriteVectors(dir, rep.Findings, toyCorpus(t), p)
	if err != nil || len(emitted) != len(rep.Findings) {
		t.Fatalf("WriteVectors: %d of %d written, %v", len(emitted), len(rep.Findings), err)
	}
	c, err := vectors.Load(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range c.Files {
		v := f.Vectors[0]
		if !v.HasTag("oracle:external") || v.HasTag("oracle:reference") {
			t.Errorf("%s: tags %v, want oracle:external", v.ID, v.Tags)
		}
		if !strings.Contains(f.Note, "with --oracle incumbent as the oracle") || !strings.Contains(v.Description, "against another oracle than the reference") {
			t.Errorf("%s: note %q and description %q do not name the oracle", v.ID, f.Note, v.Description)
		}
		if strings.Contains(v.Description, "the reference refuses") {
			t.Errorf("%s: description %q credits the reference with the oracle's answer", v.ID, v.Description)
		}
	}
	// The vectors expect the oracle's answers: the oracle passes them, the
	// implementation fails every one.
	for name, impl := range map[string]runner.Implementation{"oracle": toyImpl{toyCountBytes}, "implementation": toyImpl{toyCorrect}} {
		for _, res := range (&runner.Runner{Impl: impl}).Run(context.Background(), c.Vectors()) {
			if (res.Outcome == runner.Pass) != (name == "oracle") {
				t.Errorf("%s on %s: %s", name, res.Vector.ID, res.Kind())
			}
		}
	}

	// An oracle's internal error agrees with the same error kind, and is an
	// oracle-error finding, without a vector, against anything else.
	rep = toyRun(t, toyErrorOnPercent, func(c *Config) { c.Ref = toyImpl{toyErrorOnPercent} })
	if len(rep.Findings) != 0 {
		t.Errorf("an error of the same kind as the oracle's: findings %+v", rep.Findings[0])
	}
	rep = toyRun(t, toyCorrect, func(c *Config) { c.Ref = toyImpl{toyErrorOnPercent} })
	if len(rep.Findings) != 1 || rep.Findings[0].Class != ClassOracle || !strings.Contains(rep.Findings[0].Detail, "the oracle answered error internal (boom); the implementation an output") {
		t.Fatalf("against an oracle that fails on %%: findings %+v, want one oracle-error", rep.Findings)
	}
	if emitted, err := WriteVectors(t.TempDir(), rep.Findings, toyCorpus(t), p); err != nil || len(emitted) != 0 {
		t.Errorf("an oracle-error finding was written: %v, %v", emitted, err)
	}

	// An oracle refusing without a code agrees with a refusal of any code.
	rep = toyRun(t, toyCorrect, func(c *Config) { c.Ref = codelessOracle{} })
	if len(rep.Findings) != 0 {
		t.Errorf("against an oracle refusing without codes: findings %+v", rep.Findings[0])
	}
	// ...but not with an answer that does not refuse.
	rep = toyRun(t, toyCountBytes, func(c *Config) { c.Ref = codelessOracle{} })
	kinds := []Class{}
	for _, f := range rep.Findings {
		kinds = append(kinds, f.Class)
	}
	if !slices.Contains(kinds, ClassRejectedWrongly) {
		t.Errorf("byte counter against a codeless oracle: kinds %v, want rejected-wrongly", kinds)
	}
}

// brokenOracle answers hello as the toy does and every other request with
// an output that is not JSON.
type brokenOracle struct{}

func (brokenOracle) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	if req.Op == "hello" {
		return toyImpl{toyCorrect}.Call(ctx, req)
	}
	return protocol.Response{ID: req.ID, Output: json.RawMessage(`{"text":`)}, nil
}

func (brokenOracle) Close() error { return nil }

// TestOracleOutputNotJSON: an oracle whose output is not JSON fails the
// oracle, never the implementation: the findings are oracle errors naming
// the oracle's output, and no vector is written of them.
func TestOracleOutputNotJSON(t *testing.T) {
	rep := toyRun(t, toyCorrect, func(c *Config) { c.Ref = brokenOracle{} })
	if len(rep.Findings) == 0 {
		t.Fatal("no finding against an oracle whose output is not JSON")
	}
	for _, f := range rep.Findings {
		if f.Class != ClassOracle || !strings.HasPrefix(f.Detail, "the oracle's output: ") {
			t.Errorf("finding %s %q, want an oracle error about the oracle's output", f.Class, f.Detail)
		}
	}
	if emitted, err := WriteVectors(t.TempDir(), rep.Findings, toyCorpus(t), Provenance{Date: time.Now()}); err != nil || len(emitted) != 0 {
		t.Errorf("oracle-error findings were written: %v, %v", emitted, err)
	}
}
