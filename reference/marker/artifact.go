package marker

import (
	"encoding/json"
	"fmt"
)

// DataPart is one data part of a task as seed 001 shapes it,
// {"data": {"value": ...}, "metadata": {"dataPartId": ...}, ...}: its GID
// and its JSON, which an artifact carries unchanged.
type DataPart struct {
	ID  string          // metadata.dataPartId
	Raw json.RawMessage // the whole part
}

// ParseDataPart reads a data part: an object whose metadata.dataPartId is a
// string and whose data holds a value member. Other members are kept.
func ParseDataPart(raw json.RawMessage) (DataPart, error) {
	var p struct {
		Data *struct {
			Value json.RawMessage `json:"value"`
		} `json:"data"`
		Metadata *struct {
			DataPartID *string `json:"dataPartId"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return DataPart{}, fmt.Errorf("not a data part object: %v", err)
	}
	switch {
	case p.Metadata == nil || p.Metadata.DataPartID == nil:
		return DataPart{}, fmt.Errorf("missing metadata.dataPartId")
	case p.Data == nil || p.Data.Value == nil:
		return DataPart{}, fmt.Errorf("missing data.value")
	}
	return DataPart{ID: *p.Metadata.DataPartID, Raw: raw}, nil
}

// TextPart is the answer's text part: the clean text, with the citations
// on its metadata.
type TextPart struct {
	Text     string `json:"text"`
	Metadata struct {
		Citations []Citation `json:"citations"`
	} `json:"metadata"`
}

// Artifact is the answer artifact of seed 001: the text part first, then
// the data parts it cites, unchanged, in the order given.
type Artifact struct {
	Parts []any `json:"parts"`
}

// BuildArtifact strips text and shapes the artifact a client receives. When
// the answer is to be retried instead ([Result.Retry]) it returns retry
// true and no artifact. Two parts with one GID are rejected with
// [CodeDuplicatePartID].
func BuildArtifact(text string, parts []DataPart) (a *Artifact, retry bool, err error) {
	ids := make([]string, len(parts))
	byID := make(map[string]json.RawMessage, len(parts))
	for i, p := range parts {
		ids[i] = p.ID
		byID[p.ID] = p.Raw
	}
	cat, err := NewCatalog(ids)
	if err != nil {
		return nil, false, err
	}
	r := Strip(text, cat)
	if r.Retry {
		return nil, true, nil
	}
	tp := TextPart{Text: r.Text}
	tp.Metadata.Citations = r.Citations
	a = &Artifact{Parts: []any{tp}}
	for _, id := range r.Parts {
		a.Parts = append(a.Parts, byID[id])
	}
	return a, false, nil
}
