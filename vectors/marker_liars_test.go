package vectors_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/reference"
	"github.com/conform-suite/conform/runner"
	"github.com/conform-suite/conform/vectors"
)

// Liars of the marker suite: the reference with one answer rewritten as an
// implementation that keeps an old or a careless behaviour would give it.
// Each MUST fail, with a wrong answer, the vectors that name the rule it
// breaks, and only marker vectors.

// liar is the in-process reference whose outputs pass through rewrite.
type liar struct {
	rewrite func(op string, out map[string]json.RawMessage) map[string]json.RawMessage
	input   func(text string) string // when set, applied to the input's text and deltas
}

func (l liar) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	if l.input != nil {
		var in map[string]any
		if json.Unmarshal(req.Input, &in) == nil {
			if t, ok := in["text"].(string); ok {
				in["text"] = l.input(t)
			}
			if ds, ok := in["deltas"].([]any); ok {
				for i, d := range ds {
					if d, ok := d.(string); ok {
						ds[i] = l.input(d)
					}
				}
			}
			req.Input, _ = json.Marshal(in)
			req.Value = nil // the decoded input no longer matches the rewritten one
		}
	}
	resp, err := reference.InProcess{}.Call(ctx, req)
	if err != nil || resp.Output == nil {
		return resp, err
	}
	var out map[string]json.RawMessage
	if json.Unmarshal(resp.Output, &out) != nil {
		return resp, nil
	}
	resp.Output, err = json.Marshal(l.rewrite(req.Op, out))
	return resp, err
}

func (liar) Close() error { return nil }

func TestMarkerLiarsFail(t *testing.T) {
	c, err := vectors.Load(vectors.FS())
	if err != nil {
		t.Fatal(err)
	}
	var marker []*vectors.Vector
	for _, v := range c.Vectors() {
		if strings.HasPrefix(v.Op, "marker.") {
			marker = append(marker, v)
		}
	}
	keep := func(op string, out map[string]json.RawMessage) map[string]json.RawMessage { return out }
	tests := []struct {
		name    string
		input   func(string) string
		rewrite func(op string, out map[string]json.RawMessage) map[string]json.RawMessage
		atLeast int      // vectors failed, at least
		fails   []string // among them these
	}{
		// A control character kills the candidate where the locator would
		// be empty, as the old grammar did, leaving the delimiters in the text.
		{"an empty locator keeps the marker literal", func(s string) string { return strings.ReplaceAll(s, "\uE202\uE201", "\uE202\x01\uE201") }, keep,
			10, []string{"marker.strip/empty-locator-whole-part", "marker.strip/empty-locator-seed-sentence", "marker.strip/user-origin-empty-locator",
				"marker.stream/split-empty-locator-at-rune-0", "marker.artifact/empty-locator-in-artifact"}},
		{"locate still rejects a malformed locator", nil, func(op string, out map[string]json.RawMessage) map[string]json.RawMessage {
			if op == "marker.locate" && out["malformed"] != nil {
				return map[string]json.RawMessage{"rejected": json.RawMessage(`{"code":"MARKER_BAD_LOCATOR"}`)}
			}
			return out
		}, 16, []string{"marker.locate/bad-tilde-escape", "marker.locate/range-without-second-l", "marker.locate/line-with-colon"}},
		{"locate falls back without saying malformed", nil, func(op string, out map[string]json.RawMessage) map[string]json.RawMessage {
			delete(out, "malformed")
			return out
		}, 16, []string{"marker.locate/lower-case-line", "marker.locate/malformed-on-null-value"}},
		{"locate says malformed for every unresolved locator", nil, func(op string, out map[string]json.RawMessage) map[string]json.RawMessage {
			if op == "marker.locate" && string(out["resolved"]) == "false" {
				out["malformed"] = json.RawMessage("true")
			}
			return out
		}, 25, []string{"marker.locate/missing-member", "marker.locate/line-zero"}},
		{"the server never retries", nil, func(op string, out map[string]json.RawMessage) map[string]json.RawMessage {
			if op == "marker.artifact" && out["retry"] != nil {
				return map[string]json.RawMessage{"artifact": json.RawMessage(`{"parts":[{"text":"","metadata":{"citations":[]}}]}`)}
			}
			delete(out, "retry")
			return out
		}, 8, []string{"marker.strip/only-user-origin-marker", "marker.strip/no-break-space-is-white-space",
			"marker.stream/retry-user-origin-only", "marker.stream/retry-bytes", "marker.artifact/retry-instead-of-artifact"}},
		{"the retry member is always present", nil, func(op string, out map[string]json.RawMessage) map[string]json.RawMessage {
			if (op == "marker.strip" || op == "marker.stream") && out["retry"] == nil && out["rejected"] == nil {
				out["retry"] = json.RawMessage("false")
			}
			return out
		}, 100, []string{"marker.strip/no-markers", "marker.stream/marker-free-deltas-unchanged"}},
		{"the artifact's data parts lose their extra members", nil, func(op string, out map[string]json.RawMessage) map[string]json.RawMessage {
			if op != "marker.artifact" || out["artifact"] == nil {
				return out
			}
			var a struct {
				Parts []map[string]json.RawMessage `json:"parts"`
			}
			json.Unmarshal(out["artifact"], &a)
			for i, p := range a.Parts[1:] {
				a.Parts[i+1] = map[string]json.RawMessage{"data": p["data"], "metadata": p["metadata"]}
			}
			out["artifact"], _ = json.Marshal(a)
			return out
		}, 1, []string{"marker.artifact/part-carried-unchanged"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &runner.Runner{Impl: liar{tt.rewrite, tt.input}}
			failed := map[string]bool{}
			for _, res := range r.Run(context.Background(), marker) {
				switch res.Outcome {
				case runner.Pass:
				case runner.Fail:
					failed[res.Vector.ID] = true
				default:
					t.Errorf("%s: outcome %s (%s), want pass or fail", res.Vector.ID, res.Outcome, res.Detail)
				}
			}
			if len(failed) < tt.atLeast {
				t.Errorf("the liar fails %d marker vectors, want at least %d", len(failed), tt.atLeast)
			}
			for _, id := range tt.fails {
				if !failed[id] {
					t.Errorf("%s passes the liar, want it failed", id)
				}
			}
		})
	}
}
