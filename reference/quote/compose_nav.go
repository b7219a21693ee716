package quote

import (
	"encoding/base64"
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

// navHashOf encodes an href (ASCII) as a navigation fragment.
func navHashOf(href string) string {
	return NavPrefix + base64.RawURLEncoding.EncodeToString([]byte(href))
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
	enc := base64.RawURLEncoding
	if strings.HasSuffix(s, "=") {
		enc = base64.URLEncoding
	}
	// The decoders skip line feeds and carriage returns, which are not
	// in the alphabet.
	if strings.ContainsAny(s, "\r\n") {
		return "", false
	}
	b, err := enc.DecodeString(s)
	if err != nil {
		return "", false
	}
	return string(b), true
}
