package fuzz

import (
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/conform-suite/conform/internal/jsonv"
)

// Generators of the quote suite: citations, their hrefs and links, prompts
// holding links, rendered text with selections, and navigation locations.

func init() {
	inputGens["quote.format"] = func(r *rand.Rand) *jsonv.Value { return jobj("citation", citationValue(r, genCitation(r))) }
	inputGens["quote.parse"] = func(r *rand.Rand) *jsonv.Value { return jobj("href", jstr(genHref(r))) }
	inputGens["quote.collect"] = func(r *rand.Rand) *jsonv.Value { return jobj("text", jstr(genPrompt(r))) }
	inputGens["quote.normalize"] = func(r *rand.Rand) *jsonv.Value { return jobj("text", jstr(genProse(r, 12))) }
	inputGens["quote.select"] = genSelect
	inputGens["quote.resolve"] = genResolve
	inputGens["quote.comment"] = func(r *rand.Rand) *jsonv.Value {
		return jobj("citation", citationValue(r, genCitation(r)), "comment", jstr(pickOne(r, []string{"", " ", genProse(r, 4), " " + genWord(r) + "\n", genWild(r, 8)})))
	}
	for _, op := range []string{"quote.expand", "quote.plaintext", "quote.markdown"} {
		inputGens[op] = func(r *rand.Rand) *jsonv.Value { return jobj("prompt", jstr(genPrompt(r))) }
	}
	inputGens["quote.submit_check"] = func(r *rand.Rand) *jsonv.Value {
		return jobj("prompt", jstr(genLimitPrompt(r)), "target", jstr(pickOne(r, []string{"provider-turn", "pending-user-input"})))
	}
	inputGens["quote.send_turn"] = func(r *rand.Rand) *jsonv.Value {
		switch r.IntN(3) {
		case 0:
			return jobj("input", jstr(genLimitPrompt(r)), "target", jstr(pickOne(r, []string{"provider-turn", "pending-user-input"})))
		case 1:
			return jobj("input", jstr(genPrompt(r)), "target", jstr("pending-user-input"))
		}
		return jobj("input", jstr(genLimitPrompt(r)))
	}
	inputGens["quote.nav_history"] = genNavHistory
	inputGens["quote.dom_text"] = func(r *rand.Rand) *jsonv.Value { return jobj("html", jstr(genHTML(r, 3))) }
	inputGens["quote.nav_encode"] = inputGens["quote.format"]
	inputGens["quote.nav_decode"] = func(r *rand.Rand) *jsonv.Value { return jobj("location", jstr(genLocation(r))) }
}

// genCit is the protocol's citation object.
type genCit struct {
	env, thread, message string
	text, prefix, suffix string
	comment              *string
	start, end           int64
}

func genCitation(r *rand.Rand) genCit {
	id := func() string {
		switch r.IntN(10) {
		case 0:
			return genWord(r) + "/" + genWord(r)
		case 1:
			return genSized(r, pickOne(r, []int{511, 512, 513}))
		case 2:
			return genWild(r, 6)
		case 3:
			return pickOne(r, []string{".", "..", " a ", "a%2Fb", "x:y", "q?x"})
		default:
			return fmt.Sprintf("%s-%d", pickOne(r, []string{"env", "thread", "msg"}), r.IntN(100))
		}
	}
	c := genCit{env: id(), thread: id(), message: id()}
	c.text = genProse(r, 10)
	if r.IntN(24) == 0 {
		c.text = genSized(r, pickOne(r, []int{7999, 8000, 8001}))
	}
	ctx := func() string {
		if r.IntN(6) == 0 {
			return genSized(r, pickOne(r, []int{31, 32, 33}))
		}
		s := genProse(r, 4)
		if u := []rune(s); len(u) > 30 {
			s = string(u[:30])
		}
		return s
	}
	c.prefix, c.suffix = ctx(), ctx()
	c.start = int64(r.IntN(1000))
	c.end = c.start + int64(units16(c.text))
	if r.IntN(10) == 0 {
		p := pickOne(r, [][2]int64{{0, 0}, {5, 4}, {9007199254740990, 9007199254740991}, {0, 9007199254740992}})
		c.start, c.end = p[0], p[1]
	}
	if r.IntN(3) == 0 {
		cm := pickOne(r, []string{"", " ", genProse(r, 5), "\t" + genWord(r) + " "})
		if r.IntN(12) == 0 {
			cm = genSized(r, pickOne(r, []int{7999, 8000, 8001}))
		}
		c.comment = &cm
	}
	return c
}

func citationValue(r *rand.Rand, c genCit) *jsonv.Value {
	var comment *jsonv.Value
	if c.comment != nil {
		comment = jstr(*c.comment)
	}
	start, end := jint(c.start), jint(c.end)
	if r.IntN(20) == 0 {
		start = jlit(pickOne(r, []string{"-1", "1.5", "9007199254740992", "1e3"}))
	}
	return jobj("version", jint(1), "environmentId", jstr(c.env), "threadId", jstr(c.thread), "messageId", jstr(c.message),
		"text", jstr(c.text), "comment", comment, "start", start, "end", end, "prefix", jstr(c.prefix), "suffix", jstr(c.suffix))
}

// percentEscape percent-encodes every byte of s that is not in safe.
func percentEscape(s, safe string) string {
	const upperHex = "0123456789ABCDEF"
	b := make([]byte, 0, len(s)*3)
	for i := 0; i < len(s); i++ {
		if c := s[i]; strings.IndexByte(safe, c) >= 0 {
			b = append(b, c)
		} else {
			b = append(b, '%', upperHex[c>>4], upperHex[c&15])
		}
	}
	return string(b)
}

// hrefPathEscape percent-encodes every byte except A-Z a-z 0-9 - _ . ~.
func hrefPathEscape(s string) string {
	return percentEscape(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~")
}

// hrefFormEscape encodes a query value as application/x-www-form-urlencoded:
// every byte but A-Z a-z 0-9 - _ . * percent-encoded, and a space as '+'.
func hrefFormEscape(s string) string {
	return strings.ReplaceAll(percentEscape(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.* "), " ", "+")
}

type queryField struct{ key, val string }

func hrefOf(c genCit) (string, []queryField) {
	fields := []queryField{
		{"text", hrefFormEscape(c.text)},
		{"start", strconv.FormatInt(c.start, 10)},
		{"end", strconv.FormatInt(c.end, 10)},
		{"prefix", hrefFormEscape(c.prefix)},
		{"suffix", hrefFormEscape(c.suffix)},
	}
	if c.comment != nil {
		fields = append(fields, queryField{"comment", hrefFormEscape(*c.comment)})
	}
	return "t3-citation://v1/" + hrefPathEscape(c.env) + "/" + hrefPathEscape(c.thread) + "/" + hrefPathEscape(c.message), fields
}

func joinHref(base string, fields []queryField) string {
	var b strings.Builder
	b.WriteString(base)
	for i, f := range fields {
		if i == 0 {
			b.WriteByte('?')
		} else {
			b.WriteByte('&')
		}
		b.WriteString(f.key)
		if f.val != "\x00bare" {
			b.WriteByte('=')
			b.WriteString(f.val)
		}
	}
	return b.String()
}

// genHref returns a citation href, valid about half of the time; the rest
// carry one of the faults a strict parser refuses or that tempts a lax one.
func genHref(r *rand.Rand) string {
	c := genCitation(r)
	base, fields := hrefOf(c)
	if r.IntN(2) == 0 {
		return joinHref(base, fields)
	}
	switch r.IntN(16) {
	case 0: // a duplicate field, plain or with a percent-encoded key
		f := pickOne(r, fields)
		key := pickOne(r, []string{f.key, "%" + fmt.Sprintf("%02X", f.key[0]) + f.key[1:], strings.ToLower(fmt.Sprintf("%%%02x", f.key[0])) + f.key[1:]})
		fields = append(fields, queryField{key, pickOne(r, []string{f.val, "x", ""})})
	case 1: // a duplicate comment
		fields = append(fields, queryField{"comment", "one"}, queryField{pickOne(r, []string{"comment", "%63omment"}), "two"})
	case 2: // an unknown, bare or case-changed key
		fields = append(fields, queryField{pickOne(r, []string{"foo", "Comment", "TEXT", "text ", ""}), pickOne(r, []string{"1", "\x00bare"})})
	case 3: // a missing field
		i := r.IntN(len(fields))
		fields = append(fields[:i:i], fields[i+1:]...)
	case 4: // reordered fields
		r.Shuffle(len(fields), func(i, j int) { fields[i], fields[j] = fields[j], fields[i] })
	case 5: // malformed percent-encoding in a value or an id
		i := r.IntN(len(fields))
		fields[i].val += pickOne(r, []string{"%", "%Z", "%ZZ", "%ED%A0%80", "%C3", "%e9"})
	case 6:
		base = strings.Replace(base, "/v1/", pickOne(r, []string{"/v1/x/../", "/v1/./", "/v1/%2e%2e/", "/v1/%2E/"}), 1)
	case 7: // offsets spelt as a number parser reads them, or with a digit of another script
		i := pickOne(r, []int{1, 2})
		switch r.IntN(3) {
		case 0:
			fields[i].val = hrefFormEscape(genDigits(r, "quote.digit"))
		default:
			fields[i].val = hrefFormEscape(draw(r, "quote.offset"))
		}
	case 8: // a fragment, port, credentials or trailing slash
		switch r.IntN(4) {
		case 0:
			return joinHref(base, fields) + pickOne(r, []string{"#", "#x", "#%20"})
		case 1:
			base = strings.Replace(base, "//v1/", pickOne(r, []string{"//v1:80/", "//u:p@v1/", "//@v1/"}), 1)
		case 2:
			base += "/"
		case 3:
			base = strings.Replace(base, "/v1/", "/v1//", 1)
		}
	case 9: // the scheme, host or label changed
		base = strings.Replace(base, pickOne(r, []string{"t3-citation", "v1"}), pickOne(r, []string{"T3-citation", "v2", "V1", "t3-citation:"}), 1)
	case 10: // white space and controls the WHATWG parser strips
		h := joinHref(base, fields)
		i := r.IntN(len(h) + 1)
		return h[:i] + pickOne(r, []string{"\t", "\n", "\r", " ", "\x00", "\x7f", drawSpace(r)}) + h[i:]
	case 11: // a value at a boundary length in each unit
		i := pickOne(r, []int{0, 3, 4})
		fields[i].val = hrefFormEscape(genSized(r, pickOne(r, boundaryLens)))
	case 12: // the whole href at the 160,000-unit limit
		h := joinHref(base, fields)
		n := pickOne(r, []int{160000, 160001}) - len(h)
		if n > 0 {
			fields[0].val += strings.Repeat("a", n)
		}
	case 13: // raw characters a formatter would have escaped
		fields[0].val = pickOne(r, []string{"a b", "a+b", "a%20b", "é", "😀", "a&b", "a=b", ";", "%2B"})
	case 14: // an id with raw or escaped separators
		base = "t3-citation://v1/" + pickOne(r, []string{"a%2Fb", "a/b", "a b", "%20a%20", "%", "\\", "é"}) + "/t/m"
	case 15: // empty and white-space-only values, or a value with white space of a class at its ends
		i := pickOne(r, []int{0, 3, 4, 5})
		if i == len(fields) {
			fields = append(fields, queryField{"comment", ""})
		}
		fields[i].val = hrefFormEscape(pickOne(r, []string{"", drawSpace(r), drawSpace(r) + genWord(r) + drawSpace(r)}))
	}
	return joinHref(base, fields)
}

func genLink(r *rand.Rand) string {
	h := genHref(r)
	switch r.IntN(10) {
	case 0:
		return "[assistant quote](" + h + ")"
	case 1:
		return "![Assistant quote](" + h + ")"
	case 2:
		return "[Assistant quote](" + h + " \"title\")"
	case 3:
		return "[Assistant quote](<" + h + ">)"
	case 4:
		return "[Assistant quote](" + h // unterminated
	default:
		return "[Assistant quote](" + h + ")"
	}
}

// genPrompt returns prose with links in it, some repeated byte for byte.
func genPrompt(r *rand.Rand) string {
	var parts []string
	var links []string
	for range 1 + r.IntN(5) {
		if r.IntN(3) == 0 {
			parts = append(parts, genProse(r, 8))
			continue
		}
		if len(links) > 0 && r.IntN(3) == 0 {
			parts = append(parts, pickOne(r, links))
			continue
		}
		l := genLink(r)
		if r.IntN(8) == 0 {
			l += pickOne(r, []string{"<", ">", "&", "</assistant_citations>", "]]>", "$&", "\\"})
		}
		links = append(links, l)
		parts = append(parts, l)
	}
	return strings.Join(parts, pickOne(r, []string{"", " ", "\n", "\n\n", ")", "("}))
}

// genSelect returns rendered text and raw offsets into it: whitespace runs,
// astral characters near the context edges, and offsets inside pairs, at
// the ends, reversed and out of range.
func genSelect(r *rand.Rand) *jsonv.Value {
	text := genProse(r, 30)
	if r.IntN(3) == 0 {
		text = genSized(r, 40) + " " + genProse(r, 6) + " " + genSized(r, 40)
	}
	n := units16(text)
	off := func() int64 {
		switch r.IntN(8) {
		case 0:
			return 0
		case 1:
			return int64(n)
		case 2:
			return int64(n + 1 + r.IntN(3))
		case 3:
			return -1
		default:
			return int64(r.IntN(n + 1))
		}
	}
	s, e := off(), off()
	if r.IntN(4) == 0 {
		// A selection as the user made it: anchor and focus, either way round.
		return jobj("text", jstr(text), "anchor", jint(s), "focus", jint(e))
	}
	if s > e && r.IntN(4) != 0 {
		s, e = e, s
	}
	if r.IntN(3) == 0 {
		// A stream with inserted line feeds, and a range that may end just
		// past one, as a triple click leaves it.
		text, breaks := genBlockStream(r)
		n := units16(text)
		s, e = int64(r.IntN(n+1)), int64(r.IntN(n+1))
		if s > e {
			s, e = e, s
		}
		if len(breaks) > 0 && r.IntN(2) == 0 {
			e = int64(pickOne(r, breaks)) + 1
		}
		bs := make([]*jsonv.Value, len(breaks))
		for i, b := range breaks {
			bs[i] = jint(int64(b))
		}
		return jobj("text", jstr(text), "start", jint(s), "end", jint(e), "breaks", jarr(bs...))
	}
	return jobj("text", jstr(text), "start", jint(s), "end", jint(e))
}

// genBlockStream returns a rendered-text stream of a few blocks and the
// offsets of the line feeds inserted between them; a block may hold line
// feeds of its own, as a code block does.
func genBlockStream(r *rand.Rand) (string, []int) {
	var b strings.Builder
	var breaks []int
	for i := range 1 + r.IntN(4) {
		if i > 0 {
			breaks = append(breaks, units16(b.String()))
			b.WriteByte('\n')
		}
		b.WriteString(genProse(r, 1+r.IntN(6)))
		if r.IntN(4) == 0 {
			b.WriteString("\n  " + genWord(r))
		}
	}
	return b.String(), breaks
}

// htmlBlocks, htmlInline and htmlExcluded are the elements genHTML nests
// besides those of the quote.elements alphabet: block boundaries, inline
// elements, and subtrees the stream leaves out, with the attributes that
// hide one.
var (
	htmlBlocks   = []string{"p", "div", "li", "ul", "pre", "blockquote", "h2", "td", "tr", "table", "section"}
	htmlInline   = []string{"span", "code", "a href=\"https://example.com/x\"", "em", "strong", "math"}
	htmlExcluded = []string{"button", "script", "style", "template", "noscript", "svg", "textarea", "select",
		"span hidden", "div aria-hidden=\"true\"", "span role=\"button\"", "p contenteditable", "span aria-hidden=\"false\""}
)

// genHTML returns the markup of a response: text, character references,
// <br>, <hr>, comments and nested blocks, inline and excluded elements,
// sometimes with end tags left out.
func genHTML(r *rand.Rand, depth int) string {
	var b strings.Builder
	for range 1 + r.IntN(4) {
		switch k := r.IntN(10); {
		case k < 3 || depth == 0:
			b.WriteString(pickOne(r, []string{genProse(r, 3), genWord(r), " ", "\n", "a &amp; b", "&nbsp;", "&#x1F600;", "\r\n", genWild(r, 4)}))
		case k == 3:
			b.WriteString(pickOne(r, []string{"<br>", "<hr>", "<br/>", "<!-- c -->", "<input value=\"v\">", "<" + draw(r, "quote.elements") + ">"}))
		default:
			tag := pickOne(r, [][]string{htmlBlocks, htmlInline, htmlExcluded, {draw(r, "quote.elements")}}[r.IntN(4)])
			name, _, _ := strings.Cut(tag, " ")
			b.WriteString("<" + tag + ">" + genHTML(r, depth-1))
			if r.IntN(6) != 0 {
				b.WriteString("</" + name + ">")
			}
		}
	}
	return b.String()
}

// genNavHistory returns a history of page cursors, sometimes repeating one,
// around the 20-page bound, and perhaps the page holding the source.
func genNavHistory(r *rand.Rand) *jsonv.Value {
	n := pickOne(r, []int{0, 1, 3, 19, 20, 21, 25, r.IntN(40)})
	cursors := make([]*jsonv.Value, n)
	for i := range cursors {
		c := "c" + strconv.Itoa(i)
		if i > 0 && r.IntN(12) == 0 {
			c = "c" + strconv.Itoa(r.IntN(i)) // a cursor handed out again
		}
		if r.IntN(20) == 0 {
			c = genWild(r, 3)
		}
		cursors[i] = jstr(c)
	}
	if r.IntN(4) == 0 {
		return jobj("cursors", jarr(cursors...))
	}
	return jobj("cursors", jarr(cursors...), "source_page", jint(int64(pickOne(r, []int{0, 1, 19, 20, 21, r.IntN(n + 2)}))))
}

// genResolve returns a text and a selector taken from it, then perhaps
// moved, ambiguous, stale or missing.
func genResolve(r *rand.Rand) *jsonv.Value {
	text := genProse(r, 25)
	u := []rune(text)
	i := r.IntN(len(u))
	j := i + 1 + r.IntN(min(12, len(u)-i))
	quote := string(u[i:j])
	prefix := string(u[max(0, i-1-r.IntN(8)):i])
	suffix := string(u[j:min(len(u), j+r.IntN(8))])
	start := int64(units16(string(u[:i])))
	end := start + int64(units16(quote))
	switch r.IntN(6) {
	case 0:
		text = text + " " + prefix + quote + suffix // a second context-matching occurrence
	case 1:
		text = genProse(r, 3) + " " + text // moved
	case 2:
		p := pickOne(r, [][2]int64{{-1, 2}, {5, 3}, {0, 9007199254740992}, {1, 1}})
		start, end = p[0], p[1]
	case 3:
		quote = pickOne(r, []string{"", " ", "\n\t", quote + "zz"})
	case 4:
		prefix = strings.ToUpper(prefix)
	}
	return jobj("text", jstr(text), "selector", jobj("text", jstr(quote), "start", jint(start), "end", jint(end), "prefix", jstr(prefix), "suffix", jstr(suffix)))
}

// genLocation returns a navigation location holding a base64url-encoded
// href, with the encodings' near misses.
func genLocation(r *rand.Rand) string {
	enc := base64.RawURLEncoding.EncodeToString([]byte(genHref(r)))
	switch r.IntN(8) {
	case 0:
		enc = base64.URLEncoding.EncodeToString([]byte(genHref(r)))
	case 1:
		enc = base64.StdEncoding.EncodeToString([]byte(genHref(r)))
	case 2:
		if len(enc) > 1 {
			i := r.IntN(len(enc))
			enc = enc[:i] + pickOne(r, []string{"\n", "\r\n", "=", "*", " "}) + enc[i:]
		}
	case 3:
		enc += pickOne(r, []string{"A", "==", "==="})
	}
	prefix := pickOne(r, []string{"/env/thread#", "https://app.example/e/t#", "#", "/e/t#x#", "/e/t"})
	key := "assistant-citation="
	if r.IntN(10) == 0 {
		key = pickOne(r, []string{"Assistant-citation=", "assistant-citation", "assistant_citation="})
	}
	return prefix + key + enc
}

// genLimitPrompt returns a prompt with links, a third of the time padded to
// within a few units of the 120,000-unit provider input limit, before or
// after the links are expanded.
func genLimitPrompt(r *rand.Rand) string {
	p := genPrompt(r)
	if r.IntN(3) != 0 {
		return p
	}
	target := 120000 + r.IntN(5) - 2
	if r.IntN(2) == 0 {
		target -= 200 + r.IntN(600) // leave room that expansion may overrun
	}
	if n := target - units16(p); n > 0 {
		pad := genSized(r, n)
		if r.IntN(2) == 0 {
			return pad + p
		}
		return p + pad
	}
	return p
}
