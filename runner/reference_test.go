package runner

import (
	"context"
	"strings"
	"testing"

	"github.com/conform-suite/conform/vectors"
)

// TestReferencePassesEveryVector runs the whole embedded corpus against the
// in-process reference: the reference is the proof that the vectors are
// consistent with each other.
func TestReferencePassesEveryVector(t *testing.T) {
	c, err := vectors.Load(vectors.FS())
	if err != nil {
		t.Fatal(err)
	}
	vs := c.Vectors()
	if len(vs) == 0 {
		t.Fatal("the corpus has no vectors")
	}
	r := &Runner{Impl: InProcess{}}
	for _, res := range r.Run(context.Background(), vs) {
		if res.Outcome != Pass {
			t.Errorf("%s: %s %s %s", res.Vector.ID, res.Outcome, res.Detail, strings.Join(res.Diffs, "; "))
		}
	}
}
