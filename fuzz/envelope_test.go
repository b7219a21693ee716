package fuzz

import (
	"bytes"
	"context"
	"testing"

	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/reference"
)

// serveLines is the reference's stdio server as a LineExchanger: each
// exchange a fresh session, as `conform serve --stdio` serves it.
type serveLines struct{}

func (serveLines) Exchange(ctx context.Context, input []byte) ([]byte, error) {
	var out bytes.Buffer
	err := protocol.ServeStdio(ctx, reference.InProcess{}, bytes.NewReader(input), &out, 0)
	return out.Bytes(), err
}

// The answer each generated line is built with is the one protocol.md
// requires: the reference's server gives it to every line, and every kind
// of fault is drawn.
func TestEnvelopesAgreeWithTheReferenceServer(t *testing.T) {
	rep, err := RunEnvelopes(context.Background(), EnvelopeConfig{Lines: serveLines{}, Blank: true, Seed: 5, Count: 3000})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		t.Errorf("the reference server: %s (%d hits): sent %q, answered %q", f.Signature, f.Hits, f.Line, f.Answers)
	}
	faults := map[string]int{}
	for i := range 3000 {
		faults[genEnvelope(newCaseRand(5, uint64(i)), true).fault]++
	}
	for _, want := range []string{"no op", "op not a string", "input missing", "input not an object", "id echoed", "id missing", "not an id",
		"id named twice", "member named twice", "not JSON", "not UTF-8", "white space other than JSON's", "blank line"} {
		if faults[want] == 0 {
			t.Errorf("fault %q never drawn: %v", want, faults)
		}
	}
}

// An implementation that answers a wrong envelope with id null where the
// request's id can be read is found, once per fault it gets wrong.
func TestEnvelopeNullIDIsFound(t *testing.T) {
	rep, err := RunEnvelopes(context.Background(), EnvelopeConfig{Lines: nullIDLines{}, Seed: 5, Count: 500})
	if err != nil {
		t.Fatal(err)
	}
	sigs := map[string]bool{}
	for _, f := range rep.Findings {
		sigs[f.Signature] = true
	}
	for _, want := range []string{"envelope no op: the id null, want a number or another value", "envelope input missing: the id null, want a string",
		"envelope member named twice: the id null, want a number or another value"} {
		if !sigs[want] {
			t.Errorf("no finding %q among %v", want, sigs)
		}
	}
	if sigs["envelope id missing: the id null, want null"] || len(sigs) > 12 {
		t.Errorf("findings where the null id is right, or too many: %v", sigs)
	}
}

// nullIDLines is the reference's server with every bad_request answer's id
// made null.
type nullIDLines struct{}

func (nullIDLines) Exchange(ctx context.Context, input []byte) ([]byte, error) {
	out, err := serveLines{}.Exchange(ctx, input)
	var b bytes.Buffer
	for line := range bytes.SplitAfterSeq(out, []byte("\n")) {
		if bytes.Contains(line, []byte(`"kind":"bad_request"`)) {
			if i := bytes.Index(line, []byte(`,"error"`)); i > 0 {
				line = append([]byte(`{"id":null`), line[i:]...)
			}
		}
		b.Write(line)
	}
	return b.Bytes(), err
}
