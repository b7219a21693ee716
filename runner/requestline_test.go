package runner

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/conform-suite/conform/protocol"
)

// TestCompactInputsSentAsTheyAre: an input with no white space outside its
// strings is sent as it is, and it is exactly what json.Compact makes of
// it; any other is compacted.
func TestCompactInputsSentAsTheyAre(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want bool
	}{
		{`{"a":"b c","d":[1,2]}`, true},
		{`{"a":"q\" \\"}`, true},
		{`{"a":"\\\\"}`, true},
		{`{"a": "b"}`, false},
		{"{\"a\":\"b\"}\n", false},
		{`{"a":"b`, false},
		{"{\"a\":\"\t\"}", true},
	} {
		if got := compact([]byte(tt.in)); got != tt.want {
			t.Errorf("compact(%q) = %v, want %v", tt.in, got, tt.want)
		}
		if !tt.want || !json.Valid([]byte(tt.in)) {
			continue
		}
		var c bytes.Buffer
		if err := json.Compact(&c, []byte(tt.in)); err != nil || c.String() != tt.in {
			t.Errorf("json.Compact(%q) = %q, %v: compact said it was compact", tt.in, c.String(), err)
		}
		line, err := RequestLine(protocol.Request{ID: protocol.IntID(1), Op: "x.y", Input: json.RawMessage(tt.in)})
		if err != nil || line != `{"id":1,"op":"x.y","input":`+tt.in+"}\n" {
			t.Errorf("RequestLine with %q = %q, %v", tt.in, line, err)
		}
	}
}
