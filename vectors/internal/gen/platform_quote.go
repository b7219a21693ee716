package main

// Platform vectors of the quote suite: each disagreement point of
// quote.space (whitespace as a set) and quote.trim (whitespace removed from
// both ends) in vectors of the ops that apply them. Expected outputs follow
// from the spec's side of each point.

import (
	"strconv"
	"strings"

	"github.com/conform-suite/conform/spec"
)

func init() {
	registerGen("quote/normalize-platform.gen.json", "quote.normalize",
		"Whitespace where platform built-ins disagree with JavaScript's \\s: runs of each point between letters.", genNormalizePlatform)
	registerGen("quote/select-platform.gen.json", "quote.select",
		"A selection starting on the second of two of each point where platform whitespace disagrees.", genSelectPlatform)
	registerGen("quote/resolve-platform.gen.json", "quote.resolve",
		"A space of the quote against two of each point where platform whitespace disagrees.", genResolvePlatform)
	registerGen("quote/parse-platform.gen.json", "quote.parse",
		"Ids trimmed and texts checked for blankness where platform whitespace and trims disagree.", genParsePlatform)
	registerGen("quote/format-platform.gen.json", "quote.format",
		"Ids with surrounding whitespace and blank texts where platform whitespace and trims disagree.", genFormatPlatform)
	registerGen("quote/format-platform-percent.gen.json", "quote.format",
		"Path segments and query values holding the ASCII characters platform percent-encoders write otherwise.", genFormatPercentPlatform)
	registerGen("quote/parse-platform-offsets.gen.json", "quote.parse",
		"Offsets spelt as platform integer parsers and digit classes read them.", genParseOffsetsPlatform)
	registerGen("quote/comment-platform.gen.json", "quote.comment",
		"Comments trimmed where platform trims disagree with the spec's whitespace.", genCommentPlatform)
}

// genNormalizePlatform packs 16 points a vector: "a" p p "b" q q "c" ...,
// each doubled point becoming one space when it is whitespace.
func genNormalizePlatform(cf *genFile) {
	cf.platformVectors(platformClass("quote.space"), []string{"QUOTE-ANCHOR-004"}, 16, nil, func(ps []spec.Point) (any, any, string) {
		var in, out strings.Builder
		for i, p := range ps {
			in.WriteByte(slotLetters[i])
			in.WriteString(string(p.Rune) + string(p.Rune))
			out.WriteByte(slotLetters[i])
			if specHas(p) {
				out.WriteByte(' ')
			} else {
				out.WriteString(string(p.Rune) + string(p.Rune))
			}
		}
		in.WriteByte('z')
		out.WriteByte('z')
		return map[string]any{"text": in.String()}, map[string]any{"text": out.String()}, "doubled points between letters"
	})
}

// genSelectPlatform: one point a vector, as genSelectWhitespace.
func genSelectPlatform(cf *genFile) {
	cf.platformVectors(platformClass("quote.space"), []string{"QUOTE-ANCHOR-018"}, 1, nil, func(ps []spec.Point) (any, any, string) {
		w := string(ps[0].Rune)
		in := map[string]any{"text": "pq" + w + w + "rs", "start": 3, "end": 6}
		if !specHas(ps[0]) {
			return in, map[string]any{"selector": map[string]any{"text": w + "rs", "start": 3, "end": 6, "prefix": "pq" + w, "suffix": ""}},
				"starting on the second of two, no whitespace, is not adjusted"
		}
		return in, map[string]any{"selector": map[string]any{"text": w + "rs", "start": 2, "end": 5, "prefix": "pq", "suffix": ""}},
			"starting on the second of two whitespace takes the run's space"
	})
}

// genResolvePlatform: one point a vector, as genResolveWhitespace.
func genResolvePlatform(cf *genFile) {
	cf.platformVectors(platformClass("quote.space"), []string{"QUOTE-ANCHOR-024"}, 1, nil, func(ps []spec.Point) (any, any, string) {
		in := map[string]any{"text": "uno" + strings.Repeat(string(ps[0].Rune), 2) + "dos",
			"selector": map[string]any{"text": "uno dos", "start": 0, "end": 7, "prefix": "", "suffix": ""}}
		if !specHas(ps[0]) {
			return in, map[string]any{"match": nil, "reason": "not_found"}, "two of a point that is no whitespace match no space"
		}
		return in, map[string]any{"match": map[string]any{"start": 0, "end": 7}}, "two whitespace points match one space of the quote"
	})
}

// genParsePlatform packs six trim points a vector, one at each end of each
// id (one point an end, so that no point stops the trim before another),
// and one blank-check point a vector in the text.
func genParsePlatform(cf *genFile) {
	cf.platformVectors(platformClass("quote.trim"), []string{"QUOTE-LINK-036"}, 6, nil, func(ps []spec.Point) (any, any, string) {
		ids := []string{"e", "t", "m"}
		for i, p := range ps {
			if i%2 == 0 {
				ids[i/2] = string(p.Rune) + ids[i/2]
			} else {
				ids[i/2] += string(p.Rune)
			}
		}
		href := "t3-citation://v1/" + pct(ids[0]) + "/" + pct(ids[1]) + "/" + pct(ids[2]) + "?text=q&start=0&end=1&prefix=&suffix="
		want := qBase()
		want.EnvironmentID, want.ThreadID, want.MessageID = trimIDs(ps, ids)
		return map[string]any{"href": href}, map[string]any{"citation": want}, "ids with a point at each end"
	})
	cf.platformVectors(platformClass("quote.space"), []string{"QUOTE-LINK-040"}, 1, nil, func(ps []spec.Point) (any, any, string) {
		w := string(ps[0].Rune)
		in := map[string]any{"href": "t3-citation://v1/e/t/m?text=" + pct(w) + "&start=0&end=1&prefix=&suffix="}
		if specHas(ps[0]) {
			return in, map[string]any{"rejected": map[string]any{"code": "QUOTE_TEXT_EMPTY"}}, "a text of one whitespace point is refused"
		}
		want := qBase()
		want.EnvironmentID, want.ThreadID, want.MessageID, want.Text = "e", "t", "m", w
		return in, map[string]any{"citation": want}, "a text of one point that is no whitespace is kept"
	})
}

// trimIDs trims the three ids of genParsePlatform: point i sits at the
// start (even i) or the end (odd i) of id i/2.
func trimIDs(ps []spec.Point, ids []string) (string, string, string) {
	out := append([]string{}, ids...)
	for i, p := range ps {
		if !specHas(p) {
			continue
		}
		if i%2 == 0 {
			out[i/2] = strings.TrimPrefix(out[i/2], string(p.Rune))
		} else {
			out[i/2] = strings.TrimSuffix(out[i/2], string(p.Rune))
		}
	}
	return out[0], out[1], out[2]
}

// genFormatPlatform: an id with a point at its start is refused when the
// point is whitespace (one point a vector: any refuses the whole
// citation), and a text of one point likewise.
func genFormatPlatform(cf *genFile) {
	cf.platformVectors(platformClass("quote.trim"), []string{"QUOTE-LINK-014"}, 1, nil, func(ps []spec.Point) (any, any, string) {
		c := qBase()
		c.EnvironmentID = string(ps[0].Rune) + "e"
		in := map[string]any{"citation": c}
		if specHas(ps[0]) {
			return in, map[string]any{"rejected": map[string]any{"code": "QUOTE_ID_WHITESPACE"}}, "an id opening with whitespace is refused"
		}
		href := "t3-citation://v1/" + pct(c.EnvironmentID) + "/b/c?text=q&start=0&end=1&prefix=&suffix="
		return in, map[string]any{"href": href, "link": "[Assistant quote](" + href + ")"}, "an id opening with no whitespace is kept"
	})
	cf.platformVectors(platformClass("quote.space"), []string{"QUOTE-LINK-040"}, 1, nil, func(ps []spec.Point) (any, any, string) {
		c := qBase()
		c.Text = string(ps[0].Rune)
		in := map[string]any{"citation": c}
		if specHas(ps[0]) {
			return in, map[string]any{"rejected": map[string]any{"code": "QUOTE_TEXT_EMPTY"}}, "a text of one whitespace point is refused"
		}
		href := "t3-citation://v1/a/b/c?text=" + pct(c.Text) + "&start=0&end=1&prefix=&suffix="
		return in, map[string]any{"href": href, "link": "[Assistant quote](" + href + ")"}, "a text of one point that is no whitespace is kept"
	})
}

// genCommentPlatform: a comment with a point at each end (two points a
// vector).
func genCommentPlatform(cf *genFile) {
	cf.platformVectors(platformClass("quote.trim"), []string{"QUOTE-COMPOSE-001"}, 2, nil, func(ps []spec.Point) (any, any, string) {
		comment, want := "c", "c"
		comment = string(ps[0].Rune) + comment
		if !specHas(ps[0]) {
			want = string(ps[0].Rune) + want
		}
		if len(ps) > 1 {
			comment += string(ps[1].Rune)
			if !specHas(ps[1]) {
				want += string(ps[1].Rune)
			}
		}
		c := qBase()
		out := c
		out.Comment = &want
		return map[string]any{"citation": c, "comment": comment}, map[string]any{"citation": out}, "a comment with a point at each end"
	})
}

// genFormatPercentPlatform packs the points of a group into one id (path)
// or one text (query), each between letters: each character is encoded
// alone, so none hides another.
func genFormatPercentPlatform(cf *genFile) {
	packed := func(ps []spec.Point) (raw, enc string) {
		for i, p := range ps {
			raw += string(slotLetters[i]) + string(p.Rune)
			enc += string(slotLetters[i]) + p.Spec
		}
		return raw + "z", enc + "z"
	}
	cf.platformVectors(platformClass("quote.path"), []string{"QUOTE-LINK-003"}, 26, nil, func(ps []spec.Point) (any, any, string) {
		c := qBase()
		raw, enc := packed(ps)
		c.EnvironmentID = raw
		href := "t3-citation://v1/" + enc + "/b/c?text=q&start=0&end=1&prefix=&suffix="
		return map[string]any{"citation": c}, map[string]any{"href": href, "link": "[Assistant quote](" + href + ")"}, "an id holding each point between letters"
	})
	cf.platformVectors(platformClass("quote.query"), []string{"QUOTE-LINK-003"}, 26, nil, func(ps []spec.Point) (any, any, string) {
		c := qBase()
		raw, enc := packed(ps)
		c.Text = raw
		href := "t3-citation://v1/a/b/c?text=" + enc + "&start=0&end=1&prefix=&suffix="
		return map[string]any{"citation": c}, map[string]any{"href": href, "link": "[Assistant quote](" + href + ")"}, "a text holding each point between letters"
	})
}

// offsetAnswer is the spec's answer for an href's start offset spelt s,
// its end 2^53-1 (QUOTE-LINK-044 to QUOTE-LINK-046): the citation, or the
// code refusing it.
func offsetAnswer(s string) map[string]any {
	digits := s != "" && len(s) <= 16 && strings.Trim(s, "0123456789") == ""
	if !digits {
		return map[string]any{"rejected": map[string]any{"code": "QUOTE_OFFSET_SYNTAX"}}
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v > 1<<53-1 {
		return map[string]any{"rejected": map[string]any{"code": "QUOTE_OFFSET_RANGE"}}
	}
	if v >= 1<<53-1 { // the end, the largest offset, is not after it (QUOTE-LINK-046)
		return map[string]any{"rejected": map[string]any{"code": "QUOTE_OFFSET_ORDER"}}
	}
	c := qBase()
	c.EnvironmentID, c.ThreadID, c.MessageID = "e", "t", "m"
	c.Start, c.End = v, 1<<53-1
	return map[string]any{"citation": c}
}

// offsetHref is an href whose start is s, percent-encoded so that the
// parser decodes exactly s.
func offsetHref(s string) map[string]any {
	return map[string]any{"href": "t3-citation://v1/e/t/m?text=q&start=" + pct(s) + "&end=9007199254740991&prefix=&suffix="}
}

// genParseOffsetsPlatform: one start offset a vector (a refused start
// stops the parse), for each spelling of the offset class and, for each
// digit of the digit class, 1 followed by the digit.
func genParseOffsetsPlatform(cf *genFile) {
	cf.platformVectors(platformClass("quote.offset"), []string{"QUOTE-LINK-045"}, 1, nil, func(ps []spec.Point) (any, any, string) {
		return offsetHref(ps[0].Input), offsetAnswer(ps[0].Input), "a start offset spelt so"
	})
	cf.platformVectors(platformClass("quote.digit"), []string{"QUOTE-LINK-045"}, 1, nil, func(ps []spec.Point) (any, any, string) {
		return offsetHref("1" + string(ps[0].Rune)), offsetAnswer("1" + string(ps[0].Rune)), "a start offset ending with a digit that is not ASCII"
	})
}
