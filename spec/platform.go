package spec

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
)

// The kinds of class.
const (
	KindSet      = "set"      // a predicate over code points (is it a member?)
	KindStrip    = "strip"    // code points removed from both ends of a string
	KindSplit    = "split"    // code points that end a line, plus the CRLF and final-terminator behaviour
	KindFold     = "fold"     // non-ASCII code points a case-insensitive comparison matches to an ASCII string
	KindDigit    = "digit"    // code points taken as decimal digits (value: its place in its run of ten)
	KindParse    = "parse"    // an integer parser over a fixed list of spellings
	KindEscape   = "escape"   // a JSON string encoder: the form it writes for each code point
	KindPercent  = "percent"  // a percent-encoder: the form it writes for each ASCII code point, and hex case
	KindElements = "elements" // HTML element names and the role (block, line-break, excluded, inline) they get
)

// A Class is a character class or text rule that the spec defines and a port implements with a
// built-in of its platform.
type Class struct {
	ID           string   // "quote.space", "selref.trim", "marker.line", ...
	Title        string   // one line for people
	Requirements []string // the requirement ids that define it
	Kind         string   // one of the kinds above
	Ops          []string // the ops that apply it, e.g. ["quote.normalize", "quote.parse", ...]
	Builtins     []string // keys of the built-ins a port would reach for: "python:str.isspace"
}

// A Builtin is one platform built-in as measured (or documented).
type Builtin struct {
	Key      string // "python:str.isspace" (language ":" expression)
	Language string // "javascript", "python", "java", "kotlin", "go", "swift", "chromium"
	Name     string // the expression a port writes: "str.isspace()", "s.trim()", "/\\s/"
	Version  string // the runtime or library version it was measured on ("Node.js 20.20.2", "Gson 2.11.0")
	How      string // "measured" or "documented"
	Kind     string
	Note     string // how it was measured, or which documentation a documented row follows
}

// A Point is one input where a built-in disagrees with the spec's class.
type Point struct {
	Rune    rune   // the code point, for the kinds over code points; -1 for parse and elements
	Input   string // the spelling (parse) or the element name (elements); string(Rune) otherwise
	Spec    string // what the spec answers there, e.g. "member", "not a member", `\u003c`, "refused", "block"
	Builtin string // what the built-in answers there, e.g. "not a member", "<", "1", "inline";
	// for fold, the ASCII string it matches ("s" for U+017F); for digit, its value
}

// PlatformRow is one line of data/platform.jsonl: a built-in and what it does. Members holds
// code point ranges ("0009-000D 0020") for set, strip and split; Lines the lines a split gives
// for each probe of SplitProbes; Map, for the kinds over code points, [range, form] pairs (only
// the code points whose form is not the code point itself; a digit's value counts up along its
// range), and for parse and elements [input, answer] or [name, role, display] triples.
type PlatformRow struct {
	Key      string              `json:"key"`
	Language string              `json:"language"`
	Name     string              `json:"name"`
	Version  string              `json:"version"`
	How      string              `json:"how"`
	Kind     string              `json:"kind"`
	Note     string              `json:"note,omitempty"`
	Members  string              `json:"members,omitempty"`
	Lines    map[string][]string `json:"lines,omitempty"`
	Map      [][]string          `json:"map,omitempty"`
}

// SplitProbes are the strings whose lines tell a line splitter's CRLF and final-terminator
// behaviour apart, by name.
var SplitProbes = map[string]string{
	"CRLF":       "a\r\nb",
	"final LF":   "a\n",
	"final CRLF": "a\r\n",
	"final CR":   "a\r",
	"empty":      "",
	"empty line": "a\n\nb",
}

// Templates of the forms in PlatformRow.Map: each UTF-16 unit as \u and four hexadecimal
// digits, or each UTF-8 byte as % and two, in lower or upper case.
const (
	FormUnitsLower = "{\\u}"
	FormUnitsUpper = "{\\U}"
	FormBytesUpper = "{%XX}"
	FormBytesLower = "{%xx}"
)

//go:embed data/platform.jsonl
var platformText string

// MaxRune is the last code point; the classes over code points range over U+0000 to MaxRune,
// surrogates excluded.
const MaxRune = utf8.MaxRune

// The answers a Point carries for the kinds over code points.
const (
	answerMember    = "member"
	answerNotMember = "not a member"
	answerRemoved   = "removed"
	answerKept      = "kept"
	answerEnds      = "ends a line"
	answerNotEnds   = "does not end a line"
	answerNoDigit   = "not a digit"
	answerNoFold    = "no ASCII match"
	answerRefused   = "refused"
)

// The spec's side of each class, from the spec's text (the requirement named on each).
var (
	// quote-link.md "Whitespace" and QUOTE-ANCHOR-003: the 25 code points of JavaScript's \s.
	quoteSpace = "0009-000D 0020 00A0 1680 2000-200A 2028 2029 202F 205F 3000 FEFF"
	// MARKER-STRIP-010: Unicode 15.0.0 White_Space.
	markerSpace = "0009-000D 0020 0085 00A0 1680 2000-200A 2028 2029 202F 205F 3000"
	// selref.md "Character classes" (SELREF-LABEL-001): label space.
	selrefLabel = "0000-0020 007F-00A0 1680 2000-200A 2028 2029 202F 205F 3000"
	// selref.md "Character classes" (SELREF-VANCE-001, SELREF-URL-001): trim characters.
	selrefTrim = "0000-0020"
	// selref.md "Character classes" (SELREF-VANCE-004, SELREF-URL-002): address controls.
	selrefControl = "0000-001F 007F-009F 2028 2029"
	// MARKER-LOCATE-006: pieces between LF characters, without a trailing CR, an LF at the very
	// end starting no further line, the empty string without lines.
	markerLines = map[string][]string{
		"CRLF": {"a", "b"}, "final LF": {"a"}, "final CRLF": {"a"}, "final CR": {"a"},
		"empty": {}, "empty line": {"a", "", "b"},
	}
	// The element roles of QUOTE-ANCHOR-008, QUOTE-ANCHOR-009 and QUOTE-ANCHOR-040.
	blockElements    = strings.Fields("address article aside blockquote dd div dl dt figcaption figure footer h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section table td th tr ul")
	excludedElements = strings.Fields("button input textarea select script style template noscript svg")
)

// The integer spellings each parse class accepts.
var (
	lineNumber  = regexp.MustCompile(`^[1-9][0-9]{0,8}$`) // MARKER-GRAMMAR-005, MARKER-LOCATE-007
	arrayIndex  = regexp.MustCompile(`^(0|[1-9][0-9]*)$`) // MARKER-LOCATE-004
	hrefOffset  = regexp.MustCompile(`^[0-9]{1,16}$`)     // QUOTE-LINK-044
	maxSafeInt  = big.NewInt(1<<53 - 1)                   // QUOTE-LINK-045
	parseAccept = map[string]func(string) string{
		"marker.line-number": func(s string) string { return acceptIf(lineNumber.MatchString(s), s) },
		"marker.index":       func(s string) string { return acceptIf(arrayIndex.MatchString(s), s) },
		"quote.offset": func(s string) string {
			if !hrefOffset.MatchString(s) {
				return answerRefused
			}
			n, _ := new(big.Int).SetString(s, 10)
			return acceptIf(n.Cmp(maxSafeInt) <= 0, s)
		},
	}
)

func acceptIf(ok bool, s string) string {
	if !ok {
		return answerRefused
	}
	n, _ := new(big.Int).SetString(s, 10)
	return n.String()
}

// The built-ins a port would reach for, by the kind of thing they do.
var (
	whitespaceSets = []string{
		"javascript:/\\s/", "javascript:/\\s/u", "python:str.isspace", "python:re.\\s", "python:str.split",
		"java:Character.isWhitespace", "java:Character.isSpaceChar", "java:Pattern.\\s", "java:Pattern.\\s(UNICODE_CHARACTER_CLASS)",
		"kotlin:Char.isWhitespace", "go:unicode.IsSpace", "go:strings.Fields", "go:regexp.\\s", "swift:Character.isWhitespace",
	}
	trims = []string{
		"javascript:String.trim", "javascript:String.trimStart", "javascript:String.trimEnd", "python:str.strip",
		"java:String.trim", "java:String.strip", "kotlin:String.trim", "go:strings.TrimSpace",
		"swift:CharacterSet.whitespaces", "swift:CharacterSet.whitespacesAndNewlines",
	}
	controls = []string{
		"javascript:/\\p{Cc}/u", "python:unicodedata.category==Cc", "java:Character.isISOControl", "go:unicode.IsControl",
		"swift:CharacterSet.controlCharacters",
	}
	splits = []string{
		"javascript:split(/\\r?\\n/)", "javascript:split(\"\\n\")", "python:str.splitlines", "python:str.split(\"\\n\")",
		"java:String.lines", "java:split(\"\\\\R\")", "java:split(\"\\n\")", "kotlin:CharSequence.lines",
		"go:strings.Split(\"\\n\")", "go:bufio.ScanLines", "go:strings.Lines", "swift:split(whereSeparator:isNewline)",
	}
	digits = []string{
		"javascript:/\\d/", "python:str.isdigit", "python:str.isdecimal", "python:re.\\d", "java:Character.isDigit",
		"java:Pattern.\\d", "java:Pattern.\\d(UNICODE_CHARACTER_CLASS)", "go:unicode.IsDigit", "swift:CharacterSet.decimalDigits",
	}
	parsers = []string{
		"javascript:parseInt(s,10)", "javascript:Number(s)", "python:int", "java:Integer.parseInt", "java:Long.parseLong",
		"kotlin:String.toIntOrNull", "go:strconv.Atoi", "go:strconv.ParseInt(s,10,64)", "go:strconv.ParseInt(s,0,64)", "swift:Int(String)",
	}
	folds = []string{
		"javascript:toLowerCase", "javascript:toUpperCase", "javascript:/x/i", "javascript:/x/iu",
		"python:str.lower", "python:str.upper", "python:str.casefold", "python:re.IGNORECASE",
		"java:equalsIgnoreCase", "java:regionMatches(true)", "java:toLowerCase(Locale.ROOT)", "java:toUpperCase(Locale.ROOT)",
		"java:Pattern.CASE_INSENSITIVE", "java:Pattern.CASE_INSENSITIVE|UNICODE_CASE", "kotlin:String.equals(ignoreCase=true)",
		"go:strings.EqualFold", "go:strings.ToLower", "go:strings.ToUpper", "go:regexp.(?i)", "swift:String.lowercased",
	}
	escapes = []string{
		"javascript:JSON.stringify", "python:json.dumps", "python:json.dumps(ensure_ascii=False)", "java:Gson.toJson",
		"java:Jackson.writeValueAsString", "go:json.Marshal", "go:json.Encoder(SetEscapeHTML(false))", "swift:JSONEncoder",
	}
	percents = []string{
		"javascript:encodeURIComponent", "javascript:encodeURI", "javascript:URLSearchParams", "python:urllib.parse.quote",
		"python:urllib.parse.quote(safe='')", "python:urllib.parse.quote_plus", "python:urllib.parse.urlencode",
		"java:URLEncoder.encode", "go:url.PathEscape", "go:url.QueryEscape", "swift:urlPathAllowed", "swift:urlQueryAllowed",
	}
	elements = []string{"chromium:display:block", "chromium:display!=inline"}
)

// classes is the one table of classes: the spec's side of each is in classSpec.
var classes = []Class{
	{ID: "quote.space", Title: "quote's whitespace: the 25 code points of JavaScript's \\s", Kind: KindSet,
		Requirements: []string{"QUOTE-ANCHOR-003", "QUOTE-ANCHOR-004", "QUOTE-ANCHOR-014", "QUOTE-ANCHOR-025", "QUOTE-LINK-040", "QUOTE-COMPOSE-002"},
		Ops:          []string{"quote.normalize", "quote.select", "quote.resolve", "quote.collect", "quote.parse", "quote.format", "quote.comment", "quote.expand", "quote.markdown", "quote.plaintext", "quote.send_turn"},
		Builtins:     slices.Concat(whitespaceSets, trims)},
	{ID: "quote.trim", Title: "quote's trim: the 25 whitespace code points removed from both ends", Kind: KindStrip,
		Requirements: []string{"QUOTE-LINK-014", "QUOTE-LINK-036", "QUOTE-COMPOSE-001", "QUOTE-COMPOSE-031", "QUOTE-COMPOSE-034", "QUOTE-COMPOSE-035"},
		Ops:          []string{"quote.parse", "quote.format", "quote.collect", "quote.comment", "quote.expand", "quote.markdown", "quote.plaintext", "quote.submit_check", "quote.send_turn"},
		Builtins:     slices.Concat(trims, whitespaceSets)},
	{ID: "marker.space", Title: "marker's white space: Unicode 15.0.0 White_Space", Kind: KindSet,
		Requirements: []string{"MARKER-STRIP-010"},
		Ops:          []string{"marker.strip", "marker.stream", "marker.artifact"},
		Builtins:     slices.Concat(whitespaceSets, trims)},
	{ID: "selref.label", Title: "selref's label space: the controls (Cc) and White_Space", Kind: KindSet,
		Requirements: []string{"SELREF-LABEL-001", "SELREF-LABEL-002", "SELREF-LABEL-004"},
		Ops:          []string{"selref.ingest"},
		Builtins:     slices.Concat(whitespaceSets, trims)},
	{ID: "selref.trim", Title: "selref's trim characters: U+0000 to U+0020", Kind: KindStrip,
		Requirements: []string{"SELREF-VANCE-001", "SELREF-URL-001", "SELREF-URL-003", "SELREF-INGEST-001"},
		Ops:          []string{"selref.ingest"},
		Builtins:     slices.Concat(trims, whitespaceSets)},
	{ID: "selref.control", Title: "selref's address controls: Cc, U+2028 and U+2029", Kind: KindSet,
		Requirements: []string{"SELREF-VANCE-004", "SELREF-URL-002"},
		Ops:          []string{"selref.ingest"},
		Builtins:     controls},
	{ID: "marker.line", Title: "the lines of a string in marker.locate: split at LF, a trailing CR dropped", Kind: KindSplit,
		Requirements: []string{"MARKER-LOCATE-006", "MARKER-LOCATE-012"},
		Ops:          []string{"marker.locate"},
		Builtins:     splits},
	{ID: "marker.digit", Title: "the digits of a line-range locator: ASCII 0-9", Kind: KindDigit,
		Requirements: []string{"MARKER-GRAMMAR-005", "MARKER-LOCATE-004", "MARKER-LOCATE-007", "MARKER-LOCATE-010", "MARKER-LOCATE-013"},
		Ops:          []string{"marker.strip", "marker.stream", "marker.artifact", "marker.locate"},
		Builtins:     digits},
	{ID: "quote.digit", Title: "the digits of an href offset: ASCII 0-9", Kind: KindDigit,
		Requirements: []string{"QUOTE-LINK-044"},
		Ops:          []string{"quote.parse", "quote.collect", "quote.expand", "quote.markdown", "quote.plaintext", "quote.send_turn"},
		Builtins:     digits},
	{ID: "marker.line-number", Title: "a line number of a locator: 1 to 9 digits, no leading zero, not 0", Kind: KindParse,
		Requirements: []string{"MARKER-GRAMMAR-005", "MARKER-LOCATE-007"},
		Ops:          []string{"marker.locate", "marker.strip", "marker.stream", "marker.artifact"},
		Builtins:     parsers},
	{ID: "marker.index", Title: "an array index of a JSON Pointer: 0 or a digit 1-9 followed by digits", Kind: KindParse,
		Requirements: []string{"MARKER-LOCATE-004"},
		Ops:          []string{"marker.locate"},
		Builtins:     parsers},
	{ID: "quote.offset", Title: "an href offset: 1 to 16 ASCII digits, at most 2^53-1", Kind: KindParse,
		Requirements: []string{"QUOTE-LINK-044", "QUOTE-LINK-045"},
		Ops:          []string{"quote.parse", "quote.collect", "quote.expand", "quote.markdown", "quote.plaintext", "quote.send_turn"},
		Builtins:     parsers},
	{ID: "marker.user-origin", Title: "the user-origin prefixes, compared without regard to ASCII case", Kind: KindFold,
		Requirements: []string{"MARKER-STRIP-004", "MARKER-LOCATE-011"},
		Ops:          []string{"marker.strip", "marker.stream", "marker.artifact", "marker.locate"},
		Builtins:     folds},
	{ID: "selref.scheme", Title: "the url scheme, compared in ASCII lower case", Kind: KindFold,
		Requirements: []string{"SELREF-URL-004"},
		Ops:          []string{"selref.ingest"},
		Builtins:     folds},
	{ID: "quote.json", Title: "the JSON of the expansion block's data", Kind: KindEscape,
		Requirements: []string{"QUOTE-COMPOSE-016", "QUOTE-COMPOSE-017"},
		Ops:          []string{"quote.expand", "quote.send_turn"},
		Builtins:     escapes},
	{ID: "quote.path", Title: "the percent-encoding of an href's path segments", Kind: KindPercent,
		Requirements: []string{"QUOTE-LINK-010"},
		Ops:          []string{"quote.format"},
		Builtins:     percents},
	{ID: "quote.query", Title: "the percent-encoding of an href's query values", Kind: KindPercent,
		Requirements: []string{"QUOTE-LINK-011"},
		Ops:          []string{"quote.format"},
		Builtins:     percents},
	{ID: "quote.elements", Title: "dom_text's block, line-break and excluded elements", Kind: KindElements,
		Requirements: []string{"QUOTE-ANCHOR-008", "QUOTE-ANCHOR-009", "QUOTE-ANCHOR-039", "QUOTE-ANCHOR-040"},
		Ops:          []string{"quote.dom_text"},
		Builtins:     elements},
}

// classSpec is the spec's side of each class over code points (members and forms), or of parse
// and elements (its answer for an input).
func classSpec(id string) (members string, form func(rune) string, answer func(string) string) {
	switch id {
	case "quote.space", "quote.trim":
		return quoteSpace, nil, nil
	case "marker.space":
		return markerSpace, nil, nil
	case "selref.label":
		return selrefLabel, nil, nil
	case "selref.trim":
		return selrefTrim, nil, nil
	case "selref.control":
		return selrefControl, nil, nil
	case "marker.line":
		return "000A", nil, nil
	case "marker.digit", "quote.digit":
		return "", func(r rune) string { return asciiOnly(r, '0', '9', strconv.Itoa(int(r-'0'))) }, nil
	case "marker.user-origin", "selref.scheme":
		return "", func(rune) string { return "" }, nil
	case "quote.json":
		return "", specJSONForm, nil
	case "quote.path":
		return "", func(r rune) string { return percentForm(r, "-_.~", false) }, nil
	case "quote.query":
		return "", func(r rune) string { return percentForm(r, "*-._", true) }, nil
	case "quote.elements":
		return "", nil, elementRole
	}
	return "", nil, parseAccept[id]
}

func asciiOnly(r, lo, hi rune, v string) string {
	if lo <= r && r <= hi {
		return v
	}
	return ""
}

// specJSONForm is QUOTE-COMPOSE-016 then QUOTE-COMPOSE-017.
func specJSONForm(r rune) string {
	if r == '<' || r == '>' || r == '&' {
		return fmt.Sprintf(`\u%04x`, r)
	}
	return JSONStringForm(r)
}

// JSONStringForm is the form QUOTE-COMPOSE-016 writes r in inside a JSON string, before
// QUOTE-COMPOSE-017 escapes '<', '>' and '&': the documented rows take it where their
// documentation says nothing.
func JSONStringForm(r rune) string {
	switch r {
	case '"':
		return `\"`
	case '\\':
		return `\\`
	case '\b':
		return `\b`
	case '\t':
		return `\t`
	case '\n':
		return `\n`
	case '\f':
		return `\f`
	case '\r':
		return `\r`
	}
	if r < 0x20 {
		return fmt.Sprintf(`\u%04x`, r)
	}
	return string(r)
}

// percentForm is QUOTE-LINK-010 (safe "-_.~") and QUOTE-LINK-011 (safe "*-._", space as "+").
func percentForm(r rune, safe string, plus bool) string {
	switch {
	case 'A' <= r && r <= 'Z', 'a' <= r && r <= 'z', '0' <= r && r <= '9', strings.ContainsRune(safe, r):
		return string(r)
	case plus && r == ' ':
		return "+"
	}
	return ExpandForm(FormBytesUpper, r)
}

func elementRole(name string) string {
	switch {
	case name == "br":
		return "line-break"
	case slices.Contains(blockElements, name):
		return "block"
	case slices.Contains(excludedElements, name):
		return "excluded"
	}
	return "inline"
}

// ExpandForm writes r by a template of PlatformRow.Map, or returns a literal form as it is.
func ExpandForm(form string, r rune) string {
	var b strings.Builder
	switch form {
	case FormUnitsLower, FormUnitsUpper:
		f := `\u%04x`
		if form == FormUnitsUpper {
			f = `\u%04X`
		}
		for _, u := range utf16.Encode([]rune{r}) {
			fmt.Fprintf(&b, f, u)
		}
	case FormBytesUpper, FormBytesLower:
		for _, c := range []byte(string(r)) {
			if form == FormBytesUpper {
				fmt.Fprintf(&b, "%%%02X", c)
			} else {
				fmt.Fprintf(&b, "%%%02x", c)
			}
		}
	default:
		return form
	}
	return b.String()
}

// A table is one row read: what it answers for each code point or input.
type table struct {
	row     PlatformRow
	members []bool            // set, strip, split
	forms   map[rune]string   // escape, percent, fold, digit
	answers map[string]string // parse, elements: input -> answer
	display map[string]string // elements: name -> display
	inputs  []string          // parse, elements, in the row's order
}

var loadPlatform = sync.OnceValues(func() (map[string]*table, error) { return readPlatform(platformText) })

// readPlatform reads data/platform.jsonl.
func readPlatform(text string) (map[string]*table, error) {
	out := map[string]*table{}
	for i, line := range strings.Split(text, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var row PlatformRow
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&row); err != nil {
			return nil, fmt.Errorf("data/platform.jsonl:%d: %v", i+1, err)
		}
		t, err := newTable(row)
		if err != nil {
			return nil, fmt.Errorf("data/platform.jsonl:%d: %s: %v", i+1, row.Key, err)
		}
		if out[row.Key] != nil {
			return nil, fmt.Errorf("data/platform.jsonl:%d: %s is listed twice", i+1, row.Key)
		}
		out[row.Key] = t
	}
	return out, nil
}

func newTable(row PlatformRow) (*table, error) {
	t := &table{row: row, forms: map[rune]string{}, answers: map[string]string{}, display: map[string]string{}}
	if row.How != "measured" && row.How != "documented" {
		return nil, fmt.Errorf("how is %q, want measured or documented", row.How)
	}
	var err error
	switch row.Kind {
	case KindSet, KindStrip, KindSplit:
		t.members, err = parseMembers(row.Members)
		for n := range SplitProbes {
			if _, ok := row.Lines[n]; row.Kind == KindSplit && !ok {
				return nil, fmt.Errorf("no lines for the probe %q", n)
			}
		}
	case KindEscape, KindPercent, KindFold, KindDigit:
		for _, e := range row.Map {
			if len(e) != 2 {
				return nil, fmt.Errorf("map entry %q: want a range and a form", e)
			}
			lo, hi, err := parseRange(e[0])
			if err != nil {
				return nil, err
			}
			for r := lo; r <= hi; r++ {
				switch {
				case row.Kind != KindDigit:
					t.forms[r] = ExpandForm(e[1], r)
				default:
					v, err := strconv.Atoi(e[1])
					if err != nil {
						return nil, fmt.Errorf("map entry %q: a digit's value is an integer", e)
					}
					t.forms[r] = strconv.Itoa(v + int(r-lo))
				}
			}
		}
	case KindParse, KindElements:
		for _, e := range row.Map {
			if len(e) < 2 || len(e) > 3 {
				return nil, fmt.Errorf("map entry %q: want an input and an answer", e)
			}
			t.inputs = append(t.inputs, e[0])
			t.answers[e[0]] = e[1]
			if len(e) == 3 {
				t.display[e[0]] = e[2]
			}
		}
	default:
		return nil, fmt.Errorf("unknown kind %q", row.Kind)
	}
	return t, err
}

// parseMembers reads space-separated code points and ranges ("0009-000D 0020").
func parseMembers(s string) ([]bool, error) {
	m := make([]bool, MaxRune+1)
	for _, f := range strings.Fields(s) {
		lo, hi, err := parseRange(f)
		if err != nil {
			return nil, err
		}
		for r := lo; r <= hi; r++ {
			m[r] = true
		}
	}
	return m, nil
}

func parseRange(f string) (rune, rune, error) {
	a, b, isRange := strings.Cut(f, "-")
	if !isRange {
		b = a
	}
	lo, err1 := strconv.ParseUint(a, 16, 21)
	hi, err2 := strconv.ParseUint(b, 16, 21)
	if err1 != nil || err2 != nil || hi < lo || hi > MaxRune {
		return 0, 0, fmt.Errorf("bad code point range %q", f)
	}
	return rune(lo), rune(hi), nil
}

// PlatformClasses returns every class, sorted by ID.
func PlatformClasses() ([]Class, error) {
	tables, err := loadPlatform()
	if err != nil {
		return nil, err
	}
	out := slices.Clone(classes)
	for i, c := range out {
		var keys []string
		for _, k := range c.Builtins {
			if t := tables[k]; t != nil && compatible(c.Kind, t.row.Kind) {
				keys = append(keys, k)
			}
		}
		out[i].Builtins = keys
		out[i].Requirements = slices.Clone(c.Requirements)
		out[i].Ops = slices.Clone(c.Ops)
	}
	slices.SortFunc(out, func(a, b Class) int { return strings.Compare(a.ID, b.ID) })
	return out, nil
}

// compatible reports whether a built-in of kind b can stand for a class of kind c: a set and a
// strip are both a set of code points.
func compatible(c, b string) bool {
	return c == b || (c == KindSet || c == KindStrip) && (b == KindSet || b == KindStrip)
}

// PlatformBuiltins returns every built-in of data/platform.jsonl, by Key.
func PlatformBuiltins() (map[string]Builtin, error) {
	tables, err := loadPlatform()
	if err != nil {
		return nil, err
	}
	out := map[string]Builtin{}
	for k, t := range tables {
		r := t.row
		out[k] = Builtin{Key: r.Key, Language: r.Language, Name: r.Name, Version: r.Version, How: r.How, Kind: r.Kind, Note: r.Note}
	}
	return out, nil
}

// Disagreements returns the points where the built-in disagrees with the class, sorted by code
// point or in the row's order of inputs; empty when it agrees.
func Disagreements(class Class, builtinKey string) ([]Point, error) {
	tables, err := loadPlatform()
	if err != nil {
		return nil, err
	}
	return disagreements(class, tables[builtinKey], builtinKey)
}

func disagreements(class Class, t *table, key string) ([]Point, error) {
	if t == nil {
		return nil, fmt.Errorf("no built-in %q in data/platform.jsonl", key)
	}
	if !slices.ContainsFunc(classes, func(c Class) bool { return c.ID == class.ID }) {
		return nil, fmt.Errorf("no class %q", class.ID)
	}
	if !compatible(class.Kind, t.row.Kind) {
		return nil, fmt.Errorf("%s is a %s, class %s a %s", key, t.row.Kind, class.ID, class.Kind)
	}
	members, form, answer := classSpec(class.ID)
	var out []Point
	switch class.Kind {
	case KindSet, KindStrip, KindSplit:
		spec, err := parseMembers(members)
		if err != nil {
			return nil, err
		}
		yes, no := answerMember, answerNotMember
		if class.Kind == KindStrip {
			yes, no = answerRemoved, answerKept
		} else if class.Kind == KindSplit {
			yes, no = answerEnds, answerNotEnds
		}
		word := func(b bool) string {
			if b {
				return yes
			}
			return no
		}
		for r := rune(0); r <= MaxRune; r++ {
			if spec[r] != t.members[r] && !isSurrogate(r) {
				out = append(out, Point{Rune: r, Input: string(r), Spec: word(spec[r]), Builtin: word(t.members[r])})
			}
		}
		if class.Kind == KindSplit {
			names := make([]string, 0, len(SplitProbes))
			for n := range SplitProbes {
				names = append(names, n)
			}
			slices.Sort(names)
			for _, n := range names {
				s, b := linesJSON(markerLines[n]), linesJSON(t.row.Lines[n])
				if s != b {
					out = append(out, Point{Rune: -1, Input: n, Spec: s, Builtin: b})
				}
			}
		}
	case KindEscape, KindPercent, KindFold, KindDigit:
		last := MaxRune
		if class.Kind == KindPercent {
			last = 0x7F
		}
		for r := rune(0); r <= last; r++ {
			if isSurrogate(r) {
				continue
			}
			s, b := form(r), t.forms[r]
			if _, ok := t.forms[r]; !ok && (class.Kind == KindEscape || class.Kind == KindPercent) {
				b = string(r)
			}
			if class.Kind == KindFold && r < 0x80 {
				continue
			}
			if s != b {
				out = append(out, Point{Rune: r, Input: string(r), Spec: orWord(s, class.Kind), Builtin: orWord(b, class.Kind)})
			}
		}
	case KindParse, KindElements:
		for _, in := range t.inputs {
			if s, b := answer(in), t.answers[in]; s != b {
				out = append(out, Point{Rune: -1, Input: in, Spec: s, Builtin: b})
			}
		}
	}
	return out, nil
}

// orWord names the absence of a form: no digit value, no ASCII match.
func orWord(s, kind string) string {
	switch {
	case s != "":
		return s
	case kind == KindDigit:
		return answerNoDigit
	case kind == KindFold:
		return answerNoFold
	}
	return s
}

func isSurrogate(r rune) bool { return 0xD800 <= r && r <= 0xDFFF }

func linesJSON(lines []string) string {
	if lines == nil {
		lines = []string{}
	}
	b, _ := json.Marshal(lines)
	return string(b)
}
