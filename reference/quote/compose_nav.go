package quote

import (
	"strings"
)

// Source navigation (spec/quote-compose.md, "Navigation"): a citation
// travels to its source thread in the location's fragment, as
// "assistant-citation=" and the unpadded base64url of its href.

// Navigation hash constants. MaxNavHashLength counts UTF-16 code units of
// the whole fragment (after '#'), NavPrefix included.
const (
	NavPrefix        = "assistant-citation="
	MaxNavHashLength = 140_000
)

// Rejection codes of navigation decoding (spec/quote-compose.md,
// "Rejection codes"). A decoded href that does not parse is refused with
// the parser's code.
const (
	CodeNavNoFragment Code = "QUOTE_NAV_NO_FRAGMENT"
	CodeNavPrefix     Code = "QUOTE_NAV_PREFIX"
	CodeNavTooLong    Code = "QUOTE_NAV_TOO_LONG"
	CodeNavBase64     Code = "QUOTE_NAV_BASE64"
)

// NavHash returns the navigation fragment of c, without the '#':
// NavPrefix followed by the unpadded base64url encoding of FormatHref(c).
// It refuses what FormatHref refuses. The fragment of a valid citation whose
// href is over 104,985 units exceeds MaxNavHashLength; it is still returned,
// and FromLocation refuses it.
func NavHash(c Citation) (string, error) {
	href, err := FormatHref(c)
	if err != nil {
		return "", err
	}
	return navHashOf(href), nil
}

const base64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

// base64URLValue maps a byte to its value in base64URL, or to -1.
var base64URLValue = func() (t [256]int8) {
	for i := range t {
		t[i] = int8(strings.IndexByte(base64URL, byte(i)))
	}
	return t
}()

// navHashOf encodes an href (ASCII) as a navigation fragment.
func navHashOf(href string) string {
	var b strings.Builder
	b.Grow(len(NavPrefix) + (len(href)*4+2)/3)
	b.WriteString(NavPrefix)
	s := href
	for ; len(s) >= 3; s = s[3:] {
		v := uint(s[0])<<16 | uint(s[1])<<8 | uint(s[2])
		b.WriteByte(base64URL[v>>18&63])
		b.WriteByte(base64URL[v>>12&63])
		b.WriteByte(base64URL[v>>6&63])
		b.WriteByte(base64URL[v&63])
	}
	switch len(s) {
	case 2:
		v := uint(s[0])<<16 | uint(s[1])<<8
		b.WriteByte(base64URL[v>>18&63])
		b.WriteByte(base64URL[v>>12&63])
		b.WriteByte(base64URL[v>>6&63])
	case 1:
		v := uint(s[0]) << 16
		b.WriteByte(base64URL[v>>18&63])
		b.WriteByte(base64URL[v>>12&63])
	}
	return b.String()
}

// FromLocation returns the citation carried by a location (a URL or just
// its fragment): the text after the first '#' must begin with NavPrefix, be
// at most MaxNavHashLength units, and continue with base64url (padding
// optional but, when present, complete) that decodes to an href the parser
// accepts. It returns an *[Error] with the code of the first failing check.
func FromLocation(location string) (Citation, error) {
	_, hash, ok := strings.Cut(location, "#")
	if !ok {
		return Citation{}, fail(CodeNavNoFragment, "")
	}
	payload, ok := strings.CutPrefix(hash, NavPrefix)
	switch {
	case !ok:
		return Citation{}, fail(CodeNavPrefix, "")
	case len(hash) > MaxNavHashLength && UTF16Len(hash) > MaxNavHashLength:
		return Citation{}, fail(CodeNavTooLong, "")
	}
	href, ok := decodeBase64URL(payload)
	if !ok {
		return Citation{}, fail(CodeNavBase64, "")
	}
	c, err := parse(href)
	if err != nil {
		return Citation{}, err
	}
	return c, nil
}

// decodeBase64URL decodes base64url (RFC 4648 section 5): the alphabet
// A-Z a-z 0-9 - _, then either no padding or exactly the '=' signs that
// complete the last group of four. A length that leaves one character over
// is refused; unused low bits of the last character are ignored.
func decodeBase64URL(s string) (string, bool) {
	if strings.HasSuffix(s, "=") {
		if len(s)%4 != 0 {
			return "", false
		}
		// With the length a multiple of 4, one or two '=' leave exactly
		// the 3 or 2 characters of a short last group; a third '=' fails
		// the alphabet below.
		s = strings.TrimSuffix(s, "=")
		s = strings.TrimSuffix(s, "=")
	}
	if len(s)%4 == 1 {
		return "", false
	}
	out := make([]byte, 0, len(s)*3/4)
	var acc uint
	var bits uint
	for i := 0; i < len(s); i++ {
		v := base64URLValue[s[i]]
		if v < 0 {
			return "", false
		}
		acc = acc<<6 | uint(v)
		bits += 6
		if bits >= 8 {
			bits -= 8
			out = append(out, byte(acc>>bits))
			acc &= 1<<bits - 1
		}
	}
	return string(out), true
}
