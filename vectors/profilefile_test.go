package vectors_test

import (
	"strings"
	"testing"

	"github.com/conform-suite/conform/vectors"
)

// TestApplyProfileTrailingData: a profile file is one JSON object, as a
// vector file is; whatever follows it, a stray closing bracket included, is
// refused rather than ignored.
func TestApplyProfileTrailingData(t *testing.T) {
	const file = `{"profile":"own","records":[]}`
	if _, err := new(vectors.Corpus).ApplyProfile("own.json", []byte(file+"\n")); err != nil {
		t.Fatalf("a well-formed profile file: %v", err)
	}
	for _, tail := range []string{"]", "}", "{}", `"x"`, "[", "1"} {
		_, err := new(vectors.Corpus).ApplyProfile("own.json", []byte(file+tail))
		if err == nil || !strings.Contains(err.Error(), "trailing data") {
			t.Errorf("profile file followed by %q: err = %v, want trailing data refused", tail, err)
		}
	}
}
