package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/conform-suite/conform/spec"
)

// A raw row is what a probe measured, before it is written compactly as a spec.PlatformRow:
// for the kinds over code points, the code points it answers for and the answer ("" for a
// member of a set, strip or split; the form, the matched ASCII string or the digit's value
// otherwise).
type raw struct {
	head    spec.PlatformRow
	points  map[rune]string
	lines   map[string][]string
	entries [][]string
}

func newRaw(key, language, name, version, how, kind, note string) *raw {
	return &raw{head: spec.PlatformRow{Key: key, Language: language, Name: name, Version: version, How: how, Kind: kind, Note: note},
		points: map[rune]string{}, lines: map[string][]string{}}
}

// row writes r compactly: members as ranges, forms as ranges of one template.
func (r *raw) row() (spec.PlatformRow, error) {
	out := r.head
	var cps []rune
	for c := range r.points {
		cps = append(cps, c)
	}
	slices.Sort(cps)
	switch out.Kind {
	case spec.KindSet, spec.KindStrip, spec.KindSplit:
		var b []string
		for i := 0; i < len(cps); {
			j := i
			for j+1 < len(cps) && cps[j+1] == cps[j]+1 {
				j++
			}
			b = append(b, span(cps[i], cps[j]))
			i = j + 1
		}
		out.Members = strings.Join(b, " ")
		if out.Kind == spec.KindSplit {
			out.Lines = map[string][]string{}
			for n := range spec.SplitProbes {
				l, ok := r.lines[n]
				if !ok {
					return out, fmt.Errorf("%s: no lines for the probe %q", out.Key, n)
				}
				if l == nil {
					l = []string{}
				}
				out.Lines[n] = l
			}
		}
	case spec.KindEscape, spec.KindPercent, spec.KindFold, spec.KindDigit:
		type run struct {
			lo, hi rune
			form   string
		}
		var runs []run
		for _, c := range cps {
			form := r.points[c]
			if out.Kind == spec.KindDigit {
				if _, err := strconv.Atoi(form); err != nil {
					return out, fmt.Errorf("%s: %U: a digit value %q", out.Key, c, form)
				}
			} else {
				for _, t := range []string{spec.FormUnitsLower, spec.FormUnitsUpper, spec.FormBytesUpper, spec.FormBytesLower} {
					if spec.ExpandForm(t, c) == form {
						form = t
						break
					}
				}
			}
			if n := len(runs); n > 0 && runs[n-1].hi == c-1 && follows(out.Kind, runs[n-1].form, runs[n-1].lo, runs[n-1].hi, form) {
				runs[n-1].hi = c
				continue
			}
			runs = append(runs, run{c, c, form})
		}
		for _, x := range runs {
			out.Map = append(out.Map, []string{span(x.lo, x.hi), x.form})
		}
	case spec.KindParse, spec.KindElements:
		out.Map = r.entries
	default:
		return out, fmt.Errorf("%s: unknown kind %q", out.Key, out.Kind)
	}
	return out, nil
}

// follows reports whether the form of the code point after a run from lo to hi of form continues
// it: the same template, or for a digit the next value.
func follows(kind, form string, lo, hi rune, next string) bool {
	if kind != spec.KindDigit {
		return form == next && strings.HasPrefix(form, "{")
	}
	a, _ := strconv.Atoi(form)
	b, _ := strconv.Atoi(next)
	return b == a+int(hi-lo)+1
}

func span(lo, hi rune) string {
	if lo == hi {
		return fmt.Sprintf("%04X", lo)
	}
	return fmt.Sprintf("%04X-%04X", lo, hi)
}

// marshal writes one row as a line of data/platform.jsonl.
func marshal(row spec.PlatformRow) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(row); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// readProbe reads what a probe printed: for each built-in a line `row` and its head as JSON,
// then lines `cp` (hex code point, JSON answer), `line` (probe name, JSON lines) or `map`
// (JSON input, JSON answer, optional JSON detail).
func readProbe(rd io.Reader) ([]*raw, error) {
	var out []*raw
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		f := strings.Split(sc.Text(), "\t")
		bad := func(err error) error { return fmt.Errorf("probe output line %d: %q: %v", n, sc.Text(), err) }
		if f[0] == "row" && len(f) == 2 {
			r := &raw{points: map[rune]string{}, lines: map[string][]string{}}
			if err := json.Unmarshal([]byte(f[1]), &r.head); err != nil {
				return nil, bad(err)
			}
			out = append(out, r)
			continue
		}
		if len(out) == 0 {
			return nil, bad(fmt.Errorf("no row line before it"))
		}
		r := out[len(out)-1]
		switch {
		case f[0] == "cp" && len(f) == 3:
			c, err := strconv.ParseUint(f[1], 16, 21)
			if err != nil {
				return nil, bad(err)
			}
			var v string
			if err := json.Unmarshal([]byte(f[2]), &v); err != nil {
				return nil, bad(err)
			}
			r.points[rune(c)] = v
		case f[0] == "line" && len(f) == 3:
			var l []string
			if err := json.Unmarshal([]byte(f[2]), &l); err != nil {
				return nil, bad(err)
			}
			r.lines[f[1]] = l
		case f[0] == "map" && (len(f) == 3 || len(f) == 4):
			e := make([]string, len(f)-1)
			for i := range e {
				if err := json.Unmarshal([]byte(f[i+1]), &e[i]); err != nil {
					return nil, bad(err)
				}
			}
			r.entries = append(r.entries, e)
		default:
			return nil, bad(fmt.Errorf("want row, cp, line or map"))
		}
	}
	return out, sc.Err()
}
