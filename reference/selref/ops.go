package selref

import (
	"encoding/json"

	"github.com/conform-suite/conform/internal/jsonv"
	"github.com/conform-suite/conform/reference/internal/opkit"
)

// Ops maps each protocol op of the selref suite to its handler.
var Ops = map[string]opkit.Handler{
	"selref.ingest": ingestOp,
	"selref.replay": replayOp,
	"selref.bubble": bubbleOp,
}

// wireReference is a reference on the wire: absent addresses are omitted.
type wireReference struct {
	Label    string `json:"label"`
	VanceURI string `json:"vanceUri,omitempty"`
	URL      string `json:"url,omitempty"`
}

type ingestOutput struct {
	Reference *wireReference `json:"reference,omitempty"`
	Dropped   *opkit.Code    `json:"dropped,omitempty"`
}

// ingestOp answers selref.ingest {label?, vanceUri?, url?}. A JSON null is
// read as an absent member.
func ingestOp(input *jsonv.Value) (any, error) {
	var in struct {
		Label    *string `json:"label"`
		VanceURI *string `json:"vanceUri"`
		URL      *string `json:"url"`
	}
	if err := opkit.Decode(input, &in); err != nil {
		return nil, err
	}
	ref, err := Ingest(Reference{Label: deref(in.Label), VanceURI: deref(in.VanceURI), URL: deref(in.URL)})
	if err != nil {
		e := err.(*Error)
		return ingestOutput{Dropped: &opkit.Code{Code: string(e.Code)}}, nil
	}
	return ingestOutput{Reference: &wireReference{Label: ref.Label, VanceURI: ref.VanceURI, URL: ref.URL}}, nil
}

type replayOutput struct {
	Text string `json:"text"`
}

// replayOp answers selref.replay {body, reference?}. The reference is stored
// data and is read leniently (SELREF-REPLAY-002): any JSON value is allowed,
// a value that is not an object means no reference, and a member that is
// not a string is absent. current (optional, false by default) says that the
// message is the current turn's (SELREF-REPLAY-007).
func replayOp(input *jsonv.Value) (any, error) {
	var in struct {
		Body      *string         `json:"body"`
		Reference json.RawMessage `json:"reference"`
		Current   bool            `json:"current,omitempty"`
	}
	if err := opkit.Decode(input, &in); err != nil {
		return nil, err
	}
	if in.Body == nil {
		return nil, opkit.BadRequest("input: body is required and must be a string")
	}
	return replayOutput{Text: ReplayTurn(*in.Body, storedReference(in.Reference), in.Current)}, nil
}

// storedReference reads a stored reference leniently (SELREF-REPLAY-002):
// a value that is not an object is no reference, and a member that is not
// a string is absent.
func storedReference(raw json.RawMessage) Reference {
	var members map[string]any
	if json.Unmarshal(raw, &members) != nil {
		return Reference{}
	}
	str := func(k string) string { s, _ := members[k].(string); return s }
	return Reference{Label: str("label"), VanceURI: str("vanceUri"), URL: str("url")}
}

type bubbleOutput struct {
	Markdown string `json:"markdown"`
}

// bubbleOp answers selref.bubble {reference?}: the Markdown of the history
// bubble, empty when no reference survives ingest. The reference is read as
// replay reads it.
func bubbleOp(input *jsonv.Value) (any, error) {
	var in struct {
		Reference json.RawMessage `json:"reference"`
	}
	if err := opkit.Decode(input, &in); err != nil {
		return nil, err
	}
	return bubbleOutput{Markdown: Bubble(storedReference(in.Reference))}, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
