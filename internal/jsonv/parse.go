package jsonv

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Errors of Parse, wrapped in an *Error.
var (
	ErrSyntax        = errors.New("invalid JSON")
	ErrTrailingData  = errors.New("data after the value")
	ErrInvalidUTF8   = errors.New("invalid UTF-8")
	ErrDuplicateName = errors.New("duplicate member name")
	ErrTooDeep       = errors.New("nested too deeply")
	ErrTooLarge      = errors.New("too many values")
)

// Error is a failure to decode a JSON text.
type Error struct {
	Offset int    // byte offset in the text
	Path   string // where in the value, as "$.a[0]"
	Err    error  // one of the Err variables
	Detail string // what was found, when it helps
}

func (e *Error) Error() string {
	msg := fmt.Sprintf("jsonv: %v at byte %d", e.Err, e.Offset)
	if e.Path != "" && e.Path != "$" {
		msg += " (" + e.Path + ")"
	}
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

// Defaults of Options.
const (
	DefaultMaxDepth  = 512
	DefaultMaxValues = 1 << 20
)

// Options tune Parse. The zero value is the strict reading.
type Options struct {
	// MaxDepth bounds the nesting of arrays and objects (0: DefaultMaxDepth).
	MaxDepth int
	// MaxValues bounds the number of values in the text, so that the tree
	// stays within a fixed multiple of the text's size (0: DefaultMaxValues;
	// negative: no bound).
	MaxValues int
	// AllowDuplicateNames keeps every member of an object whose name is
	// written twice instead of refusing the text.
	AllowDuplicateNames bool
	// ReplaceInvalidUTF8 reads each ill-formed UTF-8 sequence in a string as
	// U+FFFD instead of refusing the text.
	ReplaceInvalidUTF8 bool
	// KeepText also keeps each string that has no lone surrogate as Go
	// text, in Value.Str: for a reader that wants the string and not its
	// code units. Such a string then has only its text: its Units are
	// left nil, and CodeUnits derives them.
	KeepText bool
}

// Parse decodes one JSON text with the default Options.
func Parse(data []byte) (*Value, error) { return Options{}.Parse(data) }

// Valid reports whether data is one JSON text that Parse accepts.
func Valid(data []byte) bool {
	_, err := Parse(data)
	return err == nil
}

// Parse decodes one JSON text: a value with optional white space around it.
func (o Options) Parse(data []byte) (*Value, error) {
	v, end, err := o.ParseValue(data)
	if err != nil {
		return nil, err
	}
	if end != len(data) {
		return nil, &Error{Offset: end, Path: "$", Err: ErrTrailingData, Detail: quoteByte(data[end])}
	}
	return v, nil
}

// ParseValue decodes the JSON value at the start of data (white space
// before it is skipped) and returns it with the offset just past it and the
// white space after it. What follows is not looked at: a caller that reads
// an enclosing structure itself (the members of a protocol message) decodes
// each member's value in the same single pass and knows its bytes.
func (o Options) ParseValue(data []byte) (*Value, int, error) {
	p := &parser{data: data, opts: o, values: o.MaxValues}
	if p.opts.MaxDepth <= 0 {
		p.opts.MaxDepth = DefaultMaxDepth
	}
	if p.values == 0 {
		p.values = DefaultMaxValues
	}
	v := new(Value)
	p.space()
	if err := p.value(v, 0); err != nil {
		return nil, 0, err
	}
	p.space()
	return v, p.i, nil
}

type parser struct {
	data   []byte
	i      int
	opts   Options
	values int      // values still allowed; negative: no bound
	units  []uint16 // room for the code units of strings still to come
}

func (p *parser) fail(err error, format string, args ...any) *Error {
	return &Error{Offset: p.i, Path: "$", Err: err, Detail: fmt.Sprintf(format, args...)}
}

// within adds a step to the path of an error coming up from a nested value.
func within(err error, step string) error {
	if e, ok := err.(*Error); ok {
		e.Path = "$" + step + strings.TrimPrefix(e.Path, "$")
	}
	return err
}

func quoteByte(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return strconv.QuoteRune(rune(c))
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

func (p *parser) space() {
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) value(v *Value, depth int) error {
	if p.values == 0 {
		return p.fail(ErrTooLarge, "more than %d", p.opts.MaxValues)
	}
	p.values--
	if p.i >= len(p.data) {
		return p.fail(ErrSyntax, "unexpected end")
	}
	switch c := p.data[p.i]; c {
	case '{':
		if depth >= p.opts.MaxDepth {
			return p.fail(ErrTooDeep, "more than %d levels", p.opts.MaxDepth)
		}
		return p.object(v, depth+1)
	case '[':
		if depth >= p.opts.MaxDepth {
			return p.fail(ErrTooDeep, "more than %d levels", p.opts.MaxDepth)
		}
		return p.array(v, depth+1)
	case '"':
		if p.opts.KeepText && p.plainText(v) {
			return nil
		}
		start := p.i + 1
		u, err := p.string()
		if err != nil {
			return err
		}
		*v = Value{Kind: String, Units: u}
		if raw := p.data[start : p.i-1]; p.opts.KeepText && len(raw) > 0 && (!p.opts.ReplaceInvalidUTF8 || utf8.Valid(raw)) {
			v.Str, _ = text(raw)
		}
		return nil
	case 't':
		return p.literal(v, "true", True)
	case 'f':
		return p.literal(v, "false", False)
	case 'n':
		return p.literal(v, "null", Null)
	default:
		if c == '-' || c >= '0' && c <= '9' {
			start := p.i
			end := scanNumber(p.data, p.i)
			if end < 0 {
				return p.fail(ErrSyntax, "malformed number")
			}
			p.i = end
			*v = Value{Kind: Number, Num: string(p.data[start:end])}
			return nil
		}
		return p.fail(ErrSyntax, "%s cannot start a value", quoteByte(c))
	}
}

func (p *parser) literal(v *Value, word string, k Kind) error {
	if !strings.HasPrefix(string(p.data[p.i:min(len(p.data), p.i+len(word))]), word) {
		return p.fail(ErrSyntax, "invalid literal")
	}
	p.i += len(word)
	*v = Value{Kind: k}
	return nil
}

func (p *parser) array(v *Value, depth int) error {
	p.i++ // [
	*v = Value{Kind: Array, Elems: []Value{}}
	p.space()
	if p.i < len(p.data) && p.data[p.i] == ']' {
		p.i++
		return nil
	}
	for {
		p.space()
		v.Elems = append(v.Elems, Value{})
		n := len(v.Elems) - 1
		if err := p.value(&v.Elems[n], depth); err != nil {
			return within(err, "["+strconv.Itoa(n)+"]")
		}
		p.space()
		if p.i < len(p.data) {
			switch p.data[p.i] {
			case ',':
				p.i++
				continue
			case ']':
				p.i++
				return nil
			}
		}
		return p.fail(ErrSyntax, "want ',' or ']' after an array element")
	}
}

func (p *parser) object(v *Value, depth int) error {
	p.i++ // {
	*v = Value{Kind: Object, Members: []Member{}}
	p.space()
	if p.i < len(p.data) && p.data[p.i] == '}' {
		p.i++
		return nil
	}
	var seen map[string]bool // by Key, once the object is large
	for {
		p.space()
		if p.i >= len(p.data) || p.data[p.i] != '"' {
			return p.fail(ErrSyntax, "want a member name")
		}
		at := p.i
		name, err := p.string()
		if err != nil {
			return err
		}
		if !p.opts.AllowDuplicateNames && duplicate(v.Members, name, &seen) {
			p.i = at
			return p.fail(ErrDuplicateName, "%s", AppendString(nil, name))
		}
		p.space()
		if p.i >= len(p.data) || p.data[p.i] != ':' {
			return p.fail(ErrSyntax, "want ':' after a member name")
		}
		p.i++
		p.space()
		v.Members = append(v.Members, Member{Name: name})
		n := len(v.Members) - 1
		if err := p.value(&v.Members[n].Value, depth); err != nil {
			return within(err, pathStep(name))
		}
		p.space()
		if p.i < len(p.data) {
			switch p.data[p.i] {
			case ',':
				p.i++
				continue
			case '}':
				p.i++
				return nil
			}
		}
		return p.fail(ErrSyntax, "want ',' or '}' after a member")
	}
}

// duplicate reports whether name is the name of one of members; a small
// object is scanned, a large one indexed in seen.
func duplicate(members []Member, name []uint16, seen *map[string]bool) bool {
	const scan = 16
	if len(members) < scan {
		for i := range members {
			if unitsEqual(members[i].Name, name) {
				return true
			}
		}
		return false
	}
	if *seen == nil {
		*seen = make(map[string]bool, 2*len(members))
		for i := range members {
			(*seen)[Key(members[i].Name)] = true
		}
	}
	k := Key(name)
	if (*seen)[k] {
		return true
	}
	(*seen)[k] = true
	return false
}

func unitsEqual(a, b []uint16) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// PathStep is the step of a diff path to a member named name: ".name" for
// a plain identifier, `["na me"]` otherwise.
func PathStep(name []uint16) string { return pathStep(name) }

func pathStep(name []uint16) string {
	ident := len(name) > 0
	for _, c := range name {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			ident = false
			break
		}
	}
	if ident {
		b := make([]byte, 1, len(name)+1)
		b[0] = '.'
		for _, c := range name {
			b = append(b, byte(c))
		}
		return string(b)
	}
	return "[" + string(AppendString(nil, name)) + "]"
}

// plainText reads a string at p.i (which holds '"') into v as its text
// alone, and reports whether it did: a string that is not empty, holds no
// lone surrogate and is well-formed, so that its code units follow from its
// text (CodeUnits). Anything else (a syntax error, ill-formed UTF-8, a lone
// surrogate) is left to string, and p.i where it was.
func (p *parser) plainText(v *Value) bool {
	data, i := p.data, p.i+1
	for {
		for i+8 <= len(data) && plain8(binary.LittleEndian.Uint64(data[i:])) {
			i += 8
		}
		for i < len(data) && plain[data[i]] {
			i++
		}
		if i >= len(data) {
			return false
		}
		switch c := data[i]; {
		case c == '"':
			if i == p.i+1 {
				return false
			}
			*v = Value{Kind: String}
			v.Str, _ = text(data[p.i+1 : i])
			p.i = i + 1
			return true
		case c == '\\':
			if i+1 >= len(data) {
				return false
			}
			switch data[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				r, ok := hex4(data[i+2:])
				switch {
				case !ok:
					return false
				case r < 0xd800 || r > 0xdfff:
					i += 6
				case r < 0xdc00 && i+12 <= len(data) && data[i+6] == '\\' && data[i+7] == 'u':
					if lo, ok := hex4(data[i+8:]); !ok || lo < 0xdc00 || lo > 0xdfff {
						return false
					}
					i += 12
				default:
					return false
				}
			default:
				return false
			}
		case c < utf8.RuneSelf: // a control character
			return false
		default:
			r, n := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && n == 1 {
				return false
			}
			i += n
		}
	}
}

// string reads a string at p.i (which holds '"') into code units.
func (p *parser) string() ([]uint16, error) {
	p.i++
	// The bytes up to the next '"' bound the units of a string without an
	// escaped quote, so one allocation usually holds it all.
	n := bytes.IndexByte(p.data[p.i:], '"')
	if n < 0 {
		n = 0
	}
	// The short strings of one text share allocations of a few KiB (the
	// units of them all are no more than the bytes left); a long one has
	// its own. Each string's slice is capped, so that an append to it
	// cannot reach the next.
	var u []uint16
	if n >= 1<<10 {
		u = make([]uint16, 0, n)
	} else {
		if cap(p.units)-len(p.units) < n {
			room := min(len(p.data)-p.i, 4<<10)
			if p.opts.KeepText {
				room /= 8 // most strings keep their text alone: the member names are left
			}
			p.units = make([]uint16, 0, max(n, room))
		}
		k := len(p.units)
		u = p.units[k : k : k+n]
		p.units = p.units[:k+n]
	}
	for {
		// A run of printable ASCII (the bulk of most strings) is widened
		// in one loop; the switch below takes everything else.
		data, i := p.data, p.i
		for i+8 <= len(data) && plain8(binary.LittleEndian.Uint64(data[i:])) {
			i += 8
		}
		for i < len(data) && plain[data[i]] {
			i++
		}
		if i > p.i {
			src := data[p.i:i]
			k := len(u)
			u = slices.Grow(u, len(src))[:k+len(src)]
			dst := u[k:]
			dst = dst[:len(src)]
			for j, c := range src {
				dst[j] = uint16(c)
			}
			p.i = i
		}
		if p.i >= len(p.data) {
			return nil, p.fail(ErrSyntax, "unterminated string")
		}
		c := p.data[p.i]
		switch {
		case c == '"':
			p.i++
			return u, nil
		case c == '\\':
			if p.i+1 >= len(p.data) {
				return nil, p.fail(ErrSyntax, "unterminated escape")
			}
			e := p.data[p.i+1]
			switch e {
			case '"', '\\', '/':
				u = append(u, uint16(e))
			case 'b':
				u = append(u, '\b')
			case 'f':
				u = append(u, '\f')
			case 'n':
				u = append(u, '\n')
			case 'r':
				u = append(u, '\r')
			case 't':
				u = append(u, '\t')
			case 'u':
				n, ok := hex4(p.data[p.i+2:])
				if !ok {
					return nil, p.fail(ErrSyntax, `\u wants four hexadecimal digits`)
				}
				u = append(u, n)
				p.i += 4
			default:
				return nil, p.fail(ErrSyntax, "unknown escape \\%c", e)
			}
			p.i += 2
		case c < 0x20:
			return nil, p.fail(ErrSyntax, "control character 0x%02x in a string", c)
		case c < utf8.RuneSelf:
			u = append(u, uint16(c))
			p.i++
		default:
			r, n := utf8.DecodeRune(p.data[p.i:])
			if r == utf8.RuneError && n == 1 {
				if !p.opts.ReplaceInvalidUTF8 {
					return nil, p.fail(ErrInvalidUTF8, "byte 0x%02x in a string", c)
				}
			}
			p.i += n
			u = appendUnits(u, r)
		}
	}
}

// text returns the text of a string's body as written (between its quotes,
// and read by the parser: well-formed, in UTF-8), its escapes decoded, or ""
// and false when it holds a lone surrogate, which is no text.
func text(raw []byte) (string, bool) {
	var b strings.Builder
	b.Grow(len(raw)) // an escape is never shorter than what it stands for
	for {
		k := bytes.IndexByte(raw, '\\')
		if k < 0 {
			b.Write(raw)
			return b.String(), true
		}
		b.Write(raw[:k])
		e := raw[k+1]
		raw = raw[k+2:]
		switch e {
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r, _ := hex4(raw)
			raw = raw[4:]
			switch {
			case r < 0xd800 || r > 0xdfff:
				b.WriteRune(rune(r))
			case r < 0xdc00 && len(raw) >= 6 && raw[0] == '\\' && raw[1] == 'u':
				lo, ok := hex4(raw[2:])
				if !ok || lo < 0xdc00 || lo > 0xdfff {
					return "", false
				}
				b.WriteRune(utf16.DecodeRune(rune(r), rune(lo)))
				raw = raw[6:]
			default:
				return "", false
			}
		default: // '"', '\\', '/'
			b.WriteByte(e)
		}
	}
}

// plain8 reports whether the eight bytes of x are all plain: no byte below
// 0x20, none from 0x80 up, no '"' and no '\\'.
func plain8(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	q, b := x^('"'*ones), x^('\\'*ones) // a '"' or '\\' byte of x is a zero byte of these
	below := (x - 0x20*ones) &^ x       // a byte below 0x20 sets its high bit (x's own high bits count apart)
	quote := (q - ones) &^ q
	slash := (b - ones) &^ b
	return (x|below|quote|slash)&highs == 0
}

// plain marks the bytes that stand for themselves in a JSON string: printable
// ASCII but '"' and '\\'.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

func appendUnits(u []uint16, r rune) []uint16 {
	if r >= 0x10000 {
		r -= 0x10000
		return append(u, uint16(0xd800+(r>>10)), uint16(0xdc00+(r&0x3ff)))
	}
	return append(u, uint16(r))
}

func hex4(b []byte) (uint16, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var n uint16
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		n = n<<4 | uint16(c)
	}
	return n, true
}

// scanNumber returns the end of the number starting at data[i], or -1 when
// its syntax is not RFC 8259's: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func scanNumber(data []byte, i int) int {
	digits := func() int {
		start := i
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
		}
		return i - start
	}
	if i < len(data) && data[i] == '-' {
		i++
	}
	switch {
	case i < len(data) && data[i] == '0':
		i++
	case digits() == 0:
		return -1
	}
	if i < len(data) && data[i] == '.' {
		i++
		if digits() == 0 {
			return -1
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if digits() == 0 {
			return -1
		}
	}
	return i
}

// IsNumber reports whether s is a JSON number literal.
func IsNumber(s string) bool { return s != "" && scanNumber([]byte(s), 0) == len(s) }
