package main

import "strings"

func init() {
	register("marker/strip-grammar.gen.json", "marker.strip",
		"Which substrings are markers: the grammar and the scan; everything else stays literal.", stripGrammar)
	register("marker/strip-citations.gen.json", "marker.strip",
		"The citations array and the parts passed through: known, unknown and user-origin ids.", stripCitations)
	register("marker/strip-retry.gen.json", "marker.strip",
		"When the answer is retried instead of completed: only user-origin parts cited and no text.", stripRetry)
	register("marker/strip-offsets.gen.json", "marker.strip",
		"Offsets in runes of the stripped text, snapped past trailing punctuation.", stripOffsets)
}

// seedNeverFails is the reason of the seed's reading of a parts list that
// names one id twice (the Divergence paragraph after MARKER-STRIP-007).
const seedNeverFails = "seed 001: citations never fail a task, so the text is stripped as if the two parts were one"

const (
	t1 = "tool_data_01"
	t2 = "tool_data_02"
	t3 = "tool_data_03"
)

var std = partsOf(t1, t2, t3)

// Seed 001's example: the answer's two sentences, cited after each, and the
// value of the part the first marker cites.
const seedA, seedB = "Doxorubicin is associated with dose-dependent cardiotoxicity", ". The recommended cumulative dose limit is 450 mg/m²"

var seedValue = map[string]any{"results": []any{map[string]any{"findings": "Doxorubicin carries a dose-dependent risk of cardiomyopathy."}}}

func in(text string) stripIn { return stripIn{Text: text, Parts: std} }

// seedStrips is the reason of the seed's reading of a candidate over this
// grammar's bounds: seed 001 strips it as a marker (the Divergence
// paragraph after MARKER-GRAMMAR-005).
const seedStrips = "seed 001 strips every marker its grammar accepts, which bounds neither the id nor the locator: the candidate is a marker and is removed"

// cited is a vector whose text holds one marker citing t1 with locator
// between before and after: the marker is removed, and its citation keeps
// the locator, at offset.
func cited(id, desc string, rq []string, before, locator, after string, offset int) vec {
	return vec{id: id, desc: desc, reqs: rq, in: in(before + mk(t1, locator) + after),
		out: stripOut{before + after, cites(c(t1, offset, locator)), ids(t1)}}
}

// one is a vector whose text holds one marker citing t1, without locator,
// between before and after: the marker is removed, and its citation is at
// offset.
func one(id, desc string, rq []string, before, after string, offset int, tg ...string) vec {
	return vec{id: id, desc: desc, reqs: rq, tags: tg, in: in(before + mk(t1) + after),
		out: stripOut{before + after, cites(c(t1, offset, "")), ids(t1)}}
}

// lit is a vector whose text contains no marker: it comes back unchanged.
func lit(id, desc string, rq []string, text string) vec {
	return vec{id: id, desc: desc, reqs: rq, in: in(text), out: literal(text)}
}

func stripGrammar() []vec {
	long := strings.Repeat("a", 128)
	ptr256 := "/" + strings.Repeat("x", 255)
	g := func(n string) string { return "MARKER-GRAMMAR-" + n }
	return []vec{
		one("minimal-marker", "A marker without locator is removed and cites the whole part",
			ids(g("001"), "MARKER-STRIP-001", "MARKER-STRIP-002"), "Claim", " next", 5),
		cited("line-locator", "A single-line locator L8 is kept verbatim", ids(g("005"), "MARKER-STRIP-002"), "Claim", "L8", " next", 5),
		cited("line-range-locator", "A line-range locator L8-L13 is kept verbatim", ids(g("005"), "MARKER-STRIP-002"), "Claim", "L8-L13", " next", 5),
		cited("json-pointer-locator", "A JSON Pointer locator /data/5/population is kept verbatim", ids(g("005"), "MARKER-STRIP-002"), "Claim", "/data/5/population", " next", 5),
		cited("pointer-escapes-echoed", "Pointer escapes ~1 and ~0 are echoed, not unescaped", ids(g("005"), "MARKER-STRIP-002"), "Claim", "/a~1b/m~0n", " next", 5),
		cited("pointer-to-empty-member", "The pointer / (member named empty) is a valid locator", ids(g("005")), "Claim", "/", " next", 5),
		cited("pointer-with-spaces-and-astral", "A pointer token may hold spaces and astral runes", ids(g("005")), "Claim", "/a b/😀", " next", 5),
		lit("family-filecite-literal", "Family filecite is not cite: literal", ids(g("002")), "Claim"+mStart+"filecite"+mDelim+t1+mStop),
		lit("family-upper-case-literal", "Family CITE in upper case is literal", ids(g("002")), "Claim"+mStart+"CITE"+mDelim+t1+mStop),
		lit("family-citex-literal", "Family citex is literal", ids(g("002")), "Claim"+mStart+"citex"+mDelim+t1+mStop),
		lit("family-cit-literal", "Family cit (cut short) is literal", ids(g("002")), "Claim"+mStart+"cit"+mDelim+t1+mStop),
		lit("no-delimiter-after-family", "START cite STOP without an id is literal", ids(g("006")), "Claim"+mStart+"cite"+mStop+" next"),
		lit("empty-body", "START directly followed by STOP is literal", ids(g("006")), "Claim"+mStart+mStop),
		lit("empty-id", "An empty id between DELIM and STOP is literal", ids(g("003"), g("006")), "Claim"+mStart+"cite"+mDelim+mStop),
		lit("two-sources-literal", "Two source ids in one marker are literal", ids(g("004")), "Claim"+mStart+"cite"+mDelim+t1+mDelim+t2+mStop),
		lit("source-locator-source-literal", "A source after a locator is literal", ids(g("004")), "Claim"+mStart+"cite"+mDelim+t1+mDelim+"L8"+mDelim+t2+mStop),
		lit("empty-field-literal", "An empty field between two DELIMs is literal", ids(g("006")), "Claim"+mStart+"cite"+mDelim+mDelim+t1+mStop),
		cited("empty-locator-whole-part", "DELIM directly before STOP (an empty locator) is a marker citing the whole part", ids(g("011"), g("001"), "MARKER-STRIP-001", "MARKER-STRIP-002"), "Claim", "", " next", 5),
		{id: "empty-locator-seed-sentence", desc: "An empty locator after a period leaves no delimiter behind (the sentence ends, the next begins)",
			reqs: ids(g("011"), "MARKER-STRIP-001", "MARKER-OFFSET-002"),
			in:   in("Fact." + mStart + "cite" + mDelim + t2 + mDelim + mStop + " More."), out: stripOut{"Fact. More.", cites(c(t2, 5, "")), ids(t2)}},
		{id: "empty-locator-unknown-id", desc: "An empty-locator marker naming no part is removed without an entry",
			reqs: ids(g("011"), "MARKER-STRIP-003"),
			in:   in("Claim" + mk("tool_data_99", "") + "."), out: literal("Claim.")},
		{id: "empty-locator-and-no-locator-alike", desc: "Markers with and without an empty locator give equal entries",
			reqs: ids(g("011"), "MARKER-STRIP-005"),
			in:   in("A" + mk(t1) + mk(t1, "") + ". B" + mk(t3, "") + mk(t2, "L2")),
			out:  stripOut{"A. B", cites(c(t1, 2, ""), c(t1, 2, ""), c(t3, 4, ""), c(t2, 4, "L2")), ids(t1, t2, t3)}},
		lit("empty-locator-then-third-field-literal", "An empty locator followed by a third field is literal", ids(g("004"), g("011")), "Claim"+mStart+"cite"+mDelim+t1+mDelim+mDelim+mStop),
		lit("space-locator-literal", "A locator of one space is not trimmed to empty: literal", ids(g("006"), g("005")), "Claim"+mStart+"cite"+mDelim+t1+mDelim+" "+mStop),
		lit("empty-id-and-empty-locator-literal", "An empty id before an empty locator is literal", ids(g("006"), g("003")), "Claim"+mStart+"cite"+mDelim+mDelim+mStop),
		lit("space-before-id-literal", "A space before the id is not trimmed: literal", ids(g("006"), g("003")), "Claim"+mStart+"cite"+mDelim+" "+t1+mStop),
		lit("space-after-id-literal", "A space after the id is not trimmed: literal", ids(g("006"), g("003")), "Claim"+mStart+"cite"+mDelim+t1+" "+mStop),
		lit("id-with-dot-literal", "A dot in the id is literal", ids(g("003")), "Claim"+mk("tool.data")).seedReading(seedStrips, literal("Claim")),
		lit("id-non-ascii-literal", "A non-ASCII letter in the id is literal", ids(g("003")), "Claim"+mk("tööl_data")),
		{id: "id-of-128-runes", desc: "An id of 128 runes is a marker",
			reqs: ids(g("003")),
			in:   stripIn{Text: "Claim" + mk(long), Parts: partsOf(long)}, out: stripOut{"Claim", cites(c(long, 5, "")), ids(long)}},
		{id: "id-of-129-runes-literal", desc: "An id of 129 runes is literal even when a part has that id",
			reqs: ids(g("003")),
			in:   stripIn{Text: "Claim" + mk(long+"a"), Parts: partsOf(long + "a")}, out: literal("Claim" + mk(long+"a"))},
		cited("locator-of-256-runes", "A locator of 256 runes is a marker", ids(g("005")), "Claim", ptr256, "", 5),
		lit("locator-of-257-runes-literal", "A locator of 257 runes is literal", ids(g("005")), "Claim"+mk(t1, ptr256+"x")).seedReading(seedStrips, stripOut{"Claim", cites(c(t1, 5, ptr256+"x")), ids(t1)}),
		cited("line-number-of-9-digits", "A line number of nine digits is a marker", ids(g("005")), "Claim", "L123456789-L999999999", "", 5),
		lit("line-number-of-10-digits-literal", "A line number of ten digits is literal", ids(g("005")), "Claim"+mk(t1, "L1234567890")).seedReading(seedStrips, stripOut{"Claim", cites(c(t1, 5, "L1234567890")), ids(t1)}),
		lit("line-locator-lower-case-literal", "Lower-case l8 is no locator: literal", ids(g("005")), "Claim"+mk(t1, "l8")),
		lit("line-range-without-second-l-literal", "L8-13 without the second L is literal", ids(g("005")), "Claim"+mk(t1, "L8-13")),
		lit("line-locator-without-digits-literal", "A bare L is literal", ids(g("005")), "Claim"+mk(t1, "L")),
		lit("line-range-open-end-literal", "L8- with nothing after the dash is literal", ids(g("005")), "Claim"+mk(t1, "L8-")),
		lit("locator-fragment-pointer-literal", "A #/a fragment pointer is literal", ids(g("005")), "Claim"+mk(t1, "#/a")),
		lit("locator-bare-number-literal", "A bare number locator is literal", ids(g("005")), "Claim"+mk(t1, "8")),
		lit("pointer-bad-escape-literal", "A pointer with ~2 is literal", ids(g("005")), "Claim"+mk(t1, "/a~2")),
		lit("pointer-trailing-tilde-literal", "A pointer ending in ~ is literal", ids(g("005")), "Claim"+mk(t1, "/a~")),
		lit("newline-in-locator-literal", "A newline inside a pointer locator is literal", ids(g("010")), "Claim"+mk(t1, "/a\nb")),
		lit("newline-before-stop-literal", "A newline between id and STOP is literal", ids(g("010")), "Claim"+mStart+"cite"+mDelim+t1+"\n"+mStop),
		lit("tab-in-locator-literal", "A tab inside a pointer locator is literal", ids(g("010")), "Claim"+mk(t1, "/a\tb")),
		lit("nul-in-locator-literal", "A NUL inside a pointer locator is literal", ids(g("010")), "Claim"+mk(t1, "/a\x00b")),
		lit("unterminated-at-end-literal", "An unterminated marker at the end of the text is literal", ids(g("009"), g("007")), "Claim"+mStart+"cite"+mDelim+t1),
		lit("unterminated-keeps-following-text", "An unterminated START keeps all the text after it", ids(g("009")), "Claim"+mStart+"cite"+mDelim+t1+" and more text."),
		lit("lone-start-at-end", "A lone START at the end is literal", ids(g("009")), "Claim."+mStart),
		lit("stray-delim-and-stop", "DELIM and STOP outside a candidate are literal", ids(g("009")), "a"+mDelim+"b"+mStop+"c"),
		lit("backslash-escape-text-literal", "The ASCII text \\ue200cite... is not a marker", ids(g("009")), `Claim\ue200cite\ue202`+t1+`\ue201`),
		one("failed-candidate-then-valid-marker", "A candidate that failed on a space does not swallow the next marker", ids(g("007"), g("008")),
			mStart+"cite"+mDelim+"bad id", ".", runes(mStart+"cite"+mDelim+"bad id")+1),
		lit("start-inside-open-candidate-literal", "A START inside an open candidate is literal and begins nothing", ids(g("008")),
			mStart+"cite"+mDelim+t2+mk(t1)),
		lit("double-start-literal", "A second START right after the first leaves the marker literal", ids(g("008")), "Claim"+mStart+mk(t1)),
		one("open-candidate-start-then-later-marker", "After a START that ended a candidate the scan resumes; a later marker is removed", ids(g("007"), g("008")),
			mStart+"cite"+mDelim+"a"+mStart+"cite"+mDelim+"b"+mStop, "", 15),
		one("marker-inside-code-fence", "Markers are found everywhere, code fences included", ids(g("007")), "```\ncode", "\n```", 8),
		{id: "locator-like-id", desc: "An id that looks like a locator (L8) is an id: unknown, removed",
			reqs: ids(g("003"), "MARKER-STRIP-003"),
			in:   in("Claim" + mk("L8-L13") + "."), out: stripOut{"Claim.", cites(), ids()}},
	}
}

func stripCitations() []vec {
	s := func(n string) string { return "MARKER-STRIP-" + n }
	dup := partsOf(t1, t2, t1)
	// alone is "Claim<M>." whose marker names partID, the one part: cited
	// unless partID is of user origin.
	citedOut := func(partID string) stripOut { return stripOut{"Claim.", cites(c(partID, 6, "")), ids(partID)} }
	alone := func(id, desc string, rq []string, partID string, userOrigin bool) vec {
		v := vec{id: id, desc: desc, reqs: rq, in: stripIn{Text: "Claim" + mk(partID) + ".", Parts: partsOf(partID)}, out: citedOut(partID)}
		if userOrigin {
			v.out = literal("Claim.")
		}
		return v
	}
	// otherCase is alone with a user-origin prefix in other case, which
	// seed 001, naming the prefixes in lower case, does not see.
	otherCase := func(id, desc, partID string) vec {
		return alone(id, desc, ids(s("004")), partID, true).seedReading(
			"seed 001 names the prefixes user_data_ and user_text_ in lower case: "+partID+" is an ordinary id, and its part is cited", citedOut(partID))
	}
	return []vec{
		one("whitespace-around-marker-kept", "Spaces on both sides of a removed marker are kept", ids(s("001")), "a. ", " b", 3),
		{id: "no-markers", desc: "A text without markers comes back unchanged",
			reqs: ids(s("001")),
			in:   in("Plain text, nothing cited."), out: literal("Plain text, nothing cited.")},
		{id: "no-parts", desc: "With no parts every marker is removed without an entry",
			reqs: ids(s("003")),
			in:   stripIn{Text: "a" + mk(t1) + " b", Parts: []part{}}, out: literal("a b")},
		{id: "unknown-id-removed", desc: "A marker with an unknown id is removed and yields no entry",
			reqs: ids(s("003")),
			in:   in("Claim" + mk("tool_data_99") + "."), out: literal("Claim.")},
		{id: "id-compared-exactly", desc: "An id differing from a part id in case only is unknown",
			reqs: ids(s("002"), s("003")),
			in:   in("Claim" + mk("TOOL_DATA_01") + "."), out: literal("Claim.")},
		alone("user-data-id-removed", "A user_data_ id is removed without entry even when a part has it", ids(s("004")), "user_data_1", true),
		alone("user-text-id-removed", "A user_text_ id is removed without entry", ids(s("004")), "user_text_7", true),
		otherCase("user-origin-upper-case", "USER_DATA_ in upper case is user origin too", "USER_DATA_1"),
		otherCase("user-origin-mixed-case", "User_Text_ in mixed case is user origin too", "User_Text_x"),
		alone("user-origin-bare-prefix", "The bare prefix user_data_ is user origin", ids(s("004")), "user_data_", true),
		alone("user-origin-only-as-prefix", "my_user_data_1 contains the prefix but does not begin with it: cited", ids(s("004"), s("002")), "my_user_data_1", false),
		alone("user-data-without-trailing-underscore", "user_data1 lacks the prefix's underscore: cited", ids(s("004"), s("002")), "user_data1", false),
		{id: "user-origin-among-cited", desc: "Only the user-origin marker loses its entry; its neighbours keep theirs",
			reqs: ids(s("004"), s("006")),
			in:   stripIn{Text: "A" + mk(t1) + " B" + mk("user_data_2") + " C" + mk(t2), Parts: partsOf(t1, "user_data_2", t2)},
			out:  stripOut{"A B C", cites(c(t1, 1, ""), c(t2, 5, "")), ids(t1, t2)}},
		{id: "part-cited-twice", desc: "A part cited twice yields two entries and is passed through once",
			reqs: ids(s("005"), s("006")),
			in:   in("One" + mk(t1) + ". Two" + mk(t1, "L2") + "."),
			out:  stripOut{"One. Two.", cites(c(t1, 4, ""), c(t1, 9, "L2")), ids(t1)}},
		{id: "parts-in-input-order", desc: "Parts passed through follow the input order, not the citation order",
			reqs: ids(s("006"), s("005")),
			in:   in("First" + mk(t3) + " then" + mk(t1)),
			out:  stripOut{"First then", cites(c(t3, 5, ""), c(t1, 10, "")), ids(t1, t3)}},
		{id: "uncited-part-not-passed", desc: "A part that no marker cites is not passed through",
			reqs: ids(s("006")),
			in:   in("Only" + mk(t2)), out: stripOut{"Only", cites(c(t2, 4, "")), ids(t2)}},
		{id: "interleaved-parts", desc: "Markers of two parts interleaved keep text order",
			reqs: ids(s("005")),
			in:   in("A" + mk(t1) + " B" + mk(t2) + " C" + mk(t1)),
			out:  stripOut{"A B C", cites(c(t1, 1, ""), c(t2, 3, ""), c(t1, 5, "")), ids(t1, t2)}},
		vec{id: "duplicate-part-id-rejected", desc: "Two parts with one id are rejected",
			reqs: ids(s("007")),
			in:   stripIn{Text: "Claim" + mk(t1), Parts: dup}, out: reject("MARKER_DUPLICATE_PART_ID"),
		}.seedReading(seedNeverFails, stripOut{"Claim", cites(c(t1, 5, "")), ids(t1)}),
		vec{id: "duplicate-part-id-rejected-without-markers", desc: "Duplicate part ids are rejected even when nothing is cited",
			reqs: ids(s("007")),
			in:   stripIn{Text: "Plain.", Parts: dup}, out: reject("MARKER_DUPLICATE_PART_ID"),
		}.seedReading(seedNeverFails, literal("Plain.")),
		{id: "lone-surrogate-is-one-rune", desc: "A lone surrogate escape reads as U+FFFD, one rune before the marker",
			reqs: ids(s("008"), "MARKER-OFFSET-001"), tags: ids("lone-surrogate"),
			in: in("a" + loneD83D + "b" + mk(t1)), out: stripOut{"a\uFFFDb", cites(c(t1, 3, "")), ids(t1)}},
		lit("stable-on-open-candidate-residue", "The literal residue of a START that ended a candidate stays as it is when stripped again", ids(s("009"), "MARKER-GRAMMAR-008"),
			mStart+"cite"+mDelim+"a"+mStart+"cite"+mDelim+"b"+mStop),
		lit("stable-on-failed-candidate-residue", "Text left by a failed candidate and a removed marker strips to itself", ids(s("009")),
			mStart+"cite"+mDelim+t2+" "+mStop),
		cited("unresolvable-line-locator-kept", "A marker with locator L0, which never resolves, keeps its entry", ids("MARKER-LOCATE-009"), "Claim", "L0", ".", 6),
		cited("unresolvable-leading-zero-line-kept", "A marker with locator L08 keeps its entry and locator", ids("MARKER-LOCATE-009"), "Claim", "L08", ".", 6),
		cited("unresolvable-pointer-kept", "A marker whose pointer names no member keeps its entry", ids("MARKER-LOCATE-009"), "Claim", "/missing/0", ".", 6),
	}
}

func stripOffsets() []vec {
	o := func(n string) string { return "MARKER-OFFSET-" + n }
	// inToken is a marker before a punctuation rune inside a token: the
	// offset snaps past it; the seed's clause-boundary reading would not
	// move it (the spec's Divergence paragraph after MARKER-OFFSET-005).
	inToken := func(id, desc, before, after string) vec {
		return one(id, desc, ids(o("004"), o("005")), before, after, runes(before)+1).seedReading(
			"seed 001 snaps so that the citation lands on a clause boundary: a punctuation rune inside a token ends no clause, so the offset stays before it",
			stripOut{before + after, cites(c(t1, runes(before), "")), ids(t1)})
	}
	return []vec{
		one("astral-before-marker", "An astral emoji counts one rune (UTF-16 gives 4, bytes 6)", ids(o("001")), "😀 a", " b", 3, "astral"),
		one("cjk-before-marker", "CJK characters count one rune each (bytes give 9)", ids(o("001")), "引用文", " b", 3, "cjk"),
		one("combining-mark-before-marker", "A combining acute counts as its own rune", ids(o("001")), "e\u0301", " b", 2, "combining"),
		one("zwj-family-before-marker", "A ZWJ family emoji counts five runes (UTF-16 gives 8)", ids(o("001")), "👨\u200d👩\u200d👧", " b", 5, "astral"),
		one("rtl-before-marker", "Hebrew text counts one rune per letter", ids(o("001")), "שלום", " b", 4, "rtl"),
		one("mixed-before-marker", "Astral, CJK and combining runes before a marker", ids(o("001")), "😀引e\u0301𝄞", " b", 5, "astral", "cjk"),
		one("marker-at-start", "A marker at the very start has offset 0", ids(o("002")), "", "Claim", 0),
		one("marker-at-end", "A marker at the very end has the text length as offset", ids(o("002")), "Claim", "", 5),
		one("marker-only-content", "A marker that is the whole text leaves an empty text and offset 0", ids(o("002")), "", "", 0),
		{id: "adjacent-markers-same-offset", desc: "Two adjacent markers snap to one offset in text order",
			reqs: ids(o("003"), "MARKER-STRIP-005"),
			in:   in("Claim" + mk(t1) + mk(t2) + "."), out: stripOut{"Claim.", cites(c(t1, 6, ""), c(t2, 6, "")), ids(t1, t2)}},
		{id: "tie-keeps-text-order", desc: "Equal offsets keep the order of the markers, not of the parts",
			reqs: ids("MARKER-STRIP-005"),
			in:   in("Claim" + mk(t2) + mk(t1)), out: stripOut{"Claim", cites(c(t2, 5, ""), c(t1, 5, "")), ids(t1, t2)}},
		{id: "snap-across-punctuation-and-marker", desc: "Markers on both sides of a period snap past the whole run",
			reqs: ids(o("003")),
			in:   in("claim" + mk(t1) + "." + mk(t2) + ") next"), out: stripOut{"claim.) next", cites(c(t1, 7, ""), c(t2, 7, "")), ids(t1, t2)}},
		one("snap-period-after-marker", "claim<M>. snaps past the period", ids(o("003"), o("004")), "claim", ". Next", 6),
		one("snap-period-before-marker", "claim.<M> gives the same offset as claim<M>.", ids(o("003")), "claim.", " Next", 6),
		one("snap-period-and-paren", "A period then a closing parenthesis are both passed", ids(o("004")), "(claim", ".) Next", 8),
		one("snap-ascii-quote", "A period and an ASCII double quote are both passed", ids(o("004")), "\"claim", ".\" Next", 8),
		one("snap-ellipsis", "An ellipsis (Po) is passed", ids(o("004")), "claim", "… Next", 6),
		one("snap-cjk-full-stop", "An ideographic full stop (Po) is passed", ids(o("004")), "主张", "。下", 3, "cjk"),
		one("snap-fullwidth-comma", "A fullwidth comma (Po) is passed", ids(o("004")), "主张", "，下", 3, "cjk"),
		one("snap-question-exclamation", "A run ?! is passed", ids(o("004")), "claim", "?! Next", 7),
		one("snap-corner-bracket", "A closing corner bracket (Pe) is passed", ids(o("004")), "「主张", "」下", 4, "cjk"),
		one("snap-right-double-quote", "A right double quotation mark (Pf) is passed", ids(o("004")), "“claim", "” Next", 7),
		one("snap-right-guillemet", "A right guillemet (Pf) is passed", ids(o("004")), "«claim", "» Next", 7),
		one("snap-markdown-bold", "The asterisks closing Markdown bold (Po) are passed", ids(o("004")), "**claim", "** Next", 9),
		one("snap-to-end-of-text", "A snap may end at the end of the text", ids(o("003"), o("002")), "claim", ".", 6),
		one("no-snap-over-space", "A space stops the snap", ids(o("005")), "claim", " .", 5),
		one("no-snap-over-newline", "A newline stops the snap", ids(o("005")), "claim", "\n.", 5),
		one("no-snap-over-opening-paren", "An opening parenthesis (Ps) stops the snap", ids(o("005")), "claim", "(see)", 5),
		one("no-snap-over-left-double-quote", "A left double quotation mark (Pi) stops the snap", ids(o("005")), "claim", "“x”", 5),
		one("no-snap-over-hyphen", "A hyphen-minus (Pd) stops the snap", ids(o("005")), "claim", "-based", 5),
		one("no-snap-over-em-dash", "An em dash (Pd) stops the snap", ids(o("005")), "claim", "—next", 5),
		one("no-snap-over-underscore", "An underscore (Pc) stops the snap", ids(o("005")), "claim", "_x", 5),
		one("no-snap-over-inverted-question", "An inverted question mark, though Po, stops the snap", ids(o("004"), o("005")), "claim", "¿Qué?", 5),
		one("no-snap-over-inverted-exclamation", "An inverted exclamation mark, though Po, stops the snap", ids(o("004"), o("005")), "claim", "¡Sí!", 5),
		one("no-snap-over-symbol", "A currency symbol (Sc) stops the snap", ids(o("005")), "claim", "$5", 5),
		inToken("decimal-point", "3<M>.5 snaps past the point and stops at the digit", "3", ".5"),
		inToken("snap-inside-token-slash", "mg<M>/m² snaps past the slash (Po) inside the unit", "450 mg", "/m² daily"),
		inToken("snap-inside-token-ampersand", "AT<M>&T snaps past the ampersand (Po) inside the name", "AT", "&T network"),
		inToken("snap-inside-token-apostrophe", "don<M>'t snaps past the apostrophe (Po) inside the word", "don", "'t stop"),
		inToken("snap-inside-token-number-sign", "a<M>#tag snaps past the number sign (Po)", "a", "#tag"),
		inToken("snap-inside-token-at-sign", "user<M>@example.com snaps past the at sign (Po) inside the address", "user", "@example.com"),
		one("no-snap-over-literal-delimiter", "A literal DELIM (private use) after a marker stops the snap", ids(o("005")), "claim", mDelim+".", 5),
		vec{id: "seed-example-offsets", desc: "Seed 001's example text: offsets 61 and 113, where the seed prints 53 and 107",
			reqs: ids(o("006"), o("003")),
			in: stripIn{Text: seedA + mk(t2, "/results/0/findings") + seedB + mk(t3) + ".",
				Parts: []part{{ID: t2, Value: seedValue}, {ID: t3}}},
			out: stripOut{seedA + seedB + ".", cites(c(t2, runes(seedA)+1, "/results/0/findings"), c(t3, runes(seedA+seedB)+1, "")), ids(t2, t3)},
		}.seedReading("seed 001's example prints the offsets 53 and 107, which contradict its own snapping rule",
			stripOut{seedA + seedB + ".", cites(c(t2, 53, "/results/0/findings"), c(t3, 107, "")), ids(t2, t3)}),
	}
}

// retryOut is the expected output of strip when the answer is to be
// retried: stripOut with "retry": true (MARKER-STRIP-010).
type retryOut struct {
	stripOut
	Retry bool `json:"retry"`
}

// whiteSpace is every rune of White_Space as MARKER-STRIP-010 writes it
// out (Unicode 15.0.0), in order: U+0009 to U+000D, U+0020, U+0085,
// U+00A0, U+1680, U+2000 to U+200A, U+2028, U+2029, U+202F, U+205F and
// U+3000.
const whiteSpace = "\t\n\v\f\r \u0085\u00a0\u1680" +
	"\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a" +
	"\u2028\u2029\u202f\u205f\u3000"

func retrying(text string) retryOut { return retryOut{literal(text), true} }

// stripRetry pins MARKER-STRIP-010 from both sides: an implementation that
// never retries fails the first group, one that retries on an empty text
// alone, on the absence of citations alone, or on a non-space text, fails
// the second.
func stripRetry() []vec {
	r := ids("MARKER-STRIP-010")
	user := partsOf("user_data_1", "user_text_2", t1)
	u := func(id, desc, text string, out any, rq ...string) vec {
		return vec{id: id, desc: desc, reqs: append(rq, r...), in: stripIn{Text: text, Parts: user}, out: out}
	}
	return []vec{
		u("only-user-origin-marker", "A text that is one user-origin marker and nothing else is retried",
			mk("user_data_1"), retrying(""), "MARKER-STRIP-004"),
		u("user-origin-markers-and-white-space", "User-origin markers among spaces and line feeds are retried",
			" "+mk("user_data_1")+"\n"+mk("USER_TEXT_2", "L1")+"\t", retrying(" \n\t")),
		u("user-origin-empty-locator", "A user-origin marker with an empty locator is retried",
			mk("user_text_2", ""), retrying(""), "MARKER-GRAMMAR-011"),
		u("user-origin-id-without-part", "A user-origin id that no part carries still counts as user-origin",
			mk("user_data_9"), retrying("")),
		u("no-break-space-is-white-space", "A no-break space (White_Space) is no answer text",
			"\u00a0"+mk("user_data_1")+"\u3000", retrying("\u00a0\u3000")),
		u("zero-width-space-is-text", "A zero-width space is not White_Space: no retry",
			"\u200b"+mk("user_data_1"), literal("\u200b")),
		u("every-white-space-rune", "Every rune of White_Space as MARKER-STRIP-010 lists it, the ends of its ranges included, is no answer text",
			whiteSpace+mk("user_data_1"), retrying(whiteSpace)),
		u("backspace-is-text", "U+0008, just below White_Space's first range, is text: no retry",
			"\u0008"+mk("user_data_1"), literal("\u0008")),
		u("shift-out-is-text", "U+000E, just above White_Space's first range, is text: no retry",
			"\u000e"+mk("user_data_1"), literal("\u000e")),
		u("below-en-quad-is-text", "U+1FFF, just below the range U+2000 to U+200A, is text: no retry",
			"\u1fff"+mk("user_data_1"), literal("\u1fff")),
		u("user-origin-with-answer-text", "User-origin markers with answer text are not retried",
			"As you said"+mk("user_data_1")+".", literal("As you said.")),
		u("user-origin-and-tool-marker", "One tool marker beside user-origin ones: cited, not retried",
			mk("user_data_1")+mk(t1), stripOut{"", cites(c(t1, 0, "")), ids(t1)}),
		u("user-origin-and-unknown-marker", "A marker of an unknown part beside a user-origin one: not every cited part is user-origin",
			mk("user_data_1")+mk("tool_data_99"), literal("")),
		u("only-unknown-marker", "A text that is one unknown marker is not retried",
			mk("tool_data_99"), literal(""), "MARKER-STRIP-003"),
		u("empty-text-no-marker", "An empty text without any marker is not retried",
			"", literal("")),
		u("user-origin-and-failed-candidate", "Literal text left by a failed candidate is text: not retried",
			mk("user_data_1")+mStart+"cite"+mDelim+"x y", literal(mStart+"cite"+mDelim+"x y"), "MARKER-GRAMMAR-007"),
		u("user-origin-and-literal-family", "A literal filecite candidate is text: not retried",
			mk("user_data_1")+mStart+"filecite"+mDelim+"user_data_1"+mStop, literal(mStart+"filecite"+mDelim+"user_data_1"+mStop), "MARKER-GRAMMAR-002"),
	}
}
