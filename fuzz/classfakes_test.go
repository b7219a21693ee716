package fuzz

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/conform-suite/conform/internal/jsonv"
	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/reference"
	"github.com/conform-suite/conform/spec"
)

// classFakeBuiltins names, for each class, the built-in its fake port
// reads the class with: one a port in that language would reach for.
var classFakeBuiltins = map[string]string{
	"quote.space": "python:str.isspace", "quote.trim": "java:String.trim", "marker.space": "javascript:/\\s/",
	"selref.label": "python:str.isspace", "selref.trim": "javascript:String.trim", "selref.control": "java:Character.isISOControl",
	"marker.line": "python:str.splitlines", "marker.digit": "go:unicode.IsDigit", "quote.digit": "python:re.\\d",
	"marker.line-number": "javascript:parseInt(s,10)", "marker.index": "python:int", "quote.offset": "javascript:Number(s)",
	"marker.user-origin": "java:equalsIgnoreCase", "selref.scheme": "javascript:toLowerCase",
	"quote.json": "javascript:JSON.stringify", "quote.path": "javascript:encodeURIComponent", "quote.query": "python:urllib.parse.quote_plus",
	"quote.elements": "chromium:display:block",
}

// A classFake is a port model: it answers as the reference does, except
// that where an input holds a point where its built-in disagrees with the
// class, the class is read the built-in's way. For the classes a port
// applies to its input (sets, trims, line ends, digits, folds, integer
// spellings, element roles) the point is rewritten in the input into what
// the built-in takes it for (a member, a non-member, a digit's value, the
// ASCII letters, the integer, an element of its role); for the encoders
// (escape, percent) the spec's form of a point in the output is written in
// the built-in's form. An input without a point is answered exactly as the
// reference answers it, so that only an input reaching a point can find it.
type classFake struct {
	in  func(string) string // rewrites a string of the input
	out func(string) string // rewrites a string of the output
}

func newClassFake(t *testing.T, c spec.Class, key string) classFake {
	t.Helper()
	ps, err := spec.Disagreements(c, key)
	if err != nil || len(ps) == 0 {
		t.Fatalf("%s under %s: %d points (%v)", c.ID, key, len(ps), err)
	}
	runes := map[rune]string{}
	var pairs []string // old, new for a strings.Replacer
	var res []*regexp.Regexp
	var repl []string
	member := map[string]string{spec.KindSet: " ", spec.KindStrip: " ", spec.KindSplit: "\n"}[c.Kind]
	if c.ID == "selref.control" {
		member = "\x01"
	}
	for _, p := range ps {
		switch c.Kind {
		case spec.KindSet, spec.KindStrip, spec.KindSplit:
			if p.Rune < 0 {
				continue
			}
			if p.Builtin == "member" || p.Builtin == "removed" || p.Builtin == "ends a line" {
				runes[p.Rune] = member
			} else {
				runes[p.Rune] = "x"
			}
		case spec.KindDigit:
			if p.Builtin == "not a digit" {
				runes[p.Rune] = "x"
			} else {
				runes[p.Rune] = p.Builtin
			}
		case spec.KindFold:
			if p.Builtin != "no ASCII match" {
				runes[p.Rune] = p.Builtin
			}
		case spec.KindEscape, spec.KindPercent:
			if strings.HasPrefix(p.Spec, `\`) || strings.HasPrefix(p.Spec, "%") {
				pairs = append(pairs, p.Spec, p.Builtin)
			}
		case spec.KindParse:
			if p.Input == "" {
				continue
			}
			v := p.Builtin
			if v == "refused" {
				v = "x"
			}
			// Where the class's integers stand: after L in a line range,
			// after / in a pointer, as an href's start or end.
			at := map[string][2]string{"marker.line-number": {`(L)`, `(-|$|\x{E201})`}, "marker.index": {`(/)`, `(/|$)`},
				"quote.offset": {`((?:^|&|\?)(?:start|end)=)`, `(&|#|$)`}}[c.ID]
			pre, post := at[0], at[1]
			lit := p.Input
			if c.ID == "quote.offset" {
				lit = hrefFormEscape(lit)
			}
			res = append(res, regexp.MustCompile(pre+regexp.QuoteMeta(lit)+post))
			repl = append(repl, "${1}"+v+"${2}")
		case spec.KindElements:
			tag := map[string]string{"block": "div", "inline": "span", "line-break": "br", "excluded": "template"}[p.Builtin]
			if tag == "" {
				t.Fatalf("%s: no element of role %q", c.ID, p.Builtin)
			}
			res = append(res, regexp.MustCompile(`(</?)`+regexp.QuoteMeta(p.Input)+`([\s/>])`))
			repl = append(repl, "${1}"+tag+"${2}")
		}
	}
	f := classFake{}
	if len(runes) > 0 {
		f.in = func(s string) string {
			return strings.Join(slices.Collect(func(yield func(string) bool) {
				for _, r := range s {
					v, ok := runes[r]
					if !ok {
						v = string(r)
					}
					if !yield(v) {
						return
					}
				}
			}), "")
		}
	}
	if len(res) > 0 {
		f.in = func(s string) string {
			for i, re := range res {
				s = re.ReplaceAllString(s, repl[i])
			}
			return s
		}
	}
	if len(pairs) > 0 {
		f.out = strings.NewReplacer(pairs...).Replace
	}
	if f.in == nil && f.out == nil {
		t.Fatalf("%s under %s: no point the fake can read", c.ID, key)
	}
	return f
}

func (f classFake) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	if req.Op != "hello" && f.in != nil {
		if in, changed := rewriteStrings(req.Input, f.in); changed {
			req.Input, req.Value = in, nil
		}
	}
	resp, err := reference.InProcess{}.Call(ctx, req)
	if err == nil && f.out != nil && resp.Output != nil {
		resp.Output, _ = rewriteStrings(resp.Output, f.out)
	}
	return resp, err
}

func (classFake) Close() error { return nil }

// rewriteStrings applies f to every string of a JSON document that UTF-8
// can carry, and reports whether any changed.
func rewriteStrings(doc json.RawMessage, f func(string) string) (json.RawMessage, bool) {
	v, err := parseJSON16(doc)
	if err != nil {
		return doc, false
	}
	changed := false
	for _, n := range walkNodes(v, nil) {
		if n.Type != jsonv.String || jsonv.HasLoneSurrogate(n.CodeUnits()) {
			continue
		}
		s := string(utf16.Decode(n.CodeUnits()))
		if t := f(s); t != s {
			n.Units, changed = jsonv.UnitsOf(t), true
		}
	}
	if !changed {
		return doc, false
	}
	return encode(v), true
}

// TestNoCorpusFindsAPortModelOfEachClass: fuzzing from the generators
// alone (Config.NoCorpus), with a fixed seed, finds the fake port of each
// class: it differs from the reference only on inputs that reach a point
// where its built-in disagrees with the class.
func TestNoCorpusFindsAPortModelOfEachClass(t *testing.T) {
	classes, err := spec.PlatformClasses()
	if err != nil {
		t.Fatal(err)
	}
	c0, err := embeddedCorpus()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range classes {
		key := classFakeBuiltins[c.ID]
		t.Run(c.ID, func(t *testing.T) {
			fake := newClassFake(t, c, key)
			rep, err := Run(context.Background(), Config{Impl: fake, Ops: c.Ops, Corpus: c0, NoCorpus: true, Seed: 1, Count: noCorpusCount, Parallel: 4,
				ShrinkExecs: 1, StopWhen: func(*Finding) bool { return true }})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Findings) == 0 {
				t.Fatalf("%d executions of %v found no finding on a port reading %s as %s does", rep.Execs, c.Ops, c.ID, key)
			}
			f := rep.Findings[0]
			t.Logf("%s as %s: found after %d executions: %s %s", c.ID, key, f.Case+1, f.Signature, fmt.Sprintf("%.200s", f.Original))
		})
	}
}

// noCorpusCount bounds each class's run of TestNoCorpusFindsAPortModelOfEachClass.
const noCorpusCount = 20000
