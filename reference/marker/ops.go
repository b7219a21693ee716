package marker

import (
	"encoding/base64"
	"encoding/json"
	"errors"

	"github.com/conform-suite/conform/internal/jsonv"
	"github.com/conform-suite/conform/reference/internal/opkit"
)

// Ops maps each protocol op of the marker suite to its handler.
var Ops = map[string]opkit.Handler{
	"marker.strip":    stripOp,
	"marker.stream":   streamOp,
	"marker.locate":   locateOp,
	"marker.artifact": artifactOp,
}

type partIn struct {
	ID    string          `json:"id"`
	Value json.RawMessage `json:"value,omitempty"`
}

type stripIn struct {
	Text  *string   `json:"text"`
	Parts *[]partIn `json:"parts"`
}

type stripOut struct {
	Text      string     `json:"text"`
	Citations []Citation `json:"citations"`
	Parts     []string   `json:"parts"`
	Retry     bool       `json:"retry,omitempty"` // present only when true
}

type streamIn struct {
	Deltas       []string  `json:"deltas,omitempty"` // exactly one of Deltas and DeltasBase64
	DeltasBase64 []string  `json:"deltas_base64,omitempty"`
	Parts        *[]partIn `json:"parts"`
}

type streamOut struct {
	Deltas    []string   `json:"deltas"`
	Text      string     `json:"text"`
	Citations []Citation `json:"citations"`
	Parts     []string   `json:"parts"`
	Retry     bool       `json:"retry,omitempty"` // present only when true
}

type locateIn struct {
	Value      json.RawMessage `json:"value"`
	Locator    *string         `json:"locator"`
	DataPartID *string         `json:"data_part_id"`
}

type locateOut struct {
	Resolved  bool            `json:"resolved"`
	Malformed bool            `json:"malformed,omitempty"` // present only when true
	Value     json.RawMessage `json:"value,omitempty"`
	Lines     []string        `json:"lines,omitempty"`
}

// catalog turns the parts of an input into a catalog, or a rejection.
func catalog(parts *[]partIn) (*Catalog, any, error) {
	if parts == nil {
		return nil, nil, opkit.BadRequest("input: missing parts")
	}
	ids := make([]string, len(*parts))
	for i, p := range *parts {
		ids[i] = p.ID
	}
	cat, err := NewCatalog(ids)
	if err != nil {
		return nil, rejection(err), nil
	}
	return cat, nil, nil
}

func rejection(err error) any {
	var e *Error
	if errors.As(err, &e) {
		return opkit.Reject(string(e.Code))
	}
	return nil
}

func stripOp(input *jsonv.Value) (any, error) {
	var in stripIn
	if err := opkit.Decode(input, &in); err != nil {
		return nil, err
	}
	if in.Text == nil {
		return nil, opkit.BadRequest("input: missing text")
	}
	cat, rej, err := catalog(in.Parts)
	if rej != nil || err != nil {
		return rej, err
	}
	return stripOut(Strip(*in.Text, cat)), nil
}

func streamOp(input *jsonv.Value) (any, error) {
	var in streamIn
	if err := opkit.Decode(input, &in); err != nil {
		return nil, err
	}
	if (in.Deltas == nil) == (in.DeltasBase64 == nil) {
		return nil, opkit.BadRequest("input: exactly one of deltas and deltas_base64")
	}
	cat, rej, err := catalog(in.Parts)
	if rej != nil || err != nil {
		return rej, err
	}
	out := streamOut{Deltas: []string{}}
	var text []byte
	emit := func(d string) {
		out.Deltas = append(out.Deltas, d)
		text = append(text, d...)
	}
	if in.Deltas != nil {
		s := NewStream(cat)
		for _, d := range in.Deltas {
			emit(s.Write(d))
		}
		tail, cites, parts := s.Close()
		emit(tail)
		out.Citations, out.Parts, out.Retry = cites, parts, s.Retry()
	} else {
		// Every delta is decoded before any is streamed: base64 that is not
		// base64 is a bad request, whatever the bytes before it hold.
		chunks := make([][]byte, len(in.DeltasBase64))
		for i, enc := range in.DeltasBase64 {
			chunk, err := base64.StdEncoding.DecodeString(enc)
			if err != nil {
				return nil, opkit.BadRequest("input: deltas_base64[%d]: %v", i, err)
			}
			chunks[i] = chunk
		}
		s := NewByteStream(cat)
		for _, chunk := range chunks {
			d, err := s.Write(chunk)
			if err != nil {
				return rejection(err), nil
			}
			emit(d)
		}
		tail, cites, parts, err := s.Close()
		if err != nil {
			return rejection(err), nil
		}
		emit(tail)
		out.Citations, out.Parts, out.Retry = cites, parts, s.Retry()
	}
	out.Text = string(text)
	return out, nil
}

func locateOp(input *jsonv.Value) (any, error) {
	var in locateIn
	if err := opkit.Decode(input, &in); err != nil {
		return nil, err
	}
	if len(in.Value) == 0 || in.Locator == nil {
		return nil, opkit.BadRequest("input: value and locator are required")
	}
	if in.DataPartID != nil && UserOrigin(*in.DataPartID) {
		return opkit.Reject(string(CodeUserOrigin)), nil // the client's guard (MARKER-LOCATE-011)
	}
	loc, err := Locate(in.Value, *in.Locator)
	if err != nil {
		return nil, opkit.BadRequest("input: value: %v", err)
	}
	out := locateOut{Resolved: loc.Resolved, Malformed: loc.Malformed, Value: loc.Value, Lines: loc.Lines}
	if loc.IsLines && out.Lines == nil {
		out.Lines = []string{}
	}
	return out, nil
}

type artifactIn struct {
	Text  *string            `json:"text"`
	Parts *[]json.RawMessage `json:"parts"`
}

type artifactOut struct {
	Artifact *Artifact `json:"artifact,omitempty"`
	Retry    bool      `json:"retry,omitempty"`
}

func artifactOp(input *jsonv.Value) (any, error) {
	var in artifactIn
	if err := opkit.Decode(input, &in); err != nil {
		return nil, err
	}
	if in.Text == nil || in.Parts == nil {
		return nil, opkit.BadRequest("input: text and parts are required")
	}
	parts := make([]DataPart, len(*in.Parts))
	for i, raw := range *in.Parts {
		p, err := ParseDataPart(raw)
		if err != nil {
			return nil, opkit.BadRequest("input: parts[%d]: %v", i, err)
		}
		parts[i] = p
	}
	a, retry, err := BuildArtifact(*in.Text, parts)
	if err != nil {
		return rejection(err), nil
	}
	return artifactOut{Artifact: a, Retry: retry}, nil
}
