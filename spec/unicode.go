package spec

import (
	_ "embed"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// UnicodeVersion is the version of the Unicode Character Database whose
// tables the spec pins, whatever the tables of an implementation's
// platform (MARKER-OFFSET-004).
const UnicodeVersion = "15.0.0"

//go:embed data/punctuation.txt
var punctuationText string

// Punctuation returns the General_Category sets of punctuation that the
// snap set is made of (Po, Pe, Pf), by Unicode version: UnicodeVersion and
// the versions platforms ship before and after it, from
// data/punctuation.txt ('make unicode' writes it from the Unicode data
// packages). Each set is a sorted list of code points.
func Punctuation() (map[string]map[string][]rune, error) {
	out := map[string]map[string][]rune{}
	for i, line := range strings.Split(punctuationText, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 2 {
			return nil, fmt.Errorf("data/punctuation.txt:%d: want a version, a category and code points", i+1)
		}
		if out[f[0]] == nil {
			out[f[0]] = map[string][]rune{}
		}
		var set []rune
		for _, r := range f[2:] {
			lo, hi, isRange := strings.Cut(r, "-")
			if !isRange {
				hi = lo
			}
			a, err1 := strconv.ParseUint(lo, 16, 21)
			b, err2 := strconv.ParseUint(hi, 16, 21)
			if err1 != nil || err2 != nil || b < a || len(set) > 0 && rune(a) <= set[len(set)-1] {
				return nil, fmt.Errorf("data/punctuation.txt:%d: bad or unsorted code points %q", i+1, r)
			}
			for c := a; c <= b; c++ {
				set = append(set, rune(c))
			}
		}
		out[f[0]][f[1]] = set
	}
	if out[UnicodeVersion] == nil {
		return nil, fmt.Errorf("data/punctuation.txt has no tables of Unicode %s", UnicodeVersion)
	}
	return out, nil
}

// Without returns the runes of a that are not in b, both sorted, as the
// sets of SnapSet are: what entered or left a set between two versions.
func Without(a, b []rune) []rune {
	var out []rune
	for _, r := range a {
		if _, ok := slices.BinarySearch(b, r); !ok {
			out = append(out, r)
		}
	}
	return out
}

// SnapExceptions are the punctuation runes outside the snap set: they open
// a clause (MARKER-OFFSET-004).
var SnapExceptions = []rune{'\u00a1', '\u00bf', '\u2e18'}

// SnapSet returns the snap set under the tables of one Unicode version
// (sorted): its Po, Pe and Pf runes but SnapExceptions. Under
// UnicodeVersion it is the set MARKER-OFFSET-004 defines; under another, the
// set an implementation would use if it took its platform's tables.
func SnapSet(version string) ([]rune, error) {
	p, err := Punctuation()
	if err != nil {
		return nil, err
	}
	cats, ok := p[version]
	if !ok {
		return nil, fmt.Errorf("no punctuation tables of Unicode %s", version)
	}
	set := slices.Concat(cats["Po"], cats["Pe"], cats["Pf"])
	slices.Sort(set)
	return slices.DeleteFunc(slices.Compact(set), func(r rune) bool { return slices.Contains(SnapExceptions, r) }), nil
}
