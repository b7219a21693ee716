package selref

import (
	"strings"
	"unicode/utf16"

	"github.com/conform-suite/conform/reference/internal/wellformed"
)

// Limits, in UTF-16 code units (spec/selref.md, "Units").
const (
	MaxLabel   = 200  // SELREF-LABEL-005: longer labels are cut
	MaxAddress = 1000 // SELREF-VANCE-003, SELREF-URL-006: longer addresses are refused
)

// Header opens the replay line (SELREF-REPLAY-004).
const Header = "[vance] This message pointed at:"

// Separator precedes each address on the replay line: space, U+2014 EM DASH,
// space (SELREF-REPLAY-005).
const Separator = " \u2014 "

// Ellipsis ends a label that was cut (SELREF-LABEL-006).
const Ellipsis = "\u2026"

// Reference is a selection reference: a label and up to two addresses. An
// empty field is an absent one. As input to [Ingest] or [Replay] it is
// untrusted; as output of [Ingest] it satisfies every rule of the spec.
type Reference struct {
	Label    string
	VanceURI string // "vance:..." in the Inter-Links grammar
	URL      string // http, https or mailto
}

// Ingest hardens a reference as an app declared it (spec/selref.md,
// "Ingest"). It returns the reference to store, or an [*Error] with the
// drop code when nothing is to be stored. A refused address is left out of
// the result without an error, as long as the other address survives.
func Ingest(raw Reference) (Reference, error) {
	label := Label(raw.Label)
	if label == "" {
		return Reference{}, dropped(CodeBlankLabel)
	}
	vance, _ := VanceURI(raw.VanceURI)
	url, _ := URL(raw.URL)
	if vance == "" && url == "" {
		return Reference{}, dropped(CodeNoAddress)
	}
	return Reference{Label: label, VanceURI: vance, URL: url}, nil
}

// Label returns the hardened form of a label: runs of label space collapsed
// to one space, trimmed, and capped at [MaxLabel] units with an ellipsis. An
// empty result means the label is blank (SELREF-LABEL-001 to 007).
func Label(s string) string {
	s = collapse(wellformed.String(s))
	if units(s) <= MaxLabel {
		return s
	}
	n, cut := 0, len(s)
	for i, r := range s {
		w := utf16.RuneLen(r)
		if n+w > MaxLabel {
			cut = i // never inside a surrogate pair: a rune is cut whole
			break
		}
		n += w
	}
	return strings.TrimRight(s[:cut], " ") + Ellipsis
}

// VanceURI returns the trimmed vanceUri and reports whether it is accepted:
// it starts with "vance:" (case-sensitive), holds at most [MaxAddress] units
// and no address control (SELREF-VANCE-001 to 005). An empty or blank input
// gives "", false.
func VanceURI(s string) (string, bool) {
	s = trim(wellformed.String(s), vanceTrimClass)
	if !strings.HasPrefix(s, "vance:") || units(s) > MaxAddress || hasAddressControl(s, vanceControlClass) {
		return "", false
	}
	return s, true
}

// URL returns the trimmed url and reports whether it passes the safe-link
// gate: no address control anywhere, a scheme of http, https or mailto in any
// ASCII case, at most [MaxAddress] units (SELREF-URL-001 to 007). The case of
// the url is preserved. An empty or blank input gives "", false.
func URL(s string) (string, bool) {
	s = trim(wellformed.String(s), trimClass)
	if s == "" || hasAddressControl(s, addressControlClass) || !allowedScheme(s) || units(s) > MaxAddress {
		return "", false
	}
	return s, true
}

// allowedScheme reports whether s opens with a scheme matching
// ^[A-Za-z][A-Za-z0-9+.-]*: whose ASCII lower case is http, https or mailto.
func allowedScheme(s string) bool {
	colon := strings.IndexByte(s, ':')
	if colon <= 0 || !isASCIILetter(s[0]) {
		return false
	}
	for i := 1; i < colon; i++ {
		c := s[i]
		if !isASCIILetter(c) && !('0' <= c && c <= '9') && c != '+' && c != '.' && c != '-' {
			return false
		}
	}
	switch scheme := s[:colon]; {
	case schemeCaseClass(scheme, "http"), schemeCaseClass(scheme, "https"), schemeCaseClass(scheme, "mailto"):
		return true
	}
	return false
}

func isASCIILetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// isLabelSpace reports whether r is label space (SELREF-LABEL-001): a
// control character (U+0000-U+001F, U+007F-U+009F) or a character with the
// Unicode White_Space property.
func isLabelSpace(r rune) bool {
	switch {
	case r <= 0x20, 0x7F <= r && r <= 0xA0:
		return true
	case r < 0x1680:
		return false
	}
	switch r {
	case 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
		return true
	}
	return 0x2000 <= r && r <= 0x200A
}

// isAddressControl reports whether r may not appear in an address
// (SELREF-VANCE-004, SELREF-URL-002): U+0000-U+001F, U+007F-U+009F, U+2028
// and U+2029.
func isAddressControl(r rune) bool {
	return r <= 0x1F || 0x7F <= r && r <= 0x9F || r == 0x2028 || r == 0x2029
}

// hasAddressControl reports whether s holds an address control, as the
// class of one site (addressControlClass, vanceControlClass) has it.
func hasAddressControl(s string, class func(rune) bool) bool { return strings.IndexFunc(s, class) >= 0 }

// trim removes every trim character, as the class of one site (trimClass,
// vanceTrimClass) has it, from both ends of s.
func trim(s string, class func(rune) bool) string {
	return strings.TrimFunc(s, class)
}

// isTrimChar reports whether r is a trim character (SELREF-VANCE-001,
// SELREF-URL-001): U+0000-U+0020.
func isTrimChar(r rune) bool { return r <= 0x20 }

// equalFold reports whether a equals the ASCII string b without regard to
// ASCII case (SELREF-URL-004): with the lengths in bytes equal, a holding a
// character outside ASCII has fewer characters than b, so strings.EqualFold
// matches no U+017F to s or U+212A to k here.
func equalFold(a, b string) bool { return len(a) == len(b) && strings.EqualFold(a, b) }

// The classes of this chapter, each applied through one variable for each
// rule (site) that applies it, which only tests replace (by a platform
// built-in's reading, to show that the vectors tell the two apart, even
// for a port that reaches for the built-in at one site only):
// labelSpaceClass collapses and trims the label (SELREF-LABEL-001,
// SELREF-LABEL-002); trimClass trims the url (SELREF-URL-001) and
// vanceTrimClass the vanceUri (SELREF-VANCE-001), either empty then being
// absent (SELREF-INGEST-001); addressControlClass refuses a url
// (SELREF-URL-002) and vanceControlClass a vanceUri (SELREF-VANCE-004);
// schemeCaseClass compares the url's scheme (SELREF-URL-004).
var (
	labelSpaceClass     = isLabelSpace
	addressControlClass = isAddressControl
	vanceControlClass   = isAddressControl
	trimClass           = isTrimChar
	vanceTrimClass      = isTrimChar
	schemeCaseClass     = equalFold
)

// collapse replaces every run of label space by one U+0020 and trims the
// result.
func collapse(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if labelSpaceClass(r) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// units returns the length of s in UTF-16 code units.
func units(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}
