package main

// Generators for the members of the objects an op reads below the top level
// of its input (PROTO-ERROR-005): for each object inside an input whose
// members the op's schema lists and closes, an unknown member, each member
// in another case and each member named twice (once more with its name
// spelt with an escape) are bad requests. The top level has its own vectors
// in the hand-written *-errors.json files; vectors_test holds the corpus to
// the schemas (every closed object, each of the three faults).

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/conform-suite/conform/internal/jsonv"
	"github.com/conform-suite/conform/vectors"
)

// closedObject is an object that an op reads, inside a valid input.
type closedObject struct {
	file, op string
	base     string // a valid input, as JSON text, with every member of the object present
	path     []any  // the steps to the object: member names and array indices
	where    string // the object in an id: "citation", "parts-1"
	what     string // the object in a description: "citation", "the second part"
}

const citationJSON = `{"version":1,"environmentId":"a","threadId":"b","messageId":"c","text":"q","comment":"n","start":0,"end":1,"prefix":"","suffix":""}`

var closedObjects = []closedObject{
	{"quote/format-members.gen.json", "quote.format", `{"citation":` + citationJSON + `}`, []any{"citation"}, "citation", "citation"},
	{"quote/comment-members.gen.json", "quote.comment", `{"citation":` + citationJSON + `,"comment":"x"}`, []any{"citation"}, "citation", "citation"},
	{"quote/nav_encode-members.gen.json", "quote.nav_encode", `{"citation":` + citationJSON + `}`, []any{"citation"}, "citation", "citation"},
	{"quote/resolve-members.gen.json", "quote.resolve", `{"text":"abc","selector":{"text":"b","start":1,"end":2,"prefix":"a","suffix":"c"}}`,
		[]any{"selector"}, "selector", "selector"},
	// The object is the second part, so that a port checking only the
	// first element of an array fails.
	{"marker/strip-members.gen.json", "marker.strip", `{"text":"a` + "\ue200cite\ue202d2\ue201" + `","parts":[{"id":"d1","value":1},{"id":"d2","value":{"k":"v"}}]}`,
		[]any{"parts", 1}, "parts-1", "the second part"},
	{"marker/stream-members.gen.json", "marker.stream", `{"deltas":["a` + "\ue200cite\ue202" + `","d2` + "\ue201" + `"],"parts":[{"id":"d1","value":1},{"id":"d2","value":{"k":"v"}}]}`,
		[]any{"parts", 1}, "parts-1", "the second part"},
}

func init() {
	for _, c := range closedObjects {
		registerGen(c.file, c.op, c.op+": the members of "+c.what+", an object the op reads below the top level: an unknown member, "+
			"a member in another case and a member named twice are each a bad request (PROTO-ERROR-005).", c.fill)
	}
}

var memberReqs = []string{"PROTO-ERROR-001", "PROTO-ERROR-003", "PROTO-ERROR-005"}

// objMember is a member of an object as JSON text: its name (quoted, as
// written) and its value.
type objMember struct{ name, value string }

func (c closedObject) fill(cf *genFile) {
	v, err := jsonv.Parse([]byte(c.base))
	if err != nil {
		panic(fmt.Sprintf("%s: base input: %v", c.op, err))
	}
	obj := at(v, c.path)
	var members []objMember
	for i := range obj.Members {
		m := &obj.Members[i]
		members = append(members, objMember{string(jsonv.AppendString(nil, m.Name)), string(jsonv.Append(nil, &m.Value))})
	}
	bad := func(id, desc string, ms []objMember, text bool) {
		in := splice(v, c.path, object(ms))
		vec := &vectors.Vector{ID: c.op + "/" + id, Description: desc, Requirements: memberReqs,
			Expect: vectors.Expect{Error: &vectors.ExpectError{Kind: "bad_request"}}}
		if text {
			vec.InputText = in
		} else {
			vec.Input = []byte(in)
		}
		cf.f.Vectors = append(cf.f.Vectors, vec)
	}
	with := func(i int, extra ...objMember) []objMember {
		out := append([]objMember(nil), members[:i+1]...)
		return append(append(out, extra...), members[i+1:]...)
	}
	bad("nested-unknown-member-"+c.where,
		fmt.Sprintf("An unknown member after the last of %s; a port ignoring unknown members answers an output", c.what),
		with(len(members)-1, objMember{`"extra"`, "1"}), false)
	for i, m := range members {
		name := unquote(m.name)
		other := swapCase(name)
		renamed := append([]objMember(nil), members...)
		renamed[i].name = `"` + other + `"`
		bad("nested-other-case-"+c.where+"-"+kebab(name),
			fmt.Sprintf("The member %s of %s written %s; a port matching names without regard to case answers an output", name, c.what, other),
			renamed, false)
		bad("nested-named-twice-"+c.where+"-"+kebab(name),
			fmt.Sprintf("The member %s of %s named twice with one value; a port keeping the last one, as JSON.parse does, answers an output", name, c.what),
			with(i, m), true)
	}
	first := unquote(members[0].name)
	escaped := fmt.Sprintf(`"\u%04x%s"`, first[0], first[1:])
	bad("nested-named-twice-escaped-"+c.where,
		fmt.Sprintf("The member %s of %s named again as %s; a port comparing names as written answers an output", first, c.what, escaped),
		with(0, objMember{escaped, members[0].value}), true)
}

// at returns the value at path in v.
func at(v *jsonv.Value, path []any) *jsonv.Value {
	for _, step := range path {
		switch s := step.(type) {
		case string:
			v = member(v, s)
		case int:
			v = &v.Elems[s]
		}
	}
	return v
}

func member(v *jsonv.Value, name string) *jsonv.Value {
	for i := range v.Members {
		if jsonv.Key(v.Members[i].Name) == name {
			return &v.Members[i].Value
		}
	}
	panic("no member " + name)
}

// splice returns the JSON text of v with the value at path written as
// text instead.
func splice(v *jsonv.Value, path []any, text string) string {
	if len(path) == 0 {
		return text
	}
	var b strings.Builder
	switch s := path[0].(type) {
	case string:
		b.WriteByte('{')
		for i := range v.Members {
			m := &v.Members[i]
			if i > 0 {
				b.WriteByte(',')
			}
			b.Write(jsonv.AppendString(nil, m.Name))
			b.WriteByte(':')
			if jsonv.Key(m.Name) == s {
				b.WriteString(splice(&m.Value, path[1:], text))
			} else {
				b.Write(jsonv.Append(nil, &m.Value))
			}
		}
		b.WriteByte('}')
	case int:
		b.WriteByte('[')
		for i := range v.Elems {
			if i > 0 {
				b.WriteByte(',')
			}
			if i == s {
				b.WriteString(splice(&v.Elems[i], path[1:], text))
			} else {
				b.Write(jsonv.Append(nil, &v.Elems[i]))
			}
		}
		b.WriteByte(']')
	}
	return b.String()
}

func object(ms []objMember) string {
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = m.name + ":" + m.value
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// unquote returns a plain ASCII name without its quotes.
func unquote(q string) string { return q[1 : len(q)-1] }

// swapCase turns the first letter of name to the other case: "text" is
// "Text", "Id" would be "id".
func swapCase(name string) string {
	r := rune(name[0])
	if unicode.IsUpper(r) {
		return string(unicode.ToLower(r)) + name[1:]
	}
	return string(unicode.ToUpper(r)) + name[1:]
}

// kebab writes a member name in an id: "environmentId" is
// "environment-id".
func kebab(name string) string {
	var b strings.Builder
	for _, r := range name {
		if unicode.IsUpper(r) {
			b.WriteByte('-')
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}
