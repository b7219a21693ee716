package main

// Platform vectors of selref.ingest: each disagreement point of the label
// space, the trim characters and the address controls (selref.md
// "Character classes"). Expected outputs follow from the spec's side of
// each point; where a vector needs another class's answer for a point, it
// takes it from selrefControls, the spec's list.

import (
	"strings"

	"github.com/conform-suite/conform/spec"
)

func init() {
	registerGen("selref/ingest-platform.gen.json", "selref.ingest",
		"Labels, vanceUris and urls holding the points where platform whitespace, trims and control classes disagree with selref's.", genIngestPlatform)
}

// selrefControl reports whether r is an address control: U+0000-U+001F,
// U+007F-U+009F, U+2028, U+2029 (selref.md "Character classes").
func selrefControl(r rune) bool {
	return r <= 0x1F || 0x7F <= r && r <= 0x9F || r == 0x2028 || r == 0x2029
}

const (
	platformVance = "vance:/apps/links/_app.yaml?entry=x"
	platformURL   = "https://example.com/x"
)

func genIngestPlatform(cf *genFile) {
	// Label space: one run of each point between letters, 16 a vector;
	// the label's ends hold letters, so no point meets the trim.
	cf.platformVectors(platformClass("selref.label"), []string{"SELREF-LABEL-001"}, 16, nil, func(ps []spec.Point) (any, any, string) {
		var in, out strings.Builder
		for i, p := range ps {
			in.WriteByte(slotLetters[i])
			in.WriteRune(p.Rune)
			out.WriteByte(slotLetters[i])
			if specHas(p) {
				out.WriteByte(' ')
			} else {
				out.WriteRune(p.Rune)
			}
		}
		in.WriteByte('z')
		out.WriteByte('z')
		return map[string]any{"label": in.String(), "vanceUri": platformVance},
			map[string]any{"reference": map[string]any{"label": out.String(), "vanceUri": platformVance}}, "a label with each point between letters"
	})
	// Trim characters: one point after the vanceUri and one before the
	// url, two a vector (a point is the only one at its end of its field).
	cf.platformVectors(platformClass("selref.trim"), []string{"SELREF-VANCE-001", "SELREF-URL-001"}, 2, nil, func(ps []spec.Point) (any, any, string) {
		in := map[string]any{"label": "L", "vanceUri": platformVance + string(ps[0].Rune)}
		ref := map[string]any{"label": "L"}
		switch v := platformVance + string(ps[0].Rune); {
		case specHas(ps[0]):
			ref["vanceUri"] = platformVance
		case !selrefControl(ps[0].Rune):
			ref["vanceUri"] = v
		}
		if len(ps) > 1 {
			in["url"] = string(ps[1].Rune) + platformURL
			if specHas(ps[1]) {
				ref["url"] = platformURL
			} // else the url opens with no scheme and is refused
		}
		if len(ref) == 1 {
			return in, map[string]any{"dropped": map[string]any{"code": "SELREF_NO_ADDRESS"}}, "a point after the vanceUri and before the url"
		}
		return in, map[string]any{"reference": ref}, "a point after the vanceUri and before the url"
	})
	// Address controls: one point inside the vanceUri and one inside the
	// url, two a vector.
	cf.platformVectors(platformClass("selref.control"), []string{"SELREF-VANCE-004", "SELREF-URL-002"}, 2, nil, func(ps []spec.Point) (any, any, string) {
		in := map[string]any{"label": "L", "vanceUri": platformVance + string(ps[0].Rune) + "y"}
		ref := map[string]any{"label": "L"}
		if !specHas(ps[0]) {
			ref["vanceUri"] = platformVance + string(ps[0].Rune) + "y"
		}
		if len(ps) > 1 {
			in["url"] = platformURL + string(ps[1].Rune) + "y"
			if !specHas(ps[1]) {
				ref["url"] = platformURL + string(ps[1].Rune) + "y"
			}
		}
		if len(ref) == 1 {
			return in, map[string]any{"dropped": map[string]any{"code": "SELREF_NO_ADDRESS"}}, "a point inside the vanceUri and the url"
		}
		return in, map[string]any{"reference": ref}, "a point inside the vanceUri and the url"
	})
	// Scheme case: a url whose scheme spells http, https or mailto with a
	// point a case comparison matches to its ASCII letters; the scheme's
	// grammar refuses it (SELREF-URL-003), so the url is dropped.
	cf.platformVectors(platformClass("selref.scheme"), []string{"SELREF-URL-003"}, 1, schemeFolds, func(ps []spec.Point) (any, any, string) {
		url := schemeFold(ps[0])
		return map[string]any{"label": "L", "vanceUri": platformVance, "url": url},
			map[string]any{"reference": map[string]any{"label": "L", "vanceUri": platformVance}}, "a url scheme spelt with a point is refused"
	})
}

// platformSchemes are urls of the allowed schemes (SELREF-URL-004).
var platformSchemes = []string{"https://example.com/x", "http://example.com/x", "mailto:a@example.com"}

// schemeFolds keeps the fold points whose ASCII string occurs in an allowed
// scheme.
func schemeFolds(p spec.Point) bool { return p.Rune >= 0x80 && schemeFold(p) != "" }

// schemeFold is the first url of platformSchemes whose scheme holds the
// ASCII string of p, with that string replaced by p's code point; "" when
// none holds it.
func schemeFold(p spec.Point) string {
	a := strings.ToLower(p.Builtin)
	if a == "" || !isASCII(a) {
		return ""
	}
	for _, u := range platformSchemes {
		scheme, rest, _ := strings.Cut(u, ":")
		if strings.Contains(scheme, a) {
			return strings.Replace(scheme, a, string(p.Rune), 1) + ":" + rest
		}
	}
	return ""
}
