package marker

import (
	"testing"

	"github.com/conform-suite/conform/internal/jsonv"
	"github.com/conform-suite/conform/internal/platformtest"
	"github.com/conform-suite/conform/reference/internal/opkit"
	"github.com/conform-suite/conform/spec"
)

// classHooks installs each class of the suite, the spec's with one point
// read as a built-in reads it.
var classHooks = map[string]platformtest.Install{
	"marker.space": func(p spec.Point) func() {
		old := notSpaceClass
		notSpaceClass = platformtest.Toggle(old, p)
		return func() { notSpaceClass = old }
	},
	"marker.line": func(p spec.Point) func() {
		old := lineClass
		split, ok := platformtest.Split(p)
		if !ok {
			panic("marker: no line split reads the point " + platformtest.PointKey(p))
		}
		lineClass = split
		return func() { lineClass = old }
	},
	"marker.user-origin": func(p spec.Point) func() {
		old := prefixCaseClass
		prefixCaseClass = func(s, prefix string) bool {
			_, ok := platformtest.FoldLen(s, prefix, p)
			return ok
		}
		return func() { prefixCaseClass = old }
	},
}

// Every point where a built-in a port would use disagrees with one of the
// suite's classes changes the answer to some vector of an op applying the
// class, or is listed as unobservable with the rule that masks it.
func TestPlatformPointsAreObservable(t *testing.T) {
	answer := platformtest.Answerer(func(op string, v *jsonv.Value) (any, error) { return Ops[op](v) }, opkit.Parse)
	platformtest.Check(t, answer, classHooks)
}
