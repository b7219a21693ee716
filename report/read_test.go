package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/conform-suite/conform/runner"
	"github.com/conform-suite/conform/vectors"
)

// TestReadJSONRoundTrip: a JSON report read back into the runner's types
// and written again is the same document, byte for byte, so the page and
// any other reader see exactly what the run decided.
func TestReadJSONRoundTrip(t *testing.T) {
	rep := sampleReport(t)
	rep.Profile, rep.Shard = "vance", runner.Shard{I: 2, N: 3}
	rep.Results[0].Recorded = &vectors.Divergence{System: "vance", Record: vectors.Record{Reason: "recorded \u2028 answer"}}
	rep.Results[0].Codeless = &runner.CodelessRefusal{Member: "rejected", Code: "QUOTE_SCHEME"}
	rep.Results[1].Clipped, rep.Results[1].Actual = &runner.Clipped{Size: 1 << 20, SHA256: "ab", Prefix: "{\"text\":\"xx"}, nil
	var first bytes.Buffer
	if err := JSON(&first, rep); err != nil {
		t.Fatal(err)
	}
	back, err := ReadJSON(bytes.NewReader(first.Bytes()), rep.Spec)
	if err != nil {
		t.Fatal(err)
	}
	var second bytes.Buffer
	if err := JSON(&second, back); err != nil {
		t.Fatal(err)
	}
	if first.String() != second.String() {
		t.Errorf("written again, the report differs:\n%s\n---\n%s", first.String(), second.String())
	}
	if back.Failed() != rep.Failed() || back.Totals().Failed != rep.Totals().Failed || back.Shard != rep.Shard {
		t.Errorf("read back: failed %v, totals %+v, shard %v; want %v, %+v, %v", back.Failed(), back.Totals(), back.Shard, rep.Failed(), rep.Totals(), rep.Shard)
	}
}

// TestReadJSONRefuses: what is not a report, or holds a result without
// its id or with an outcome the runner never gives, is an error; members
// of a newer conform are ignored.
func TestReadJSONRefuses(t *testing.T) {
	for _, bad := range []string{`[]`, `{"suite_version":"x"}`, `not json`,
		`{"results":[{"op":"a.b","outcome":"pass"}]}`,
		`{"results":[{"id":"a.b/c","op":"a.b","outcome":"passed-probably"}]}`,
		`{"results":[{"id":"a.b/c","op":"a.b","outcome":"fail","request":"not a request"}]}`,
		`{"started":"yesterday","results":[]}`, `{"shard":"3/2","results":[]}`,
	} {
		if _, err := ReadJSON(strings.NewReader(bad), nil); err == nil {
			t.Errorf("ReadJSON(%s) = nil error", bad)
		}
	}
	r, err := ReadJSON(strings.NewReader(`{"future":{"x":1},"profile":{"name":"t3code"},"results":[{"id":"a.b/c","op":"a.b","outcome":"pass","new":true}]}`), nil)
	if err != nil || len(r.Results) != 1 || r.Profile != "t3code" || !strings.HasPrefix(r.Results[0].Vector.ID, "a.b/") {
		t.Errorf("ReadJSON(newer report) = %+v, %v", r, err)
	}
}
