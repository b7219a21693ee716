package main

import (
	"regexp"
	"strings"
)

// The case folds of a Go port: selref.scheme and marker.user-origin.

func init() {
	schemeReqs := []string{"SELREF-URL-004"}
	builtin("go:strings.EqualFold", "selref.scheme", "selref.ingest", schemeReqs,
		"compares the url's scheme with strings.EqualFold(scheme, \"http\") and the others: U+017F LONG S matches s, U+212A KELVIN SIGN k",
		ingestScheme(strings.EqualFold))
	builtin("go:strings.ToLower", "selref.scheme", "selref.ingest", schemeReqs,
		"compares the url's scheme with strings.ToLower(scheme) == \"http\" and the others: U+0130 lower-cases to i",
		ingestScheme(func(scheme, want string) bool { return strings.ToLower(scheme) == want }))
	builtin("go:strings.ToUpper", "selref.scheme", "selref.ingest", schemeReqs,
		"compares the url's scheme with strings.ToUpper(scheme) == \"HTTP\" and the others: U+0131 and U+017F upper-case to I and S",
		ingestScheme(func(scheme, want string) bool {
			//lint:ignore SA6005 the port compares the upper-cased strings: that is its slip
			return strings.ToUpper(scheme) == strings.ToUpper(want)
		}))
	builtin("go:regexp.(?i)", "marker.user-origin", "marker.locate", []string{"MARKER-LOCATE-011", "MARKER-STRIP-004"},
		"finds a user-origin id with regexp.MustCompile(`(?i)^user_(data|text)_`): U+017F LONG S matches s",
		locateUserOrigin)
}

// isTrim is a trim character of selref (U+0000 to U+0020).
func isTrim(r rune) bool { return r <= 0x20 }

// asciiLower is s with A to Z lower-cased, the spec's comparison.
func asciiLower(s string) string {
	return strings.Map(func(r rune) rune {
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}

// ingestScheme is the port whose scheme test is same(scheme, want): where it
// accepts a scheme the spec refuses, the reference gets the url with the
// scheme it matched, and the stored url gets the port's scheme back.
func ingestScheme(same func(scheme, want string) bool) func(*reference, *request, *answer) []byte {
	return func(ref *reference, r *request, a *answer) []byte {
		u, ok := str(r.Input, "url")
		if !ok {
			return nil
		}
		trimmed := strings.TrimFunc(u, isTrim)
		scheme, rest, ok := strings.Cut(trimmed, ":")
		if !ok || scheme == "" {
			return nil
		}
		for _, want := range []string{"http", "https", "mailto"} {
			if !same(scheme, want) || asciiLower(scheme) == want {
				continue
			}
			var b answer
			if decode(ref.as(a.ID, r.Op, with(r.Input, "url", want+":"+rest)), &b) != nil {
				return nil
			}
			stored, ok := object(b.Output, "reference")
			if !ok {
				return nil
			}
			if s, ok := str(stored, "url"); ok && strings.HasPrefix(s, want+":") {
				stored = with(stored, "url", scheme+s[len(want):])
			}
			return line(a.ID, map[string]any{"reference": stored})
		}
		return nil
	}
}

var userOrigin = regexp.MustCompile(`(?i)^user_(data|text)_`)

func locateUserOrigin(_ *reference, r *request, a *answer) []byte {
	id, ok := str(r.Input, "data_part_id")
	if _, rejected := a.Output["rejected"]; !ok || rejected || !userOrigin.MatchString(id) {
		return nil
	}
	return line(a.ID, map[string]any{"rejected": map[string]any{"code": "MARKER_USER_ORIGIN"}})
}
