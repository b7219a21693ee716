package fuzz

import (
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"strings"
	"unicode/utf16"

	"github.com/conform-suite/conform/internal/jsonv"
)

// Generators of the marker suite: model output with valid and broken
// citation markers, the data parts they cite, and the same output cut into
// stream deltas anywhere, inside markers included.

func init() {
	inputGens["marker.strip"] = func(r *rand.Rand) *jsonv.Value {
		ids, parts := genParts(r)
		return jobj("text", jstr(genAnswer(r, ids)), "parts", parts)
	}
	inputGens["marker.artifact"] = func(r *rand.Rand) *jsonv.Value {
		ids, parts := genParts(r)
		// The same parts as the seed shapes them, sometimes with members
		// the artifact carries unchanged.
		shaped := jarr()
		for i := range parts.Elems {
			var tool, kind *jsonv.Value
			if r.IntN(2) == 0 {
				tool = jstr(pickOne(r, []string{"pubmed_search", "medical_coding"}))
			}
			if r.IntN(4) == 0 {
				kind = jstr("data")
			}
			meta := jobj("dataPartId", jstr(ids[i]), "toolName", tool)
			shaped.Elems = append(shaped.Elems, *jobj("kind", kind, "data", jobj("value", parts.Elems[i].Get("value")), "metadata", meta))
		}
		return jobj("text", jstr(genAnswer(r, ids)), "parts", shaped)
	}
	inputGens["marker.stream"] = func(r *rand.Rand) *jsonv.Value {
		ids, parts := genParts(r)
		text := genAnswer(r, ids)
		if r.IntN(4) == 0 {
			return jobj("deltas_base64", splitBytes(r, text), "parts", parts)
		}
		return jobj("deltas", splitDeltas(r, text), "parts", parts)
	}
	inputGens["marker.locate"] = func(r *rand.Rand) *jsonv.Value {
		value := jobj("results", jarr(jobj("findings", jstr(genProse(r, 4)))), "a/b", jint(1), "m~n", jint(8), "", jint(0), "lines", jstr("one\ntwo\r\nthree\n"))
		if r.IntN(3) == 0 {
			value = jstr(genLines(r))
		}
		var id *jsonv.Value
		if r.IntN(3) == 0 { // the client's guard (MARKER-LOCATE-011), and ids that only look like it
			id = jstr(pickOne(r, []string{"tool_data_01", "userdata_1", "user_dat_1", genUserID(r)}))
		}
		return jobj("value", value, "locator", jstr(genLocator(r)), "data_part_id", id)
	}
}

// genLocator returns a JSON Pointer or a line range, valid or nearly so:
// line numbers and array indexes spelt as the parse classes' alphabets
// spell them, and digits of other scripts.
func genLocator(r *rand.Rand) string {
	switch r.IntN(4) {
	case 0:
		l := "L" + draw(r, "marker.line-number")
		if r.IntN(2) == 0 {
			l += "-L" + pickOne(r, []string{"3", draw(r, "marker.line-number")})
		}
		return l
	case 1:
		return pickOne(r, []string{"L", "L1-L"}) + genDigits(r, "marker.digit")
	case 2:
		return "/results/" + draw(r, "marker.index") + pickOne(r, []string{"", "/findings"})
	}
	return pickOne(r, []string{"", "/", "/results/0/findings", "/results/00", "/results/01", "/results/-", "/results/1", "/results/+0", "/a~1b", "/m~0n", "/m~2n", "/~", "#/a~1b", "a",
		"L1", "L0", "L2-L3", "L3-L2", "L1-L99", "L01", "l1", "L1-", "L1-L", "L99999999999999999999", "/lines"})
}

// genDigits returns a short number whose digits are ASCII, now and then
// one of the digit class's alphabet.
func genDigits(r *rand.Rand, class string) string {
	var b strings.Builder
	for i := range 1 + r.IntN(3) {
		if i == 0 || r.IntN(2) == 0 {
			b.WriteString(draw(r, class))
		} else {
			b.WriteByte(byte('0' + r.IntN(10)))
		}
	}
	return b.String()
}

// genLines returns a string of lines for marker.locate's value: short
// lines joined by the line class's terminators and near misses, perhaps
// one of its probe strings whole.
func genLines(r *rand.Rand) string {
	if r.IntN(4) == 0 {
		return pickOne(r, []string{"l1\nl2\nl3", "", "\n", "a\r\nb", draw(r, "marker.line")})
	}
	var b strings.Builder
	for i := range 1 + r.IntN(4) {
		if i > 0 {
			b.WriteString(pickOne(r, []string{"\n", "\r\n", draw(r, "marker.line")}))
		}
		b.WriteString(pickOne(r, []string{"one", "two", "", genWord(r)}))
	}
	return b.String()
}

// genUserID returns a data part id of the user-origin kind (MARKER-STRIP-004),
// in another ASCII case now and then, or with a letter that folds to one of
// its letters.
func genUserID(r *rand.Rand) string {
	id := pickOne(r, []string{"user_data_", "user_text_"}) + pickOne(r, []string{"1", "2", "", "x"})
	switch r.IntN(4) {
	case 0:
		k := 1 + r.IntN(len(id))
		return strings.ToUpper(id[:k]) + id[k:]
	case 1:
		return foldInto(r, "marker.user-origin", id)
	}
	return id
}

// splitBytes cuts the UTF-8 bytes of text anywhere, inside a character
// included, and encodes each chunk in standard base64.
func splitBytes(r *rand.Rand, text string) *jsonv.Value {
	b := []byte(text)
	out := jarr()
	for len(b) > 0 {
		n := 1 + r.IntN(min(len(b), pickOne(r, []int{1, 2, 3, 5, 16})))
		out.Elems = append(out.Elems, *jstr(base64.StdEncoding.EncodeToString(b[:n])))
		b = b[n:]
	}
	if r.IntN(10) == 0 {
		out.Elems = append(out.Elems, *jstr(pickOne(r, []string{"7g==", "gA==", "!", ""})))
	}
	return out
}

const (
	mStart = "\ue200"
	mStop  = "\ue201"
	mDelim = "\ue202"
)

// genParts returns the data parts of an answer: connector parts, sometimes
// user-origin ones, with small JSON values a locator can point into.
func genParts(r *rand.Rand) ([]string, *jsonv.Value) {
	var ids []string
	parts := jarr()
	for i := range r.IntN(4) {
		id := pickOne(r, []string{fmt.Sprintf("tool_data_%02d", i+1), fmt.Sprintf("turn0search%d", i), fmt.Sprintf("user_data_%d", i), fmt.Sprintf("user_text_%d", i), "a/b", "é", genUserID(r)})
		ids = append(ids, id)
		data := jobj("results", jarr(jobj("findings", jstr(genProse(r, 4)), "n", jint(int64(r.IntN(9))))), "a/b", jint(1), "m~n", jint(8), "", jint(0))
		parts.Elems = append(parts.Elems, *jobj("id", jstr(id), "value", data))
	}
	return ids, parts
}

// genMarker returns one marker: valid most of the time, otherwise one of
// the grammar's near misses.
func genMarker(r *rand.Rand, ids []string) string {
	id := "tool_data_09"
	if len(ids) > 0 && r.IntN(5) != 0 {
		id = pickOne(r, ids)
	}
	loc := ""
	if r.IntN(3) != 0 {
		loc = genLocator(r)
	}
	var m string
	if loc == "" && r.IntN(2) == 0 {
		m = mStart + "cite" + mDelim + id + mStop
	} else {
		m = mStart + "cite" + mDelim + id + mDelim + loc + mStop
	}
	if r.IntN(4) != 0 {
		return m
	}
	switch r.IntN(9) {
	case 0:
		return mStart + "cite" + mDelim + id // unterminated
	case 1:
		return mStart + "filecite" + mDelim + id + mStop
	case 2:
		return mStart + "cite" + mDelim + mStop
	case 3:
		return mStart + "cite" + mDelim + "bad id" + m // garbage start swallowing a valid marker
	case 4:
		return mStart + "cite" + mDelim + id + mDelim + "a" + mDelim + "b" + mStop
	case 5:
		return pickOne(r, []string{mStop, mDelim, mStart})
	case 6:
		return `\ue200cite\ue202` + id + `\ue201`
	case 7:
		return mStart + "cite" + mDelim + id + mDelim + strings.Repeat("x", pickOne(r, []int{4095, 4096, 4097})) + mStop
	default:
		return mStart + "Cite" + mDelim + id + mStop
	}
}

// genAnswer returns model output: mostly prose with markers, and now and
// then an answer that only cites user-origin ids among white space, which
// the server retries (MARKER-STRIP-010), or nearly so.
func genAnswer(r *rand.Rand, ids []string) string {
	if r.IntN(6) != 0 {
		return genMarkedText(r, ids)
	}
	var b strings.Builder
	for range 1 + r.IntN(3) {
		b.WriteString(pickOne(r, []string{"", " ", "\n", draw(r, "marker.space"), draw(r, "marker.space") + draw(r, "marker.space")}))
		id := pickOne(r, []string{"user_data_1", "USER_TEXT_2", "user_data_", "tool_data_09", genUserID(r)})
		b.WriteString(mStart + "cite" + mDelim + id + pickOne(r, []string{"", mDelim, mDelim + "L1"}) + mStop)
	}
	return b.String()
}

// genMarkedText returns prose with markers placed before and after
// punctuation (of every Unicode version's tables, sometimes), at the ends,
// and after astral characters.
func genMarkedText(r *rand.Rand, ids []string) string {
	var b strings.Builder
	for range 1 + r.IntN(6) {
		switch r.IntN(5) {
		case 0:
			b.WriteString(genMarker(r, ids))
			if r.IntN(3) == 0 { // the snap set, by the pinned tables and their edge
				b.WriteRune(genPunctRune(r))
			}
			b.WriteString(pickOne(r, []string{".", ",", ".)", "!?", "。", "…", " ", "\n", ""}))
		case 1:
			b.WriteString(pickOne(r, []string{"😀", "引", "e\u0301"}))
			b.WriteString(genMarker(r, ids))
		default:
			b.WriteString(genProse(r, 6))
			b.WriteString(pickOne(r, []string{". ", ".", " ", ""}))
			b.WriteString(genMarker(r, ids))
		}
	}
	return b.String()
}

// splitDeltas cuts text into deltas at random code points, rarely between
// the two halves of a surrogate pair, and sometimes adds empty deltas.
func splitDeltas(r *rand.Rand, text string) *jsonv.Value {
	u := jsonv.UnitsOf(text)
	out := jarr()
	for len(u) > 0 {
		n := 1 + r.IntN(min(len(u), pickOne(r, []int{1, 2, 4, 16, 64})))
		if n < len(u) && utf16.IsSurrogate(rune(u[n])) && u[n] >= 0xdc00 && r.IntN(20) != 0 {
			n++ // keep the pair together
		}
		out.Elems = append(out.Elems, *junits(append([]uint16(nil), u[:n]...)))
		u = u[n:]
		if r.IntN(10) == 0 {
			out.Elems = append(out.Elems, *jstr(""))
		}
	}
	return out
}
