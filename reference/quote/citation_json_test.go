package quote

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestParseOutputAppendJSON: the hand-written encoder of quote.parse's
// output writes exactly what encoding/json.Marshal writes, escaping
// included (HTML characters, line separators, control characters, bytes
// that are not UTF-8), with and without a comment.
func TestParseOutputAppendJSON(t *testing.T) {
	comment := "a <b> & \"c\" \u2028\u2029 \x01\t\n"
	empty := ""
	for _, c := range []Citation{
		{},
		{Version: 1, EnvironmentID: "env-1", ThreadID: "thread-1", MessageID: "message-1", Text: "Use the cache.", End: 14, Suffix: " Next."},
		{Version: 1, EnvironmentID: "日本", ThreadID: "😀", MessageID: "\xff\xfe", Text: comment, Comment: &comment, Start: MaxOffset - 1, End: MaxOffset, Prefix: "\\/", Suffix: "\u007f"},
		{Version: -3, Comment: &empty, Start: -1, Text: strings.Repeat("é日😀", 300)},
	} {
		want, err := json.Marshal(parseOutput{Citation: c})
		if err != nil {
			t.Fatal(err)
		}
		if got := (parseOutput{Citation: c}).AppendJSON([]byte("x")); string(got) != "x"+string(want) {
			t.Errorf("AppendJSON(%+v) =\n%s\nwant\n%s", c, got[1:], want)
		}
	}
}
