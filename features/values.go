package features

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/conform-suite/conform/internal/jsonv"
	"github.com/cucumber/godog"
)

// codePoint is the \u{HEX} escape of literal text.
var codePoint = regexp.MustCompile(`\\u\{([0-9A-Fa-f]{1,6})\}`)

// literal expands the \u{HEX} escapes of literal text.
func literal(s string) (string, error) {
	var err error
	out := codePoint.ReplaceAllStringFunc(s, func(m string) string {
		n, _ := strconv.ParseUint(codePoint.FindStringSubmatch(m)[1], 16, 32)
		if n > 0x10FFFF || n >= 0xD800 && n <= 0xDFFF {
			err = fmt.Errorf("%s is not a Unicode scalar value; write a lone surrogate in a json doc string", m)
			return m
		}
		return string(rune(n))
	})
	return out, err
}

// quoted decodes a quoted step argument: the content of a JSON string, in
// which \u{HEX} may also stand for a code point.
func quoted(s string) (string, error) {
	text := quotedJSON(s)
	var out string
	if err := json.Unmarshal(text, &out); err != nil {
		return "", fmt.Errorf("bad quoted argument %s: %w", text, err)
	}
	return out, nil
}

// quotedUnits decodes a quoted step argument as quoted does, into UTF-16
// code units: a lone surrogate escape stays a lone surrogate.
func quotedUnits(s string) ([]uint16, error) {
	text := quotedJSON(s)
	v, err := jsonv.Parse(text)
	if err != nil || v.Type != jsonv.String {
		return nil, fmt.Errorf("bad quoted argument %s: %v", text, err)
	}
	return v.Units, nil
}

// quotedJSON is the JSON string of a quoted step argument.
func quotedJSON(s string) []byte {
	s = codePoint.ReplaceAllStringFunc(s, func(m string) string {
		n, _ := strconv.ParseUint(codePoint.FindStringSubmatch(m)[1], 16, 32)
		if n > 0xFFFF && n <= 0x10FFFF {
			hi, lo := utf16.EncodeRune(rune(n))
			return fmt.Sprintf(`\u%04x\u%04x`, hi, lo)
		}
		return fmt.Sprintf(`\u%04x`, n)
	})
	// A table cell's \n escape reaches a step as a raw newline.
	s = strings.NewReplacer("\n", `\n`, "\r", `\r`, "\t", `\t`).Replace(s)
	return []byte(`"` + s + `"`)
}

// asJSON turns conv, which reads a text from a step's argument, into a
// conversion to the JSON string of that text.
func asJSON[A any](conv func(A) (string, error)) func(A) (json.RawMessage, error) {
	return func(arg A) (json.RawMessage, error) {
		text, err := conv(arg)
		if err != nil {
			return nil, err
		}
		return marshal(text), nil
	}
}

// stringValue is the JSON string of a quoted argument.
var stringValue = asJSON(quoted)

// marshal encodes v as JSON without HTML escaping.
func marshal(v any) json.RawMessage {
	data, err := jsonv.Marshal(v)
	if err != nil {
		panic(err) // only strings, numbers and maps of them are marshalled
	}
	return data
}

// jsonValue checks that s is one JSON value and returns it trimmed.
func jsonValue(s string) (json.RawMessage, error) {
	s = strings.TrimSpace(s)
	if err := json.Unmarshal([]byte(s), new(json.RawMessage)); err != nil {
		return nil, fmt.Errorf("not JSON: %v: %s", err, s)
	}
	return json.RawMessage(s), nil
}

// jsonDoc is the JSON value of a doc string, whatever its media type.
func jsonDoc(d *godog.DocString) (json.RawMessage, error) { return jsonValue(d.Content) }

// docText is the literal text of a doc string, whatever its media type.
func docText(d *godog.DocString) (string, error) { return literal(d.Content) }

// docValue is the value of a doc string: JSON for media type json, literal
// text otherwise.
func docValue(d *godog.DocString) (json.RawMessage, error) {
	if d.MediaType == "json" {
		return jsonValue(d.Content)
	}
	return asJSON(docText)(d)
}

// cellValue is the value of a table cell: JSON when it parses, literal text otherwise.
func cellValue(s string) (json.RawMessage, error) {
	if v, err := jsonValue(s); err == nil {
		return v, nil
	}
	return asJSON(literal)(s)
}

// tableObject turns a two-column table of member and value rows into a JSON
// object, members in table order.
func tableObject(t *godog.Table) (json.RawMessage, error) {
	var o object
	for i, row := range t.Rows {
		if len(row.Cells) != 2 {
			return nil, fmt.Errorf("table row %d has %d cells, want 2: member | value", i+1, len(row.Cells))
		}
		v, err := cellValue(row.Cells[1].Value)
		if err != nil {
			return nil, err
		}
		o.set(row.Cells[0].Value, v)
	}
	return o.json(), nil
}

// object is a JSON object built member by member, keeping raw values as
// written (a lone surrogate escape reaches the implementation unchanged).
// A literal lists its members in order: object{{"start", v}, {"end", w}}.
type object []member

type member struct {
	name  string
	value json.RawMessage
}

// set sets the member name, in its place when o already has it.
func (o *object) set(name string, v json.RawMessage) {
	if i := slices.IndexFunc(*o, func(m member) bool { return m.name == name }); i >= 0 {
		(*o)[i].value = v
		return
	}
	*o = append(*o, member{name, v})
}

// setNamed sets the member named by a quoted argument.
func (o *object) setNamed(name string, v json.RawMessage) error {
	n, err := quoted(name)
	if err != nil {
		return err
	}
	o.set(n, v)
	return nil
}

func (o object) json() json.RawMessage {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.Write(marshal(m.name))
		buf.WriteByte(':')
		buf.Write(m.value)
	}
	buf.WriteByte('}')
	return buf.Bytes()
}

// pathToken is one step of an output path ("citations[1].locator"): a
// member name (submatch 1) or an index (submatch 2).
var pathToken = regexp.MustCompile(`^(?:\.?([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\])`)

// lookup returns the value at path p of doc, and whether it exists. doc is
// decoded faithfully (internal/jsonv), so the value keeps its lone
// surrogates and its numbers as written; p "" returns doc itself.
func lookup(doc json.RawMessage, p string) (json.RawMessage, bool, error) {
	var elems [][]string // the pathToken matches of p
	for rest := p; rest != ""; {
		m := pathToken.FindStringSubmatch(rest)
		if m == nil || len(elems) == 0 && strings.HasPrefix(rest, ".") {
			return nil, false, fmt.Errorf("bad output path %q at %q", p, rest)
		}
		elems = append(elems, m)
		rest = rest[len(m[0]):]
	}
	cur, err := jsonv.Parse(doc)
	if err != nil {
		return nil, false, fmt.Errorf("the answer's output: %w", err)
	}
	if len(elems) == 0 {
		return doc, true, nil
	}
	for _, m := range elems {
		i, _ := strconv.Atoi(m[2])
		switch {
		case m[1] != "":
			cur = cur.Get(m[1])
			if cur == nil {
				return nil, false, nil
			}
		case cur.Type != jsonv.Array || i >= len(cur.Elems):
			return nil, false, nil
		default:
			cur = &cur.Elems[i]
		}
	}
	return jsonv.Append(nil, cur), true, nil
}

// marshalText is the JSON string of s, which may hold lone surrogates as
// jsonv.Key writes them (outputString): each is sent back as its \u escape,
// so a chained step resends exactly the code units it was answered.
func marshalText(s string) json.RawMessage {
	if utf8.ValidString(s) {
		return marshal(s)
	}
	return jsonv.AppendString(nil, keyUnits(s))
}

// keyUnits returns the UTF-16 code units of s, which may hold lone
// surrogates as jsonv.Key writes them (the three bytes UTF-8 would use for
// the surrogate's value); any other ill-formed byte is U+FFFD.
func keyUnits(s string) []uint16 {
	u := make([]uint16, 0, len(s))
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 && i+2 < len(s) && s[i] == 0xed && s[i+1] >= 0xa0 && s[i+1] <= 0xbf && s[i+2]&0xc0 == 0x80 {
			u = append(u, uint16(s[i]&0x0f)<<12|uint16(s[i+1]&0x3f)<<6|uint16(s[i+2]&0x3f))
			i += 3
			continue
		}
		u = utf16.AppendRune(u, r)
		i += n
	}
	return u
}
