package vectors

import (
	"encoding/json"
	"strings"
	"testing"
)

// A vector's input_text carries an input a vector file cannot hold as a
// value, byte for byte: Parse sends it as the input, refuses it where the
// plain input would do, and a vector written back keeps it as input_text.
func TestInputText(t *testing.T) {
	file := func(vector string) []byte {
		return []byte(`{"op":"quote.parse","description":"d","vectors":[{"id":"quote.parse/x","description":"d","requirements":["PROTO-ERROR-003"],` + vector + `,"expect":{"error":{"kind":"bad_request"}}}]}`)
	}
	f, err := Parse("x.json", file(`"input_text":"{\"href\":\"x\", \"href\":\"x\"}"`))
	if err != nil {
		t.Fatal(err)
	}
	v := f.Vectors[0]
	if string(v.Input) != `{"href":"x", "href":"x"}` {
		t.Errorf("Input = %s; want the text byte for byte", v.Input)
	}
	out, err := json.Marshal(v)
	if err != nil || !strings.Contains(string(out), `"input_text":"{\"href\":\"x\", \"href\":\"x\"}"`) || strings.Contains(string(out), `"input":`) {
		t.Errorf("written back: %s, %v; want input_text alone", out, err)
	}
	for vector, want := range map[string]string{
		`"input_text":"{\"href\":\"x\"}"`:                       "names no member twice: give it as input",
		`"input_text":"[1,1]"`:                                  "not a JSON object",
		`"input_text":"{\"href\":"`:                             "invalid JSON",
		`"input":{"href":"x"},"input_text":"{\"a\":1,\"a\":1}"`: "gives input and input_text",
	} {
		if _, err := Parse("x.json", file(vector)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%s) = %v; want an error saying %q", vector, err, want)
		}
	}
}
