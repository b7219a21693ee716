// Package platformtest is the observability check of the platform tables
// (spec/platform.go), shared by the tests of the reference's suites: for
// each class, op of the class, built-in and disagreement point, the
// reference with that one point of the class read as the built-in reads it
// must answer some vector of the op otherwise than the reference does. A point that no
// vector can show is listed, with the rule that masks it, in
// spec/data/platform-unobservable.txt. Only tests import this package.
package platformtest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/conform-suite/conform/internal/jsonv"
	"github.com/conform-suite/conform/spec"
	"github.com/conform-suite/conform/vectors"
)

// Answer answers op on input as the package under test does: its output
// as JSON, or its error's text.
type Answer func(op string, input json.RawMessage) string

// Answerer is the Answer of a package whose op handlers handle calls,
// each on the input as parse reads it (opkit.Parse).
func Answerer(handle func(op string, input *jsonv.Value) (any, error), parse func(json.RawMessage) (*jsonv.Value, error)) Answer {
	return func(op string, input json.RawMessage) (answer string) {
		defer func() {
			if r := recover(); r != nil {
				answer = fmt.Sprint("panic: ", r)
			}
		}()
		v, err := parse(input)
		if err != nil {
			return "error: " + err.Error()
		}
		out, err := handle(op, v)
		if err != nil {
			return "error: " + err.Error()
		}
		data, err := jsonv.Marshal(out)
		if err != nil {
			return "error: " + err.Error()
		}
		return string(data)
	}
}

// Install sets the variable through which the package applies a class to
// the spec's class with the one point ps holds (or the run of points of
// one rule of a built-in) read as the built-in reads it, and returns a
// function restoring the variable.
type Install func(ps []spec.Point) (restore func())

// PointKey names a point in the unobservable list and in messages:
// U+XXXX for a code point, the quoted input otherwise, then "=" and the
// built-in's answer.
func PointKey(p spec.Point) string {
	k := fmt.Sprintf("%q", p.Input)
	if p.Rune >= 0 {
		k = fmt.Sprintf("U+%04X", p.Rune)
	}
	return k + "=" + p.Builtin
}

// A Site is one place where the package applies a class: one rule (one
// requirement) of the spec, through one variable of its own, so that the
// check can read the class as a built-in reads it at that place alone, as
// a port that reaches for the built-in in that one place does.
type Site struct {
	Class   string   // the class id of the tables
	Name    string   // the site's name within the class ("normalize", "select-blank", ...)
	Rule    string   // the requirement the site applies; "": the class's
	Ops     []string // the ops of the class the site serves; nil: every op of the class
	Install Install  // sets the site's variable alone
}

// Unobservable is one entry of the unobservable list: a point of a class
// that no vector of an op ("*": of any op of the class) can show when the
// class is read as the built-in reads it at one site ("*": at any site of
// the class, or in an op that no site of the package serves).
type Unobservable struct {
	Class, Site, Op, Point string
	Rule                   string // the masking rule's requirement id and words
	Line                   int
}

// UnobservablePath is the list's path from the module root.
const UnobservablePath = "spec/data/platform-unobservable.txt"

// ReadUnobservable reads the checked-in list: one "class site op point  #
// rule" a line (site "*" for every site of the class, op "*" for every op,
// the point as RunKey names it, the rule after two spaces and "# "), #
// comments and blank lines ignored.
func ReadUnobservable() ([]Unobservable, error) {
	_, self, _, _ := runtime.Caller(0)
	path := filepath.Join(filepath.Dir(self), "..", "..", filepath.FromSlash(UnobservablePath))
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []Unobservable
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		entry, rule, ok := strings.Cut(line, "  # ")
		f := strings.SplitN(strings.TrimSpace(entry), " ", 4)
		rule = strings.TrimSpace(rule)
		if !ok || len(f) != 4 || slices.Contains(f, "") || rule == "" {
			return nil, fmt.Errorf("%s:%d: want \"class site op point  # rule\", got %q", UnobservablePath, n, line)
		}
		out = append(out, Unobservable{Class: f[0], Site: f[1], Op: f[2], Point: strings.TrimSpace(f[3]), Rule: rule, Line: n})
	}
	return out, sc.Err()
}

// target is one point of one class (or the run of points one rule of a
// built-in makes, spec.Runs), with the built-ins that disagree there.
type target struct {
	class    spec.Class
	points   []spec.Point
	builtins []string
}

// RunKey names a run of points: its one point's PointKey, or the first
// and last code points and the first point's answer.
func RunKey(ps []spec.Point) string {
	if len(ps) == 1 {
		return PointKey(ps[0])
	}
	return fmt.Sprintf("U+%04X..U+%04X=%s", ps[0].Rune, ps[len(ps)-1].Rune, ps[0].Builtin)
}

// TB is what the checks report to: a *testing.T.
type TB interface {
	Helper()
	Logf(format string, args ...any)
	Errorf(format string, args ...any)
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// Check runs the observability check for every site of every class the
// package applies, over the vectors of the ops each site serves. Every
// class of an op the package answers (ops) must have a site.
func Check(t TB, ops []string, answer Answer, sites []Site) {
	t.Helper()
	corpus, err := vectors.Load(vectors.FS())
	if err != nil {
		t.Fatal(err)
	}
	listed, err := ReadUnobservable()
	if err != nil {
		t.Fatal(err)
	}
	check(t, corpus.Vectors(), listed, ops, answer, sites)
}

// check is Check over the vectors vs and the unobservable list listed.
func check(t TB, vs []*vectors.Vector, listed []Unobservable, ops []string, answer Answer, sites []Site) {
	t.Helper()
	classes, err := spec.PlatformClasses()
	if err != nil {
		t.Fatal(err)
	}
	byOp := map[string][]*vectors.Vector{}
	for _, v := range vs {
		byOp[v.Op] = append(byOp[v.Op], v)
	}
	byID := map[string]spec.Class{}
	for _, c := range classes {
		byID[c.ID] = c
	}
	bySite := map[string][]Site{} // by class id, each site's Ops filled in
	for _, s := range sites {
		c, ok := byID[s.Class]
		switch {
		case !ok:
			t.Errorf("the package applies the class %s (site %s), which the platform tables do not define", s.Class, s.Name)
			continue
		case s.Name == "" || s.Name == "*" || strings.Contains(s.Name, " ") || s.Install == nil:
			t.Errorf("the class %s has a site %q without a name or a variable to replace", s.Class, s.Name)
			continue
		case slices.ContainsFunc(bySite[s.Class], func(o Site) bool { return o.Name == s.Name }):
			t.Errorf("the class %s has two sites named %s", s.Class, s.Name)
			continue
		}
		if s.Ops == nil {
			s.Ops = c.Ops
		}
		if s.Rule == "" {
			s.Rule = strings.Join(c.Requirements, ", ")
		}
		for _, op := range s.Ops {
			if !slices.Contains(c.Ops, op) {
				t.Errorf("the site %s of %s serves %s, which is no op of the class", s.Name, s.Class, op)
			}
		}
		bySite[s.Class] = append(bySite[s.Class], s)
	}
	for _, c := range classes {
		if bySite[c.ID] == nil && slices.ContainsFunc(c.Ops, func(op string) bool { return slices.Contains(ops, op) }) {
			t.Errorf("the class %s applies to %s, but the package gives the check no variable to replace for it", c.ID, strings.Join(c.Ops, ", "))
		}
	}
	var targets []target
	seen := map[string]int{}
	normal := map[*vectors.Vector]string{}
	for _, c := range classes {
		if bySite[c.ID] == nil {
			continue
		}
		for _, op := range c.Ops {
			for _, v := range byOp[op] {
				if _, ok := normal[v]; !ok {
					normal[v] = answer(v.Op, v.Input)
				}
			}
		}
		for _, b := range c.Builtins {
			points, err := spec.Disagreements(c, b)
			if err != nil {
				t.Fatal(err)
			}
			for _, run := range spec.Runs(c, points) {
				key := c.ID + " " + RunKey(run)
				if i, dup := seen[key]; dup {
					targets[i].builtins = append(targets[i].builtins, b)
					continue
				}
				seen[key] = len(targets)
				targets = append(targets, target{class: c, points: run, builtins: []string{b}})
			}
		}
	}
	type entry struct {
		Unobservable
		used, stale bool
	}
	entries := map[string]*entry{}
	for _, u := range listed {
		entries[u.Class+" "+u.Site+" "+u.Op+" "+u.Point] = &entry{Unobservable: u}
	}
	// matching are the entries that list the point at the site in the op.
	matching := func(class, site, op, point string) []*entry {
		var out []*entry
		for _, s := range []string{site, "*"} {
			for _, o := range []string{op, "*"} {
				if e := entries[class+" "+s+" "+o+" "+point]; e != nil && !slices.Contains(out, e) {
					out = append(out, e)
				}
			}
		}
		return out
	}
	type tally struct{ points, shown int }
	tallies := map[string]*tally{}
	defer func() {
		for _, k := range slices.Sorted(maps.Keys(tallies)) {
			t.Logf("%s: %d points, %d shown by a vector, %d listed unobservable", k, tallies[k].points, tallies[k].shown, tallies[k].points-tallies[k].shown)
		}
	}()
	// judge records whether the point is shown (by the vector shown) at
	// the site in the op, against the list.
	judge := func(tg target, site, op, point, shown string) {
		k := tg.class.ID + " at " + site + " in " + op
		if tallies[k] == nil {
			tallies[k] = &tally{}
		}
		tallies[k].points++
		if shown != "" {
			tallies[k].shown++
		}
		es := matching(tg.class.ID, site, op, point)
		for _, e := range es {
			e.used = true
			if shown != "" && !e.stale {
				e.stale = true
				t.Errorf("%s:%d: %s %s %s %s is listed as unobservable, but %s shows it at the site %s (a stale entry: remove it)",
					UnobservablePath, e.Line, e.Class, e.Site, e.Op, e.Point, shown, site)
			}
		}
		if shown == "" && len(es) == 0 {
			where := "at the site " + site + " (" + siteRule(bySite[tg.class.ID], site) + ")"
			if site == "*" {
				where = "(no site of the package serves the op)"
			}
			t.Errorf("%s in %s %s: no vector shows the point %s, where %s disagree with the spec: add a vector, or list the point in %s with the rule that masks it",
				tg.class.ID, op, where, point, strings.Join(tg.builtins, ", "), UnobservablePath)
		}
	}
	for _, tg := range targets {
		point := RunKey(tg.points)
		served := map[string]bool{}
		for _, s := range bySite[tg.class.ID] {
			restore := s.Install(tg.points)
			for _, op := range s.Ops {
				served[op] = true
				shown := ""
				for _, v := range opVectors(byOp[op], tg.points) {
					if answer(v.Op, v.Input) != normal[v] {
						shown = v.ID
						break
					}
				}
				judge(tg, s.Name, op, point, shown)
			}
			restore()
		}
		for _, op := range tg.class.Ops {
			if !served[op] && slices.Contains(ops, op) {
				judge(tg, "*", op, point, "")
			}
		}
	}
	for _, u := range listed {
		e := entries[u.Class+" "+u.Site+" "+u.Op+" "+u.Point]
		if !e.used && bySite[u.Class] != nil {
			t.Errorf("%s:%d: %s %s %s %s names no disagreement point of the tables at a site in an op of the class (a stale entry: remove it)", UnobservablePath, u.Line, u.Class, u.Site, u.Op, u.Point)
		}
	}
}

// OneSite gives each class of hooks, which a package applies through one
// rule only, its one site "all", serving every op of the class.
func OneSite(hooks map[string]Install) []Site {
	var out []Site
	for _, id := range slices.Sorted(maps.Keys(hooks)) {
		out = append(out, Site{Class: id, Name: "all", Install: hooks[id]})
	}
	return out
}

// siteRule is the rule of the site named name among sites.
func siteRule(sites []Site, name string) string {
	for _, s := range sites {
		if s.Name == name {
			return s.Rule
		}
	}
	return ""
}

// opVectors are the vectors vs of one op: first the platform vectors
// whose input holds one of the points (as it is, as a JSON escape or
// percent-encoded), then all the others, platform vectors first: one may
// still show a point that reaches the op in another spelling (a probe's
// behaviour, a character an op derives).
func opVectors(vs []*vectors.Vector, ps []spec.Point) []*vectors.Vector {
	var needles [][]byte
	for i, p := range ps {
		if i > 0 && i < len(ps)-1 {
			continue // a run: its ends stand for it
		}
		if enc, err := json.Marshal(p.Input); err == nil && len(enc) > 2 {
			needles = append(needles, enc[1:len(enc)-1])
		}
		if p.Rune >= 0 {
			var pct []byte
			for _, c := range []byte(string(p.Rune)) {
				pct = fmt.Appendf(pct, "%%%02X", c)
			}
			needles = append(needles, []byte(string(p.Rune)), pct)
			for _, u := range utf16.Encode([]rune{p.Rune}) {
				needles = append(needles, fmt.Appendf(nil, `\u%04x`, u), fmt.Appendf(nil, `\u%04X`, u))
			}
		}
	}
	var first, platform, rest []*vectors.Vector
	for _, v := range vs {
		switch {
		case !slices.Contains(v.Tags, "platform"):
			rest = append(rest, v)
		case slices.ContainsFunc(needles, func(n []byte) bool { return bytes.Contains(v.Input, n) }):
			first = append(first, v)
		default:
			platform = append(platform, v)
		}
	}
	return slices.Concat(first, platform, rest)
}

// Toggle returns the predicate base with the code points of ps read the
// other way, as their built-in reads them.
func Toggle(base func(rune) bool, ps []spec.Point) func(rune) bool {
	return func(r rune) bool {
		if slices.ContainsFunc(ps, func(p spec.Point) bool { return p.Rune == r }) {
			return !base(r)
		}
		return base(r)
	}
}

// FoldLen returns, when s begins with something matching the ASCII string
// ascii without regard to ASCII case, or with the code point of p standing
// for the ASCII string p.Builtin, the byte length of that beginning.
func FoldLen(s, ascii string, p spec.Point) (int, bool) {
	i := 0
	for j := 0; j < len(ascii); {
		if i >= len(s) {
			return 0, false
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if p.Rune >= 0 && r == p.Rune && p.Builtin != "" && len(ascii)-j >= len(p.Builtin) && strings.EqualFold(ascii[j:j+len(p.Builtin)], p.Builtin) {
			i, j = i+size, j+len(p.Builtin)
			continue
		}
		if r >= utf8.RuneSelf || lowerASCII(byte(r)) != lowerASCII(ascii[j]) {
			return 0, false
		}
		i, j = i+1, j+1
	}
	return i, true
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// Split returns the spec's line split (MARKER-LOCATE-006: at each LF, a CR
// before the LF belonging to the terminator, a trailing CR dropped, a
// terminator at the very end starting no further line, "" having no lines)
// with the one point p read as its built-in reads it: a further code point
// ending a line (or LF ending none), or, for a probe of spec.SplitProbes,
// the least change of the split's behaviour that gives the built-in's
// lines on the probe. It reports false for a point it cannot read so.
func Split(p spec.Point) (func(string) []string, bool) {
	switch {
	case p.Rune == '\n':
		return splitter{noLF: true}.split, true
	case p.Rune == '\r':
		return splitter{crEnds: true}.split, true
	case p.Rune >= 0:
		return splitter{extra: p.Rune}.split, true
	}
	probe, ok := spec.SplitProbes[p.Input]
	if !ok {
		return nil, false
	}
	var want []string
	if err := json.Unmarshal([]byte(p.Builtin), &want); err != nil {
		return nil, false
	}
	// Every combination of the changes, fewest first.
	var best *splitter
	for n := 1; n <= splitChanges && best == nil; n++ {
		for mask := 1; mask < 1<<splitChanges; mask++ {
			if bitsSet(mask) != n {
				continue
			}
			sp := splitterOf(mask)
			if slices.Equal(sp.split(probe), want) {
				best = &sp
				break
			}
		}
	}
	if best == nil {
		return nil, false
	}
	return best.split, true
}

// splitter is the spec's line split, changed in the ways its fields say.
type splitter struct {
	extra       rune // a further code point ending a line, or 0
	noLF        bool // LF ends no line
	crEnds      bool // a lone CR ends a line (CR LF stays one terminator)
	crlfTwo     bool // CR and LF each end a line
	keepCR      bool // the CR of a CR LF stays in its line
	keepFinalCR bool // a CR ending the value stays in the last line
	finalLine   bool // a terminator ending the value starts an empty line
	emptyOne    bool // "" is one empty line
	dropEmpty   bool // empty lines are dropped
}

// splitChanges is the number of the boolean changes splitterOf reads from
// a mask.
const splitChanges = 7

func splitterOf(mask int) splitter {
	b := func(i int) bool { return mask&(1<<i) != 0 }
	return splitter{crEnds: b(0), crlfTwo: b(1), keepCR: b(2), keepFinalCR: b(3), finalLine: b(4), emptyOne: b(5), dropEmpty: b(6)}
}

func bitsSet(m int) int {
	n := 0
	for ; m > 0; m &= m - 1 {
		n++
	}
	return n
}

func (sp splitter) split(s string) []string {
	if s == "" {
		if sp.emptyOne {
			return []string{""}
		}
		return nil
	}
	var lines []string
	emit := func(l string) {
		if !sp.dropEmpty || l != "" {
			lines = append(lines, l)
		}
	}
	start := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		end := i + size
		term := false
		switch {
		case r == '\n':
			term = !sp.noLF
		case r == '\r' && sp.crlfTwo:
			term = true
		case r == '\r' && sp.crEnds:
			term = !strings.HasPrefix(s[end:], "\n") || sp.noLF
		case sp.extra != 0 && r == sp.extra:
			term = true
		}
		if term {
			line := s[start:i]
			if r == '\n' && !sp.keepCR {
				line = strings.TrimSuffix(line, "\r")
			}
			emit(line)
			start = end
		}
		i = end
	}
	switch {
	case start < len(s) && sp.keepFinalCR:
		emit(s[start:])
	case start < len(s):
		emit(strings.TrimSuffix(s[start:], "\r"))
	case sp.finalLine:
		emit("")
	}
	return lines
}

// Class returns the class id of the tables.
func Class(t TB, id string) spec.Class {
	t.Helper()
	classes, err := spec.PlatformClasses()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range classes {
		if c.ID == id {
			return c
		}
	}
	t.Fatalf("the platform tables define no class %s", id)
	return spec.Class{}
}

// SameSet fails unless has, an implementation's class, answers as the
// spec's class id (a set, a strip or the code points of a split) at every
// code point.
func SameSet(t TB, id string, has func(rune) bool) {
	t.Helper()
	c := Class(t, id)
	yes := map[string]string{spec.KindSet: "member", spec.KindStrip: "removed", spec.KindSplit: "ends a line"}[c.Kind]
	bad := 0
	for r := rune(0); r <= spec.MaxRune; r++ {
		if 0xD800 <= r && r <= 0xDFFF {
			continue
		}
		want, err := spec.SpecAnswer(c, r)
		if err != nil {
			t.Fatal(err)
		}
		if has(r) != (want == yes) && bad < 10 {
			bad++
			t.Errorf("%s at %U: the implementation's class says %v, the spec's %q", id, r, has(r), want)
		}
	}
}

// SameFold fails unless match, an implementation's comparison of a string
// with an ASCII string, matches no code point above U+007F to any ASCII
// lower-case letter or to any ASCII string (in either case) a built-in of
// the fold class id matches one to, as the spec's class answers ("no
// ASCII match").
func SameFold(t TB, id string, match func(s, ascii string) bool) {
	t.Helper()
	c := Class(t, id)
	targets := map[string]bool{}
	for l := 'a'; l <= 'z'; l++ {
		targets[string(l)] = true
	}
	for _, b := range c.Builtins {
		ps, err := spec.Disagreements(c, b)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			targets[p.Builtin], targets[strings.ToUpper(p.Builtin)] = true, true
		}
	}
	for r := rune(0x80); r <= spec.MaxRune; r++ {
		if 0xD800 <= r && r <= 0xDFFF {
			continue
		}
		want, err := spec.SpecAnswer(c, r)
		if err != nil {
			t.Fatal(err)
		}
		for a := range targets {
			if match(string(r), a) && want == "no ASCII match" {
				t.Errorf("%s: the implementation matches %U to %q, the spec's class to nothing", id, r, a)
			}
		}
	}
}

// SpecSplit is the observability check's reading of the spec's line
// split, unchanged: a test holds it to the implementation's.
func SpecSplit(s string) []string { return splitter{}.split(s) }

// Int reads the built-in's answer of a parse point: its integer, or false
// when it refuses the input (or answers an integer outside int64).
func Int(p spec.Point) (int64, bool) {
	v, err := strconv.ParseInt(p.Builtin, 10, 64)
	return v, err == nil
}

// Digit replaces each occurrence of the code point of a digit point in s
// by the ASCII digit of its value, as a port reading the code point as
// that digit does.
func Digit(s string, p spec.Point) string {
	if len(p.Builtin) != 1 || p.Builtin[0] < '0' || p.Builtin[0] > '9' {
		return s
	}
	return strings.ReplaceAll(s, string(p.Rune), p.Builtin)
}

// SameForms fails unless form, an implementation's class, gives the
// spec's form (spec.SpecAnswer) for every code point of the escape,
// percent or digit class id: all of Unicode, or ASCII for percent.
func SameForms(t TB, id string, form func(rune) string) {
	t.Helper()
	c := Class(t, id)
	last := spec.MaxRune
	if c.Kind == spec.KindPercent {
		last = 0x7F
	}
	bad := 0
	for r := rune(0); r <= last && bad < 10; r++ {
		if 0xD800 <= r && r <= 0xDFFF {
			continue
		}
		want, err := spec.SpecAnswer(c, r)
		if err != nil {
			t.Fatal(err)
		}
		if got := form(r); got != want {
			bad++
			t.Errorf("%s at %U: the implementation's class gives %q, the spec's %q", id, r, got, want)
		}
	}
}

// SameInputs fails unless answer, an implementation's class, gives the
// spec's answer (spec.SpecInputAnswer) for every input of a parse or
// elements class id that a built-in of the tables disagrees on, and for
// the extra inputs.
func SameInputs(t TB, id string, answer func(string) string, extra ...string) {
	t.Helper()
	c := Class(t, id)
	inputs := map[string]bool{}
	for _, in := range extra {
		inputs[in] = true
	}
	for _, b := range c.Builtins {
		ps, err := spec.Disagreements(c, b)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			inputs[p.Input] = true
		}
	}
	for _, in := range slices.Sorted(maps.Keys(inputs)) {
		want, err := spec.SpecInputAnswer(c, in)
		if err != nil {
			t.Fatal(err)
		}
		if got := answer(in); got != want {
			t.Errorf("%s of %q: the implementation's class answers %q, the spec's %q", id, in, got, want)
		}
	}
}
