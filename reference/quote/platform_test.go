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

// toggle installs the spec's class held by v with the points read as
// their built-in reads them.
func toggle(v *func(rune) bool) platformtest.Install {
	return func(ps []spec.Point) func() {
		old := *v
		*v = platformtest.Toggle(old, ps)
		return func() { *v = old }
	}
}

// The ops that collect a prompt's links, parse each and check its text.
var linkOps = []string{"quote.collect", "quote.expand", "quote.markdown", "quote.plaintext", "quote.send_turn"}

// classSites are the sites of each class of the suite: the variable of
// each rule that applies the class (citation.go), with the ops it serves.
var classSites = append([]platformtest.Site{
	{Class: "quote.space", Name: "normalize", Rule: "QUOTE-ANCHOR-004", Ops: []string{"quote.normalize", "quote.select", "quote.resolve"}, Install: toggle(&spaceClass)},
	{Class: "quote.space", Name: "select-blank", Rule: "QUOTE-ANCHOR-014", Ops: []string{"quote.select"}, Install: toggle(&selectBlankClass)},
	{Class: "quote.space", Name: "select-run", Rule: "QUOTE-ANCHOR-018", Ops: []string{"quote.select"}, Install: toggle(&selectRunClass)},
	{Class: "quote.space", Name: "resolve-blank", Rule: "QUOTE-ANCHOR-025", Ops: []string{"quote.resolve"}, Install: toggle(&quoteBlankClass)},
	{Class: "quote.space", Name: "link-end", Rule: "QUOTE-LINK-060", Ops: linkOps, Install: toggle(&linkEndClass)},
	{Class: "quote.space", Name: "text-blank", Rule: "QUOTE-LINK-040", Ops: append([]string{"quote.parse", "quote.format"}, linkOps...), Install: toggle(&textBlankClass)},
	{Class: "quote.trim", Name: "id", Rule: "QUOTE-LINK-036", Ops: append([]string{"quote.parse", "quote.submit_check"}, linkOps...), Install: toggle(&idTrimClass)},
	{Class: "quote.trim", Name: "id-check", Rule: "QUOTE-LINK-014", Ops: []string{"quote.format"}, Install: toggle(&idCheckClass)},
	{Class: "quote.trim", Name: "comment", Rule: "QUOTE-COMPOSE-001", Ops: []string{"quote.comment"}, Install: toggle(&commentTrimClass)},
	{Class: "quote.trim", Name: "submit", Rule: "QUOTE-COMPOSE-031", Ops: []string{"quote.submit_check"}, Install: toggle(&submitTrimClass)},
	{Class: "quote.trim", Name: "input", Rule: "QUOTE-COMPOSE-034", Ops: []string{"quote.send_turn"}, Install: toggle(&inputTrimClass)},
	{Class: "quote.trim", Name: "expanded", Rule: "QUOTE-COMPOSE-035", Ops: []string{"quote.send_turn"}, Install: toggle(&expandedTrimClass)},
}, platformtest.OneSite(classHooks)...)

// classHooks installs each class of the suite applied through one rule,
// the spec's with one point read as a built-in reads it.
var classHooks = map[string]platformtest.Install{
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
	platformtest.Check(t, slices.Sorted(maps.Keys(Ops)), answer, classSites)
}

// The suite's classes are the spec's, at every code point.
func TestClassesAreTheSpecs(t *testing.T) {
	for _, c := range []func(rune) bool{spaceClass, selectBlankClass, selectRunClass, quoteBlankClass, linkEndClass, textBlankClass} {
		platformtest.SameSet(t, "quote.space", c)
	}
	for _, c := range []func(rune) bool{idTrimClass, idCheckClass, commentTrimClass, submitTrimClass, inputTrimClass, expandedTrimClass} {
		platformtest.SameSet(t, "quote.trim", c)
	}
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
