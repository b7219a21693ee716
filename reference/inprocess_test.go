package reference

import (
	"encoding/json"
	"testing"
)

// TestInProcessRefusesIllFormedUTF8 checks the one place where the in-process
// path could turn text into U+FFFD unseen: encoding/json's marshalling.
func TestInProcessRefusesIllFormedUTF8(t *testing.T) {
	for _, tt := range []struct {
		v    any
		want bool
	}{
		{map[string]string{"a": "x\xffy"}, true},
		{map[string]string{"a": "\xed\xa0\xbd"}, true},
		{map[string]string{"a": "x\ufffdy"}, false},
		{map[string]string{"a": `\ufffd`}, false},
		{map[string]string{"a": `\\ufffd`}, false},
		{map[string]string{"a": "😀é"}, false},
		{map[string]string{"a": `"\ufffd`}, false},
		{map[string]string{"a": `\` + "\xff"}, true},
		{map[string]string{"a": "\n\xff"}, true},
		{map[string]string{"a": `\`}, false},
		{map[string]string{"a": "\xff", "b": "x"}, true},
	} {
		data, err := json.Marshal(tt.v)
		if err != nil {
			t.Fatal(err)
		}
		if got := replacedUTF8(data); got != tt.want {
			t.Errorf("replacedUTF8(%s) = %v, want %v", data, got, tt.want)
		}
	}
}
