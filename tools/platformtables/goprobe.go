package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/url"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"unicode"

	"github.com/conform-suite/conform/spec"
)

// eachRune calls f for every code point but the surrogates.
func eachRune(f func(r rune, s string)) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r < 0xD800 || r > 0xDFFF {
			f(r, string(r))
		}
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return s != ""
}

// digitValues gives each code point of a digit predicate its place in its run of ten: Unicode
// puts the decimal digits of a script in runs that start at zero.
func digitValues(r *raw, is func(rune) bool) {
	start := rune(-1)
	eachRune(func(c rune, _ string) {
		if !is(c) {
			start = -1
			return
		}
		if start < 0 {
			start = c
		}
		r.points[c] = strconv.Itoa(int(c-start) % 10)
	})
}

// splitRow measures a line splitter: which code points end a line between "a" and "b", and the
// lines of each of spec.SplitProbes.
func splitRow(r *raw, split func(string) []string) *raw {
	eachRune(func(c rune, s string) {
		if l := split("a" + s + "b"); len(l) == 2 && l[0] == "a" && l[1] == "b" {
			r.points[c] = ""
		}
	})
	for n, s := range spec.SplitProbes {
		r.lines[n] = split(s)
	}
	return r
}

// foldRow measures a case-insensitive comparison: for each non-ASCII code point, the ASCII
// string that it matches ("" when none).
func foldRow(r *raw, match func(c string) string) *raw {
	eachRune(func(c rune, s string) {
		if c >= 0x80 {
			if m := match(s); m != "" {
				r.points[c] = m
			}
		}
	})
	return r
}

// letterMatch finds the ASCII letter that eq takes c to be equal to.
func letterMatch(eq func(a, b string) bool) func(string) string {
	return func(c string) string {
		for l := 'a'; l <= 'z'; l++ {
			if eq(c, string(l)) {
				return string(l)
			}
		}
		return ""
	}
}

// viaCase is a comparison made by mapping both sides with f: c matches an ASCII string when f
// takes it to ASCII.
func viaCase(f func(string) string) func(string) string {
	return func(c string) string {
		if m := f(c); isASCII(m) {
			return strings.ToLower(m)
		}
		return ""
	}
}

func setRow(r *raw, is func(c rune, s string) bool) *raw {
	eachRune(func(c rune, s string) {
		if is(c, s) {
			r.points[c] = ""
		}
	})
	return r
}

func formRow(r *raw, last rune, enc func(string) string) *raw {
	eachRune(func(c rune, s string) {
		if f := enc(s); c <= last && f != s {
			r.points[c] = f
		}
	})
	return r
}

func parseRow(r *raw, spellings []string, parse func(string) (int64, error)) *raw {
	for _, s := range spellings {
		a := "refused"
		if n, err := parse(s); err == nil {
			a = strconv.FormatInt(n, 10)
		}
		r.entries = append(r.entries, []string{s, a})
	}
	return r
}

// goRows measures the Go built-ins on this toolchain.
func goRows(in inputs) []*raw {
	v := "Go " + strings.TrimPrefix(runtime.Version(), "go")
	note := "Unicode " + unicode.Version
	g := func(key, name, kind string) *raw { return newRaw("go:"+key, "go", name, v, "measured", kind, note) }
	space := regexp.MustCompile(`\s`)
	fold := regexp.MustCompile(`^(?i)[a-z]$`)
	jsonEnc := func(html bool) func(string) string {
		return func(s string) string {
			var b bytes.Buffer
			e := json.NewEncoder(&b)
			e.SetEscapeHTML(html)
			_ = e.Encode(s)
			return strings.TrimSuffix(b.String(), "\n")[1 : b.Len()-2]
		}
	}
	digits := g("unicode.IsDigit", "unicode.IsDigit(r)", spec.KindDigit)
	digitValues(digits, unicode.IsDigit)
	return []*raw{
		setRow(g("unicode.IsSpace", "unicode.IsSpace(r)", spec.KindSet), func(c rune, _ string) bool { return unicode.IsSpace(c) }),
		setRow(g("strings.Fields", "strings.Fields(s)", spec.KindSet), func(_ rune, s string) bool { return len(strings.Fields("a"+s+"b")) == 2 }),
		setRow(g("regexp.\\s", "regexp.MustCompile(`\\s`)", spec.KindSet), func(_ rune, s string) bool { return space.MatchString(s) }),
		setRow(g("unicode.IsControl", "unicode.IsControl(r)", spec.KindSet), func(c rune, _ string) bool { return unicode.IsControl(c) }),
		setRow(g("strings.TrimSpace", "strings.TrimSpace(s)", spec.KindStrip), func(_ rune, s string) bool { return strings.TrimSpace(s+"x"+s) == "x" }),
		splitRow(g("strings.Split(\"\\n\")", "strings.Split(s, \"\\n\")", spec.KindSplit), func(s string) []string { return strings.Split(s, "\n") }),
		splitRow(g("bufio.ScanLines", "bufio.NewScanner(r) with bufio.ScanLines", spec.KindSplit), func(s string) []string {
			var l []string
			sc := bufio.NewScanner(strings.NewReader(s))
			for sc.Scan() {
				l = append(l, sc.Text())
			}
			return l
		}),
		splitRow(g("strings.Lines", "strings.Lines(s), each line without its \"\\n\"", spec.KindSplit), func(s string) []string {
			var l []string
			for x := range strings.Lines(s) {
				l = append(l, strings.TrimSuffix(x, "\n"))
			}
			return l
		}),
		digits,
		parseRow(g("strconv.Atoi", "strconv.Atoi(s)", spec.KindParse), in.Spellings, func(s string) (int64, error) { n, err := strconv.Atoi(s); return int64(n), err }),
		parseRow(g("strconv.ParseInt(s,10,64)", "strconv.ParseInt(s, 10, 64)", spec.KindParse), in.Spellings, func(s string) (int64, error) { return strconv.ParseInt(s, 10, 64) }),
		parseRow(g("strconv.ParseInt(s,0,64)", "strconv.ParseInt(s, 0, 64)", spec.KindParse), in.Spellings, func(s string) (int64, error) { return strconv.ParseInt(s, 0, 64) }),
		foldRow(g("strings.EqualFold", "strings.EqualFold(a, b)", spec.KindFold), letterMatch(strings.EqualFold)),
		foldRow(g("strings.ToLower", "strings.ToLower(a) == strings.ToLower(b)", spec.KindFold), viaCase(strings.ToLower)),
		foldRow(g("strings.ToUpper", "strings.ToUpper(a) == strings.ToUpper(b)", spec.KindFold), viaCase(strings.ToUpper)),
		foldRow(g("regexp.(?i)", "regexp.MustCompile(`(?i)...`)", spec.KindFold), func(c string) string {
			if !fold.MatchString(c) {
				return ""
			}
			return letterMatch(func(a, b string) bool { return regexp.MustCompile(`^(?i)` + b + `$`).MatchString(a) })(c)
		}),
		formRow(g("json.Marshal", "json.Marshal(s)", spec.KindEscape), unicode.MaxRune, jsonEnc(true)),
		formRow(g("json.Encoder(SetEscapeHTML(false))", "json.NewEncoder(w) with SetEscapeHTML(false)", spec.KindEscape), unicode.MaxRune, jsonEnc(false)),
		formRow(g("url.PathEscape", "url.PathEscape(s)", spec.KindPercent), 0x7F, url.PathEscape),
		formRow(g("url.QueryEscape", "url.QueryEscape(s)", spec.KindPercent), 0x7F, url.QueryEscape),
	}
}
