package protocol

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/conform-suite/conform/internal/jsonv"
)

// Options of the member values: a request's are read strictly (its input is
// the op's, and a member named twice is a bad request); an answer's output is
// read strictly too, but bytes that are not UTF-8 inside it make a wrong
// output (PROTO-RESULT-001), judged by comparison, so the output is then read
// again leniently to learn where it ends. A member named twice anywhere in an
// answer is a protocol violation (PROTO-RESULT-003).
//
// A request's input keeps a member named twice (InputOptions): its members
// are the op's business (PROTO-FRAME-005), and an op may take a value that
// is any JSON (marker.locate's value, where the last of two members wins).
// The op's decoding refuses a member named twice where it reads members.
var (
	strict  = jsonv.Options{}
	lenient = jsonv.Options{ReplaceInvalidUTF8: true}
	// InputOptions are the options with which an input is decoded.
	InputOptions = jsonv.Options{AllowDuplicateNames: true, KeepText: true}
)

// member is one member of a message envelope.
type member struct {
	name  string       // jsonv.Key of the name's code units
	value *jsonv.Value // decoded; nil when raw was read leniently
	raw   []byte       // the value's bytes, as written
}

// readObject reads the members of the JSON object that is the whole of data,
// decoding each member's value once, and calls fn for each in order. A
// member name written twice is an error: what names the message in errors.
// lenientIn names the member whose value may hold bytes that are not UTF-8
// without failing the envelope; the member named inputIn is decoded with
// InputOptions; each member's value decodes into at most maxValues values
// (0: jsonv's default).
func readObject(data []byte, what, lenientIn, inputIn string, maxValues int, fn func(m member)) error {
	i := space(data, 0)
	if i >= len(data) || data[i] != '{' {
		if _, err := strict.Parse(data); err != nil {
			return fmt.Errorf("%s is not JSON: %v", what, err)
		}
		return fmt.Errorf("%s is not a JSON object", what)
	}
	i = space(data, i+1)
	var twice *namedTwiceError // the member names written twice
	if i < len(data) && data[i] == '}' {
		i++
	} else {
		var seen names
		for {
			i = space(data, i)
			if i >= len(data) || data[i] != '"' {
				return fmt.Errorf("%s is not JSON: want a member name at byte %d", what, i)
			}
			name, n := plainName(data[i:])
			var units []uint16 // the name's code units, when it is not plain
			if n == 0 {
				nv, k, err := strict.ParseValue(data[i:])
				if err != nil {
					return fmt.Errorf("%s is not JSON: a member name at byte %d: %v", what, i, err)
				}
				name, n, units = jsonv.Key(nv.Units), k, nv.Units
			}
			i += n
			if i >= len(data) || data[i] != ':' {
				return fmt.Errorf("%s is not JSON: want ':' at byte %d", what, i)
			}
			i++
			start := space(data, i)
			opts, again := strict, lenient
			if name == inputIn {
				opts = InputOptions
			}
			opts.MaxValues, again.MaxValues = maxValues, maxValues
			v, n, err := opts.ParseValue(data[i:])
			if err != nil && name == lenientIn && errors.Is(err, jsonv.ErrInvalidUTF8) {
				_, n, err = again.ParseValue(data[i:])
				v = nil
			}
			var je *jsonv.Error
			switch {
			case errors.Is(err, jsonv.ErrTooLarge):
				return &TooLargeError{What: what, Member: quotedName(name, units), MaxValues: cmp.Or(maxValues, jsonv.DefaultMaxValues)}
			case name == lenientIn && errors.As(err, &je) && errors.Is(err, jsonv.ErrDuplicateName):
				return fmt.Errorf("%s's member %s names the member %s twice at %s", what, quotedName(name, units), je.Detail, je.Path)
			case err != nil:
				return fmt.Errorf("%s is not JSON: member %s: %v", what, quotedName(name, units), err)
			}
			i += n
			switch {
			case seen.has(name):
				// read on: a request's id after the name written twice is
				// still echoed (PROTO-FRAME-009)
				if twice == nil {
					twice = &namedTwiceError{what: what, name: quotedName(name, units)}
				}
				twice.keys = append(twice.keys, name)
			default:
				seen.add(name)
				fn(member{name: name, value: v, raw: bytes.TrimRight(data[start:i], " \t\n\r")})
			}
			if i < len(data) && data[i] == ',' {
				i++
				continue
			}
			if i < len(data) && data[i] == '}' {
				i++
				break
			}
			return fmt.Errorf("%s is not JSON: want ',' or '}' at byte %d", what, i)
		}
	}
	if i = space(data, i); i != len(data) {
		return fmt.Errorf("%s is not JSON: data after the object at byte %d", what, i)
	}
	if twice != nil {
		return twice
	}
	return nil
}

// namedTwiceError is a message envelope that names members twice.
type namedTwiceError struct {
	what string   // "the request"
	keys []string // the names written twice (jsonv.Key), in order
	name []byte   // the first of them, quoted
}

func (e *namedTwiceError) Error() string {
	return fmt.Sprintf("%s names the member %s twice", e.what, e.name)
}

// isNamedTwice reports whether err is an envelope naming the member key
// twice.
func isNamedTwice(err error, key string) bool {
	nt, ok := errors.AsType[*namedTwiceError](err)
	return ok && slices.Contains(nt.keys, key)
}

// plainName reads the member name at the start of data when it is plain:
// printable ASCII without escapes, as every name of the protocol is. It
// returns the name and the bytes read (white space after it included), or
// 0 when the name is not plain, to be decoded in full. The protocol's own
// names are returned without allocating.
func plainName(data []byte) (string, int) {
	for j := 1; j < len(data); j++ {
		switch c := data[j]; {
		case c == '"':
			for _, name := range [...]string{"id", "op", "input", "output", "error"} {
				if string(data[1:j]) == name {
					return name, space(data, j+1)
				}
			}
			return string(data[1:j]), space(data, j+1)
		case c < 0x20 || c >= 0x7f || c == '\\':
			return "", 0
		}
	}
	return "", 0
}

// quotedName returns a member name as JSON, for a message: its code units
// when it was decoded in full, else the plain name (ASCII).
func quotedName(name string, units []uint16) []byte {
	if units == nil {
		units = jsonv.UnitsOf(name)
	}
	return jsonv.AppendString(nil, units)
}

// names is the set of member names seen in an envelope: a few, looked up
// in a slice, or many (a hostile line), in a map.
type names struct {
	few  [8]string
	n    int
	many map[string]bool
}

func (s *names) has(name string) bool {
	if s.many != nil {
		return s.many[name]
	}
	return slices.Contains(s.few[:s.n], name)
}

func (s *names) add(name string) {
	switch {
	case s.many != nil:
		s.many[name] = true
	case s.n < len(s.few):
		s.few[s.n] = name
		s.n++
	default:
		s.many = make(map[string]bool, 2*len(s.few))
		for _, x := range s.few {
			s.many[x] = true
		}
		s.many[name] = true
	}
}

func space(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

// ParseRequest reads one request line (PROTO-FRAME-002) in one pass. When
// the line is not a request it returns the answer to give instead
// (PROTO-FRAME-006): a bad_request error carrying the request's id when it
// could be read and is a valid id, null otherwise. Members other than id,
// op and input are ignored (PROTO-FRAME-005); a member named twice is not.
func ParseRequest(line []byte) (Request, *Response) {
	if req, ok := parseRequestFast(line); ok {
		return req, nil
	}
	return parseRequest(line)
}

// parseRequestFast reads a request of the usual shape: an object of the
// members id (an integer, or a string without escapes), op (a string
// without escapes) and input (an object), each once, with names written
// plain. It decodes only the input; ok is false for any other line, which
// parseRequest then reads (and refuses, or accepts with the same request).
func parseRequestFast(line []byte) (req Request, ok bool) {
	i := space(line, 0)
	if i >= len(line) || line[i] != '{' {
		return req, false
	}
	var op []byte
	for i++; ; i++ {
		i = space(line, i)
		if i >= len(line) || line[i] != '"' {
			return req, false
		}
		name, n := plainName(line[i:])
		if n == 0 {
			return req, false
		}
		if i += n; i >= len(line) || line[i] != ':' {
			return req, false
		}
		i = space(line, i+1)
		switch name {
		case "id":
			end := plainID(line, i)
			if end < 0 || req.ID != nil {
				return req, false
			}
			req.ID, i = line[i:end], end
		case "op":
			end := plainString(line, i)
			if end < 0 || op != nil || end-i < 3 {
				return req, false
			}
			op, i = line[i+1:end-1], end
		case "input":
			if i >= len(line) || line[i] != '{' || req.Value != nil {
				return req, false
			}
			v, n, err := InputOptions.ParseValue(line[i:])
			if err != nil {
				return req, false
			}
			req.Value = v
			req.Input = bytes.TrimRight(line[i:i+n], " \t\n\r")
			i += n
		default:
			return req, false
		}
		if i = space(line, i); i < len(line) && line[i] == ',' {
			continue
		}
		if i >= len(line) || line[i] != '}' || space(line, i+1) != len(line) {
			return req, false
		}
		break
	}
	if req.ID == nil || op == nil || req.Value == nil {
		return req, false
	}
	req.Op = internOp(op)
	return req, true
}

// plainID returns the end of the id at line[i:] when it is an integer of
// 64 bits or a string of UTF-8 text without escapes or control characters
// (a valid id, and Unicode text), or -1.
func plainID(line []byte, i int) int {
	if i < len(line) && line[i] == '"' {
		return plainString(line, i)
	}
	j := i
	if j < len(line) && line[j] == '-' {
		j++
	}
	digits := j
	for j < len(line) && line[j] >= '0' && line[j] <= '9' {
		j++
	}
	if j-digits > 1 && line[digits] == '0' { // JSON writes no leading zero
		return -1
	}
	if j < len(line) && (line[j] == '.' || line[j] == 'e' || line[j] == 'E') {
		return -1
	}
	if !ValidID(line[i:j]) {
		return -1
	}
	return j
}

// plainString returns the end of the JSON string at line[i:] (past its
// closing quote) when it holds UTF-8 text without escapes or control
// characters, or -1.
func plainString(line []byte, i int) int {
	if i >= len(line) || line[i] != '"' {
		return -1
	}
	for j := i + 1; j < len(line); j++ {
		switch c := line[j]; {
		case c == '"':
			if !utf8.Valid(line[i+1 : j]) {
				return -1
			}
			return j + 1
		case c < 0x20 || c == '\\':
			return -1
		}
	}
	return -1
}

// lastOp is the op of the last request read, so that a stream of requests
// for one op allocates its name once.
var lastOp atomic.Pointer[string]

func internOp(b []byte) string {
	if p := lastOp.Load(); p != nil && *p == string(b) {
		return *p
	}
	op := string(b)
	lastOp.Store(&op)
	return op
}

// parseRequest is ParseRequest for any line.
func parseRequest(line []byte) (Request, *Response) {
	var req Request
	var op *jsonv.Value
	err := readObject(line, "the request", "", "input", 0, func(m member) {
		switch m.name {
		case "id":
			req.ID = m.raw
		case "op":
			op = m.value
		case "input":
			req.Input, req.Value = m.raw, m.value
		}
	})
	refuse := func(id []byte, msg string) (Request, *Response) {
		if !ValidID(id) || !TextID(id) {
			id = nil
		}
		a := ErrorAnswer(id, KindBadRequest, msg)
		return req, &a
	}
	switch {
	case isNamedTwice(err, "id"):
		// Which of two ids to echo is anybody's guess (PROTO-FRAME-009).
		return refuse(nil, "not a request: "+err.Error())
	case err != nil:
		return refuse(req.ID, "not a request: "+err.Error())
	case !ValidID(req.ID):
		return refuse(nil, `the request's "id" is missing or not a string or integer`)
	case !TextID(req.ID):
		return refuse(nil, `the request's "id" is a string that is not Unicode text: invalid UTF-8 or a lone surrogate escape`)
	case op != nil && op.Type != jsonv.String:
		return refuse(req.ID, `the request's "op" is not a string`)
	case op == nil || len(op.Units) == 0:
		return refuse(req.ID, `the request has no "op"`)
	case req.Value == nil || req.Value.Type != jsonv.Object:
		return refuse(req.ID, `the request's "input" is not an object`)
	}
	req.Op = jsonv.Key(op.Units)
	if !utf8.ValidString(req.Op) {
		return refuse(req.ID, `the request's "op" is not Unicode text`)
	}
	return req, nil
}

// ErrNoAnswerBody marks an answer with neither output nor error.
var ErrNoAnswerBody = errors.New("the answer has neither \"output\" nor \"error\"")

// DefaultMaxAnswerValues is how many values each member of an answer may
// decode into when the caller sets no budget (ParseAnswer's maxValues 0): a
// thousand times the largest output of the vectors.
const DefaultMaxAnswerValues = 1 << 16

// TooLargeError reports a member of a message that decodes into more values
// than its budget allows: what it costs to hold, not its bytes.
type TooLargeError struct {
	What      string // the message: "the answer"
	Member    []byte // the member's name, quoted
	MaxValues int    // the budget
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s's member %s decodes into more than %d JSON values, over the budget of one answer", e.What, e.Member, e.MaxValues)
}

// ParseAnswer reads one answer line (PROTO-FRAME-003) in one pass and
// checks its shape: an object with an id and exactly one of output (an
// object) and error (an object with a known string kind and a string
// message). Other members are ignored. A member named twice, in the envelope
// or anywhere inside the output, is a protocol violation (PROTO-RESULT-003),
// since which of the two counts is anybody's guess. Each member decodes into
// at most maxValues values (0: DefaultMaxAnswerValues), else the error is a
// *TooLargeError. The output is kept as written (Output) and, when it is
// well-formed, decoded (Value).
func ParseAnswer(line []byte, maxValues int) (Response, error) {
	if maxValues <= 0 {
		maxValues = DefaultMaxAnswerValues
	}
	r := Response{Raw: line}
	var out, errv member
	err := readObject(line, "the answer", "output", "", maxValues, func(m member) {
		switch m.name {
		case "id":
			r.ID = m.raw
		case "output":
			out = m
		case "error":
			errv = m
		}
	})
	if err != nil {
		return r, err
	}
	if len(r.ID) == 0 || string(r.ID) == "null" {
		return r, errors.New(`the answer has no "id"`)
	}
	hasOut := len(out.raw) > 0 && string(out.raw) != "null"
	hasErr := len(errv.raw) > 0 && string(errv.raw) != "null"
	switch {
	case hasOut && hasErr:
		return r, errors.New(`the answer has both "output" and "error"`)
	case hasOut:
		if out.raw[0] != '{' {
			return r, errors.New(`the answer's "output" is not an object`)
		}
		r.Output, r.Value = out.raw, out.value
	case hasErr:
		e, err := errorBody(errv.value)
		if err != nil {
			return r, err
		}
		r.Error = e
	default:
		return r, ErrNoAnswerBody
	}
	return r, nil
}

// errorBody reads the error member of an answer.
func errorBody(v *jsonv.Value) (*Error, error) {
	if v.Type != jsonv.Object {
		return nil, errors.New(`the answer's "error" is not an object with string "kind" and "message"`)
	}
	var e Error
	for _, m := range v.Members {
		name := jsonv.Key(m.Name)
		if name != "kind" && name != "message" {
			continue
		}
		if m.Value.Type != jsonv.String {
			return nil, fmt.Errorf(`the answer's "error" has a %q that is not a string`, name)
		}
		if name == "kind" {
			e.Kind = jsonv.Key(m.Value.Units)
		} else {
			e.Message = Text(m.Value.Units)
		}
	}
	switch e.Kind {
	case KindUnsupported, KindBadRequest, KindInternal:
		return &e, nil
	}
	return nil, fmt.Errorf("the answer's error kind %q is not one of unsupported, bad_request, internal", e.Kind)
}

// Text returns the code units u as a Go string, each lone surrogate as
// U+FFFD (as encoding/json reads one).
func Text(u []uint16) string {
	n := 0 // the UTF-8 length of the text
	for i := 0; i < len(u); i++ {
		switch c := u[i]; {
		case c < 0x80:
			n++
		case c < 0x800:
			n += 2
		case c >= 0xd800 && c < 0xdc00 && i+1 < len(u) && u[i+1] >= 0xdc00 && u[i+1] <= 0xdfff:
			n += 4
			i++
		default:
			n += 3 // the rest of the BMP, and a lone surrogate's U+FFFD
		}
	}
	var b strings.Builder
	b.Grow(n)
	var chunk [512]byte // encoded on the stack, copied into b in blocks
	k := 0
	for i := 0; i < len(u); {
		if k > len(chunk)-4 {
			b.Write(chunk[:k])
			k = 0
		}
		if u[i] < utf8.RuneSelf {
			// A run of ASCII, as far as the chunk holds it.
			m := min(len(u)-i, len(chunk)-k)
			j := 0
			for j < m && u[i+j] < utf8.RuneSelf {
				chunk[k+j] = byte(u[i+j])
				j++
			}
			k += j
			i += j
			continue
		}
		c := rune(u[i])
		i++
		if c >= 0xd800 && c <= 0xdfff {
			if c < 0xdc00 && i < len(u) && u[i] >= 0xdc00 && u[i] <= 0xdfff {
				c = (c-0xd800)<<10 + (rune(u[i]) - 0xdc00) + 0x10000
				i++
			} else {
				c = utf8.RuneError
			}
		}
		k += utf8.EncodeRune(chunk[k:], c)
	}
	b.Write(chunk[:k])
	return b.String()
}
