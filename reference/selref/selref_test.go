package selref

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/spec"
)

// TestCodesMatchSpec checks the Go registry against the Rejection codes
// table of spec/selref.md, in both directions and in order.
func TestCodesMatchSpec(t *testing.T) {
	s, err := spec.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	var inSpec []Code
	for _, c := range s.Codes {
		if c.File == "selref.md" {
			inSpec = append(inSpec, Code(c.Code))
		}
	}
	if !slices.Equal(codes(), inSpec) {
		t.Errorf("codes() = %v, want the table of spec/selref.md: %v", codes(), inSpec)
	}
}

// TestClasses cross-checks the hand-written character classes against the
// unicode package: label space is Cc plus White_Space, an address control
// is Cc plus U+2028 and U+2029.
func TestClasses(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if got, want := isLabelSpace(r), unicode.IsControl(r) || unicode.IsSpace(r); got != want {
			t.Errorf("isLabelSpace(%U) = %v, want %v", r, got, want)
		}
		if got, want := isAddressControl(r), unicode.IsControl(r) || r == 0x2028 || r == 0x2029; got != want {
			t.Errorf("isAddressControl(%U) = %v, want %v", r, got, want)
		}
	}
}

func TestLabel(t *testing.T) {
	x := strings.Repeat
	tests := []struct {
		in, want string
	}{
		{"  a \u000b\u0085\u2028 b  ", "a b"},                     // SELREF-LABEL-001, 002
		{"\u00a0\u3000", ""},                                      // blank
		{"a\u200bb", "a\u200bb"},                                  // SELREF-LABEL-003
		{x("x", 200), x("x", 200)},                                // SELREF-LABEL-005
		{x("x", 201), x("x", 200) + "…"},                          // SELREF-LABEL-006
		{x("x", 199) + "😀", x("x", 199) + "…"},                    // SELREF-LABEL-007
		{x("x", 198) + "😀y", x("x", 198) + "😀…"},                  // pair ends at unit 200
		{x("x", 199) + "\t\tyy", x("x", 199) + "…"},               // collapsed space at the cut
		{x("x", 199) + "\xed\xa0\xbdyy", x("x", 199) + "\uFFFD…"}, // WTF-8 surrogate: three invalid bytes, each U+FFFD
	}
	for _, tt := range tests {
		if got := Label(tt.in); got != tt.want {
			t.Errorf("Label(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestAddresses(t *testing.T) {
	tests := []struct {
		in        string
		vance, ok bool // accepted as a vanceUri, as a url
	}{
		{"vance:", true, false},
		{"  vance:/a\n", true, false},
		{"VANCE:/a", false, false},
		{"vance:/a\nb", false, false},
		{"vance:/a\u2029", false, false},
		{"https:", false, true},
		{"HTTP://x", false, true},
		{"mailto:a@b", false, true},
		{"\u00a0https://x", false, false},
		{"https://x\u0085", false, false},
		{"javascript:x", false, false},
		{"https//x", false, false},
		{"", false, false},
	}
	for _, tt := range tests {
		if _, got := VanceURI(tt.in); got != tt.vance {
			t.Errorf("VanceURI(%q) ok = %v, want %v", tt.in, got, tt.vance)
		}
		if _, got := URL(tt.in); got != tt.ok {
			t.Errorf("URL(%q) ok = %v, want %v", tt.in, got, tt.ok)
		}
	}
}

func TestIngestErrors(t *testing.T) {
	tests := []struct {
		in       Reference
		code     Code
		sentinel error
	}{
		{Reference{Label: " \u2003 ", URL: "https://x"}, CodeBlankLabel, ErrBlankLabel},
		{Reference{Label: " "}, CodeBlankLabel, ErrBlankLabel},
		{Reference{Label: "x"}, CodeNoAddress, ErrNoAddress},
		{Reference{Label: "x", VanceURI: "Vance:/a", URL: "data:x"}, CodeNoAddress, ErrNoAddress},
	}
	for _, tt := range tests {
		_, err := Ingest(tt.in)
		e, ok := errors.AsType[*Error](err)
		if !ok || e.Code != tt.code || !errors.Is(err, tt.sentinel) {
			t.Errorf("Ingest(%+v) = %v, want code %s wrapping %v", tt.in, err, tt.code, tt.sentinel)
		}
	}
}

func TestReplay(t *testing.T) {
	const h = `[vance] This message pointed at: `
	tests := []struct {
		body string
		ref  Reference
		want string
	}{
		{"hi", Reference{}, "hi"},
		{"hi", Reference{Label: "x"}, "hi"},
		{"", Reference{Label: "x", URL: "https://a"}, h + `"x" — https://a`},
		{"hi", Reference{Label: "x", VanceURI: "vance:/a", URL: "https://a"}, "hi\n\n" + h + `"x" — vance:/a — https://a`},
		{"hi", Reference{Label: "a\nb", VanceURI: "vance:/a\nb", URL: "https://a"}, "hi\n\n" + h + `"a b" — https://a`},
	}
	for _, tt := range tests {
		if got := Replay(tt.body, tt.ref); got != tt.want {
			t.Errorf("Replay(%q, %+v) = %q, want %q", tt.body, tt.ref, got, tt.want)
		}
	}
}

// TestOpsBadRequest checks that malformed requests are protocol errors of
// kind bad_request, never a drop.
func TestOpsBadRequest(t *testing.T) {
	tests := []struct {
		op, input string
	}{
		{"selref.ingest", `{"label": 5, "url": "https://a"}`},
		{"selref.ingest", `{"label": "x", "uri": "https://a"}`},
		{"selref.ingest", `[]`},
		{"selref.ingest", ``},
		{"selref.replay", `{"reference": {"label": "x", "url": "https://a"}}`},
		{"selref.replay", `{"body": null}`},
		{"selref.replay", `{"body": "hi", "extra": 1}`},
		{"selref.replay", `{"body": "hi", "current": "yes"}`},
		{"selref.replay", `{"body": "hi", "current": 1}`},
		{"selref.bubble", `{"reference": {"label": "x"}, "body": "hi"}`},
		{"selref.bubble", `[]`},
		{"selref.bubble", ``},
	}
	for _, tt := range tests {
		out, err := callRaw(Ops[tt.op], json.RawMessage(tt.input))
		e, ok := errors.AsType[*protocol.Error](err)
		if !ok || e.Kind != protocol.KindBadRequest {
			t.Errorf("%s(%s) = %v, %v, want a bad_request error", tt.op, tt.input, out, err)
		}
	}
}

func TestBubble(t *testing.T) {
	tests := []struct {
		ref  Reference
		want string
	}{
		{Reference{Label: "x"}, ""},
		{Reference{Label: "a]b", VanceURI: "vance:/a"}, `↳ [a\]b](<vance:/a>)`},
		{Reference{Label: "a\nb", URL: "https://a/&lt;"}, `↳ a b · [↗](<https://a/&amp;lt;>)`},
		{Reference{Label: "ü", VanceURI: "vance:/<\\>", URL: "https://a"}, `↳ [ü](<vance:/\<\\\>>) · [↗](<https://a>)`},
	}
	for _, tt := range tests {
		if got := Bubble(tt.ref); got != tt.want {
			t.Errorf("Bubble(%+v) = %q, want %q", tt.ref, got, tt.want)
		}
	}
	ref := Reference{Label: "x", URL: "https://a"}
	if got := ReplayTurn("hi", ref, true); got != "hi" {
		t.Errorf("ReplayTurn(current) = %q, want the body alone", got)
	}
	if got, want := ReplayTurn("hi", ref, false), Replay("hi", ref); got != want {
		t.Errorf("ReplayTurn(earlier) = %q, want %q", got, want)
	}
}

// codes returns every drop code, in the order of the specification's table.
func codes() []Code { return []Code{CodeBlankLabel, CodeNoAddress} }
