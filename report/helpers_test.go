package report

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/runner"
	"github.com/conform-suite/conform/spec"
	"github.com/conform-suite/conform/vectors"
)

func testVectors() []*vectors.Vector {
	mk := func(id string, reqs []string, tags ...string) *vectors.Vector {
		op, _, _ := strings.Cut(id, "/")
		return &vectors.Vector{ID: id, Op: op, Requirements: reqs, Tags: tags, Input: json.RawMessage(`{}`), Expect: vectors.Expect{Output: json.RawMessage(`{}`)}}
	}
	return []*vectors.Vector{
		mk("quote.parse/duplicate-text", []string{"QUOTE-LINK-012"}, "boundary"),
		mk("quote.parse/lone-surrogate", []string{"QUOTE-LINK-020"}, "astral"),
		mk("quote.format/plain", []string{"QUOTE-LINK-001"}),
		mk("marker.strip/astral-offset", []string{"MARKER-STRIP-004"}, "astral"),
		mk("selref.ingest/long-label", []string{"SELREF-INGEST-003", "SELREF-INGEST-004"}),
	}
}

// scripted answers each request with the answer written for its input's
// href, byte for byte.
type scripted map[string]string

func profileVectors(t *testing.T) []*vectors.Vector {
	t.Helper()
	f, err := vectors.Parse("parse.json", []byte(profileCorpus))
	if err != nil {
		t.Fatal(err)
	}
	return f.Vectors
}

// rollupReport is a run over rollupSpec: TEST-R-001 passes, TEST-R-002
// fails on two of its three vectors, TEST-R-003 is unsupported, TEST-R-004
// is named by no vector, TEST-R-005 passes where supported, TEST-R-006 is
// informative, TEST-R-007 is an expected failure.
func rollupReport(t *testing.T) *runner.Report {
	t.Helper()
	s, err := spec.Load(fstest.MapFS{"test.md": {Data: []byte(rollupSpec)}})
	if err != nil {
		t.Fatal(err)
	}
	vec := func(id string, reqs ...string) *vectors.Vector {
		return &vectors.Vector{ID: id, Op: "t.op", Requirements: reqs}
	}
	return &runner.Report{Spec: s, Results: []runner.Result{
		{Vector: vec("t/a1", "TEST-R-001", "TEST-R-002"), Outcome: runner.Pass},
		{Vector: vec("t/a2", "TEST-R-001"), Outcome: runner.Pass},
		{Vector: vec("t/b1", "TEST-R-002"), Outcome: runner.Fail},
		{Vector: vec("t/b2", "TEST-R-002"), Outcome: runner.Crash},
		{Vector: vec("t/c1", "TEST-R-003"), Outcome: runner.Unsupported},
		{Vector: vec("t/e1", "TEST-R-005", "TEST-R-006"), Outcome: runner.Pass},
		{Vector: vec("t/e2", "TEST-R-005"), Outcome: runner.Unsupported},
		{Vector: vec("t/f1", "TEST-R-007"), Outcome: runner.XFail},
	}}
}

const mb = 1 << 20

// profileCorpus has one vector per way a profile can grade: a recorded
// output, a recorded error, a recorded refusal without a code, and no record
// at all (graded as under the default profile).
const profileCorpus = `{"op": "quote.parse", "description": "d", "vectors": [
  {"id": "quote.parse/out", "description": "d", "requirements": ["QUOTE-LINK-001"], "input": {"href": "1"},
   "expect": {"output": {"rejected": {"code": "QUOTE_SCHEME"}}},
   "divergences": [{"system": "t3code", "reason": "r1", "output": {"citation": {"text": "\udc00"}}}]},
  {"id": "quote.parse/err", "description": "d", "requirements": ["QUOTE-LINK-001"], "input": {"href": "2"},
   "expect": {"output": {"rejected": {"code": "QUOTE_SCHEME"}}},
   "divergences": [{"system": "t3code", "reason": "r2", "error": {"kind": "internal", "message": "URIError"}}]},
  {"id": "quote.parse/refuses", "description": "d", "requirements": ["QUOTE-LINK-001"], "input": {"href": "3"},
   "expect": {"output": {"citation": {"text": "a"}}},
   "divergences": [{"system": "t3code", "reason": "r3", "output": {"rejected": {}}}]},
  {"id": "quote.parse/plain", "description": "d", "requirements": ["QUOTE-LINK-001"], "input": {"href": "4"},
   "expect": {"output": {"citation": {"text": "b"}}}}
]}`

const rollupSpec = `# Test

- **TEST-R-001**: An implementation MUST do a.
- **TEST-R-002**: An implementation MUST NOT do b.
- **TEST-R-003**: An implementation MUST do c.
- **TEST-R-004**: An implementation MUST do d.
- **TEST-R-005**: An implementation SHOULD do e.
- **TEST-R-006**: A term is defined here.
- **TEST-R-007**: An implementation MAY do f.
`

func (s scripted) Call(_ context.Context, req protocol.Request) (protocol.Response, error) {
	var in struct{ Href string }
	json.Unmarshal(req.Input, &in)
	var resp protocol.Response
	if err := json.Unmarshal([]byte(s[in.Href]), &resp); err != nil {
		return protocol.Response{}, err
	}
	resp.ID = req.ID
	return resp, nil
}

func (scripted) Close() error { return nil }
