package opkit

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/conform-suite/conform/internal/jsonv"
	"github.com/conform-suite/conform/protocol"
)

// Decode maps the decoded input onto v (a pointer to a struct) strictly, in
// the one pass that walks the value: a member whose name matches no field
// exactly (case included) is unknown, a member named twice is refused, a field that is not optional (a
// pointer, a json.RawMessage, a *jsonv.Value, or tagged omitempty or
// omitzero) must be present, and a value of the wrong type is refused; each
// is a bad_request error naming the member. Strings are read as encoding/json
// reads them (a lone surrogate as U+FFFD; HasLoneSurrogate tells), integers
// by the exact value of their literal whatever its spelling (Integer: 1.0 is
// 1), json.Number and json.RawMessage as written.
func Decode(input *jsonv.Value, v any) error {
	if input == nil {
		return &protocol.Error{Kind: protocol.KindBadRequest, Message: "missing input"}
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return &protocol.Error{Kind: protocol.KindInternal, Message: fmt.Sprintf("decode into %T", v)}
	}
	if err := decode(input, rv.Elem()); err != nil {
		return &protocol.Error{Kind: protocol.KindBadRequest, Message: within(err, "input").Error()}
	}
	return nil
}

var (
	rawMessageType = reflect.TypeFor[json.RawMessage]()
	numberType     = reflect.TypeFor[json.Number]()
	valuePtrType   = reflect.TypeFor[*jsonv.Value]()
)

func decode(j *jsonv.Value, rv reflect.Value) error {
	switch rv.Type() {
	case rawMessageType:
		rv.SetBytes(jsonv.Append(nil, j))
		return nil
	case valuePtrType:
		rv.Set(reflect.ValueOf(j))
		return nil
	case numberType:
		if j.Type != jsonv.Number {
			return mismatch(j, "a number")
		}
		rv.SetString(j.Num)
		return nil
	}
	if j.Type == jsonv.Null {
		// As encoding/json: null empties a pointer, slice, map or
		// interface and leaves any other value as it is.
		switch rv.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
			rv.SetZero()
		}
		return nil
	}
	switch rv.Kind() {
	case reflect.Pointer:
		p := reflect.New(rv.Type().Elem())
		if err := decode(j, p.Elem()); err != nil {
			return err
		}
		rv.Set(p)
	case reflect.String:
		if j.Type != jsonv.String {
			return mismatch(j, "a string")
		}
		if j.Str != "" {
			rv.SetString(j.Str) // the text as written: what Text would make of the units
		} else {
			rv.SetString(protocol.Text(j.Units))
		}
	case reflect.Bool:
		if j.Type != jsonv.True && j.Type != jsonv.False {
			return mismatch(j, "a boolean")
		}
		rv.SetBool(j.Type == jsonv.True)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if j.Type != jsonv.Number {
			return mismatch(j, "a number")
		}
		n, isInt, exact := Integer(j.Num)
		switch {
		case !isInt:
			return failf("the number %s is not an integer", j.Num)
		case !exact || rv.OverflowInt(n):
			return failf("the integer %s does not fit %d bits", j.Num, rv.Type().Bits())
		}
		rv.SetInt(n)
	case reflect.Slice:
		if j.Type != jsonv.Array {
			return mismatch(j, "an array")
		}
		s := reflect.MakeSlice(rv.Type(), len(j.Elems), len(j.Elems))
		for i := range j.Elems {
			if err := decode(&j.Elems[i], s.Index(i)); err != nil {
				return within(err, "["+strconv.Itoa(i)+"]")
			}
		}
		rv.Set(s)
	case reflect.Struct:
		return decodeStruct(j, rv)
	default:
		// The reference's inputs hold strings, booleans, integers,
		// json.Number, json.RawMessage, *jsonv.Value, pointers, slices and
		// structs of these; any other field is a mistake in the reference.
		return failf("no decoding into %s", rv.Type())
	}
	return nil
}

func mismatch(j *jsonv.Value, want string) error {
	return failf("want %s, got %s", want, j.Type)
}

// pathError is a refusal of a value deep in the input. The path to it is
// gathered on the way out, a step per level, so that a value accepted costs
// no path at all.
type pathError struct {
	steps []string // innermost first: ".text", ".sel", "input"
	msg   string
}

func (e *pathError) Error() string {
	var b strings.Builder
	for i := len(e.steps) - 1; i >= 0; i-- {
		b.WriteString(e.steps[i])
	}
	return b.String() + ": " + e.msg
}

func failf(format string, args ...any) error {
	return &pathError{msg: fmt.Sprintf(format, args...)}
}

// within adds the step to the path of err, which came from a value inside.
func within(err error, step string) error {
	if e, ok := err.(*pathError); ok {
		e.steps = append(e.steps, step)
	}
	return err
}

func decodeStruct(j *jsonv.Value, rv reflect.Value) error {
	if j.Type != jsonv.Object {
		return mismatch(j, "an object")
	}
	p := planOf(rv.Type())
	var seen uint64 // fields present, by index (plans have at most 64 fields)
	for i := range j.Members {
		m := &j.Members[i]
		f := p.lookup(m.Name)
		if f < 0 {
			return failf("unknown member %s", jsonv.AppendString(nil, m.Name))
		}
		if seen&(1<<f) != 0 {
			return failf("the member %s is named twice", jsonv.AppendString(nil, m.Name))
		}
		seen |= 1 << f
		if err := decode(&m.Value, rv.Field(p.fields[f].index)); err != nil {
			return within(err, p.fields[f].step)
		}
	}
	if missing := p.required &^ seen; missing != 0 {
		for f := range p.fields {
			if missing&(1<<f) != 0 {
				return failf("missing member %q", p.fields[f].name)
			}
		}
	}
	return nil
}

// plan is how the members of an object map onto a struct's fields.
type plan struct {
	fields   []planField
	required uint64 // bit f set: fields[f] must be present
}

type planField struct {
	name  string
	step  string // "." + name, the step of a path
	index int
}

func (p *plan) lookup(name []uint16) int {
	for f := range p.fields {
		n := p.fields[f].name
		if len(n) != len(name) {
			continue
		}
		same := true
		for i := range name {
			if name[i] != uint16(n[i]) {
				same = false
				break
			}
		}
		if same {
			return f
		}
	}
	return -1
}

var plans sync.Map // reflect.Type -> *plan

func planOf(t reflect.Type) *plan {
	if p, ok := plans.Load(t); ok {
		return p.(*plan)
	}
	p := &plan{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if strings.ContainsFunc(name, func(r rune) bool { return r >= 0x80 }) {
			panic("opkit: member names are ASCII: " + name)
		}
		optional := strings.Contains(opts, "omitempty") || strings.Contains(opts, "omitzero") ||
			f.Type.Kind() == reflect.Pointer || f.Type == rawMessageType
		if !optional {
			p.required |= 1 << len(p.fields)
		}
		p.fields = append(p.fields, planField{name: name, step: "." + name, index: i})
	}
	if len(p.fields) > 64 {
		panic("opkit: more than 64 members in " + t.String())
	}
	plans.Store(t, p)
	return p
}
