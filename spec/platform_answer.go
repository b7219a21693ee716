package spec

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// The spec's side of each class, for the tests that hold an
// implementation's class to it over all of Unicode.

var specMembers sync.Map // class id -> []bool

// SpecAnswer returns the spec's answer for the code point r of a class
// over code points, in the words of Point.Spec: "member" or "not a member"
// (set), "removed" or "kept" (strip), "ends a line" or "does not end a
// line" (split), the form it is written in (escape, percent), its value or
// "not a digit" (digit), "no ASCII match" (fold, for r above U+007F).
func SpecAnswer(class Class, r rune) (string, error) {
	if !slices.ContainsFunc(classes, func(c Class) bool { return c.ID == class.ID }) {
		return "", fmt.Errorf("no class %q", class.ID)
	}
	if r < 0 || r > MaxRune || isSurrogate(r) {
		return "", fmt.Errorf("%U is no Unicode scalar value", r)
	}
	members, form, _ := classSpec(class.ID)
	switch class.Kind {
	case KindSet, KindStrip, KindSplit:
		m, ok := specMembers.Load(class.ID)
		if !ok {
			set, err := parseMembers(members)
			if err != nil {
				return "", err
			}
			m, _ = specMembers.LoadOrStore(class.ID, set)
		}
		in := m.([]bool)[r]
		switch {
		case class.Kind == KindSet && in:
			return answerMember, nil
		case class.Kind == KindSet:
			return answerNotMember, nil
		case class.Kind == KindStrip && in:
			return answerRemoved, nil
		case class.Kind == KindStrip:
			return answerKept, nil
		case in:
			return answerEnds, nil
		}
		return answerNotEnds, nil
	case KindEscape, KindPercent, KindFold, KindDigit:
		return orWord(form(r), class.Kind), nil
	}
	return "", fmt.Errorf("class %s is a %s, not a class over code points", class.ID, class.Kind)
}

// SpecInputAnswer returns the spec's answer for an input of a parse class
// (the integer, or "refused") or an elements class (the element's role),
// and for a split class the lines of a probe of SplitProbes, as JSON.
func SpecInputAnswer(class Class, input string) (string, error) {
	if !slices.ContainsFunc(classes, func(c Class) bool { return c.ID == class.ID }) {
		return "", fmt.Errorf("no class %q", class.ID)
	}
	switch class.Kind {
	case KindParse, KindElements:
		_, _, answer := classSpec(class.ID)
		return answer(input), nil
	case KindSplit:
		lines, ok := markerLines[input]
		if !ok {
			return "", fmt.Errorf("no split probe %q", input)
		}
		return linesJSON(lines), nil
	}
	return "", fmt.Errorf("class %s is a %s, not a class over inputs", class.ID, class.Kind)
}

// Runs groups the disagreement points of one built-in (from Disagreements)
// into the points one rule of the built-in makes: for an escape class, a
// run of consecutive code points that the spec writes as themselves and
// the built-in by one template (a \u escape of each UTF-16 unit, as an
// ASCII-only encoder writes every character above U+007E); for a digit
// class, a run of consecutive code points that the built-in reads as
// consecutive digits and the spec as none (a script's ten decimal
// digits); every other point alone. A vector showing one code point of a
// run shows the rule.
func Runs(class Class, points []Point) [][]Point {
	var out [][]Point
	// templated reports whether p's form is a \u escape of each unit where
	// the spec writes the character raw, and whether in lower case.
	templated := func(p Point) (ok, lower bool) {
		if class.Kind != KindEscape || p.Rune < 0x7F || p.Spec != string(p.Rune) || !strings.HasPrefix(p.Builtin, `\u`) {
			return false, false
		}
		l := ExpandForm(FormUnitsLower, p.Rune)
		return p.Builtin == l || p.Builtin == ExpandForm(FormUnitsUpper, p.Rune), p.Builtin == l
	}
	digit := func(p Point) (int, bool) {
		if class.Kind != KindDigit || p.Spec != answerNoDigit {
			return 0, false
		}
		v, err := strconv.Atoi(p.Builtin)
		return v, err == nil
	}
	prevOK, prevLower := false, false
	for _, p := range points {
		ok, lower := templated(p)
		if n := len(out); n > 0 {
			last := out[n-1][len(out[n-1])-1]
			next := p.Rune == last.Rune+1 || last.Rune == 0xD7FF && p.Rune == 0xE000
			v, isDigit := digit(p)
			lv, lastDigit := digit(last)
			if next && (ok && prevOK && lower == prevLower || isDigit && lastDigit && v == lv+1) {
				out[n-1] = append(out[n-1], p)
				continue
			}
		}
		out = append(out, []Point{p})
		prevOK, prevLower = ok, lower
	}
	return out
}
