package main

import "encoding/json"

func init() {
	register("marker/locate.gen.json", "marker.locate",
		"Locator resolution: JSON Pointers and line ranges against a data part's value.", locateCases)
}

type locateIn struct {
	Value   any    `json:"value"`
	Locator string `json:"locator"`
}

type found struct {
	Resolved bool `json:"resolved"`
	Value    any  `json:"value"`
}

type foundLines struct {
	Resolved bool     `json:"resolved"`
	Lines    []string `json:"lines"`
}

var unresolved = map[string]bool{"resolved": false}

// malformedOut is the fallback for a locator of no valid form
// (MARKER-LOCATE-010).
type malformedOut struct {
	Resolved  bool `json:"resolved"`
	Malformed bool `json:"malformed"`
}

// rfc6901Doc is the example document of RFC 6901, section 5.
var rfc6901Doc = json.RawMessage(`{"foo":["bar","baz"],"":0,"a/b":1,"c%d":2,"e^f":3,"g|h":4,"i\\j":5,"k\"l":6," ":7,"m~n":8}`)

func locateCases() []vec {
	l := func(n string) string { return "MARKER-LOCATE-" + n }
	ptr := func(id, desc, locator string, want any, rq ...string) vec {
		var out any = unresolved
		if want != nil {
			out = found{true, want}
		}
		return vec{id: id, desc: desc, reqs: rq, in: locateIn{rfc6901Doc, locator}, out: out}
	}
	on := func(id, desc string, value any, locator string, out any, rq ...string) vec {
		return vec{id: id, desc: desc, reqs: rq, in: locateIn{value, locator}, out: out}
	}
	lines := "one\ntwo\r\nthree\nfour\n"
	ln := func(id, desc, locator string, want []string, rq ...string) vec {
		var out any = unresolved
		if want != nil {
			out = foundLines{true, want}
		}
		return vec{id: id, desc: desc, reqs: rq, in: locateIn{lines, locator}, out: out}
	}
	bad := func(id, desc, locator string) vec {
		return vec{id: id, desc: desc, reqs: ids(l("010")), in: locateIn{rfc6901Doc, locator}, out: malformedOut{false, true}}
	}
	return []vec{
		ptr("empty-locator-whole-value", "The empty locator designates the whole value", "", rfc6901Doc, l("001")),
		ptr("rfc6901-array-member", "/foo designates the array member", "/foo", []string{"bar", "baz"}, l("002"), l("003")),
		ptr("rfc6901-array-element", "/foo/0 designates the first element", "/foo/0", "bar", l("002"), l("004")),
		ptr("slash-is-empty-member", "/ designates the member named empty", "/", 0, l("002"), l("003")),
		ptr("escaped-slash", "/a~1b designates the member a/b", "/a~1b", 1, l("002")),
		ptr("percent-is-plain", "/c%d is not percent-decoded", "/c%d", 2, l("002")),
		ptr("caret-is-plain", "/e^f is a plain name", "/e^f", 3, l("002")),
		ptr("pipe-is-plain", "/g|h is a plain name", "/g|h", 4, l("002")),
		ptr("backslash-is-plain", "/i\\j names the member with a backslash", "/i\\j", 5, l("002")),
		ptr("quote-is-plain", "/k\"l names the member with a double quote", "/k\"l", 6, l("002")),
		ptr("space-is-a-name", "/ followed by a space names the member of one space", "/ ", 7, l("002")),
		ptr("escaped-tilde", "/m~0n designates the member m~n", "/m~0n", 8, l("002")),
		on("tilde-zero-one-is-tilde-one", "~01 unescapes to ~1, not to /", map[string]any{"~1": "right", "/": "wrong", "~/": "wrong"}, "/~01", found{true, "right"}, l("002")),
		on("nul-in-token", "A NUL inside a token names a member holding NUL", map[string]any{"a\x00b": 1}, "/a\x00b", found{true, 1}, l("002")),
		on("delimiter-rune-in-token", "A token may hold U+E201, which no marker can carry", map[string]any{"a\uE201": 1}, "/a\uE201", found{true, 1}, l("002")),
		on("null-member", "A member holding null resolves to null", map[string]any{"x": nil}, "/x", found{true, nil}, l("002")),
		on("large-number-verbatim", "A large number is returned digit for digit", json.RawMessage(`{"n":12345678901234567890123}`), "/n", found{true, json.RawMessage(`12345678901234567890123`)}, l("002")),
		on("numeric-names-on-object", "On an object 01, - and 1e0 are member names", map[string]any{"01": "a", "-": "b", "1e0": "c"}, "/01", found{true, "a"}, l("003")),
		on("dash-name-on-object", "On an object - is a member name", map[string]any{"-": "b"}, "/-", found{true, "b"}, l("003")),
		{id: "duplicate-names-last-wins", desc: "With duplicate member names the last one counts", reqs: ids(l("003")),
			in: json.RawMessage(`{"value":{"a":1,"a":2},"locator":"/a"}`), out: found{true, 2}},
		ptr("empty-token-on-array", "An empty token on an array is no index", "/foo/", nil, l("004")),
		ptr("leading-zero-index", "Index 01 has a leading zero: unresolved", "/foo/01", nil, l("004")),
		ptr("double-zero-index", "Index 00 is unresolved", "/foo/00", nil, l("004")),
		ptr("plus-sign-index", "Index +1 is unresolved", "/foo/+1", nil, l("004")),
		ptr("negative-index", "Index -1 is unresolved", "/foo/-1", nil, l("004")),
		ptr("exponent-index", "Index 1e0 is unresolved on an array", "/foo/1e0", nil, l("004")),
		ptr("space-index", "Index with a leading space is unresolved", "/foo/ 1", nil, l("004")),
		ptr("dash-index", "- (past the last element) is unresolved", "/foo/-", nil, l("004")),
		ptr("index-past-end", "Index 2 of a two-element array is unresolved", "/foo/2", nil, l("004")),
		ptr("huge-index", "A 20-digit index is unresolved, without overflow", "/foo/99999999999999999999", nil, l("004")),
		ptr("index-into-string", "A token applied to a string is unresolved", "/foo/0/0", nil, l("005")),
		ptr("token-into-number", "A token applied to a number is unresolved", "/a~1b/x", nil, l("005")),
		on("token-into-null", "A token applied to null is unresolved", map[string]any{"x": nil}, "/x/y", unresolved, l("005")),
		on("token-into-bool", "A token applied to a boolean is unresolved", true, "/0", unresolved, l("005")),
		ptr("missing-member", "A member that does not exist is unresolved", "/nope", nil, l("005")),
		ln("first-line", "L1 is the first line: lines count from 1", "L1", []string{"one"}, l("006"), l("007")),
		ln("line-without-cr", "A CR before LF is not part of the line", "L2", []string{"two"}, l("006"), l("007")),
		ln("line-range", "L2-L3 gives lines 2 and 3", "L2-L3", []string{"two", "three"}, l("007")),
		ln("one-line-range", "L2-L2 gives line 2", "L2-L2", []string{"two"}, l("007")),
		ln("last-line", "L4 is the last line", "L4", []string{"four"}, l("006"), l("007")),
		ln("final-lf-starts-no-line", "The LF at the very end starts no fifth line", "L5", nil, l("006")),
		ln("line-zero", "L0 is unresolved", "L0", nil, l("007")),
		ln("line-leading-zero", "L01 is unresolved", "L01", nil, l("007")),
		ln("reversed-range", "L3-L2 is unresolved", "L3-L2", nil, l("007")),
		ln("range-past-end-not-clamped", "L2-L9 past the last line is unresolved, not clamped", "L2-L9", nil, l("007")),
		ln("huge-line-number", "A 20-digit line number is unresolved, without overflow", "L99999999999999999999", nil, l("007")),
		on("lines-of-object", "A line range on an object is unresolved", map[string]any{"a": "x"}, "L1", unresolved, l("006")),
		on("lines-of-empty-string", "The empty string has no line 1", "", "L1", unresolved, l("006")),
		on("lines-of-lone-lf", "A string of one LF has one empty line", "\n", "L1", foundLines{true, []string{""}}, l("006")),
		on("lines-of-string-without-lf", "A string without LF is one line", "solo", "L1", foundLines{true, []string{"solo"}}, l("006")),
		bad("lower-case-line", "Lower-case l8 falls back to the whole part, marked malformed", "l8"),
		bad("fragment-pointer", "A #/foo fragment falls back, marked malformed", "#/foo"),
		bad("plain-word", "A plain word falls back, marked malformed", "foo"),
		bad("bad-tilde-escape", "A ~2 escape falls back, marked malformed", "/a~2"),
		bad("trailing-tilde", "A pointer ending in ~ falls back, marked malformed", "/a~"),
		bad("range-without-second-l", "L8-13 falls back, marked malformed", "L8-13"),
		bad("bare-l", "A bare L falls back, marked malformed", "L"),
		bad("open-range", "L8-L falls back, marked malformed", "L8-L"),
		bad("leading-space", "A leading space before / falls back, marked malformed", " /foo"),
		on("malformed-on-string-value", "A malformed locator on a string value falls back the same way", "one\ntwo", "L1-2", malformedOut{false, true}, l("010")),
		on("malformed-on-null-value", "A malformed locator on a null value falls back the same way", nil, "x", malformedOut{false, true}, l("010")),
		guarded("user-origin-part-refused", "A user_data_ part is not resolved by the client", "user_data_1", reject("MARKER_USER_ORIGIN")),
		guarded("user-text-part-refused", "A user_text_ part is not resolved by the client", "user_text_9", reject("MARKER_USER_ORIGIN")),
		guarded("user-origin-upper-case-refused", "USER_DATA_ in upper case is user origin for the client too", "USER_DATA_2", reject("MARKER_USER_ORIGIN")),
		guarded("user-origin-bare-prefix-refused", "The bare prefix user_text_ is user origin", "user_text_", reject("MARKER_USER_ORIGIN")),
		guarded("tool-part-resolved", "A tool part's citation resolves as without an id", "tool_data_01", found{true, "bar"}),
		guarded("user-lookalike-resolved", "userdata_1, without the prefix's underscore, is no user-origin id", "userdata_1", found{true, "bar"}),
	}
}

// guardedIn is locate's input with the cited part's id.
type guardedIn struct {
	Value      json.RawMessage `json:"value"`
	Locator    string          `json:"locator"`
	DataPartID string          `json:"data_part_id"`
}

// guarded is a vector of the client's guard (MARKER-LOCATE-011): the
// pointer /foo/0 into RFC 6901's document, citing the part id.
func guarded(id, desc, partID string, out any) vec {
	return vec{id: id, desc: desc, reqs: ids("MARKER-LOCATE-011", "MARKER-STRIP-004"), in: guardedIn{rfc6901Doc, "/foo/0", partID}, out: out}
}
