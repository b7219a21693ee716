package spec

import (
	"slices"
	"strings"
	"testing"
)

func class(t *testing.T, id string) Class {
	t.Helper()
	cs, err := PlatformClasses()
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(cs, func(c Class) bool { return c.ID == id })
	if i < 0 {
		t.Fatalf("no class %s", id)
	}
	return cs[i]
}

func pointAt(t *testing.T, ps []Point, r rune, input string) Point {
	t.Helper()
	for _, p := range ps {
		if p.Rune == r && p.Input == input {
			return p
		}
	}
	t.Fatalf("no point at %U %q in %d points", r, input, len(ps))
	return Point{}
}

func disagree(t *testing.T, classID, key string) []Point {
	t.Helper()
	c := class(t, classID)
	if !slices.Contains(c.Builtins, key) {
		t.Fatalf("class %s does not list %s", classID, key)
	}
	ps, err := Disagreements(c, key)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// Facts known from the platforms' documentation.
func TestDisagreementsKnownFacts(t *testing.T) {
	t.Run("python isspace holds U+001C-U+001F and U+0085, not quote's whitespace", func(t *testing.T) {
		ps := disagree(t, "quote.space", "python:str.isspace")
		for _, r := range []rune{0x1C, 0x1D, 0x1E, 0x1F, 0x85} {
			if p := pointAt(t, ps, r, string(r)); p.Spec != "not a member" || p.Builtin != "member" {
				t.Errorf("%U: %+v", r, p)
			}
		}
		if len(ps) != 6 { // and U+FEFF, which JavaScript's \s holds and isspace does not
			t.Errorf("%d points, want 6: %+v", len(ps), ps)
		}
		pointAt(t, ps, 0xFEFF, "\uFEFF")
	})
	t.Run("JavaScript's trim keeps U+0000, which selref trims, and removes NO-BREAK SPACE, which it keeps", func(t *testing.T) {
		ps := disagree(t, "selref.trim", "javascript:String.trim")
		if p := pointAt(t, ps, 0, "\x00"); p.Spec != "removed" || p.Builtin != "kept" {
			t.Errorf("U+0000: %+v", p)
		}
		if p := pointAt(t, ps, 0xA0, "\u00a0"); p.Spec != "kept" || p.Builtin != "removed" {
			t.Errorf("U+00A0: %+v", p)
		}
	})
	t.Run("JavaScript's toUpperCase takes U+017F to S", func(t *testing.T) {
		p := pointAt(t, disagree(t, "marker.user-origin", "javascript:toUpperCase"), 0x17F, "ſ")
		if p.Builtin != "s" || p.Spec != "no ASCII match" {
			t.Errorf("%+v", p)
		}
	})
	t.Run("Java's String.trim removes U+0000-U+0020 only: selref's trim", func(t *testing.T) {
		if ps := disagree(t, "selref.trim", "java:String.trim"); len(ps) != 0 {
			t.Errorf("%+v", ps)
		}
	})
	t.Run("Kotlin's trim is not Java's: it removes NO-BREAK SPACE and keeps U+0000", func(t *testing.T) {
		ps := disagree(t, "selref.trim", "kotlin:String.trim")
		pointAt(t, ps, 0, "\x00")
		pointAt(t, ps, 0xA0, "\u00a0")
	})
	t.Run("JSON.stringify does not escape <", func(t *testing.T) {
		ps := disagree(t, "quote.json", "javascript:JSON.stringify")
		if p := pointAt(t, ps, '<', "<"); p.Spec != `\u003c` || p.Builtin != "<" {
			t.Errorf("%+v", p)
		}
		if len(ps) != 3 {
			t.Errorf("%d points, want <, > and &: %+v", len(ps), ps)
		}
	})
	t.Run("JavaScript's \\s is quote's whitespace", func(t *testing.T) {
		if ps := disagree(t, "quote.space", "javascript:/\\s/"); len(ps) != 0 {
			t.Errorf("%+v", ps)
		}
	})
	t.Run("splitting on LF keeps the CR of a CRLF", func(t *testing.T) {
		p := pointAt(t, disagree(t, "marker.line", "javascript:split(\"\\n\")"), -1, "CRLF")
		if p.Spec != `["a","b"]` || p.Builtin != `["a\r","b"]` {
			t.Errorf("%+v", p)
		}
	})
	t.Run("Python's int reads Arabic-Indic digits", func(t *testing.T) {
		if p := pointAt(t, disagree(t, "quote.offset", "python:int"), -1, "\u0661"); p.Spec != "refused" || p.Builtin != "1" {
			t.Errorf("%+v", p)
		}
	})
}

// The comparison itself, on rows made here: a row equal to the class has no point, and one
// with a single point changed has exactly that point.
func TestDisagreementsOnMadeRows(t *testing.T) {
	tables, err := readPlatform(strings.Join([]string{
		`# a comment line`,
		`{"key":"x:same","language":"x","name":"same","version":"1","how":"measured","kind":"set","members":"` + quoteSpace + `"}`,
		`{"key":"x:nel","language":"x","name":"nel","version":"1","how":"measured","kind":"set","members":"0085 ` + quoteSpace + `"}`,
		`{"key":"x:json","language":"x","name":"json","version":"1","how":"measured","kind":"escape","map":[["0000-0007","{\\u}"],["0008","\\b"],["0009","\\t"],["000A","\\n"],["000B","{\\u}"],["000C","\\f"],["000D","\\r"],["000E-001F","{\\u}"],["0022","\\\""],["0026","{\\u}"],["003C","{\\u}"],["003E","{\\U}"],["005C","\\\\"]]}`,
		`{"key":"x:digit","language":"x","name":"d","version":"1","how":"documented","kind":"digit","map":[["0030-0039","0"],["0660-0661","0"]]}`,
	}, "\n"))
	if err != nil {
		t.Fatal(err)
	}
	run := func(id, key string) []Point {
		ps, err := disagreements(class(t, id), tables[key], key)
		if err != nil {
			t.Fatal(err)
		}
		return ps
	}
	if ps := run("quote.space", "x:same"); len(ps) != 0 {
		t.Errorf("same: %+v", ps)
	}
	if ps := run("quote.trim", "x:nel"); len(ps) != 1 || ps[0] != (Point{Rune: 0x85, Input: "\u0085", Spec: "kept", Builtin: "removed"}) {
		t.Errorf("nel: %+v", ps)
	}
	if ps := run("quote.json", "x:json"); len(ps) != 1 || ps[0] != (Point{Rune: '>', Input: ">", Spec: `\u003e`, Builtin: `\u003E`}) {
		t.Errorf("json: %+v", ps)
	}
	ps := run("quote.digit", "x:digit")
	if len(ps) != 2 || ps[1] != (Point{Rune: 0x661, Input: "\u0661", Spec: "not a digit", Builtin: "1"}) {
		t.Errorf("digit: %+v", ps)
	}
	if _, err := disagreements(class(t, "quote.json"), tables["x:same"], "x:same"); err == nil {
		t.Error("a set row compared with an escape class: no error")
	}
}

func TestPlatformDataIsWellFormed(t *testing.T) {
	for _, bad := range []string{
		`{"key":"x","kind":"set","how":"measured","members":"0020-0010"}`,
		`{"key":"x","kind":"set","how":"guessed"}`,
		`{"key":"x","kind":"sets","how":"measured"}`,
		`{"key":"x","kind":"split","how":"measured","members":"000A"}`,
		`{"key":"x","kind":"set","how":"measured","extra":1}`,
		`{"key":"x","kind":"set","how":"measured"}` + "\n" + `{"key":"x","kind":"set","how":"measured"}`,
	} {
		if _, err := readPlatform(bad); err == nil {
			t.Errorf("no error for %s", bad)
		}
	}
	builtins, err := PlatformBuiltins()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range classes {
		for _, k := range c.Builtins {
			if _, ok := builtins[k]; !ok {
				t.Errorf("class %s lists %s, which data/platform.jsonl does not hold", c.ID, k)
			}
		}
	}
	cs, _ := PlatformClasses()
	for _, c := range cs {
		if len(c.Builtins) == 0 || len(c.Requirements) == 0 || len(c.Ops) == 0 {
			t.Errorf("class %s has no built-ins, requirements or ops", c.ID)
		}
		for _, k := range c.Builtins {
			if b := builtins[k]; b.How == "documented" && b.Language != "swift" {
				t.Errorf("%s: only the Swift rows are documented", k)
			}
		}
	}
}

func TestPlatformClassesNameRequirementsOfTheSpec(t *testing.T) {
	s, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	cs, _ := PlatformClasses()
	for _, c := range cs {
		for _, id := range c.Requirements {
			if _, ok := s.Lookup(id); !ok {
				t.Errorf("class %s: no requirement %s in the spec", c.ID, id)
			}
		}
	}
}
