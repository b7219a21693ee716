package selref

import (
	"maps"
	"slices"
	"testing"

	"github.com/conform-suite/conform/internal/jsonv"
	"github.com/conform-suite/conform/internal/platformtest"
	"github.com/conform-suite/conform/reference/internal/opkit"
	"github.com/conform-suite/conform/spec"
)

// toggle installs the spec's class held by v with the one point p read as
// its built-in reads it.
func toggle(v *func(rune) bool) platformtest.Install {
	return func(ps []spec.Point) func() {
		old := *v
		*v = platformtest.Toggle(old, ps)
		return func() { *v = old }
	}
}

// classSites are the sites of each class of the suite: the variable of
// each rule that applies the class (ingest.go).
var classSites = append([]platformtest.Site{
	{Class: "selref.trim", Name: "url", Rule: "SELREF-URL-001", Install: toggle(&trimClass)},
	{Class: "selref.trim", Name: "vance", Rule: "SELREF-VANCE-001", Install: toggle(&vanceTrimClass)},
	{Class: "selref.control", Name: "url", Rule: "SELREF-URL-002", Install: toggle(&addressControlClass)},
	{Class: "selref.control", Name: "vance", Rule: "SELREF-VANCE-004", Install: toggle(&vanceControlClass)},
}, platformtest.OneSite(classHooks)...)

// classHooks installs each class of the suite applied through one rule,
// the spec's with one point read as a built-in reads it.
var classHooks = map[string]platformtest.Install{
	"selref.label": toggle(&labelSpaceClass),
	"selref.scheme": func(ps []spec.Point) func() {
		p := ps[0]
		old := schemeCaseClass
		schemeCaseClass = func(a, b string) bool {
			n, ok := platformtest.FoldLen(a, b, p)
			return ok && n == len(a)
		}
		return func() { schemeCaseClass = old }
	},
}

// Every point where a built-in a port would use disagrees with one of the
// suite's classes changes the answer to some vector of an op applying the
// class, or is listed as unobservable with the rule that masks it.
func TestPlatformPointsAreObservable(t *testing.T) {
	answer := platformtest.Answerer(func(op string, v *jsonv.Value) (any, error) { return Ops[op](v) }, opkit.Parse)
	platformtest.Check(t, slices.Sorted(maps.Keys(Ops)), answer, classSites)
}

// The suite's classes are the spec's, at every code point.
func TestClassesAreTheSpecs(t *testing.T) {
	platformtest.SameSet(t, "selref.label", labelSpaceClass)
	platformtest.SameSet(t, "selref.trim", trimClass)
	platformtest.SameSet(t, "selref.trim", vanceTrimClass)
	platformtest.SameSet(t, "selref.control", addressControlClass)
	platformtest.SameSet(t, "selref.control", vanceControlClass)
	platformtest.SameFold(t, "selref.scheme", schemeCaseClass)
}
