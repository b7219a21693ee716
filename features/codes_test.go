package features

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/conform-suite/conform/internal/jsonv"
	"github.com/conform-suite/conform/protocol"
)

// canned answers every op but hello with the output its input's member
// "output" holds, written as is, and records each request's input. Its
// hello offers ops.
type canned struct {
	ops  []string
	mu   *sync.Mutex
	seen *[]json.RawMessage
}

func newCanned(ops ...string) canned {
	return canned{ops: ops, mu: &sync.Mutex{}, seen: &[]json.RawMessage{}}
}

func (c canned) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	resp := protocol.Response{ID: req.ID}
	if req.Op == "hello" {
		ops, _ := json.Marshal(c.ops)
		resp.Output = json.RawMessage(`{"protocol":1,"name":"canned","version":"0","language":"go","ops":` + string(ops) + `}`)
		return resp, nil
	}
	c.mu.Lock()
	*c.seen = append(*c.seen, req.Input)
	c.mu.Unlock()
	v, err := jsonv.Parse(req.Input)
	if err != nil {
		return resp, err
	}
	out := v.Get("output")
	if out == nil {
		out = &jsonv.Value{Type: jsonv.Object}
	}
	resp.Output = jsonv.Append(nil, out)
	return resp, nil
}

func (canned) Close() error { return nil }

// TestRefusalCodes: a refusal's code is judged as the runner judges it. A
// code of another type, an empty code or a refusal that is no object fails;
// a missing or null code passes, counted as codeless, and fails under
// RequireCodes.
func TestRefusalCodes(t *testing.T) {
	tests := []struct {
		name, output string
		status       int // without RequireCodes
		codeless     int
	}{
		{"right code", `{"rejected":{"code":"A"}}`, StatusOK, 0},
		{"number code", `{"rejected":{"code":123}}`, StatusFailed, 0},
		{"empty code", `{"rejected":{"code":""}}`, StatusFailed, 0},
		{"other code", `{"rejected":{"code":"B"}}`, StatusFailed, 0},
		{"code written twice", `{"rejected":{"code":"B","code":"A"}}`, StatusFailed, 0},
		{"not an object", `{"rejected":"A"}`, StatusFailed, 0},
		{"no code", `{"rejected":{"message":"no"}}`, StatusOK, 1},
		{"null code", `{"rejected":{"code":null}}`, StatusOK, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "Feature: f\n  Scenario: s\n    When \"test.answer\" is called with {\"output\": " + tt.output + "}\n    Then the input is rejected with code \"A\"\n"
			fsys := fstest.MapFS{"f.feature": {Data: []byte(src)}}
			for _, require := range []bool{false, true} {
				var tally Tally
				opts := Options{Impl: newCanned("test.answer"), FS: fsys, Format: "progress", NoColors: true, RequireCodes: require, Tally: &tally}
				want := tt.status
				if require && tt.codeless > 0 {
					want = StatusFailed
				}
				if got := runLogged(t, opts); got != want {
					t.Errorf("RequireCodes %v: status %d, want %d", require, got, want)
				}
				if len(tally.Codeless) != tt.codeless || tt.codeless > 0 && (tally.Codeless[0].Failed != require || tally.Codeless[0].Code != "A" || tally.Codeless[0].Member != "rejected") {
					t.Errorf("RequireCodes %v: codeless %+v, want %d", require, tally.Codeless, tt.codeless)
				}
			}
		})
	}
}

// TestChainedLoneSurrogate: a step that resends a string the
// implementation answered sends its lone surrogate back as it came, not
// U+FFFD.
func TestChainedLoneSurrogate(t *testing.T) {
	src := `Feature: f
  Scenario: marker
    Given the model writes "x"
    When "marker.strip" is called with {"output": {"text": "a\ud83d b\ud83d\ude00"}}
    And the server strips the markers of that text again

  Scenario: quote
    Given an assistant response rendered from the HTML:
      """
      <p>x</p>
      """
    When the user triple-clicks, the browser reporting 0 to 1
`
	fsys := fstest.MapFS{"f.feature": {Data: []byte(src)}}
	impl := newCanned("marker.strip", "quote.dom_text", "quote.select")
	// quote.dom_text answers the canned output of any call without one.
	dom := domText{impl}
	if got := Run(Options{Impl: dom, FS: fsys, Format: "progress", NoColors: true, Output: logOutput(t)}); got != StatusOK {
		t.Fatalf("status %d, want %d", got, StatusOK)
	}
	var resent []string
	for _, in := range *impl.seen {
		v, err := jsonv.Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		if text := v.Get("text"); text != nil {
			resent = append(resent, string(jsonv.AppendString(nil, text.CodeUnits())))
		}
	}
	want := []string{`"a\ud83d b😀"`, `"c\udc00d"`}
	if strings.Join(resent, " ") != strings.Join(want, " ") {
		t.Errorf("texts sent %v, want %v", resent, want)
	}
}

// domText is canned, but answers quote.dom_text with a text holding a lone
// low surrogate.
type domText struct{ canned }

func (d domText) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	if req.Op == "quote.dom_text" {
		return protocol.Response{ID: req.ID, Output: json.RawMessage(`{"text":"c\udc00d","breaks":[]}`)}, nil
	}
	return d.canned.Call(ctx, req)
}
