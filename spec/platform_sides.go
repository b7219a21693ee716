package spec

import (
	"slices"
	"strings"
)

// SpecMembers returns, for a class over code points, the code points its spec side holds, as
// ranges in the notation of PlatformRow.Members ("0009-000D 0020"): the members of a set, strip
// or split class, the ASCII digits of a digit class, the code points an escape class writes in
// another form than their own, and those a percent class leaves as they are. It is empty for
// fold (the spec matches ASCII letters only), parse and elements.
func SpecMembers(c Class) (string, error) {
	if !slices.ContainsFunc(classes, func(k Class) bool { return k.ID == c.ID }) {
		return "", errNoClass(c.ID)
	}
	members, form, _ := classSpec(c.ID)
	switch c.Kind {
	case KindSet, KindStrip, KindSplit:
		return members, nil
	case KindDigit, KindEscape, KindPercent:
		var rs []rune
		for r := rune(0); r < 0x80; r++ {
			f := form(r)
			if c.Kind == KindDigit && f != "" || c.Kind == KindEscape && f != string(r) || c.Kind == KindPercent && f == string(r) {
				rs = append(rs, r)
			}
		}
		return FormatRanges(rs), nil
	}
	return "", nil
}

// SpecInputs returns the inputs the tables list for a parse or elements class: the spellings
// or element names its built-ins were run on, in the first built-in's order.
func SpecInputs(c Class) ([]string, error) {
	tables, err := loadPlatform()
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out []string
	for _, k := range c.Builtins {
		if t := tables[k]; t != nil {
			for _, in := range t.inputs {
				if !seen[in] {
					seen[in] = true
					out = append(out, in)
				}
			}
		}
	}
	return out, nil
}

// ParseRanges reads code points and ranges in the notation of PlatformRow.Members.
func ParseRanges(s string) ([][2]rune, error) {
	var out [][2]rune
	for _, f := range strings.Fields(s) {
		lo, hi, err := parseRange(f)
		if err != nil {
			return nil, err
		}
		out = append(out, [2]rune{lo, hi})
	}
	return out, nil
}

// FormatRanges writes code points (in any order, repeats allowed) as sorted ranges in the
// notation of PlatformRow.Members.
func FormatRanges(rs []rune) string {
	rs = slices.Clone(rs)
	slices.Sort(rs)
	rs = slices.Compact(rs)
	var b []byte
	for i := 0; i < len(rs); {
		j := i
		for j+1 < len(rs) && rs[j+1] == rs[j]+1 {
			j++
		}
		if len(b) > 0 {
			b = append(b, ' ')
		}
		b = appendHex(b, rs[i])
		if j > i {
			b = append(append(b, '-'), appendHex(nil, rs[j])...)
		}
		i = j + 1
	}
	return string(b)
}

func appendHex(b []byte, r rune) []byte {
	const digits = "0123456789ABCDEF"
	n := 4
	if r > 0xFFFF {
		n = 5
		if r > 0xFFFFF {
			n = 6
		}
	}
	for i := n - 1; i >= 0; i-- {
		b = append(b, digits[(r>>(4*i))&15])
	}
	return b
}

type errNoClass string

func (e errNoClass) Error() string { return "spec: no class " + string(e) }
