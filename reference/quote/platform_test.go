package quote

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
	"quote.space": func(ps []spec.Point) func() {
		old := spaceClass
		spaceClass = platformtest.Toggle(old, ps)
		return func() { spaceClass = old }
	},
	"quote.trim": func(ps []spec.Point) func() {
		old := trimClass
		trimClass = platformtest.Toggle(old, ps)
		return func() { trimClass = old }
	},
}

// Every point where a built-in a port would use disagrees with one of the
// suite's classes changes the answer to some vector of an op applying the
// class, or is listed as unobservable with the rule that masks it.
func TestPlatformPointsAreObservable(t *testing.T) {
	answer := platformtest.Answerer(func(op string, v *jsonv.Value) (any, error) { return Ops[op](v) }, opkit.Parse)
	platformtest.Check(t, answer, classHooks)
}

// The suite's classes are the spec's, at every code point.
func TestClassesAreTheSpecs(t *testing.T) {
	platformtest.SameSet(t, "quote.space", spaceClass)
	platformtest.SameSet(t, "quote.trim", trimClass)
}
