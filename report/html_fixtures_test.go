package report

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/runner"
	"github.com/conform-suite/conform/vectors"
)

// The page's fixtures are JSON reports that the runner writes, of two
// implementations run over a small corpus of echo-like vectors:
//
//   - alpha offers quote.parse and marker.strip, and answers marker.strip/b
//     wrongly;
//   - neither offers selref.ingest;
//   - beta (its name and version are hostile markup) offers quote.parse
//     only, is run under the vance profile, answers quote.parse/a as vance
//     is recorded to, and fails quote.parse/b with an internal error whose
//     message is markup.
const fixtureCorpus = `{"op":"quote.parse","description":"Fixture.","vectors":[
 {"id":"quote.parse/a","description":"a","requirements":["QUOTE-LINK-001","QUOTE-LINK-002"],"input":{"text":"a"},"expect":{"output":{"text":"a"}},
  "divergences":[{"system":"vance","reason":"recorded","output":{"text":"vance"}}]},
 {"id":"quote.parse/b","description":"b","requirements":["QUOTE-LINK-002"],"input":{"text":"b"},"expect":{"output":{"text":"b"}}}]}`

const fixtureMarker = `{"op":"marker.strip","description":"Fixture.","vectors":[
 {"id":"marker.strip/a","description":"a","requirements":["MARKER-STRIP-001"],"input":{"text":"w"},"expect":{"output":{"text":"w"}}},
 {"id":"marker.strip/b","description":"b","requirements":["MARKER-STRIP-001"],"input":{"text":"x"},"expect":{"output":{"text":"x"}}},
 {"id":"marker.strip/c","description":"c","requirements":["MARKER-STRIP-002"],"input":{"text":"z"},"expect":{"output":{"text":"z"}}}]}`

const fixtureSelref = `{"op":"selref.ingest","description":"Fixture.","vectors":[
 {"id":"selref.ingest/a","description":"a","requirements":["SELREF-LABEL-001"],"input":{"text":"s"},"expect":{"output":{"text":"s"}}}]}`

// fixtureImpl echoes its input as its output, but for the faults above.
type fixtureImpl struct {
	hello string
	wrong map[string]json.RawMessage // input text -> output
	fail  map[string]string          // input text -> internal error message
}

func (f fixtureImpl) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	resp := protocol.Response{ID: req.ID}
	if req.Op == "hello" {
		resp.Output = json.RawMessage(f.hello)
		return resp, nil
	}
	var in struct{ Text string }
	json.Unmarshal(req.Input, &in)
	switch {
	case f.fail[in.Text] != "":
		resp.Error = &protocol.Error{Kind: protocol.KindInternal, Message: f.fail[in.Text]}
	case f.wrong[in.Text] != nil:
		resp.Output = f.wrong[in.Text]
	default:
		resp.Output = req.Input
	}
	return resp, nil
}

func (fixtureImpl) Close() error { return nil }

// runReport runs the fixture implementation named (alpha.json or
// beta.json) and returns the JSON report the runner writes.
func runReport(t *testing.T, name string) []byte {
	t.Helper()
	c, err := vectors.Load(fstest.MapFS{
		"quote/parse.json":   {Data: []byte(fixtureCorpus)},
		"marker/strip.json":  {Data: []byte(fixtureMarker)},
		"selref/ingest.json": {Data: []byte(fixtureSelref)},
	})
	if err != nil {
		t.Fatal(err)
	}
	impl, profile, transport := fixtureImpl{
		hello: `{"protocol":1,"name":"alpha","version":"1.0","language":"go","ops":["quote.parse","marker.strip"]}`,
		wrong: map[string]json.RawMessage{"x": json.RawMessage(`{"text":"y"}`)},
	}, "", "stdio: alpha"
	if name == "beta.json" {
		hostile, _ := json.Marshal("<script>document.documentElement.setAttribute('data-pwned','1')</script>beta")
		version, _ := json.Marshal(`2"><img src=x onerror=alert(1)>`)
		impl = fixtureImpl{
			hello: `{"protocol":1,"name":` + string(hostile) + `,"version":` + string(version) + `,"language":"rust","ops":["quote.parse"]}`,
			wrong: map[string]json.RawMessage{"a": json.RawMessage(`{"text":"vance"}`)},
			fail:  map[string]string{"b": "</pre><script>document.documentElement.setAttribute('data-pwned','2')</script>"},
		}
		profile, transport = "vance", "http: http://127.0.0.1:1/"
	}
	ctx := context.Background()
	hello, err := runner.Connect(ctx, impl)
	if err != nil {
		t.Fatal(err)
	}
	r := &runner.Runner{Impl: impl, Hello: hello, Timeout: time.Minute, Profile: profile}
	results := r.Run(ctx, c.Vectors())
	rep := &runner.Report{SuiteVersion: runner.SuiteVersion, Implementation: hello, Transport: transport, Started: time.Unix(0, 0), Results: results, Profile: profile}
	var b bytes.Buffer
	if err := JSON(&b, rep); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestPageJudgesFromResults: a JSON report edited to claim it passed (its
// verdict and totals) over a failing result is shown failed: the page
// takes the verdict and counts from the results, as the run made them.
func TestPageJudgesFromResults(t *testing.T) {
	var doc map[string]any
	if err := json.Unmarshal(runReport(t, "alpha.json"), &doc); err != nil {
		t.Fatal(err)
	}
	doc["verdict"] = map[string]any{"passed": true, "problems": []any{}}
	doc["totals"].(map[string]any)["failed"] = 0
	lie, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	r, err := ReadJSON(bytes.NewReader(lie), nil)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := HTML(&b, []Page{{File: "alpha.json", Report: r}}, nil); err != nil {
		t.Fatal(err)
	}
	if page := b.String(); !strings.Contains(page, "✗ verdict: failed") || strings.Contains(page, "✓ verdict: passed") || !strings.Contains(page, " 1 fail,") {
		t.Errorf("a report claiming to pass over a failing result is not shown failed with its failure counted")
	}
}
