package main

// The reasons recorded for the divergences found by fuzzing: the classes of
// behaviour of the real code, and testdata/fuzz-reasons.txt, which gives each
// vector its classes.

import (
	"fmt"
	"strings"
	"sync"
)

// reasonClasses say why a real system answers otherwise: which behaviour of
// its code gives the recorded answer, in the words of the spec chapters'
// Divergence paragraphs and of the hand-written records of the same class.
var reasonClasses = map[string]string{
	// T3 Code's formatter and navigation encoder (quote-link.md, "Formatter";
	// quote-compose.md, "Navigation").
	"format-nothing":         "the real formatter validates nothing and writes the citation as given",
	"format-version":         "the real formatter writes a v1 href whatever the version says",
	"format-number":          "the real formatter writes any number as JavaScript prints it, fractions and negatives included",
	"format-long-text":       "the real formatter checks no length and writes the over-long text",
	"format-long-comment":    "the real formatter checks no length and writes the over-long comment",
	"format-long-context":    "the real formatter checks no length and writes the over-long context",
	"format-long-id":         "the real formatter checks no length and writes the over-long id",
	"format-query-surrogate": "the real formatter's query encoder writes each lone surrogate as U+FFFD (%EF%BF%BD)",
	"format-id-surrogate":    "the real formatter encodes ids with encodeURIComponent, which throws URIError on a lone surrogate (an internal error)",
	"navencode-nothing":      "the real nav_encode base64-encodes whatever href the real formatter writes, validating nothing",

	// T3 Code's navigation decoder (quote-compose.md, "Navigation").
	"navdecode-crlf":        "the real decoder removes every CR and LF from the payload before decoding it",
	"navdecode-utf8":        "the real decoder reads the decoded bytes as UTF-8 with replacement: a byte that is not UTF-8 becomes U+FFFD",
	"navdecode-bare":        "the real decoder hands the href to its parser, where URLSearchParams reads a bare key as an empty value",
	"navdecode-escape-utf8": "the real decoder hands the href to its parser, where URLSearchParams turns percent-encoded bytes that are not UTF-8 into U+FFFD",

	// T3 Code's parser (quote-link.md, "Parser").
	"parse-bare":       "URLSearchParams reads a bare key as an empty value",
	"parse-escape":     "the real parser decodes with URLSearchParams: a malformed escape stays as text, bytes that are not UTF-8 become U+FFFD",
	"parse-raw":        "the real parser's URL parser strips TAB, LF and CR and percent-encodes other raw characters, then reads the href",
	"parse-dots":       "the real parser's URL parser resolves . and .. segments before the path is split",
	"parse-padded-dot": "the real parser trims the id after its URL parser kept the padded dot as a name",
	"parse-fragment":   "the real parser's URL parser drops an empty fragment",

	// What the parser's leniency does to the ops built on it
	// (quote-compose.md, "Expansion" and "The provider input limit").
	"collect-bare":         "the real collector takes the link, since URLSearchParams reads a bare key as an empty value",
	"collect-lenient":      "the real collector takes every link its lenient parser accepts",
	"expand-bare":          "the real expander numbers the link, since URLSearchParams reads a bare key as an empty value",
	"markdown-bare":        "the real renderer quotes the link, since URLSearchParams reads a bare key as an empty value",
	"plaintext-bare":       "the real renderer prints the quote, since URLSearchParams reads a bare key as an empty value",
	"send-bare":            "the real server expands the link, since URLSearchParams reads a bare key as an empty value",
	"send-bare-over":       "the real server expands the link, since URLSearchParams reads a bare key as an empty value, and that expansion takes the input over the limit",
	"send-dot-over":        "the real server expands the link, since its URL parser resolves the %2E segment away, and that expansion takes the input over the limit",
	"send-dot-shorter":     "the real server also expands the link whose . segment its URL parser resolves away, and that expansion, with the long id decoded, is shorter than the link: the input stays within the limit",
	"submit-bare-more":     "the real composer also counts the expansion of a link with a bare key, which URLSearchParams reads as an empty value, so the excess is larger",
	"submit-raw-over":      "the real composer also counts the expansion of a link with a raw é in its path, which its URL parser percent-encodes: that takes the prompt over the limit",
	"submit-raw-bare-over": "the real composer also counts the expansion of a link with a raw é and a bare key, both of which its parser accepts: that takes the prompt over the limit",

	// T3 Code's capture and resolver (quote-anchor.md).
	"select-no-limit":            "the real capture has no length limit",
	"select-clamp":               "the real capture clamps offsets to the text (String.slice) and refuses only a blank slice",
	"select-negative":            "the real capture slices with String.slice, which counts a negative offset from the end, and refuses only a blank slice",
	"select-split-pair":          "the real capture slices JavaScript strings by unit and keeps the split halves as lone surrogates",
	"resolve-lone-surrogate":     "the real resolver searches JavaScript strings by unit, so a lone low surrogate matches the low half of a pair",
	"resolve-unchecked-selector": "the real resolver reads the selector's members without checking them and throws on a selector that lacks them (an internal error)",

	// vance (selref.md).
	"label-space":      "vance collapses only Java's \\s ([ \\t\\n\\x0B\\f\\r]) and keeps every other space and control in a label",
	"label-blank":      "vance trims only Java's \\s, so a label of other spaces is not blank and is stored",
	"url-c1":           "vance refuses only C0 controls and DEL inside a url; C1 controls and Unicode line breaks pass",
	"vanceuri-inside":  "vance checks only the prefix and the length of a vanceUri, so a control or line break inside it is kept",
	"replay-unchecked": "vance's renderer prints the stored values as they are, checking and trimming nothing",
}

// fuzzReasons reads testdata/fuzz-reasons.txt: vector id -> reason classes.
var fuzzReasons = sync.OnceValues(func() (map[string][]string, error) {
	const name = "testdata/fuzz-reasons.txt"
	data, err := observedFS.ReadFile(name)
	if err != nil {
		return nil, err
	}
	byID := map[string][]string{}
	for n, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		if len(f) < 2 {
			return nil, fmt.Errorf("%s:%d: want a vector id and at least one reason class", name, n+1)
		}
		if _, dup := byID[f[0]]; dup {
			return nil, fmt.Errorf("%s:%d: %s has a second line", name, n+1, f[0])
		}
		for _, c := range f[1:] {
			if _, ok := reasonClasses[c]; !ok {
				return nil, fmt.Errorf("%s:%d: unknown reason class %q", name, n+1, c)
			}
		}
		byID[f[0]] = f[1:]
	}
	return byID, nil
})

// reasonOf is the reason recorded for vector id: its classes' words.
func reasonOf(id string) (string, error) {
	table, err := fuzzReasons()
	if err != nil {
		return "", err
	}
	classes := table[id]
	if len(classes) == 0 {
		return "", fmt.Errorf("%s records a divergence but testdata/fuzz-reasons.txt gives it no reason: work out why the real code answers so and add a line", id)
	}
	words := make([]string, len(classes))
	for i, c := range classes {
		words[i] = reasonClasses[c]
	}
	return strings.Join(words, "; "), nil
}
