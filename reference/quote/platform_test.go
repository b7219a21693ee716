package quote

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html/atom"

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
	"quote.offset": func(ps []spec.Point) func() {
		old := offsetClass
		offsetClass = func(s, field string) (int64, *Error) {
			if s != ps[0].Input {
				return old(s, field)
			}
			v, ok := platformtest.Int(ps[0])
			switch {
			case !ok && strings.Trim(ps[0].Builtin, "0123456789") == "":
				return 0, fail(CodeOffsetRange, field) // an integer past int64
			case !ok:
				return 0, fail(CodeOffsetSyntax, field)
			case v < 0 || v > MaxOffset:
				return 0, fail(CodeOffsetRange, field)
			}
			return v, nil
		}
		return func() { offsetClass = old }
	},
	"quote.digit": func(ps []spec.Point) func() {
		old := offsetClass
		offsetClass = func(s, field string) (int64, *Error) { return old(platformtest.Digit(s, ps[0]), field) }
		return func() { offsetClass = old }
	},
	"quote.path":  percentHook(false),
	"quote.query": percentHook(true),
	"quote.json": func(ps []spec.Point) func() {
		old := jsonClass
		forms := map[rune]string{}
		for _, p := range ps {
			forms[p.Rune] = p.Builtin
		}
		jsonClass = func(b *strings.Builder, s string) {
			b.WriteByte('"')
			for _, r := range s {
				if f, ok := forms[r]; ok {
					b.WriteString(f)
					continue
				}
				var one strings.Builder
				old(&one, string(r))
				b.WriteString(strings.TrimSuffix(strings.TrimPrefix(one.String(), `"`), `"`))
			}
			b.WriteByte('"')
		}
		return func() { jsonClass = old }
	},
	"quote.elements": func(ps []spec.Point) func() {
		p := ps[0]
		block, excl, br, svg := maps.Clone(blockElements), maps.Clone(excludedElements), lineBreakElement, excludedSVG
		a := atom.Lookup([]byte(p.Input))
		switch p.Input {
		case "br":
			lineBreakElement = 0
		case "svg":
			excludedSVG = ""
		}
		delete(blockElements, a)
		delete(excludedElements, a)
		switch p.Builtin {
		case "block":
			blockElements[a] = true
		case "excluded":
			excludedElements[a] = true
		case "line-break":
			lineBreakElement = a
		}
		return func() { blockElements, excludedElements, lineBreakElement, excludedSVG = block, excl, br, svg }
	},
}

// percentHook installs the percent-encoding of a path segment (query
// false) or of a query value with one ASCII character written as the
// built-in writes it.
func percentHook(query bool) platformtest.Install {
	return func(ps []spec.Point) func() {
		old := percentClass
		percentClass = func(b *strings.Builder, s string, form bool) {
			if form != query {
				old(b, s, form)
				return
			}
			for i := 0; i < len(s); i++ {
				if rune(s[i]) == ps[0].Rune {
					b.WriteString(ps[0].Builtin)
				} else {
					old(b, s[i:i+1], form)
				}
			}
		}
		return func() { percentClass = old }
	}
}

// Every point where a built-in a port would use disagrees with one of the
// suite's classes changes the answer to some vector of an op applying the
// class, or is listed as unobservable with the rule that masks it.
func TestPlatformPointsAreObservable(t *testing.T) {
	answer := platformtest.Answerer(func(op string, v *jsonv.Value) (any, error) { return Ops[op](v) }, opkit.Parse)
	platformtest.Check(t, slices.Sorted(maps.Keys(Ops)), answer, classHooks)
}

// The suite's classes are the spec's, at every code point.
func TestClassesAreTheSpecs(t *testing.T) {
	platformtest.SameSet(t, "quote.space", spaceClass)
	platformtest.SameSet(t, "quote.trim", trimClass)
	percent := func(form bool) func(rune) string {
		return func(r rune) string {
			var b strings.Builder
			percentClass(&b, string(r), form)
			return b.String()
		}
	}
	platformtest.SameForms(t, "quote.path", percent(false))
	platformtest.SameForms(t, "quote.query", percent(true))
	platformtest.SameForms(t, "quote.json", func(r rune) string {
		var b strings.Builder
		jsonClass(&b, string(r))
		return strings.TrimSuffix(strings.TrimPrefix(b.String(), `"`), `"`)
	})
	platformtest.SameForms(t, "quote.digit", func(r rune) string {
		if v, err := offsetClass(string(r), "start"); err == nil {
			return strconv.FormatInt(v, 10)
		}
		return "not a digit"
	})
	platformtest.SameInputs(t, "quote.offset", func(s string) string {
		if v, err := offsetClass(s, "start"); err == nil {
			return strconv.FormatInt(v, 10)
		}
		return "refused"
	}, "0", "1", "9007199254740991", "0000000000000001")
	platformtest.SameInputs(t, "quote.elements", func(name string) string {
		a := atom.Lookup([]byte(name))
		switch {
		case a == lineBreakElement:
			return "line-break"
		case blockElements[a]:
			return "block"
		case excludedElements[a], name == excludedSVG:
			return "excluded"
		}
		return "inline"
	}, "p", "div", "span", "br", "svg", "script", "li")
}
