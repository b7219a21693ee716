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

// Unobservable is one entry of the unobservable list: a point of a class
// that no vector of an op ("*": of any op of the class) can show.
type Unobservable struct {
	Class, Op, Point string
	Rule             string // the masking rule's requirement id and words
	Line             int
}

// UnobservablePath is the list's path from the module root.
const UnobservablePath = "spec/data/platform-unobservable.txt"

// ReadUnobservable reads the checked-in list: one "class op point  # rule"
// a line (op "*" for every op of the class, the point as RunKey names it,
// the rule after two spaces and "# "), # comments and blank lines ignored.
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
		class, rest, _ := strings.Cut(strings.TrimSpace(entry), " ")
		op, point, _ := strings.Cut(strings.TrimSpace(rest), " ")
		rule, point = strings.TrimSpace(rule), strings.TrimSpace(point)
		if !ok || class == "" || op == "" || point == "" || rule == "" {
			return nil, fmt.Errorf("%s:%d: want \"class op point  # rule\", got %q", UnobservablePath, n, line)
		}
		out = append(out, Unobservable{Class: class, Op: op, Point: point, Rule: rule, Line: n})
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

// Check runs the observability check for every class the package applies
// (hooks, by class id), over the vectors of the ops of the class. Every
// class of an op the package answers (ops) must have its hook.
func Check(t TB, ops []string, answer Answer, hooks map[string]Install) {
	t.Helper()
	corpus, err := vectors.Load(vectors.FS())
	if err != nil {
		t.Fatal(err)
	}
	listed, err := ReadUnobservable()
	if err != nil {
		t.Fatal(err)
	}
	check(t, corpus.Vectors(), listed, ops, answer, hooks)
}

// check is Check over the vectors vs and the unobservable list listed.
func check(t TB, vs []*vectors.Vector, listed []Unobservable, ops []string, answer Answer, hooks map[string]Install) {
	t.Helper()
	classes, err := spec.PlatformClasses()
	if err != nil {
		t.Fatal(err)
	}
	byOp := map[string][]*vectors.Vector{}
	for _, v := range vs {
		byOp[v.Op] = append(byOp[v.Op], v)
	}
	defined := map[string]bool{}
	for _, c := range classes {
		defined[c.ID] = true
	}
	for id := range hooks {
		if !defined[id] {
			t.Errorf("the package applies the class %s, which the platform tables do not define", id)
		}
	}
	for _, c := range classes {
		if hooks[c.ID] == nil && slices.ContainsFunc(c.Ops, func(op string) bool { return slices.Contains(ops, op) }) {
			t.Errorf("the class %s applies to %s, but the package gives the check no variable to replace for it", c.ID, strings.Join(c.Ops, ", "))
		}
	}
	var targets []target
	seen := map[string]int{}
	normal := map[*vectors.Vector]string{}
	for _, c := range classes {
		if hooks[c.ID] == nil {
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
	isListed := map[string]Unobservable{}
	for _, u := range listed {
		isListed[u.Class+" "+u.Op+" "+u.Point] = u
	}
	used := map[string]bool{}
	type tally struct{ points, shown int }
	tallies := map[string]*tally{}
	defer func() {
		for _, k := range slices.Sorted(maps.Keys(tallies)) {
			t.Logf("%s: %d points, %d shown by a vector, %d listed unobservable", k, tallies[k].points, tallies[k].shown, tallies[k].points-tallies[k].shown)
		}
	}()
	for _, tg := range targets {
		point := RunKey(tg.points)
		all, allListed := isListed[tg.class.ID+" * "+point]
		restore := hooks[tg.class.ID](tg.points)
		var showing []string // an op's first vector that shows the point
		for _, op := range tg.class.Ops {
			shown := ""
			for _, v := range opVectors(byOp[op], tg.points) {
				if answer(v.Op, v.Input) != normal[v] {
					shown = v.ID
					break
				}
			}
			key := tg.class.ID + " " + op + " " + point
			if tallies[tg.class.ID+" in "+op] == nil {
				tallies[tg.class.ID+" in "+op] = &tally{}
			}
			tallies[tg.class.ID+" in "+op].points++
			if shown != "" {
				tallies[tg.class.ID+" in "+op].shown++
			}
			u, isList := isListed[key]
			if isList {
				used[key] = true
			}
			switch {
			case shown != "":
				showing = append(showing, shown)
				if isList {
					t.Errorf("%s:%d: %s is listed as unobservable, but %s shows it (a stale entry: remove it)", UnobservablePath, u.Line, key, shown)
				}
			case !isList && !allListed:
				t.Errorf("%s in %s: no vector shows the point %s, where %s disagree with the spec: add a vector, or list the point in %s with the rule that masks it",
					tg.class.ID, op, point, strings.Join(tg.builtins, ", "), UnobservablePath)
			}
		}
		restore()
		if allListed {
			used[tg.class.ID+" * "+point] = true
			if len(showing) > 0 {
				t.Errorf("%s:%d: %s is listed as unobservable in every op, but %s shows it (a stale entry: remove it)", UnobservablePath, all.Line, point, showing[0])
			}
		}
	}
	for _, u := range listed {
		key := u.Class + " " + u.Op + " " + u.Point
		if !used[key] && hooks[u.Class] != nil {
			t.Errorf("%s:%d: %s names no disagreement point of the tables in an op of the class (a stale entry: remove it)", UnobservablePath, u.Line, key)
		}
	}
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
