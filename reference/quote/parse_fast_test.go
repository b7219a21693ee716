package quote

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/conform-suite/conform/reference/internal/opkit"
	"pgregory.net/rapid"
)

// parseGeneral is quote.parse's input read by opkit.Decode alone, the path
// parseOp takes for any input hrefOnly leaves to it.
func parseGeneral(input json.RawMessage) (any, error) {
	v, err := opkit.Parse(input)
	if err != nil {
		return nil, err
	}
	var in parseInput
	if err := opkit.Decode(v, &in); err != nil {
		return nil, err
	}
	if in.Href == nil {
		return nil, opkit.BadRequest("input: missing href")
	}
	c, perr := parse(*in.Href)
	if perr != nil {
		return opkit.Reject(string(perr.Code)), nil
	}
	return parseOutput{Citation: c}, nil
}

// TestParseOpHrefOnlyAsDecode: parseOp answers every input, the ones its
// shortcut takes and the ones it leaves to Decode, as Decode alone does.
func TestParseOpHrefOnlyAsDecode(t *testing.T) {
	hrefs := []string{`""`, `"x"`, `"t3-citation://v1/e/t/m?text=a&start=0&end=1&prefix=&suffix="`,
		`"t3-citation://v1/e/t/m?text=a\u0026start=0&end=1&prefix=&suffix="`, `"\ud83d"`, `"\ud83d\ude00"`, `"é"`, `1`, `null`, `["x"]`}
	names := []string{`"href"`, `"hre\u0066"`, `"Href"`, `"href "`, `"text"`}
	shortcut := 0
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 3).Draw(t, "members")
		input := "{"
		for i := range n {
			if i > 0 {
				input += ","
			}
			input += rapid.SampledFrom(names).Draw(t, "name") + ":" + rapid.SampledFrom(hrefs).Draw(t, "value")
		}
		input += "}"
		if rapid.IntRange(0, 3).Draw(t, "usual") == 0 { // the shape the shortcut takes
			input = `{"href":` + rapid.SampledFrom(hrefs).Draw(t, "href") + "}"
		}
		if rapid.IntRange(0, 9).Draw(t, "notObject") == 0 {
			input = rapid.SampledFrom(hrefs).Draw(t, "input")
		}
		v, err := opkit.Parse(json.RawMessage(input))
		if err != nil {
			return
		}
		if _, ok := hrefOnly(v); ok {
			shortcut++
		}
		got, gotErr := parseOp(v)
		want, wantErr := parseGeneral(json.RawMessage(input))
		if !reflect.DeepEqual(got, want) || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Fatalf("input %s: parseOp %#v, %v; Decode alone %#v, %v", input, got, gotErr, want, wantErr)
		}
	})
	if shortcut == 0 {
		t.Error("no input took the shortcut")
	}
}
