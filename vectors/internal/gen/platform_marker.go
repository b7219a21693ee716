package main

// Platform vectors of the marker suite: each disagreement point of the
// line split of marker.locate, the white space of a retry and the
// user-origin prefixes' case. Expected outputs follow from the spec's side
// of each point.

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/conform-suite/conform/spec"
)

func init() {
	registerGen("marker/locate-platform.gen.json", "marker.locate",
		"Line ranges and data part ids where platform line splitters and case comparisons disagree with the spec.", genLocatePlatform)
	registerGen("marker/locate-platform-numbers.gen.json", "marker.locate",
		"Line numbers, array indexes and digits spelt as platform integer parsers and digit classes read them.", genLocateNumbersPlatform)
	registerGen("marker/strip-platform-digits.gen.json", "marker.strip",
		"Markers whose line number is a digit that platform digit classes take and the spec does not.", genStripDigitsPlatform)
	registerGen("marker/stream-platform.gen.json", "marker.stream",
		"Retries and digits of line numbers where platform white space and digit classes disagree with the spec, streamed.", genStreamPlatform)
	registerGen("marker/artifact-platform.gen.json", "marker.artifact",
		"Retries and digits of line numbers where platform white space and digit classes disagree with the spec, in an artifact.", genArtifactPlatform)
	registerGen("marker/strip-platform-line-numbers.gen.json", "marker.strip",
		"Markers whose line number is spelt as platform integer parsers read one: a marker only when it is 1 to 9 ASCII digits.", genStripLineNumbersPlatform)
	registerGen("marker/strip-platform.gen.json", "marker.strip",
		"The retry of an answer whose only text is one point where platform white space disagrees with White_Space.", genStripPlatform)
}

// markerLinesOf is the spec's split of the probes of a line splitter
// (MARKER-LOCATE-006), by name, with a locator that tells a splitter's
// answer apart from it.
var markerLineProbes = map[string]struct {
	value, locator string
}{
	"CRLF":       {"a\r\nb", "L1-L2"},
	"final LF":   {"a\n", "L2"},
	"final CRLF": {"a\r\n", "L2"},
	"final CR":   {"a\r", "L1"},
	"empty":      {"", "L1"},
	"empty line": {"a\n\nb", "L1-L3"},
}

func genLocatePlatform(cf *genFile) {
	class := platformClass("marker.line")
	// A code point that ends no line under the spec: 16 a value, between
	// letters, and the value's first line asked for: the spec gives the
	// whole value, a splitter ending a line at any of them less.
	cf.platformVectors(class, []string{"MARKER-LOCATE-007"}, 16, func(p spec.Point) bool { return p.Rune >= 0 && !specHas(p) && p.Rune != '\r' }, func(ps []spec.Point) (any, any, string) {
		var b strings.Builder
		for i, p := range ps {
			b.WriteByte(slotLetters[i])
			b.WriteRune(p.Rune)
		}
		b.WriteByte('z')
		return map[string]any{"value": b.String(), "locator": "L1"},
			map[string]any{"resolved": true, "lines": []string{b.String()}}, "a one-line value holding each point between letters"
	})
	// CR alone ends no line: a value of a CR between letters, one line.
	cf.platformVectors(class, []string{"MARKER-LOCATE-007"}, 1, func(p spec.Point) bool { return p.Rune == '\r' }, func(ps []spec.Point) (any, any, string) {
		return map[string]any{"value": "a\rb", "locator": "L1"},
			map[string]any{"resolved": true, "lines": []string{"a\rb"}}, "a lone CR between letters ends no line"
	})
	// The probes of a splitter's terminator behaviour, one a vector.
	cf.platformVectors(class, []string{"MARKER-LOCATE-007"}, 1, func(p spec.Point) bool { return p.Rune < 0 }, func(ps []spec.Point) (any, any, string) {
		probe, ok := markerLineProbes[ps[0].Input]
		if !ok {
			panic("gen: no probe " + ps[0].Input)
		}
		var lines []string
		if err := json.Unmarshal([]byte(ps[0].Spec), &lines); err != nil {
			panic(err)
		}
		first, last := lineRange(probe.locator)
		out := map[string]any{"resolved": false}
		if last <= len(lines) {
			out = map[string]any{"resolved": true, "lines": lines[first-1 : last]}
		}
		return map[string]any{"value": probe.value, "locator": probe.locator}, out, "the lines of a probe value"
	})
	// A data part id whose user-origin prefix holds a point a case
	// comparison matches to its ASCII letters: no user-origin id under the
	// spec, so the line range resolves.
	cf.platformVectors(platformClass("marker.user-origin"), []string{"MARKER-LOCATE-011"}, 1, foldsInto, func(ps []spec.Point) (any, any, string) {
		id := foldInto(ps[0]) + "1"
		return map[string]any{"value": "one", "locator": "L1", "data_part_id": id},
			map[string]any{"resolved": true, "lines": []string{"one"}}, "a data part id spelling a user-origin prefix with a point"
	})
}

// lineRange reads the locators of markerLineProbes.
func lineRange(loc string) (int, int) {
	a, b, ranged := strings.Cut(loc[1:], "-L")
	if !ranged {
		b = a
	}
	return int(a[0] - '0'), int(b[0] - '0')
}

// userPrefixes are the user-origin prefixes (MARKER-STRIP-004).
var userPrefixes = []string{"user_data_", "user_text_"}

// foldsInto keeps the fold points whose ASCII string occurs in a
// user-origin prefix, in either case.
func foldsInto(p spec.Point) bool {
	return p.Rune >= 0x80 && foldInto(p) != ""
}

// foldInto is the first user-origin prefix holding the ASCII string of p
// (in either case), with that string replaced by p's code point; "" when
// none holds it.
func foldInto(p spec.Point) string {
	a := strings.ToLower(p.Builtin)
	for _, r := range a {
		if r >= 0x80 {
			return ""
		}
	}
	for _, pre := range userPrefixes {
		if a != "" && strings.Contains(pre, a) {
			return strings.Replace(pre, a, string(p.Rune), 1)
		}
	}
	return ""
}

// genStripPlatform: an answer of one user-origin marker and one point is
// retried exactly when the point is white space (one point a vector: one
// other rune is enough to stop a retry).
func genStripPlatform(cf *genFile) {
	cf.platformVectors(platformClass("marker.space"), []string{"MARKER-STRIP-004"}, 1, nil, func(ps []spec.Point) (any, any, string) {
		w := string(ps[0].Rune)
		in := map[string]any{"text": mk("user_data_1") + w, "parts": partsOf("user_data_1", "tool_data_01")}
		out := map[string]any{"text": w, "citations": []cite{}, "parts": []string{}}
		if specHas(ps[0]) {
			out["retry"] = true
			return in, out, "one user-origin marker and white space are retried"
		}
		return in, out, "one user-origin marker and a rune that is not white space"
	})
}

// platformLines is a value of ten lines, l1 to l10.
var platformLines = func() []string {
	var ls []string
	for i := 1; i <= 10; i++ {
		ls = append(ls, fmt.Sprintf("l%d", i))
	}
	return ls
}()

// platformElements is an array of eleven elements, e0 to e10.
var platformElements = func() []string {
	var es []string
	for i := 0; i <= 10; i++ {
		es = append(es, fmt.Sprintf("e%d", i))
	}
	return es
}()

// allASCIIDigits reports whether s is one or more of 0-9.
func allASCIIDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

func genLocateNumbersPlatform(cf *genFile) {
	value := strings.Join(platformLines, "\n")
	// A line number spelt as a parser reads it: the spec's answer is a
	// line, none (digits that designate no line: a leading zero, 0, or
	// past the last line), or a malformed locator (anything else).
	cf.platformVectors(platformClass("marker.line-number"), []string{"MARKER-LOCATE-010"}, 1, nil, func(ps []spec.Point) (any, any, string) {
		in := map[string]any{"value": value, "locator": "L" + ps[0].Input}
		if n, err := strconv.Atoi(ps[0].Spec); err == nil && n >= 1 && n <= len(platformLines) {
			return in, map[string]any{"resolved": true, "lines": platformLines[n-1 : n]}, "a line number the spec reads"
		}
		if allASCIIDigits(ps[0].Input) {
			return in, map[string]any{"resolved": false}, "digits designating no line"
		}
		return in, map[string]any{"resolved": false, "malformed": true}, "a line number that is no digits is malformed"
	})
	// An array index spelt as a parser reads it: an element, or none.
	cf.platformVectors(platformClass("marker.index"), []string{"MARKER-LOCATE-004"}, 1, nil, func(ps []spec.Point) (any, any, string) {
		in := map[string]any{"value": platformElements, "locator": "/" + ps[0].Input}
		if n, err := strconv.Atoi(ps[0].Spec); err == nil && n >= 0 && n < len(platformElements) {
			return in, map[string]any{"resolved": true, "value": platformElements[n]}, "an index the spec reads"
		}
		return in, map[string]any{"resolved": false}, "a token that is no index designates no element"
	})
	// A line range ending at a digit a digit class takes: malformed under
	// the spec, lines to a port using the class.
	cf.platformVectors(platformClass("marker.digit"), []string{"MARKER-LOCATE-010"}, 1, nil, func(ps []spec.Point) (any, any, string) {
		return map[string]any{"value": value, "locator": "L1-L" + ps[0].Input}, map[string]any{"resolved": false, "malformed": true},
			"a line range ending at a digit that is not ASCII is malformed"
	})
}

// genStripDigitsPlatform: 32 markers a vector, each with a line number of
// one digit a digit class takes; each is a failed candidate, literal text
// under the spec (MARKER-GRAMMAR-005), so the text comes back unchanged.
func genStripDigitsPlatform(cf *genFile) {
	cf.platformVectors(platformClass("marker.digit"), []string{"MARKER-GRAMMAR-005"}, 32, nil, func(ps []spec.Point) (any, any, string) {
		text := digitMarkers(ps)
		return map[string]any{"text": text, "parts": partsOf("tool_data_01")},
			map[string]any{"text": text, "citations": []cite{}, "parts": []string{}}, "markers with a non-ASCII digit for a line number stay text"
	})
}

// digitMarkers is a text of markers whose line number is each point, each
// a failed candidate and so literal text (MARKER-GRAMMAR-005).
func digitMarkers(ps []spec.Point) string {
	var b strings.Builder
	for i, p := range ps {
		b.WriteByte(slotLetters[i])
		b.WriteString(mk("tool_data_01", "L"+string(p.Rune)))
	}
	b.WriteByte('z')
	return b.String()
}

// genStreamPlatform: as genStripPlatform and genStripDigitsPlatform, the
// text in one delta.
func genStreamPlatform(cf *genFile) {
	cf.platformVectors(platformClass("marker.space"), []string{"MARKER-STREAM-001"}, 1, nil, func(ps []spec.Point) (any, any, string) {
		w := string(ps[0].Rune)
		in := map[string]any{"deltas": []string{mk("user_data_1") + w}, "parts": partsOf("user_data_1", "tool_data_01")}
		out := map[string]any{"deltas": []string{w, ""}, "text": w, "citations": []cite{}, "parts": []string{}}
		if specHas(ps[0]) {
			out["retry"] = true
			return in, out, "one user-origin marker and white space are retried"
		}
		return in, out, "one user-origin marker and a rune that is not white space"
	})
	cf.platformVectors(platformClass("marker.digit"), []string{"MARKER-GRAMMAR-005"}, 32, nil, func(ps []spec.Point) (any, any, string) {
		text := digitMarkers(ps)
		return map[string]any{"deltas": []string{text}, "parts": partsOf("tool_data_01")},
			map[string]any{"deltas": []string{text, ""}, "text": text, "citations": []cite{}, "parts": []string{}}, "markers with a non-ASCII digit for a line number stay text"
	})
}

// artifactPart is a data part of the artifact op's input.
func artifactPart(id string) map[string]any {
	return map[string]any{"data": map[string]any{"value": "v"}, "metadata": map[string]any{"dataPartId": id}}
}

// genArtifactPlatform: as genStreamPlatform, in an artifact.
func genArtifactPlatform(cf *genFile) {
	textPart := func(text string) map[string]any {
		return map[string]any{"artifact": map[string]any{"parts": []any{map[string]any{"text": text, "metadata": map[string]any{"citations": []cite{}}}}}}
	}
	cf.platformVectors(platformClass("marker.space"), []string{"MARKER-ARTIFACT-004"}, 1, nil, func(ps []spec.Point) (any, any, string) {
		w := string(ps[0].Rune)
		in := map[string]any{"text": mk("user_data_1") + w, "parts": []any{artifactPart("user_data_1")}}
		if specHas(ps[0]) {
			return in, map[string]any{"retry": true}, "one user-origin marker and white space are retried"
		}
		return in, textPart(w), "one user-origin marker and a rune that is not white space"
	})
	cf.platformVectors(platformClass("marker.digit"), []string{"MARKER-GRAMMAR-005"}, 32, nil, func(ps []spec.Point) (any, any, string) {
		text := digitMarkers(ps)
		return map[string]any{"text": text, "parts": []any{artifactPart("tool_data_01")}}, textPart(text), "markers with a non-ASCII digit for a line number stay text"
	})
}

// genStripLineNumbersPlatform: 16 markers a vector, each with a line
// number of one spelling a parser reads; by the grammar (MARKER-GRAMMAR-005)
// a marker only when the spelling is 1 to 9 ASCII digits, literal text
// otherwise. The letters between the markers are no punctuation, so no
// offset snaps.
func genStripLineNumbersPlatform(cf *genFile) {
	cf.platformVectors(platformClass("marker.line-number"), []string{"MARKER-GRAMMAR-005"}, 16, nil, func(ps []spec.Point) (any, any, string) {
		var in, out strings.Builder
		cites := []cite{}
		for i, p := range ps {
			in.WriteByte(slotLetters[i])
			out.WriteByte(slotLetters[i])
			m := mk("tool_data_01", "L"+p.Input)
			in.WriteString(m)
			if allASCIIDigits(p.Input) && len(p.Input) <= 9 {
				cites = append(cites, c("tool_data_01", runes(out.String()), "L"+p.Input))
			} else {
				out.WriteString(m)
			}
		}
		in.WriteByte('z')
		out.WriteByte('z')
		parts := []string{}
		if len(cites) > 0 {
			parts = []string{"tool_data_01"}
		}
		return map[string]any{"text": in.String(), "parts": partsOf("tool_data_01")},
			map[string]any{"text": out.String(), "citations": cites, "parts": parts}, "markers whose line number is spelt so"
	})
}
