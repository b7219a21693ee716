package fuzz

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/conform-suite/conform/internal/jsonv"
	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/reference"
	"github.com/conform-suite/conform/runner"
	"github.com/conform-suite/conform/vectors"
)

// Every op the reference offers has an input schema whose closed objects
// the out-of-schema generator faults; every fault at every closed object is
// drawn, and the reference refuses every input drawn with bad_request
// (PROTO-ERROR-003, -005): the schema and the reference agree on what is
// outside an op's shape.
func TestOutsideSchemaFaultsEveryClosedObject(t *testing.T) {
	corpus, err := vectors.Load(vectors.FS())
	if err != nil {
		t.Fatal(err)
	}
	e := newEngine(Config{Corpus: corpus}, false)
	for _, op := range reference.Ops() {
		if op == "hello" {
			continue
		}
		sites := faultSites[op]
		if len(sites) == 0 {
			t.Errorf("%s: no closed object in its input schema to fault", op)
			continue
		}
		want := map[string]bool{}
		for _, s := range sites {
			for _, f := range s.faults {
				want[siteName(s)+" "+f] = true
			}
		}
		seen := map[string]bool{}
		for i := range 40 * len(want) {
			r := newCaseRand(7, uint64(i))
			base := jobj()
			if gen := inputGens[op]; gen != nil && i%2 == 0 {
				base = gen(r)
			} else if seeds := e.seeds[op]; len(seeds) > 0 {
				base = pickOne(r, seeds).v
			}
			in, site, fault := outsideSchema(r, op, base)
			seen[siteName(site)+" "+fault] = true
			data := encode(in)
			resp, err := reference.InProcess{}.Call(context.Background(), protocol.Request{ID: protocol.IntID(1), Op: op, Input: data})
			if err != nil || resp.Error == nil || resp.Error.Kind != protocol.KindBadRequest {
				t.Errorf("%s: %s at %s: the reference answers %s %v to %s, want bad_request", op, fault, siteName(site), resp.Output, resp.Error, data)
			}
		}
		for k := range want {
			if !seen[k] {
				t.Errorf("%s: %s never drawn", op, k)
			}
		}
	}
	// The nested objects PROTO-ERROR-005 names are among the sites.
	for op, path := range map[string]string{"quote.format": "$citation", "quote.comment": "$citation", "quote.nav_encode": "$citation",
		"quote.resolve": "$selector", "marker.strip": "$parts.[]", "marker.stream": "$parts.[]"} {
		if !slices.ContainsFunc(faultSites[op], func(s faultSite) bool { return siteName(s) == path }) {
			t.Errorf("%s: no fault site %s", op, path)
		}
	}
}

// typedDecoder is a port of quote.parse that reads its input into a typed
// struct, as many languages' JSON decoders do: unknown members are ignored,
// a member name is matched without regard to case, and of a member named
// twice the last wins. The reference answers the input it decoded.
type typedDecoder struct{ ops []string }

func (d typedDecoder) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	if !slices.Contains(d.ops, req.Op) {
		return reference.InProcess{}.Call(ctx, req)
	}
	var in struct {
		Href *string `json:"href"`
	}
	if err := json.Unmarshal(req.Input, &in); err != nil || in.Href == nil {
		return protocol.ErrorAnswer(req.ID, protocol.KindBadRequest, "no href"), nil
	}
	// The reference reads the decoded value when the runner gives one.
	req.Input, _ = json.Marshal(map[string]string{"href": *in.Href})
	req.Value = nil
	return reference.InProcess{}.Call(ctx, req)
}

func (typedDecoder) Close() error { return nil }

// A port that accepts inputs the reference refuses as bad requests is
// found: the input goes to it as well, its output is accepted-wrongly, and
// the finding's vector expects the bad_request (an input naming a member
// twice as input_text), failing the port and passing the reference.
func TestRefusedInputAcceptedWronglyIsFound(t *testing.T) {
	port := typedDecoder{ops: []string{"quote.parse"}}
	rep := parseRun(t, 3, Config{Impl: port, Parallel: 4})
	var found *Finding
	for _, f := range rep.Findings {
		if f.Class == ClassAcceptedWrongly && f.ExpectError == protocol.KindBadRequest {
			found = f
		} else {
			t.Errorf("unexpected finding %s: %s", f.Signature, f.Input)
		}
	}
	if found == nil {
		t.Fatalf("no accepted-wrongly finding of a bad request in %d findings (%d inputs refused)", len(rep.Findings), rep.Refused)
	}
	if found.Signature != "quote.parse accepted-wrongly reference bad_request" {
		t.Errorf("signature %q", found.Signature)
	}
	if rep.Refused == 0 || rep.Skipped != 0 {
		t.Errorf("refused %d, skipped %d: want refused inputs judged, none skipped", rep.Refused, rep.Skipped)
	}
	// The same seed finds the same finding whatever the parallelism.
	if again := parseRun(t, 3, Config{Impl: port, Parallel: 1}); len(again.Findings) != 1 || string(again.Findings[0].Input) != string(found.Input) {
		t.Errorf("with --parallel 1: %d findings, first %s; with 4: %s", len(again.Findings), firstInput(again), found.Input)
	}
	replaysRefused(t, found, port)

	// An input naming a member twice: the shrunk finding keeps both, and
	// its vector carries them as input_text.
	twice := &Finding{Op: "quote.parse", Class: ClassAcceptedWrongly, Signature: found.Signature, ExpectError: protocol.KindBadRequest,
		Expected: badRequestBody, Input: json.RawMessage(`{"href":"a","href":"t3-citation://v1/a/b/c?text=x&start=0&end=1&prefix=&suffix="}`)}
	twice.Original = twice.Input
	data := replaysRefused(t, twice, port)
	if !strings.Contains(string(data), `"input_text":`) || strings.Contains(string(data), `"input":`) {
		t.Errorf("a vector of an input naming a member twice holds it as input, not input_text:\n%s", data)
	}
}

// siteName is the path of a fault site: $ for the input, $citation, $parts.[].
func siteName(f faultSite) string { return "$" + strings.Join(f.path, ".") }

func firstInput(r *Report) string {
	if len(r.Findings) == 0 {
		return "none"
	}
	return string(r.Findings[0].Input)
}

// replaysRefused writes f as a vector file, loads it back and runs it: it
// expects the bad_request, fails port and passes the reference. It returns
// the file.
func replaysRefused(t *testing.T, f *Finding, port runner.Implementation) []byte {
	t.Helper()
	dir := t.TempDir()
	embedded, err := vectors.Load(vectors.FS())
	if err != nil {
		t.Fatal(err)
	}
	emitted, err := WriteVectors(dir, []*Finding{f}, embedded, Provenance{Impl: "typed-decoder", Date: time.Now()})
	if err != nil || len(emitted) != 1 {
		t.Fatalf("WriteVectors = %v, %v", emitted, err)
	}
	data, err := os.ReadFile(emitted[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	corpus, err := vectors.Load(os.DirFS(dir))
	if err != nil {
		t.Fatalf("the finding's vector file does not load: %v\n%s", err, data)
	}
	vs := corpus.Vectors()
	if len(vs) != 1 || vs[0].Expect.Error == nil || vs[0].Expect.Error.Kind != protocol.KindBadRequest {
		t.Fatalf("the vector expects %+v, want error bad_request:\n%s", vs[0].Expect, data)
	}
	if _, err := jsonv.Parse(vs[0].Input); errors.Is(err, jsonv.ErrDuplicateName) != (vs[0].InputText != "") {
		t.Errorf("input %s: input_text %q", vs[0].Input, vs[0].InputText)
	}
	for name, tc := range map[string]struct {
		impl runner.Implementation
		fail bool
	}{"the port": {port, true}, "the reference": {reference.InProcess{}, false}} {
		res := (&runner.Runner{Impl: tc.impl}).Run(context.Background(), vs)
		if res[0].Failed() != tc.fail {
			t.Errorf("replayed on %s: %s %s, want failed=%v\n%s", name, res[0].Outcome, res[0].Detail, tc.fail, data)
		}
	}
	return data
}

// With another implementation as the oracle, its bad_request means the
// same: the port accepting what both the oracle and the reference refuse
// is port-off-spec, and its vector expects the bad_request.
func TestRefusedByTheOracleToo(t *testing.T) {
	port := typedDecoder{ops: []string{"quote.parse"}}
	oracle := typedDecoder{} // the reference, behind another implementation
	rep := parseRun(t, 3, Config{Impl: port, Ref: oracle, Parallel: 4})
	if len(rep.Findings) != 1 {
		t.Fatalf("%d findings, want 1", len(rep.Findings))
	}
	f := rep.Findings[0]
	if f.Class != ClassAcceptedWrongly || f.Triage != TriagePort || f.ExpectError != protocol.KindBadRequest || f.OracleError != protocol.KindBadRequest {
		t.Fatalf("finding %s: class %s, triage %s, expect error %q, oracle error %q", f.Signature, f.Class, f.Triage, f.ExpectError, f.OracleError)
	}
	replaysRefused(t, f, port)
}
