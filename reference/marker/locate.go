package marker

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Location is what a locator designates in a data part's value. Resolved is
// false when the locator designates nothing: the citation then cites the
// whole part. Malformed is true, with Resolved false, when the locator has
// no valid form at all.
type Location struct {
	Resolved  bool
	Malformed bool
	Value     json.RawMessage // for "" and JSON Pointers: the designated value
	Lines     []string        // for line ranges: the lines, without terminators
	IsLines   bool
}

// Locate resolves locator against value, a data part's data.value in JSON.
// The locator is "" (the whole value), an RFC 6901 JSON Pointer, or a line
// range "L<n>" or "L<n>-L<m>" over the lines of a string value, numbered
// from 1. A locator of none of these forms is not resolved and is marked
// Malformed: a client falls back to the whole part, as for any locator that
// does not resolve. The only error is a value that is not JSON.
func Locate(value json.RawMessage, locator string) (Location, error) {
	var doc any
	dec := json.NewDecoder(bytes.NewReader(value))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return Location{}, err
	}
	switch {
	case locator == "":
		return resolved(doc)
	case locator[0] == '/':
		tokens, ok := parsePointer(locator)
		if !ok {
			return malformed, nil // a "~" not followed by 0 or 1
		}
		for _, t := range tokens {
			var found bool
			if doc, found = child(doc, t); !found {
				return Location{}, nil
			}
		}
		return resolved(doc)
	case locator[0] == 'L':
		first, last, ok := parseLines(locator)
		if !ok {
			return malformed, nil // not "L" digits ["-L" digits]
		}
		s, isString := doc.(string)
		if !isString {
			return Location{}, nil
		}
		lines := lineClass(s)
		if first < 1 || first > last || last > len(lines) {
			return Location{}, nil
		}
		return Location{Resolved: true, IsLines: true, Lines: lines[first-1 : last]}, nil
	}
	return malformed, nil // a locator starts with / or L
}

// malformed is the answer for a locator of no valid form.
var malformed = Location{Malformed: true}

func resolved(v any) (Location, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return Location{}, err
	}
	return Location{Resolved: true, Value: data}, nil
}

// parsePointer splits a JSON Pointer into its unescaped reference tokens:
// "~1" becomes "/" and then "~0" becomes "~". Any other "~" is malformed.
func parsePointer(p string) ([]string, bool) {
	raw := strings.Split(p[1:], "/")
	for i, t := range raw {
		for j := 0; j < len(t); j++ {
			if t[j] == '~' && (j+1 == len(t) || t[j+1] != '0' && t[j+1] != '1') {
				return nil, false
			}
		}
		raw[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return raw, true
}

// child returns the member or element of v that token t designates.
func child(v any, t string) (any, bool) {
	switch v := v.(type) {
	case map[string]any:
		c, ok := v[t]
		return c, ok
	case []any:
		i, ok := indexClass(t)
		if !ok || i >= len(v) {
			return nil, false
		}
		return v[i], true
	}
	return nil, false // a scalar has no children
}

// arrayIndex parses "0" or a digit 1-9 followed by digits, without
// overflow; anything else ("-", "01", "+1", "1e0") designates no element.
func arrayIndex(t string) (int, bool) {
	if t == "" || len(t) > 1 && t[0] == '0' || len(t) > 18 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(t); i++ {
		if t[i] < '0' || t[i] > '9' {
			return 0, false
		}
		n = n*10 + int(t[i]-'0')
	}
	return n, true
}

// parseLines parses "L" digits ["-L" digits]. Line numbers that are 0, have
// a leading zero or do not fit come back as -1: well formed, never resolved.
func parseLines(s string) (first, last int, ok bool) {
	a, rest, ranged := strings.Cut(s[1:], "-L")
	if !ranged {
		a, rest = s[1:], ""
	}
	first, ok1 := lineNumberClass(a)
	last, ok2 := first, true
	if ranged {
		last, ok2 = lineNumberClass(rest)
	}
	return first, last, ok1 && ok2
}

func lineNumber(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	if s[0] == '0' || len(s) > 18 {
		return -1, true
	}
	n, _ := arrayIndex(s)
	return n, true
}

// The classes of this chapter, each applied through one variable that
// only tests replace (by a platform built-in's reading, to show that the
// vectors tell the two apart): lineClass splits a value into lines
// (MARKER-LOCATE-006), prefixCaseClass compares a part id with a
// user-origin prefix (MARKER-STRIP-004), notSpaceClass is the complement
// of the white space of a retry (MARKER-STRIP-010), digitClass is a digit
// of a marker's line number (MARKER-GRAMMAR-005), lineNumberClass reads a
// line number of a locator and indexClass an array index of a pointer
// (MARKER-LOCATE-007, MARKER-LOCATE-004).
var (
	lineClass       = splitLines
	prefixCaseClass = hasPrefixFold
	notSpaceClass   = notSpace
	digitClass      = isDigit
	lineNumberClass = lineNumber
	indexClass      = arrayIndex
)

// splitLines splits s at each LF; a CR before the LF belongs to the
// terminator, and a terminator at the very end starts no further line. ""
// has no lines.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}
