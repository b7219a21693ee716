package main

import (
	"encoding/base64"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

func init() {
	register("marker/stream.gen.json", "marker.stream",
		"Streaming: what each output delta holds, the hold and its bound, the end of the stream, bytes.", streamCases)
	register("marker/stream-split-runes.gen.json", "marker.stream",
		"Markers cut into two deltas at every rune boundary, and one rune per delta.", streamRuneSplits)
	register("marker/stream-split-bytes.gen.json", "marker.stream",
		"Markers cut into two byte chunks at every UTF-8 byte boundary of the delimiters, and one byte per chunk.", streamByteSplits)
}

type streamIn struct {
	Deltas       []string `json:"deltas,omitzero"`
	DeltasBase64 []string `json:"deltas_base64,omitzero"`
	Parts        []part   `json:"parts"`
}

type streamOut struct {
	Deltas    []string `json:"deltas"`
	Text      string   `json:"text"`
	Citations []cite   `json:"citations"`
	Parts     []string `json:"parts"`
	Retry     bool     `json:"retry,omitempty"`
}

func sin(deltas ...string) streamIn {
	return streamIn{Deltas: ids(deltas...), Parts: std}
}

// sout is the expected output for the given output deltas: text is their
// concatenation (MARKER-STREAM-005).
func sout(deltas []string, cs []cite, ps []string) streamOut {
	return streamOut{Deltas: deltas, Text: strings.Join(deltas, ""), Citations: cs, Parts: ps}
}

// retryStream is the expected output of a stream that is retried.
func retryStream(deltas []string) streamOut {
	return streamOut{Deltas: deltas, Text: strings.Join(deltas, ""), Citations: cites(), Parts: ids(), Retry: true}
}

func b64(chunks ...string) []string {
	out := make([]string, len(chunks))
	for i, c := range chunks {
		out[i] = base64.StdEncoding.EncodeToString([]byte(c))
	}
	return out
}

func streamCases() []vec {
	s := func(n string) string { return "MARKER-STREAM-" + n }
	long := strings.Repeat("a", 128)
	ptr := "/" + strings.Repeat("é", 255)
	open := mStart + "cite" + mDelim + t1
	return []vec{
		{id: "marker-free-deltas-unchanged", desc: "Deltas without START are released as they are, plus an empty final delta",
			reqs: ids(s("001"), s("002")),
			in:   sin("Hello, ", "wor", "ld."), out: sout([]string{"Hello, ", "wor", "ld.", ""}, cites(), ids())},
		{id: "no-deltas", desc: "A stream without deltas yields only the empty final delta",
			reqs: ids(s("001")),
			in:   sin(), out: sout([]string{""}, cites(), ids())},
		{id: "empty-deltas", desc: "Empty input deltas yield empty output deltas",
			reqs: ids(s("001")),
			in:   sin("", "a", ""), out: sout([]string{"", "a", "", ""}, cites(), ids())},
		{id: "text-before-start-released", desc: "Text before START goes out at once; only the marker prefix waits",
			reqs: ids(s("002")),
			in:   sin("Claim"+mStart+"ci", "te"+mDelim+t1+mStop+" next"),
			out:  sout([]string{"Claim", " next", ""}, cites(c(t1, 5, "")), ids(t1))},
		{id: "delta-ends-with-start", desc: "A delta ending in START alone holds just that START",
			reqs: ids(s("002")),
			in:   sin("a"+mStart, "cite"+mDelim+t1+mStop+"b"),
			out:  sout([]string{"a", "b", ""}, cites(c(t1, 1, "")), ids(t1))},
		{id: "delta-ends-after-delimiter", desc: "A delta ending right after the first DELIM holds the prefix",
			reqs: ids(s("002")),
			in:   sin("a"+mStart+"cite"+mDelim, t1+mStop+"b"),
			out:  sout([]string{"a", "b", ""}, cites(c(t1, 1, "")), ids(t1))},
		{id: "delta-ends-after-second-delimiter", desc: "A delta ending after the second DELIM holds the prefix; STOP makes it an empty-locator marker",
			reqs: ids(s("002"), s("003"), "MARKER-GRAMMAR-011"),
			in:   sin("a"+open+mDelim, mStop+". b"),
			out:  sout([]string{"a", ". b", ""}, cites(c(t1, 2, "")), ids(t1))},
		{id: "empty-locator-open-at-end", desc: "A stream ending after the second DELIM releases the candidate verbatim",
			reqs: ids(s("004"), "MARKER-GRAMMAR-011"),
			in:   sin("a", open+mDelim),
			out:  sout([]string{"a", "", open + mDelim}, cites(), ids())},
		{id: "delta-ends-before-stop", desc: "A delta ending just before STOP releases nothing of the marker",
			reqs: ids(s("002")),
			in:   sin("a"+mStart+"cite"+mDelim+t1+mDelim+"L8", mStop, "b"),
			out:  sout([]string{"a", "", "b", ""}, cites(c(t1, 1, "L8")), ids(t1))},
		{id: "marker-completes-inside-delta", desc: "A whole marker inside one delta is removed from that delta",
			reqs: ids(s("002")),
			in:   sin("a"+mk(t1)+"b", "c"),
			out:  sout([]string{"ab", "c", ""}, cites(c(t1, 1, "")), ids(t1))},
		{id: "unterminated-released-at-end", desc: "A marker prefix open at the end of the stream is released verbatim last",
			reqs: ids(s("004")),
			in:   sin("a", open),
			out:  sout([]string{"a", "", open}, cites(), ids())},
		{id: "lone-start-released-at-end", desc: "A START alone at the end of the stream is released last",
			reqs: ids(s("004")),
			in:   sin("a" + mStart),
			out:  sout([]string{"a", mStart}, cites(), ids())},
		{id: "failed-candidate-released-in-its-delta", desc: "A candidate that fails is released with the rune that ended it",
			reqs: ids(s("003")),
			in:   sin("a"+mStart+"ci", "tx more", "."),
			out:  sout([]string{"a", mStart + "citx more", ".", ""}, cites(), ids())},
		{id: "start-ends-open-candidate", desc: "A START ending an open candidate is released with it, literal",
			reqs: ids(s("003"), "MARKER-GRAMMAR-008"),
			in:   sin("x"+open, mk(t2)+"y"),
			out:  sout([]string{"x", open + mk(t2) + "y", ""}, cites(), ids())},
		{id: "failed-candidate-then-marker", desc: "After a candidate fails on a space, a later marker in the same delta is removed",
			reqs: ids(s("003"), s("005")),
			in:   sin(mStart+"cite"+mDelim+"bad", " id"+mk(t1)+"."),
			out: sout([]string{"", mStart + "cite" + mDelim + "bad id.", ""},
				cites(c(t1, runes(mStart+"cite"+mDelim+"bad id")+1, "")), ids(t1))},
		{id: "longest-marker-held-whole", desc: "The longest marker, held 391 runes, is removed when its STOP arrives",
			reqs: ids(s("003")), tags: ids("boundary"),
			in:  streamIn{Deltas: []string{"a" + mStart + "cite" + mDelim + long + mDelim + ptr, mStop + "."}, Parts: partsOf(long)},
			out: sout([]string{"a", ".", ""}, cites(c(long, 2, ptr)), ids(long))},
		{id: "hold-bound-id-too-long", desc: "An id growing to 129 runes ends the hold; a later marker still works",
			reqs: ids(s("003")), tags: ids("boundary"),
			in: sin(mStart+"cite"+mDelim+long, "a tail"+mk(t1)+"."),
			out: sout([]string{"", mStart + "cite" + mDelim + long + "a tail.", ""},
				cites(c(t1, runes(mStart+"cite"+mDelim+long+"a tail")+1, "")), ids(t1))},
		{id: "hold-bound-locator-too-long", desc: "A locator growing to 257 runes ends the hold: the text is released",
			reqs: ids(s("003")), tags: ids("boundary"),
			in:  sin("a"+open+mDelim+ptr, "éz"),
			out: sout([]string{"a", open + mDelim + ptr + "éz", ""}, cites(), ids())},
		{id: "citations-and-parts-as-strip", desc: "Citations, offsets and parts of a stream equal those of strip",
			reqs: ids(s("005")),
			in:   sin("😀 One"+mk(t3), ". Two"+mk(t1, "/a")+"!", " Three"+mStart+"cite", mDelim+t3+mStop),
			out:  sout([]string{"😀 One", ". Two!", " Three", "", ""}, cites(c(t3, runes("😀 One")+1, ""), c(t1, runes("😀 One. Two")+1, "/a"), c(t3, runes("😀 One. Two! Three"), "")), ids(t1, t3))},
		{id: "unknown-and-user-ids-in-stream", desc: "Unknown and user-origin markers are removed from the stream without entries",
			reqs: ids(s("005"), "MARKER-STRIP-003", "MARKER-STRIP-004"),
			in:   streamIn{Deltas: []string{"a" + mk("nope") + "b", mk("user_text_1") + "c"}, Parts: partsOf("user_text_1")},
			out:  sout([]string{"ab", "c", ""}, cites(), ids())},
		vec{id: "duplicate-part-id-rejected", desc: "Two parts with one id reject the stream",
			reqs: ids("MARKER-STRIP-007"),
			in:   streamIn{Deltas: []string{"a"}, Parts: partsOf(t1, t1)}, out: reject("MARKER_DUPLICATE_PART_ID"),
		}.seedReading(seedNeverFails, sout([]string{"a", ""}, cites(), ids())),
		{id: "lone-surrogate-delta", desc: "A lone surrogate ending a delta reads as U+FFFD",
			reqs: ids("MARKER-STRIP-008"), tags: ids("lone-surrogate"),
			in:  sin("a"+loneD83D, mk(t1)+"."),
			out: sout([]string{"a\uFFFD", ".", ""}, cites(c(t1, 3, "")), ids(t1))},
		{id: "retry-user-origin-only", desc: "A stream of one user-origin marker and white space is retried",
			reqs: ids(s("008"), "MARKER-STRIP-010"),
			in:   streamIn{Deltas: []string{" " + mStart + "cite" + mDelim + "user_", "data_1" + mDelim, mStop + "\n"}, Parts: partsOf("user_data_1")},
			out:  retryStream([]string{" ", "", "\n", ""})},
		{id: "retry-bytes", desc: "A byte stream of one user-origin marker cut inside STOP is retried",
			reqs: ids(s("008"), s("006"), "MARKER-STRIP-010"),
			in:   streamIn{DeltasBase64: b64(mk("user_text_2")[:len(mk("user_text_2"))-1], mk("user_text_2")[len(mk("user_text_2"))-1:]), Parts: std},
			out:  retryStream([]string{"", "", ""})},
		{id: "no-retry-with-text-in-later-delta", desc: "Text arriving after the user-origin marker, in a later delta, means no retry",
			reqs: ids(s("008"), "MARKER-STRIP-010"),
			in:   streamIn{Deltas: []string{mk("user_data_1"), "", "ok"}, Parts: partsOf("user_data_1")},
			out:  sout([]string{"", "", "ok", ""}, cites(), ids())},
		{id: "no-retry-when-held-candidate-released", desc: "An open candidate released at the end is text: no retry",
			reqs: ids(s("008"), s("004"), "MARKER-STRIP-010"),
			in:   streamIn{Deltas: []string{mk("user_data_1"), mStart + "cite"}, Parts: partsOf("user_data_1")},
			out:  sout([]string{"", "", mStart + "cite"}, cites(), ids())},
		{id: "bytes-whole-runes", desc: "Byte chunks holding whole runes come out as the same text",
			reqs: ids(s("006")),
			in:   streamIn{DeltasBase64: b64("Héllo ", "wörld"), Parts: std},
			out:  sout([]string{"Héllo ", "wörld", ""}, cites(), ids())},
		{id: "bytes-astral-split", desc: "An emoji cut between chunks waits for its last byte",
			reqs: ids(s("006")), tags: ids("astral"),
			in:  streamIn{DeltasBase64: b64("a\xF0\x9F", "\x98", "\x80b"), Parts: std},
			out: sout([]string{"a", "", "😀b", ""}, cites(), ids())},
		{id: "bytes-invalid-byte-rejected", desc: "A byte 0xFF in the stream rejects it",
			reqs: ids(s("007")),
			in:   streamIn{DeltasBase64: b64("ok", "\xFF"), Parts: std}, out: reject("MARKER_INVALID_UTF8")},
		{id: "bytes-truncated-at-end-rejected", desc: "A stream ending inside a delimiter's bytes is rejected",
			reqs: ids(s("007")),
			in:   streamIn{DeltasBase64: b64("a\xEE\x88"), Parts: std}, out: reject("MARKER_INVALID_UTF8")},
		{id: "bytes-encoded-surrogate-rejected", desc: "The UTF-8 form of a surrogate (ED A0 80) is rejected",
			reqs: ids(s("007")),
			in:   streamIn{DeltasBase64: b64("a\xED", "\xA0\x80"), Parts: std}, out: reject("MARKER_INVALID_UTF8")},
		{id: "bytes-overlong-rejected", desc: "An overlong encoding of / (C0 AF) is rejected",
			reqs: ids(s("007")),
			in:   streamIn{DeltasBase64: b64("a\xC0\xAF"), Parts: std}, out: reject("MARKER_INVALID_UTF8")},
	}
}

// splitText is a text with one marker: prefix, marker, suffix. An open
// candidate (removed false) runs to the end of the text: its suffix is
// empty.
type splitText struct {
	name, prefix, marker, suffix string
	removed                      bool // the marker is valid and removed
	cites                        []cite
	parts                        []string
}

func (t splitText) text() string { return t.prefix + t.marker + t.suffix }

// deltas cuts the text at the byte offsets cuts, in increasing order.
func (t splitText) deltas(cuts []int) []string {
	text, from := t.text(), 0
	var ds []string
	for _, cut := range cuts {
		ds = append(ds, text[from:cut])
		from = cut
	}
	return append(ds, text[from:])
}

// want is the oracle (MARKER-STREAM-002, -004, -006) for the text cut at
// the byte offsets cuts: a rune outside the marker goes out with the delta
// that holds its last byte, the marker's runes with none, and the marker,
// when it is left an open candidate, with the final delta.
func (t splitText) want(cuts []int) []string {
	out := make([]string, len(cuts)+2)
	p, q := len(t.prefix), len(t.prefix)+len(t.marker)
	for start, r := range t.text() {
		if start < p || start >= q {
			i, _ := slices.BinarySearch(cuts, start+utf8.RuneLen(r))
			out[i] += string(r)
		}
	}
	if !t.removed {
		out[len(out)-1] = t.marker
	}
	return out
}

// vec is the vector split-<name>-<id> of t cut at the byte offsets cuts,
// streamed as text deltas or, with bytes, as base64 chunks.
func (t splitText) vec(id, desc string, rq []string, cuts []int, bytes bool) vec {
	v := vec{id: "split-" + t.name + "-" + id, desc: "Marker (" + t.name + ") " + desc, reqs: rq, tags: ids("split"),
		in: sin(t.deltas(cuts)...), out: sout(t.want(cuts), t.cites, t.parts)}
	if bytes {
		v.tags, v.in = ids("split", "bytes"), streamIn{DeltasBase64: b64(t.deltas(cuts)...), Parts: std}
	}
	return v
}

func splitTexts() []splitText {
	pre := "前😀 claim"
	return []splitText{
		{name: "with-locator", prefix: pre, marker: mk(t2, "L8-L13"), suffix: ". next", removed: true,
			cites: cites(c(t2, runes(pre)+1, "L8-L13")), parts: ids(t2)},
		{name: "empty-locator", prefix: pre, marker: mk(t3, ""), suffix: "…) x", removed: true,
			cites: cites(c(t3, runes(pre)+2, "")), parts: ids(t3)},
		{name: "pointer", prefix: pre, marker: mk(t1, "/a~1b/0"), suffix: "」x", removed: true,
			cites: cites(c(t1, runes(pre)+1, "/a~1b/0")), parts: ids(t1)},
		{name: "unterminated", prefix: pre, marker: mStart + "cite" + mDelim + t1, suffix: "",
			cites: cites(), parts: ids()},
	}
}

func streamRuneSplits() []vec {
	var vs []vec
	for _, t := range splitTexts() {
		text := t.text()
		// Cut at every rune boundary of the marker, its two ends included.
		for cut := len(t.prefix); cut <= len(t.prefix)+len(t.marker); cut++ {
			if cut < len(text) && !utf8.RuneStart(text[cut]) {
				continue
			}
			k := strconv.Itoa(runes(text[len(t.prefix):cut]))
			vs = append(vs, t.vec("at-rune-"+k, "cut "+k+" runes after its START",
				ids("MARKER-STREAM-002", "MARKER-STREAM-005"), []int{cut}, false))
		}
		var starts []int // one rune per delta
		for i := range text {
			starts = append(starts, i)
		}
		vs = append(vs, t.vec("one-rune-per-delta", "streamed one rune per delta",
			ids("MARKER-STREAM-002", "MARKER-STREAM-004", "MARKER-STREAM-005"), starts[1:], false))
	}
	return vs
}

func streamByteSplits() []vec {
	var vs []vec
	rq := ids("MARKER-STREAM-006", "MARKER-STREAM-005")
	for _, t := range splitTexts() {
		text := t.text()
		p, q := len(t.prefix), len(t.prefix)+len(t.marker)
		// Cut inside each delimiter (one or two bytes into its three) and
		// inside each multi-byte rune of the prefix and the suffix.
		for start, r := range text {
			inMarker := start >= p && start < q
			if inMarker && !strings.ContainsRune(mStart+mDelim+mStop, r) {
				continue
			}
			where := "prefix"
			switch {
			case inMarker:
				where = "delimiter"
			case start >= q:
				where = "suffix"
			}
			for cut := start + 1; cut < start+utf8.RuneLen(r); cut++ {
				vs = append(vs, t.vec("at-byte-"+strconv.Itoa(cut), "stream cut at byte "+strconv.Itoa(cut)+", inside a "+where+" rune",
					rq, []int{cut}, true))
			}
		}
		var cuts []int // one byte per chunk
		for i := 1; i < len(text); i++ {
			cuts = append(cuts, i)
		}
		vs = append(vs, t.vec("one-byte-per-chunk", "streamed one byte per chunk", rq, cuts, true))
	}
	return vs
}
