package fuzz

import (
	"bytes"
	"encoding/json"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	gofuzz "github.com/google/gofuzz"

	"github.com/conform-suite/conform/reference"
)

// FuzzLocate fuzzes marker.locate, whose locator is untrusted model output.
// Properties, checked through the op:
//   - the answer is never a rejection, and it is {"resolved": false,
//     "malformed": true} exactly when the locator is not empty and has
//     neither the JSON Pointer syntax nor the line-range syntax (an oracle
//     written from the grammar of spec/marker.md, MARKER-LOCATE-010);
//   - a pointer built by escaping the member names and indexes of a path
//     that exists in the value (the path chosen by gofuzz from the fuzzer's
//     bytes) resolves to the value at that path.
func FuzzLocate(f *testing.F) {
	for i, raw := range opInputs(f, "marker.locate") {
		var in struct {
			Value   json.RawMessage `json:"value"`
			Locator string          `json:"locator"`
		}
		if err := json.Unmarshal(raw, &in); err != nil {
			f.Fatalf("marker.locate input %s: %v", raw, err)
		}
		f.Add(string(in.Value), in.Locator, []byte{byte(i), byte(i * 7), byte(i * 13)})
	}
	f.Fuzz(func(t *testing.T, value, locator string, choices []byte) {
		if len(value)+len(locator)+len(choices) > locateFuzzMax {
			return // see locateFuzzMax
		}
		if !json.Valid([]byte(value)) || !utf8.ValidString(value) || !utf8.ValidString(locator) {
			return // not a request a client can send: JSON carries no invalid UTF-8
		}
		out := locateOp(t, value, locator)
		bad := locator != "" && !locatorPointer.MatchString(locator) && !locatorLines.MatchString(locator)
		var ans struct {
			Resolved  *bool `json:"resolved"`
			Malformed *bool `json:"malformed"`
		}
		if code := outputRefusal(out); code != "" || json.Unmarshal(out, &ans) != nil || ans.Resolved == nil {
			t.Fatalf("marker.locate(%s, %q) = %s, want {resolved}, never a rejection", value, locator, out)
		}
		switch {
		case bad && (*ans.Resolved || ans.Malformed == nil || !*ans.Malformed):
			t.Fatalf("marker.locate(%s, %q) = %s, want the malformed fallback", value, locator, out)
		case !bad && ans.Malformed != nil:
			t.Fatalf("marker.locate(%s, %q) = %s, want no malformed member", value, locator, out)
		}

		// A path that exists resolves to what is there.
		var doc any
		dec := json.NewDecoder(strings.NewReader(value))
		dec.UseNumber()
		if dec.Decode(&doc) != nil {
			return
		}
		var steps []uint16
		gofuzz.NewFromGoFuzz(choices).NilChance(0).NumElements(0, 6).Fuzz(&steps)
		pointer, want := "", doc
		for _, s := range steps {
			switch v := want.(type) {
			case map[string]any:
				if len(v) == 0 {
					break
				}
				keys := make([]string, 0, len(v))
				for k := range v {
					keys = append(keys, k)
				}
				slices.Sort(keys)
				k := keys[int(s)%len(keys)]
				pointer += "/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(k)
				want = v[k]
				continue
			case []any:
				if len(v) == 0 {
					break
				}
				i := int(s) % len(v)
				pointer += "/" + strconv.Itoa(i)
				want = v[i]
				continue
			}
			break
		}
		out = locateOp(t, value, pointer)
		var got struct {
			Resolved bool            `json:"resolved"`
			Value    json.RawMessage `json:"value"`
		}
		if err := json.Unmarshal(out, &got); err != nil || !got.Resolved {
			t.Fatalf("marker.locate(%s, %q) = %s, want resolved", value, pointer, out)
		}
		var gotValue any
		dec = json.NewDecoder(bytes.NewReader(got.Value))
		dec.UseNumber()
		if err := dec.Decode(&gotValue); err != nil || !reflect.DeepEqual(gotValue, want) {
			t.Fatalf("marker.locate(%s, %q) = %s, want the value %v", value, pointer, out, want)
		}
	})
}

// locateFuzzMax caps the inputs FuzzLocate checks. Each input is decoded
// three times (validity, the op, the oracle) and the engine minimises every
// new interesting input byte by byte: on values of tens of kilobytes the run
// fell to 0 execs/s for seconds while it did so. A pointer of a few steps
// into a value of a few kilobytes reaches every branch of the resolver.
const locateFuzzMax = 4 << 10

var (
	locatorPointer = regexp.MustCompile(`^(/([^~]|~[01])*)+$`)
	locatorLines   = regexp.MustCompile(`^L[0-9]+(-L[0-9]+)?$`)
)

func locateOp(t *testing.T, value, locator string) json.RawMessage {
	t.Helper()
	in, err := json.Marshal(map[string]any{"value": json.RawMessage(value), "locator": locator})
	if err != nil {
		t.Fatal(err)
	}
	out, err := reference.Handle("marker.locate", in)
	if err != nil {
		t.Fatalf("marker.locate(%s) error %v", in, err)
	}
	data, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
