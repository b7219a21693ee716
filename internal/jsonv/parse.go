package jsonv

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
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
		p.values, p.opts.MaxValues = DefaultMaxValues, DefaultMaxValues
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
	case '{', '[':
		if depth >= p.opts.MaxDepth {
			return p.fail(ErrTooDeep, "more than %d levels", p.opts.MaxDepth)
		}
		if c == '{' {
			return p.object(v, depth+1)
		}
		return p.array(v, depth+1)
	case '"':
		if p.opts.KeepText && p.plainText(v) {
			return nil
		}
		u, err := p.string()
		if err != nil {
			return err
		}
		*v = Value{Type: String, Units: u}
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
			*v = Value{Type: Number, Num: string(p.data[start:end])}
			return nil
		}
		return p.fail(ErrSyntax, "%s cannot start a value", quoteByte(c))
	}
}

func (p *parser) literal(v *Value, word string, k Type) error {
	if !strings.HasPrefix(string(p.data[p.i:min(len(p.data), p.i+len(word))]), word) {
		return p.fail(ErrSyntax, "invalid literal")
	}
	p.i += len(word)
	*v = Value{Type: k}
	return nil
}

func (p *parser) array(v *Value, depth int) error {
	p.i++ // [
	*v = Value{Type: Array, Elems: []Value{}}
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
		if more, err := p.more(']', "an array element"); !more {
			return err
		}
	}
}

func (p *parser) object(v *Value, depth int) error {
	p.i++ // {
	*v = Value{Type: Object, Members: []Member{}}
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
			return within(err, PathStep(name))
		}
		if more, err := p.more('}', "a member"); !more {
			return err
		}
	}
}

// more reads what follows an element of an array or a member of an object:
// a ',' (another comes: true) or the closing bracket end (false, nil).
// Anything else is an error.
func (p *parser) more(end byte, what string) (bool, error) {
	p.space()
	if p.i < len(p.data) {
		switch p.data[p.i] {
		case ',':
			p.i++
			return true, nil
		case end:
			p.i++
			return false, nil
		}
	}
	return false, p.fail(ErrSyntax, "want ',' or '%c' after %s", end, what)
}

// duplicate reports whether name is the name of one of members; a small
// object is scanned, a large one indexed in seen.
func duplicate(members []Member, name []uint16, seen *map[string]bool) bool {
	const scan = 16
	if len(members) < scan {
		for i := range members {
			if slices.Equal(members[i].Name, name) {
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

// PathStep is the step of a diff path to a member named name: ".name" for
// a plain identifier, `["na me"]` otherwise.
func PathStep(name []uint16) string {
	if len(name) > 0 && !slices.ContainsFunc(name, func(c uint16) bool {
		return !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9')
	}) {
		return "." + Key(name)
	}
	return "[" + string(AppendString(nil, name)) + "]"
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

// Measure bounds what JSON text decodes into without decoding it: values is
// at most one more than the opening brackets, commas and colons outside
// strings (every value but the first follows one), and depth is the
// deepest nesting of arrays and objects. Text that is not JSON is measured
// all the same.
func Measure(data []byte) (values, depth int) {
	values = 1
	d, inString := 0, false
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '[' || c == '{':
			values++
			d++
			depth = max(depth, d)
		case c == ']' || c == '}':
			d--
		case c == ',' || c == ':':
			values++
		}
	}
	return values, depth
}
