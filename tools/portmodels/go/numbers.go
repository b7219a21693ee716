package main

import (
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// The line splitting, digits and integers of a Go port: marker.line,
// marker.digit, marker.line-number, marker.index and quote.offset.

func init() {
	lineReqs := []string{"MARKER-LOCATE-006", "MARKER-LOCATE-012"}
	builtin("go:strings.Split(\"\\n\")", "marker.line", "marker.locate", lineReqs,
		"splits the value with strings.Split(value, \"\\n\"): CRs stay, a final LF starts an empty line, the empty string is one line",
		func(_ *reference, r *request, a *answer) []byte {
			return locateLines(r, a, func(v string) []string { return strings.Split(v, "\n") })
		})
	builtin("go:strings.Lines", "marker.line", "marker.locate", lineReqs,
		"splits the value with strings.Lines(value), each line without its \"\\n\": the CR of a CRLF stays",
		func(_ *reference, r *request, a *answer) []byte {
			return locateLines(r, a, func(v string) []string {
				var lines []string
				for l := range strings.Lines(v) {
					lines = append(lines, strings.TrimSuffix(l, "\n"))
				}
				return lines
			})
		})
	builtin("go:unicode.IsDigit", "marker.digit", "marker.locate", []string{"MARKER-LOCATE-007", "MARKER-LOCATE-010", "MARKER-LOCATE-013"},
		"reads a line number's digits with unicode.IsDigit(r) and n = n*10 + int(r-'0'): other scripts' digits count, each as its distance from '0'",
		locateIsDigit)
	builtin("go:strconv.Atoi", "marker.line-number", "marker.locate", []string{"MARKER-LOCATE-007"},
		"reads a line number with strconv.Atoi: a sign and leading zeros are numbers (L+1, L01)",
		locateAtoi)
	builtin("go:strconv.ParseInt(s,0,64)", "marker.index", "marker.locate", []string{"MARKER-LOCATE-004"},
		"reads an array index with strconv.ParseInt(token, 0, 64): 01 is octal, 0x1, +1 and 1_0 designate elements",
		locateParseIntIndex)
	builtin("go:strconv.ParseInt(s,10,64)", "quote.offset", "quote.parse", []string{"QUOTE-LINK-044", "QUOTE-LINK-045"},
		"reads an href offset with strconv.ParseInt(v, 10, 64): a sign and leading zeros are offsets (+1, 01, -0)",
		parseOffsets)
}

var lineRange = regexp.MustCompile(`^L([1-9][0-9]{0,8})(?:-L([1-9][0-9]{0,8}))?$`)

// locateLines answers a line range the spec finds well formed over the
// lines split gives.
func locateLines(r *request, a *answer, split func(string) []string) []byte {
	loc, ok1 := str(r.Input, "locator")
	value, ok2 := str(r.Input, "value")
	_, rejected := a.Output["rejected"]
	if !ok1 || !ok2 || rejected || a.Output["malformed"] == true {
		return nil
	}
	m := lineRange.FindStringSubmatch(loc)
	if m == nil {
		return nil
	}
	n, _ := strconv.Atoi(m[1])
	k := n
	if m[2] != "" {
		k, _ = strconv.Atoi(m[2])
	}
	lines := split(value)
	if n > k || k > len(lines) {
		return line(a.ID, map[string]any{"resolved": false})
	}
	return line(a.ID, map[string]any{"resolved": true, "lines": lines[n-1 : k]})
}

var locatorPieces = regexp.MustCompile(`^L([^-]+)(?:-L([^-]+))?$`)

// locateNumbers sends the reference the line range whose numbers the port
// reads with read(piece) (ok false: the port refuses it too), spelt in ASCII.
func locateNumbers(ref *reference, r *request, a *answer, read func(string) (int, bool)) []byte {
	loc, ok := str(r.Input, "locator")
	if !ok {
		return nil
	}
	m := locatorPieces.FindStringSubmatch(loc)
	if m == nil {
		return nil
	}
	var spelt []string
	for _, piece := range m[1:] {
		if piece == "" {
			continue
		}
		n, ok := read(piece)
		if !ok || n < 1 || n > 999999999 {
			return nil
		}
		spelt = append(spelt, "L"+strconv.Itoa(n))
	}
	ascii := strings.Join(spelt, "-")
	if ascii == loc {
		return nil
	}
	return ref.as(a.ID, r.Op, with(r.Input, "locator", ascii))
}

func locateIsDigit(ref *reference, r *request, a *answer) []byte {
	return locateNumbers(ref, r, a, func(piece string) (int, bool) {
		if piece[0] == '0' || !strings.ContainsFunc(piece, func(c rune) bool { return c > 0x7F }) {
			return 0, false // the spec's reading: the reference's answer stands
		}
		n := 0
		for _, c := range piece {
			if !unicode.IsDigit(c) {
				return 0, false
			}
			n = n*10 + int(c-'0')
			if n > 999999999 {
				return 0, false
			}
		}
		return n, true
	})
}

func locateAtoi(ref *reference, r *request, a *answer) []byte {
	return locateNumbers(ref, r, a, func(piece string) (int, bool) {
		n, err := strconv.Atoi(piece)
		return n, err == nil
	})
}

// locateParseIntIndex walks the pointer with strconv.ParseInt on arrays; the
// pointer goes to the reference with each array token spelt as the index the
// port read.
func locateParseIntIndex(ref *reference, r *request, a *answer) []byte {
	loc, ok := str(r.Input, "locator")
	if !ok || !strings.HasPrefix(loc, "/") {
		return nil
	}
	value, present := r.Input["value"]
	unescape := strings.NewReplacer("~1", "/", "~0", "~")
	escape := strings.NewReplacer("~", "~0", "/", "~1")
	var spelt []string
	changed := false
	for _, t := range strings.Split(loc[1:], "/") {
		t = unescape.Replace(t)
		switch v := value.(type) {
		case map[string]any:
			value, present = v[t]
		case []any:
			i, err := strconv.ParseInt(t, 0, 64)
			if err == nil && i >= 0 && i < int64(len(v)) {
				if s := strconv.FormatInt(i, 10); s != t {
					t, changed = s, true
				}
				value = v[i]
			} else {
				present = false
			}
		default:
			present = false
		}
		spelt = append(spelt, escape.Replace(t))
		if !present {
			break
		}
	}
	if !changed {
		return nil
	}
	return ref.as(a.ID, r.Op, with(r.Input, "locator", "/"+strings.Join(spelt, "/")))
}

// parseOffsets sends the reference the href whose start and end the port
// read with strconv.ParseInt, spelt in canonical digits.
func parseOffsets(ref *reference, r *request, a *answer) []byte {
	href, ok := str(r.Input, "href")
	base, query, hasQuery := strings.Cut(href, "?")
	if !ok || !hasQuery {
		return nil
	}
	query, frag, hasFrag := strings.Cut(query, "#")
	fields := strings.Split(query, "&")
	changed := false
	for i, f := range fields {
		k, v, eq := strings.Cut(f, "=")
		if !eq || k != "start" && k != "end" {
			continue
		}
		d, err := url.QueryUnescape(v)
		if err != nil {
			continue
		}
		n, err := strconv.ParseInt(d, 10, 64)
		if err != nil || n < 0 || strconv.FormatInt(n, 10) == d {
			continue
		}
		fields[i], changed = k+"="+strconv.FormatInt(n, 10), true
	}
	if !changed {
		return nil
	}
	href = base + "?" + strings.Join(fields, "&")
	if hasFrag {
		href += "#" + frag
	}
	return ref.as(a.ID, r.Op, with(r.Input, "href", href))
}
