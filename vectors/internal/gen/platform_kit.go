package main

// Building blocks of the platform vectors: the disagreement points of the
// platform tables (spec/platform.go), grouped by the built-ins that share
// them, packed into vectors. Expected outputs follow from the spec's side
// of each point (Point.Spec), never from the reference.

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/conform-suite/conform/spec"
)

// maxDescription is the longest description the vector schema allows.
const maxDescription = 160

// pgroup is the points where the same built-ins disagree with a class.
type pgroup struct {
	builtins []string // keys, sorted
	points   []spec.Point
}

// platformClass returns the class id of the tables, or panics: a
// generator naming a class the tables do not define is a bug of the
// generator.
func platformClass(id string) spec.Class {
	classes, err := spec.PlatformClasses()
	if err != nil {
		panic(err)
	}
	for _, c := range classes {
		if c.ID == id {
			return c
		}
	}
	panic("gen: no platform class " + id)
}

// platformGroups returns the disagreement points of class (keep selects
// those an op can carry), grouped by the set of built-ins that disagree
// there, in the order of their first point.
func platformGroups(class spec.Class, keep func(spec.Point) bool) []pgroup {
	type pk struct {
		r       rune
		in, ans string
	}
	var order []pk
	by := map[pk][]string{}
	pts := map[pk]spec.Point{}
	for _, b := range class.Builtins {
		ps, err := spec.Disagreements(class, b)
		if err != nil {
			panic(err)
		}
		var ends []spec.Point // a run of one rule of the built-in stands by its ends
		for _, run := range spec.Runs(class, ps) {
			ends = append(ends, run[0])
			if len(run) > 1 {
				ends = append(ends, run[len(run)-1])
			}
		}
		for _, p := range ends {
			if keep != nil && !keep(p) {
				continue
			}
			k := pk{p.Rune, p.Input, p.Spec}
			if _, ok := by[k]; !ok {
				order = append(order, k)
				pts[k] = p
			}
			by[k] = append(by[k], b)
		}
	}
	slices.SortFunc(order, func(a, b pk) int {
		if a.r != b.r {
			return int(a.r - b.r)
		}
		return strings.Compare(a.in, b.in)
	})
	var groups []pgroup
	index := map[string]int{}
	for _, k := range order {
		bs := slices.Sorted(slices.Values(by[k]))
		name := strings.Join(bs, "|")
		i, ok := index[name]
		if !ok {
			i = len(groups)
			index[name] = i
			groups = append(groups, pgroup{builtins: bs})
		}
		groups[i].points = append(groups[i].points, pts[k])
	}
	return groups
}

// specHas reports whether the spec's side of p is a member (set), removed
// (strip) or ends a line (split).
func specHas(p spec.Point) bool {
	switch p.Spec {
	case "member", "removed", "ends a line":
		return true
	}
	return false
}

var languageNames = map[string]string{
	"javascript": "JavaScript", "python": "Python", "java": "Java", "kotlin": "Kotlin",
	"go": "Go", "swift": "Swift", "chromium": "Chromium",
}

// builtinNames names the built-ins for people: "Python's str.isspace()",
// as many as fit in room characters, then how many more.
func builtinNames(keys []string, room int) string {
	all, err := spec.PlatformBuiltins()
	if err != nil {
		panic(err)
	}
	var names []string
	for _, k := range keys {
		b := all[k]
		lang, name, _ := strings.Cut(k, ":")
		if b.Name != "" {
			name = b.Name
		}
		if l := languageNames[lang]; l != "" {
			lang = l
		}
		names = append(names, lang+"'s "+name)
	}
	for n := len(names); n > 0; n-- {
		s := strings.Join(names[:n], ", ")
		if n < len(names) {
			s += fmt.Sprintf(" and %d more", len(names)-n)
		}
		if utf8.RuneCountInString(s) <= room || n == 1 {
			return s
		}
	}
	return ""
}

// builtinTags are the tags of a platform vector: platform, each language,
// and each built-in it catches (spec.BuiltinTag), which
// docs/porting-platforms.md lists the vectors by.
func builtinTags(keys []string) []string {
	tags := []string{"platform"}
	for _, k := range keys {
		lang, _, _ := strings.Cut(k, ":")
		if !slices.Contains(tags, lang) {
			tags = append(tags, lang)
		}
	}
	for _, k := range keys {
		if t := spec.BuiltinTag(k); !slices.Contains(tags, t) {
			tags = append(tags, t)
		}
	}
	return tags
}

// pointSlug names the points of a vector in its id: the first and the last
// code point ("u001c-u001f"), or the first input.
func pointSlug(ps []spec.Point) string {
	slug := func(p spec.Point) string {
		if p.Rune >= 0 {
			return fmt.Sprintf("u%04x", p.Rune)
		}
		var parts []string
		word := ""
		for _, r := range strings.ToLower(p.Input) {
			if r < 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
				word += string(r)
				continue
			}
			if word != "" {
				parts, word = append(parts, word), ""
			}
			parts = append(parts, fmt.Sprintf("u%x", r))
		}
		if word != "" {
			parts = append(parts, word)
		}
		if len(parts) == 0 {
			return "empty"
		}
		return strings.Join(parts, "-")
	}
	first, last := slug(ps[0]), slug(ps[len(ps)-1])
	if first == last {
		return first
	}
	return first + "-" + last
}

// pointList names the points of a vector in its description.
func pointList(ps []spec.Point) string {
	var out []string
	for _, p := range ps {
		if p.Rune >= 0 {
			out = append(out, fmt.Sprintf("U+%04X", p.Rune))
		} else {
			out = append(out, fmt.Sprintf("%q", p.Input))
		}
	}
	switch {
	case len(out) > 3:
		return fmt.Sprintf("%s..%s, %d in all", out[0], out[len(out)-1], len(out))
	case len(out) > 1 && len(strings.Join(out, " ")) > 40:
		return fmt.Sprintf("%s and %d more", out[0], len(out)-1)
	}
	return strings.Join(out, " ")
}

// platformVectors adds to cf the vectors of class for its op: the points
// of each group of built-ins, at most per to a vector, each vector built
// by build from its points (its input, its expected output, and what it
// does, for the description). ids open with "platform-" and the class's
// last name.
func (cf *genFile) platformVectors(class spec.Class, reqs []string, per int, keep func(spec.Point) bool,
	build func(ps []spec.Point) (in, out any, what string)) {
	cf.platformVectorsNamed("platform-"+class.ID[strings.IndexByte(class.ID, '.')+1:], class, reqs, per, keep, build)
}

// platformVectorsNamed is platformVectors with ids opening with stem.
func (cf *genFile) platformVectorsNamed(stem string, class spec.Class, reqs []string, per int, keep func(spec.Point) bool,
	build func(ps []spec.Point) (in, out any, what string)) {
	cf.platformSiteVectors(stem, "using", class, reqs, per, keep, build)
}

// platformSiteVectors is platformVectorsNamed for the points of a class at
// one rule (site) of an op: the description says what a port does there
// with the built-ins ("a port checking the selection for blank with").
func (cf *genFile) platformSiteVectors(stem, doing string, class spec.Class, reqs []string, per int, keep func(spec.Point) bool,
	build func(ps []spec.Point) (in, out any, what string)) {
	used := map[string]int{}
	for _, g := range platformGroups(class, keep) {
		for chunk := range slices.Chunk(g.points, per) {
			in, out, what := build(chunk)
			id := stem + "-" + pointSlug(chunk)
			used[id]++
			if n := used[id]; n > 1 {
				id += fmt.Sprintf("-%d", n)
			}
			var desc string
			for _, head := range []string{fmt.Sprintf("%s (%s): a port %s ", what, pointList(chunk), doing), fmt.Sprintf("%s (%s): a port %s ", shorter(what), pointList(chunk), doing), fmt.Sprintf("%s: a port %s ", shorter(what), doing)} {
				desc = head + builtinNames(g.builtins, maxDescription-utf8.RuneCountInString(head+" answers otherwise")) + " answers otherwise"
				if utf8.RuneCountInString(desc) <= maxDescription {
					break
				}
			}
			var rs []string
			for _, r := range slices.Concat(class.Requirements, reqs) {
				if !slices.Contains(rs, r) {
					rs = append(rs, r)
				}
			}
			cf.add(id, desc, rs, builtinTags(g.builtins), in, out)
		}
	}
}

// pct percent-encodes every byte of s but ASCII letters and digits, with
// upper-case hex digits: the form QUOTE-LINK-010 and QUOTE-LINK-011 give
// such a string in the path and in the query.
func pct(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}

// slotLetters separate the slots of a packed input.
const slotLetters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// shorter is what without its last words, for a description that would
// be too long: what up to its first comma or its first 40 characters.
func shorter(what string) string {
	if i := strings.IndexByte(what, ','); i > 0 {
		return what[:i]
	}
	if r := []rune(what); len(r) > 40 {
		return string(r[:40])
	}
	return what
}
