package fuzz

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/conform-suite/conform/internal/jsonv"
	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/reference"
	"github.com/conform-suite/conform/runner"
)

// t3Rules answers as T3 Code's citation functions do where the t3code
// profile records that they differ from the specification, by rule rather
// than by recorded input (the rules are the records' reasons, and
// shared/facts/quote.md), so that fuzzing meets its divergences on inputs
// no record holds:
//   - T3 refuses without reasons: a refusal of a quote op carries no code;
//   - quote.format and quote.nav_encode validate nothing: a citation the
//     specification refuses is written all the same (ids with
//     encodeURIComponent, the query with URLSearchParams, which writes a
//     lone surrogate as U+FFFD, numbers as JavaScript prints them, "v1"
//     whatever the version), and an id holding a lone surrogate throws
//     (URIError: an internal error);
//   - quote.parse reads the href with a URL parser, which strips TAB, LF
//     and CR, percent-encodes other raw characters and drops an empty
//     fragment, and its query with URLSearchParams, which reads a bare key
//     as an empty value, keeps a malformed escape as text and decodes
//     bytes that are not UTF-8 as U+FFFD.
//
// Every other answer is the reference's. With planted set, quote.parse
// also answers every citation's prefix without its leading spaces: a
// divergence no record of the profile explains.
type t3Rules struct{ planted bool }

func (t t3Rules) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	switch req.Op {
	case "quote.parse":
		if in, err := jsonv.Parse(req.Input); err == nil && in.Type == jsonv.Object && len(in.Members) == 1 {
			if href := in.Get("href"); href != nil && href.Type == jsonv.String {
				// A lone surrogate becomes U+FFFD, as the URL parser's
				// USVString sees it.
				if rewritten, ok := t3ReadHref(string(utf16.Decode(href.CodeUnits()))); ok {
					req.Input = mustJSON(map[string]string{"href": rewritten})
				}
			}
		}
	case "quote.format", "quote.nav_encode":
		resp, err := reference.InProcess{}.Call(ctx, req)
		if err != nil || resp.Output == nil {
			return resp, err
		}
		c, _ := jsonv.Parse(req.Input)
		c = c.Get("citation")
		for _, id := range []string{"environmentId", "threadId", "messageId"} {
			if jsonv.HasLoneSurrogate(c.Get(id).CodeUnits()) {
				return protocol.Response{ID: req.ID, Error: &protocol.Error{Kind: protocol.KindInternal, Message: "URIError: URI malformed"}}, nil
			}
		}
		if parseRefusal(resp.Output).key == "" {
			return resp, nil
		}
		href := t3Format(c)
		if req.Op == "quote.format" {
			resp.Output = mustJSON(map[string]string{"href": href, "link": "[Assistant quote](" + href + ")"})
		} else {
			resp.Output = mustJSON(map[string]string{"hash": "assistant-citation=" + base64.RawURLEncoding.EncodeToString([]byte(href))})
		}
		return resp, nil
	}
	resp, err := reference.InProcess{}.Call(ctx, req)
	if err != nil || resp.Output == nil || !strings.HasPrefix(req.Op, "quote.") {
		return resp, err
	}
	var out map[string]json.RawMessage
	if json.Unmarshal(resp.Output, &out) == nil {
		for _, k := range protocol.RefusalMembers {
			if _, ok := out[k]; ok {
				resp.Output = json.RawMessage(`{"` + k + `":{}}`)
				return resp, nil
			}
		}
	}
	if t.planted && req.Op == "quote.parse" {
		var o map[string]map[string]any
		if json.Unmarshal(resp.Output, &o) == nil && o["citation"] != nil {
			if p, _ := o["citation"]["prefix"].(string); strings.HasPrefix(p, " ") {
				o["citation"]["prefix"] = strings.TrimLeft(p, " ")
				resp.Output = mustJSON(o)
			}
		}
	}
	return resp, nil
}

func (t3Rules) Close() error { return nil }

// t3ReadHref is the href as T3's URL parser and URLSearchParams leave it,
// written back in the form the specification reads the same way; false
// when the scheme check, made on the raw string first, refuses it.
func t3ReadHref(href string) (string, bool) {
	if !strings.HasPrefix(href, "t3-citation://") {
		return "", false
	}
	href = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, href)
	href = strings.TrimRightFunc(href, func(r rune) bool { return r <= ' ' })
	href = strings.TrimSuffix(href, "#")
	var b strings.Builder
	for i := 0; i < len(href); i++ {
		if c := href[i]; c < 0x21 || c > 0x7e {
			fmt.Fprintf(&b, "%%%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	href = b.String()
	head, query, ok := strings.Cut(href, "?")
	if !ok {
		return href, true
	}
	query, fragment, hasFragment := strings.Cut(query, "#")
	var fields []string
	for _, field := range strings.Split(query, "&") {
		if field == "" {
			fields = append(fields, field)
			continue
		}
		key, value, _ := strings.Cut(field, "=")
		fields = append(fields, formEncode(formDecode(key))+"="+formEncode(formDecode(value)))
	}
	href = head + "?" + strings.Join(fields, "&")
	if hasFragment {
		href += "#" + fragment
	}
	return href, true
}

// formDecode decodes application/x-www-form-urlencoded text as
// URLSearchParams does: '+' is a space, a '%' not followed by two hex
// digits stays as it is, and bytes that are not UTF-8 become U+FFFD.
func formDecode(s string) string {
	var b []byte
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '+':
			b = append(b, ' ')
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			v, _ := strconv.ParseUint(s[i+1:i+3], 16, 8)
			b = append(b, byte(v))
			i += 2
		default:
			b = append(b, c)
		}
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// formEncode writes s as URLSearchParams serializes a value.
func formEncode(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ':
			b.WriteByte('+')
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '*', c == '-', c == '.', c == '_':
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// t3Format writes a citation as T3's formatter does, checking nothing.
func t3Format(c *jsonv.Value) string {
	str := func(name string) string {
		// A lone surrogate becomes U+FFFD, as the encoders of a USVString
		// see it.
		return string(utf16.Decode(c.Get(name).CodeUnits()))
	}
	var b strings.Builder
	b.WriteString("t3-citation://v1")
	for _, id := range []string{"environmentId", "threadId", "messageId"} {
		b.WriteString("/" + encodeURIComponent(str(id)))
	}
	b.WriteString("?text=" + formEncode(str("text")))
	b.WriteString("&start=" + jsNumber(c.Get("start").Num))
	b.WriteString("&end=" + jsNumber(c.Get("end").Num))
	b.WriteString("&prefix=" + formEncode(str("prefix")))
	b.WriteString("&suffix=" + formEncode(str("suffix")))
	if c.Get("comment") != nil {
		b.WriteString("&comment=" + formEncode(str("comment")))
	}
	return b.String()
}

// encodeURIComponent is JavaScript's: every byte of the UTF-8 form is
// escaped but letters, digits and -_.!~*'().
func encodeURIComponent(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', strings.IndexByte("-_.!~*'()", c) >= 0:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// jsNumber prints a JSON number literal as JavaScript's String(n) does.
func jsNumber(lit string) string {
	f, err := strconv.ParseFloat(lit, 64)
	switch {
	case err != nil && !math.IsInf(f, 0):
		return lit
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		return "0"
	case math.Abs(f) >= 1e21 || math.Abs(f) < 1e-6:
		s := strconv.FormatFloat(f, 'e', -1, 64)
		mant, exp, _ := strings.Cut(s, "e")
		if exp[0] == '+' {
			return mant + "e+" + strings.TrimLeft(exp[1:], "0")
		}
		return mant + "e-" + strings.TrimLeft(exp[1:], "0")
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// TestT3RulesUnderItsProfile fuzzes t3Rules under the t3code profile:
// every divergence the rules make on new inputs is one the profile's
// records explain (known, no finding), and the planted one, which no
// record explains, is found.
func TestT3RulesUnderItsProfile(t *testing.T) {
	known := Known(corpusOf(t), "t3code")
	run := func(impl runner.Implementation, count int, stop func(*Finding) bool) *Report {
		t.Helper()
		rep, err := Run(context.Background(), Config{Impl: impl, Ops: []string{"quote.parse", "quote.format", "quote.nav_encode"}, Seed: 1, Count: count, Known: known, ShrinkExecs: 300, ShrinkTime: 10 * time.Minute, StopWhen: stop})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	rep := run(t3Rules{}, 6000, nil)
	perOp := map[string]int{}
	for sig, n := range rep.Known {
		t.Logf("known %5d  %s", n, sig)
		op, _, _ := strings.Cut(sig, " ")
		perOp[op] += n
	}
	for _, f := range rep.Findings {
		t.Errorf("finding the profile does not explain: %s\n  input %.300s\n  expected %.200s\n  actual %.200s", f.Signature, f.Input, f.Expected, f.Actual)
	}
	for _, op := range []string{"quote.parse", "quote.format", "quote.nav_encode"} {
		if perOp[op] < 50 {
			t.Errorf("%s: the rules' divergences met %d times, want them met again and again on new inputs", op, perOp[op])
		}
	}
	// The run stops at the planted finding: the count bounds a seed whose
	// inputs reach a prefix with a leading space late.
	rep = run(t3Rules{planted: true}, 30000, func(f *Finding) bool { return f.Op == "quote.parse" })
	var sigs []string
	for _, f := range rep.Findings {
		sigs = append(sigs, f.Signature)
	}
	if len(sigs) == 0 || len(sigs) > 2 || !strings.Contains(sigs[0], "$.citation.prefix=value") {
		t.Errorf("with a planted divergence: findings %q, want the prefix's (one, two at most)", sigs)
	}
}

// limitNeeds is, for each refusal of a length limit (spec/quote-link.md's
// table of codes), the length in UTF-16 units an input needs to pass it.
var limitNeeds = map[string]int{
	"QUOTE_HREF_TOO_LONG":    160_001,
	"QUOTE_ID_TOO_LONG":      513,
	"QUOTE_TEXT_TOO_LONG":    8_001,
	"QUOTE_COMMENT_TOO_LONG": 8_001,
	"QUOTE_CONTEXT_TOO_LONG": 33,
}

// TestFindingsShrinkToWhatTheyNeed fuzzes t3Rules without its profile, so
// that every divergence of its rules is a finding, and measures what the
// shrinker left: a finding that needs no length limit is under 1 KB, and
// one that needs a limit is at most twice the size the limit needs (its
// length in units, plus 256 bytes for the rest of the input), where ddmin
// alone, before strings were cut by halves, left them at up to 3.6 times.
func TestFindingsShrinkToWhatTheyNeed(t *testing.T) {
	rep, err := Run(context.Background(), Config{Impl: t3Rules{}, Ops: []string{"quote.parse", "quote.format", "quote.nav_encode"}, Seed: 1, Count: 3000, ShrinkExecs: 300, ShrinkTime: 10 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	under := 0
	for _, f := range rep.Findings {
		need := limitNeeds[strings.TrimPrefix(outputRefusal(f.Expected), "rejected:")]
		t.Logf("%6d bytes (from %6d; limit needs %5d units) %s", len(f.Input), len(f.Original), need, f.Signature)
		if len(f.Input) < 1024 {
			under++
		}
		switch {
		case need == 0 && len(f.Input) >= 1024:
			t.Errorf("%s: %d bytes, want under 1 KB: %.300s", f.Signature, len(f.Input), f.Input)
		case need > 0 && len(f.Input) > 2*(need+256):
			t.Errorf("%s: %d bytes, over twice what its limit needs (%d units)", f.Signature, len(f.Input), need)
		}
	}
	if len(rep.Findings) < 10 {
		t.Fatalf("%d findings, want the rules' divergences found", len(rep.Findings))
	}
	t.Logf("%d of %d findings under 1 KB", under, len(rep.Findings))
}
