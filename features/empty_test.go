package features

import (
	"context"
	"encoding/json"
	"io"
	"testing"

	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/reference"
)

// emptyAnswers is a liar that offers every op of the reference and answers
// each request with an empty object.
type emptyAnswers struct{}

func (emptyAnswers) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	resp := protocol.Response{ID: req.ID, Output: json.RawMessage(`{}`)}
	if req.Op == "hello" {
		h, err := json.Marshal(reference.Hello())
		if err != nil {
			return resp, err
		}
		resp.Output = h
	}
	return resp, nil
}

func (emptyAnswers) Close() error { return nil }

// TestEmptyAnswersPassNothing: an implementation that answers {} to every
// op passes no scenario of the suites: "the input is accepted" holds only
// for an output of the op's shape, and a step that names a member wants it
// there.
func TestEmptyAnswersPassNothing(t *testing.T) {
	var tally Tally
	var statuses []scenarioStatus
	Run(Options{Impl: emptyAnswers{}, Paths: []string{"quote", "marker", "selref"}, Format: "progress", Output: io.Discard, NoColors: true, Tally: &tally, statuses: &statuses})
	if tally.Scenarios == 0 || tally.Failed == 0 {
		t.Fatalf("tally %+v: the liar was not judged", tally)
	}
	for _, o := range statuses {
		if o.Status == "passed" {
			t.Errorf("%s passed with {} for every answer", o.Name)
		}
	}
}
