package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/conform-suite/conform/internal/fixture"
	"github.com/conform-suite/conform/protocol"
)

// TestShortKeepsUTF8 checks that eliding the middle of a long value never
// cuts a UTF-8 sequence, whatever the alignment of multi-byte characters.
func TestShortKeepsUTF8(t *testing.T) {
	for pad := range 4 {
		s := strings.Repeat("x", pad) + strings.Repeat("é😀中", 100)
		got := short(s)
		if !utf8.ValidString(got) {
			t.Errorf("short(%d-byte string with %d bytes of padding) = %q, not valid UTF-8", len(s), pad, got)
		}
		if len(got) > 260 {
			t.Errorf("short() = %d bytes, want it elided", len(got))
		}
	}
}

// TestServeStdioAnswersValidate checks every answer ServeStdio writes,
// including to lines that are not requests, against the protocol schema.
func TestServeStdioAnswersValidate(t *testing.T) {
	in := strings.Join([]string{
		`{"id":0,"op":"hello","input":{"protocol":1}}`,
		`{"id":"s","op":"nosuch.op","input":{},"grease":{"x":1}}`,
		`not json`,
		`{"id":3}`,
		`{"id":1.5,"op":"hello","input":{}}`,
		`{"id":7,"op":"hello","input":"not an object"}`,
		`[1,2]`,
		``,
	}, "\n") + "\n"
	var out bytes.Buffer
	if err := protocol.ServeStdio(context.Background(), InProcess{}, strings.NewReader(in), &out, 0); err != nil {
		t.Fatal(err)
	}
	resp := "protocol.schema.json#/$defs/response"
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	wantIDs := []string{"0", `"s"`, "null", "3", "null", "7", "null"}
	if len(lines) != len(wantIDs) {
		t.Fatalf("ServeStdio wrote %d lines, want %d:\n%s", len(lines), len(wantIDs), out.String())
	}
	for i, l := range lines {
		if err := fixture.Validate(resp, []byte(l)); err != nil {
			t.Errorf("answer %q: %v", l, err)
		}
		r, err := protocol.ParseAnswer([]byte(l), 0)
		if i > 0 && (err != nil && string(r.ID) != "null" || r.Error == nil && string(r.ID) != "null") {
			t.Errorf("answer %q = %+v, %v; want an error", l, r, err)
		}
		if string(r.ID) != wantIDs[i] {
			t.Errorf("answer %d id = %s, want %s", i, r.ID, wantIDs[i])
		}
	}
	hello := "protocol.schema.json#/$defs/hello_output"
	var first struct{ Output json.RawMessage }
	json.Unmarshal([]byte(lines[0]), &first)
	if err := fixture.Validate(hello, first.Output); err != nil {
		t.Errorf("hello output %s: %v", first.Output, err)
	}
}
