package features

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/cucumber/godog"

	"github.com/conform-suite/conform/internal/jsonv"
)

// markerNames spells the three marker characters readably in model text:
// {START} is U+E200, {DELIM} U+E202 and {STOP} U+E201.
var markerNames = strings.NewReplacer("{START}", "\uE200", "{DELIM}", "\uE202", "{STOP}", "\uE201")

// markerShort is the shorthand of a well-formed marker in model text:
// {cite:ID} and {cite:ID:LOCATOR}.
var markerShort = regexp.MustCompile(`\{cite:([^:{}]*)(?::([^{}]*))?\}`)

// expandMarkers turns the readable spellings of model text into the marker
// characters.
func expandMarkers(s string) string {
	s = markerShort.ReplaceAllStringFunc(s, func(m string) string {
		sm := markerShort.FindStringSubmatch(m)
		out := "\uE200cite\uE202" + sm[1]
		if strings.Contains(m[len("{cite:"):], ":") {
			out += "\uE202" + sm[2]
		}
		return out + "\uE201"
	})
	return markerNames.Replace(s)
}

// modelText decodes model text written in a story's doc string (literal
// text with \u{HEX} escapes), and modelQuoted in a quoted argument; both
// read the {START}, {DELIM} and {STOP} names and the {cite:ID} and
// {cite:ID:LOCATOR} shorthands.
var modelText, modelQuoted = withMarkers(docText), withMarkers(quoted)

// withMarkers adapts conv, which reads a text from a step's argument, to
// model text, whose marker spellings it expands.
func withMarkers[A any](conv func(A) (string, error)) func(A) (string, error) {
	return func(arg A) (string, error) {
		t, err := conv(arg)
		return expandMarkers(t), err
	}
}

// registerMarker registers the phrasings of the marker suite's stories: the
// model writes text with markers, the server strips them (marker.strip,
// marker.stream) and a client resolves a citation (marker.locate).
func (s *scenario) registerMarker(sc steps) {
	sc.Step(`^the data part `+q+`$`, func(id string) error { return s.addPart(id, json.RawMessage(`{}`)) })
	sc.Step(`^the data part `+q+` holding:$`, withValue(jsonDoc, s.addPart))
	sc.Step(`^the data parts:$`, s.dataParts)
	sc.Step(`^the model writes `+q+`$`, keep(&s.modelOutput, modelQuoted))
	sc.Step(`^the model writes:$`, keep(&s.modelOutput, modelText))
	sc.Step(`^the server strips the markers$`, s.strip)
	sc.Step(`^the server strips the markers of that text again$`, s.stripAgain)
	sc.Step(`^the model streams the deltas:$`, withValue(deltaList, s.stream("deltas")))
	sc.Step(`^the model streams the bytes:$`, withValue(byteChunks, s.stream("deltas_base64")))
	sc.Step(`^the client receives `+q+`$`, at("text", withValue(asJSON(modelQuoted), s.outputMember)))
	sc.Step(`^the client receives:$`, at("text", withValue(asJSON(modelText), s.outputMember)))
	sc.Step(`^the client receives the deltas:$`, at("deltas", withValue(deltaList, s.outputMember)))
	sc.Step(`^the citations are:$`, s.citationsAre)
	sc.Step(`^there are no citations$`, func() error { return s.outputMemberLen("citations", "0") })
	sc.Step(`^the parts passed through are (\[.*\])$`, at("parts", withValue(jsonValue, s.outputMember)))
	sc.Step(`^the client resolves the locator `+q+` in:$`, s.locate)
	sc.Step(`^it resolves to the value (.+)$`, at("value", withValue(jsonValue, s.resolved)))
	sc.Step(`^it resolves to the lines (\[.*\])$`, at("lines", withValue(jsonValue, s.resolved)))
	sc.Step(`^it does not resolve$`, func() error { return s.outputInline(`{"resolved": false}`) })
	sc.Step(`^it does not resolve and is marked malformed$`, func() error { return s.outputInline(`{"resolved": false, "malformed": true}`) })
	sc.Step(`^the server retries instead of completing the answer$`, func() error { return s.outputMember("retry", json.RawMessage("true")) })
	sc.Step(`^the server completes the answer$`, func() error { return s.outputHasNo("retry") })
	sc.Step(`^the server builds the answer artifact$`, s.buildArtifact)
	sc.Step(`^the artifact holds the text part:$`, s.artifactTextPart)
	sc.Step(`^the artifact carries the data parts (\[.*\])$`, s.artifactDataParts)
	sc.Step(`^the client follows citation (\d+) of the artifact$`, s.followCitation)
}

// buildArtifact calls marker.artifact with the model output and the data
// parts shaped as seed 001 shapes them: {"data": {"value": ...},
// "metadata": {"dataPartId": ...}}.
func (s *scenario) buildArtifact(ctx context.Context) error {
	parts := []json.RawMessage{}
	for _, p := range s.parts {
		data, meta := object{{"value", p.value}}, object{{"dataPartId", marshal(p.id)}}
		parts = append(parts, object{{"data", data.json()}, {"metadata", meta.json()}}.json())
	}
	in := object{{"text", marshalText(s.modelOutput)}, {"parts", marshal(parts)}}
	return s.call(ctx, "marker.artifact", in.json())
}

// artifactTextPart compares the artifact's first part with a JSON doc
// string whose strings may use the marker names and shorthands.
func (s *scenario) artifactTextPart(d *godog.DocString) error {
	want, err := jsonValue(expandMarkers(d.Content))
	if err != nil {
		return err
	}
	return s.outputMember("artifact.parts[0]", want)
}

// artifactDataParts checks the metadata.dataPartId of the parts after the
// text part, in order, code unit by code unit (jsonv.Key of each).
func (s *scenario) artifactDataParts(list string) error {
	w, err := jsonv.Parse([]byte(list))
	if err != nil || w.Type != jsonv.Array {
		return fmt.Errorf("%s is not a JSON array of strings", list)
	}
	var want []string
	for _, e := range w.Elems {
		if e.Type != jsonv.String {
			return fmt.Errorf("%s is not a JSON array of strings", list)
		}
		want = append(want, jsonv.Key(e.Units))
	}
	parts, err := s.artifactParts()
	if err != nil {
		return err
	}
	got := []string{}
	for i := 1; i < len(parts); i++ {
		id, err := s.outputString(fmt.Sprintf("artifact.parts[%d].metadata.dataPartId", i))
		if err != nil {
			return err
		}
		got = append(got, id)
	}
	if !slices.Equal(got, want) {
		return s.failf("the artifact carries the data parts %q, want %q", got, want)
	}
	return nil
}

type artifactPart struct {
	Text     *string `json:"text"`
	Metadata struct {
		DataPartID string `json:"dataPartId"`
		Citations  []struct {
			DataPartID string `json:"data_part_id"`
			Locator    string `json:"locator"`
		} `json:"citations"`
	} `json:"metadata"`
	Data struct {
		Value json.RawMessage `json:"value"`
	} `json:"data"`
}

// artifactParts decodes the parts of the artifact of the last answer.
func (s *scenario) artifactParts() ([]artifactPart, error) {
	out, err := s.output()
	if err != nil {
		return nil, err
	}
	var a struct {
		Artifact *struct {
			Parts []artifactPart `json:"parts"`
		} `json:"artifact"`
	}
	if err := json.Unmarshal(out, &a); err != nil || a.Artifact == nil || len(a.Artifact.Parts) == 0 || a.Artifact.Parts[0].Text == nil {
		return nil, s.failf("the output is no artifact with a text part first")
	}
	return a.Artifact.Parts, nil
}

// followCitation does what seed 001 tells a client: take citation n (from
// 1) of the text part, find the sibling part whose metadata.dataPartId
// equals its data_part_id, and resolve the locator against that part's
// data.value with marker.locate.
func (s *scenario) followCitation(ctx context.Context, n int) error {
	parts, err := s.artifactParts()
	if err != nil {
		return err
	}
	cites := parts[0].Metadata.Citations
	if n < 1 || n > len(cites) {
		return s.failf("the text part has %d citations, no citation %d", len(cites), n)
	}
	c := cites[n-1]
	for _, p := range parts[1:] {
		if p.Metadata.DataPartID == c.DataPartID {
			return s.call(ctx, "marker.locate", object{{"value", p.Data.Value}, {"locator", marshal(c.Locator)}}.json())
		}
	}
	return s.failf("no data part of the artifact has metadata.dataPartId %q", c.DataPartID)
}

func (s *scenario) addPart(id string, value json.RawMessage) error {
	name, err := quoted(id)
	if err != nil {
		return err
	}
	s.parts = append(s.parts, dataPart{name, value})
	return nil
}

// dataParts takes a table with the columns id and value (JSON).
func (s *scenario) dataParts(t *godog.Table) error {
	for i, row := range t.Rows {
		if i == 0 {
			continue // the header: id | value
		}
		if len(row.Cells) != 2 {
			return fmt.Errorf("data parts row %d: want the cells id | value", i)
		}
		v, err := jsonValue(row.Cells[1].Value)
		if err != nil {
			return err
		}
		if err := s.addPart(row.Cells[0].Value, v); err != nil {
			return err
		}
	}
	return nil
}

// dataPart is a data part of the artifact a story builds.
type dataPart struct {
	id    string
	value json.RawMessage
}

// partsJSON is the data parts as marker.strip and marker.stream take them.
func (s *scenario) partsJSON() json.RawMessage {
	parts := []json.RawMessage{}
	for _, p := range s.parts {
		parts = append(parts, object{{"id", marshal(p.id)}, {"value", p.value}}.json())
	}
	return marshal(parts)
}

func (s *scenario) stripAgain(ctx context.Context) error {
	text, err := s.outputString("text")
	if err != nil {
		return err
	}
	s.modelOutput = text
	return s.strip(ctx)
}

func (s *scenario) strip(ctx context.Context) error {
	return s.call(ctx, "marker.strip", object{{"text", marshalText(s.modelOutput)}, {"parts", s.partsJSON()}}.json())
}

// deltaList reads a one-column table of JSON strings written with the
// {START}, {DELIM} and {STOP} names.
func deltaList(t *godog.Table) (json.RawMessage, error) {
	deltas := []string{}
	for i, row := range t.Rows {
		if len(row.Cells) != 1 {
			return nil, fmt.Errorf("deltas row %d: want one cell, a JSON string", i+1)
		}
		var d string
		if err := json.Unmarshal([]byte(row.Cells[0].Value), &d); err != nil {
			return nil, fmt.Errorf("deltas row %d: %q is not a JSON string: %v", i+1, row.Cells[0].Value, err)
		}
		deltas = append(deltas, expandMarkers(d))
	}
	return marshal(deltas), nil
}

// stream calls marker.stream with the deltas in its member as, and the
// data parts.
func (s *scenario) stream(as string) func(context.Context, json.RawMessage) error {
	return func(ctx context.Context, deltas json.RawMessage) error {
		return s.call(ctx, "marker.stream", object{{as, deltas}, {"parts", s.partsJSON()}}.json())
	}
}

// byteChunks reads a one-column table of chunks, written as hexadecimal
// bytes ("61 EE 88"), into the deltas_base64 of marker.stream.
func byteChunks(t *godog.Table) (json.RawMessage, error) {
	var chunks []string
	for i, row := range t.Rows {
		if len(row.Cells) != 1 {
			return nil, fmt.Errorf("bytes row %d: want one cell of hexadecimal bytes", i+1)
		}
		b, err := hex.DecodeString(strings.ReplaceAll(row.Cells[0].Value, " ", ""))
		if err != nil {
			return nil, fmt.Errorf("bytes row %d: %v", i+1, err)
		}
		chunks = append(chunks, base64.StdEncoding.EncodeToString(b))
	}
	return marshal(chunks), nil
}

// citationsAre compares the citations with a table whose header names the
// columns data_part_id, offset and locator.
func (s *scenario) citationsAre(t *godog.Table) error {
	if len(t.Rows) == 0 {
		return fmt.Errorf("the citations table has no header")
	}
	header := t.Rows[0].Cells
	entries := []json.RawMessage{}
	for i, row := range t.Rows[1:] {
		if len(row.Cells) != len(header) {
			return fmt.Errorf("citations row %d: %d cells, want %d", i+1, len(row.Cells), len(header))
		}
		var e object
		for j, c := range row.Cells {
			v := marshal(c.Value)
			if header[j].Value == "offset" {
				v = json.RawMessage(c.Value)
			}
			e.set(header[j].Value, v)
		}
		entries = append(entries, e.json())
	}
	return s.outputMember("citations", marshal(entries))
}

func (s *scenario) locate(ctx context.Context, locator string, d *godog.DocString) error {
	loc, err := quoted(locator)
	if err != nil {
		return err
	}
	v, err := jsonValue(d.Content)
	if err != nil {
		return err
	}
	return s.call(ctx, "marker.locate", object{{"value", v}, {"locator", marshal(loc)}}.json())
}

// resolved checks a resolved locator: {"resolved": true, member: v}, member
// being "value" or "lines".
func (s *scenario) resolved(member string, v json.RawMessage) error {
	return s.outputIs(object{{"resolved", json.RawMessage("true")}, {member, v}}.json())
}
