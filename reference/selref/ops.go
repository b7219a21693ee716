package selref

import (
	"encoding/json"

	"github.com/conform-suite/conform/reference/internal/opkit"
)

// Ops maps each protocol op of the selref suite to its handler.
var Ops = map[string]opkit.Handler{
	"selref.ingest": ingestOp,
	"selref.replay": replayOp,
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
func ingestOp(input json.RawMessage) (any, error) {
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
// not a string is absent.
func replayOp(input json.RawMessage) (any, error) {
	var in struct {
		Body      *string         `json:"body"`
		Reference json.RawMessage `json:"reference"`
	}
	if err := opkit.Decode(input, &in); err != nil {
		return nil, err
	}
	if in.Body == nil {
		return nil, opkit.BadRequest("input: body is required and must be a string")
	}
	var stored Reference
	var members map[string]any
	if json.Unmarshal(in.Reference, &members) == nil {
		str := func(k string) string { s, _ := members[k].(string); return s }
		stored = Reference{Label: str("label"), VanceURI: str("vanceUri"), URL: str("url")}
	}
	return replayOutput{Text: Replay(*in.Body, stored)}, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
