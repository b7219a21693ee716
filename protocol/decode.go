package protocol

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/conform-suite/conform/internal/jsonv"
)

// Options of the member values: a request's are read strictly (its input is
// the op's, and a member named twice is a bad request); an answer's output is
// read strictly too, but a member named twice or bytes that are not UTF-8
// inside it make a wrong output (PROTO-RESULT-001), judged by comparison, so
// the output is then read again leniently to learn where it ends.
//
// A request's input keeps a member named twice (InputOptions): its members
// are the op's business (PROTO-FRAME-005), and an op may take a value that
// is any JSON (marker.locate's value, where the last of two members wins).
// The op's decoding refuses a member named twice where it reads members.
var (
	strict  = jsonv.Options{}
	lenient = jsonv.Options{AllowDuplicateNames: true, ReplaceInvalidUTF8: true}
	// InputOptions are the options with which an input is decoded.
	InputOptions = jsonv.Options{AllowDuplicateNames: true}
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
// lenientIn names the member whose value may be ill-formed inside (duplicate
// names, bytes that are not UTF-8) without failing the envelope.
func readObject(data []byte, what, lenientIn string, fn func(m member) error) error {
	return readObjectWith(data, what, lenientIn, "", fn)
}

// readObjectWith is readObject, decoding the member named inputIn with
// InputOptions.
func readObjectWith(data []byte, what, lenientIn, inputIn string, fn func(m member) error) error {
	i := space(data, 0)
	if i >= len(data) || data[i] != '{' {
		if _, err := strict.Parse(data); err != nil {
			return fmt.Errorf("%s is not JSON: %v", what, err)
		}
		return fmt.Errorf("%s is not a JSON object", what)
	}
	i = space(data, i+1)
	if i < len(data) && data[i] == '}' {
		i++
	} else {
		var seen map[string]bool
		for {
			i = space(data, i)
			if i >= len(data) || data[i] != '"' {
				return fmt.Errorf("%s is not JSON: want a member name at byte %d", what, i)
			}
			nv, n, err := strict.ParseValue(data[i:])
			if err != nil {
				return fmt.Errorf("%s is not JSON: a member name at byte %d: %v", what, i, err)
			}
			i += n
			if i >= len(data) || data[i] != ':' {
				return fmt.Errorf("%s is not JSON: want ':' at byte %d", what, i)
			}
			i++
			m := member{name: jsonv.Key(nv.Units)}
			start := space(data, i)
			opts := strict
			if m.name == inputIn {
				opts = InputOptions
			}
			v, n, err := opts.ParseValue(data[i:])
			if err != nil && m.name == lenientIn && (errors.Is(err, jsonv.ErrDuplicateName) || errors.Is(err, jsonv.ErrInvalidUTF8)) {
				_, n, err = lenient.ParseValue(data[i:])
				v = nil
			}
			if err != nil {
				return fmt.Errorf("%s is not JSON: member %s: %v", what, jsonv.AppendString(nil, nv.Units), err)
			}
			i += n
			m.value, m.raw = v, trimSpace(data[start:i])
			if seen == nil {
				seen = map[string]bool{}
			}
			if seen[m.name] {
				return fmt.Errorf("%s names the member %s twice", what, jsonv.AppendString(nil, nv.Units))
			}
			seen[m.name] = true
			if err := fn(m); err != nil {
				return err
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
	return nil
}

func space(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 {
		switch b[len(b)-1] {
		case ' ', '\t', '\n', '\r':
			b = b[:len(b)-1]
			continue
		}
		break
	}
	return b
}

// ParseRequest reads one request line (PROTO-FRAME-002) in one pass. When
// the line is not a request it returns the answer to give instead
// (PROTO-FRAME-006): a bad_request error carrying the request's id when it
// could be read and is a valid id, null otherwise. Members other than id,
// op and input are ignored (PROTO-FRAME-005); a member named twice is not.
func ParseRequest(line []byte) (Request, *Response) {
	var req Request
	var op *jsonv.Value
	err := readObjectWith(line, "the request", "", "input", func(m member) error {
		switch m.name {
		case "id":
			req.ID = m.raw
		case "op":
			op = m.value
		case "input":
			req.Input, req.Value = m.raw, m.value
		}
		return nil
	})
	refuse := func(id []byte, msg string) (Request, *Response) {
		if !ValidID(id) || !TextID(id) {
			id = nil
		}
		a := ErrorAnswer(id, KindBadRequest, msg)
		return req, &a
	}
	switch {
	case err != nil:
		return refuse(req.ID, "not a request: "+err.Error())
	case !ValidID(req.ID):
		return refuse(nil, `the request's "id" is missing or not a string or integer`)
	case !TextID(req.ID):
		return refuse(nil, `the request's "id" is a string that is not Unicode text: invalid UTF-8 or a lone surrogate escape`)
	case op != nil && op.Kind != jsonv.String:
		return refuse(req.ID, `the request's "op" is not a string`)
	case op == nil || len(op.Units) == 0:
		return refuse(req.ID, `the request has no "op"`)
	case req.Value == nil || req.Value.Kind != jsonv.Object:
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

// ParseAnswer reads one answer line (PROTO-FRAME-003) in one pass and
// checks its shape: an object with an id and exactly one of output (an
// object) and error (an object with a known string kind and a string
// message). Other members are ignored; a member named twice is a protocol
// violation, since which of the two counts is anybody's guess. The output is
// kept as written (Output) and, when it is well-formed, decoded (Value).
func ParseAnswer(line []byte) (Response, error) {
	r := Response{Raw: line}
	var out, errv member
	err := readObject(line, "the answer", "output", func(m member) error {
		switch m.name {
		case "id":
			r.ID = m.raw
		case "output":
			out = m
		case "error":
			errv = m
		}
		return nil
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
	if v.Kind != jsonv.Object {
		return nil, errors.New(`the answer's "error" is not an object with string "kind" and "message"`)
	}
	var e Error
	for _, m := range v.Members {
		name := jsonv.Key(m.Name)
		if name != "kind" && name != "message" {
			continue
		}
		if m.Value.Kind != jsonv.String {
			return nil, fmt.Errorf(`the answer's "error" has a %q that is not a string`, name)
		}
		if name == "kind" {
			e.Kind = jsonv.Key(m.Value.Units)
		} else {
			e.Message = Text(m.Value.Units)
		}
	}
	if !KnownKind(e.Kind) {
		return nil, fmt.Errorf("the answer's error kind %q is not one of unsupported, bad_request, internal", e.Kind)
	}
	return &e, nil
}

// Text returns the code units u as a Go string, each lone surrogate as
// U+FFFD (as encoding/json reads one).
func Text(u []uint16) string {
	ascii := true
	for _, c := range u {
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		b := make([]byte, len(u))
		for i, c := range u {
			b[i] = byte(c)
		}
		return string(b)
	}
	b := make([]byte, 0, len(u)*3)
	for i := 0; i < len(u); i++ {
		c := rune(u[i])
		if c >= 0xd800 && c <= 0xdfff {
			if c < 0xdc00 && i+1 < len(u) && u[i+1] >= 0xdc00 && u[i+1] <= 0xdfff {
				c = (c-0xd800)<<10 + (rune(u[i+1]) - 0xdc00) + 0x10000
				i++
			} else {
				c = utf8.RuneError
			}
		}
		b = utf8.AppendRune(b, c)
	}
	return string(b)
}
