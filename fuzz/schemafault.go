package fuzz

// This file generates inputs outside an op's shape on purpose, from the
// op's input schema (schemas/ops/OP.json): every object whose members the
// op reads (PROTO-ERROR-005: the input, and every object inside it that
// the schema lists and closes) gets each fault the protocol refuses as a
// bad request (PROTO-ERROR-003): an unknown member, a member name in
// another case, a member named twice, a required member missing and a
// member of the wrong type.

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"path"
	"slices"
	"strings"
	"unicode"

	"github.com/conform-suite/conform/internal/jsonv"
	"github.com/conform-suite/conform/schemas"
)

// Faults outside an op's shape.
const (
	faultUnknown = "unknown member"
	faultCase    = "member name in another case"
	faultTwice   = "member named twice"
	faultMissing = "required member missing"
	faultType    = "member of the wrong type"
)

// shape is what an op's input schema says of one value.
type shape struct {
	types    []string // the JSON types allowed ("integer" among them); nil: any value
	konst    any      // the one value allowed (const, or an enum's first), if any
	closed   bool     // an object whose members are listed and closed (additionalProperties false)
	props    map[string]*shape
	required []string
	items    *shape
}

// names returns the listed member names, sorted.
func (s *shape) names() []string { return slices.Sorted(maps.Keys(s.props)) }

// faultSite is one closed object of an op's input and the faults that
// apply to it; path leads to it from the input, a member name a step and
// "[]" an array's items.
type faultSite struct {
	path   []string
	shape  *shape
	faults []string
}

// inputShapes maps each op that has an input schema to the shape of its
// input, and faultSites to the closed objects of its input, in document
// order of the schema (members by name).
var inputShapes, faultSites = func() (map[string]*shape, map[string][]faultSite) {
	shapes, out := map[string]*shape{}, map[string][]faultSite{}
	files, err := fs.Glob(schemas.FS(), "ops/*.json")
	if err != nil {
		panic(err)
	}
	l := &schemaLoader{docs: map[string]map[string]any{}}
	for _, file := range files {
		op := strings.TrimSuffix(path.Base(file), ".json")
		in, err := l.shapeOf(file, "#/$defs/input", 0)
		if err != nil {
			panic(fmt.Sprintf("fuzz: the input schema of %s: %v", op, err)) // the embedded schemas are part of the program
		}
		shapes[op], out[op] = in, sitesOf(in, nil, nil)
	}
	return shapes, out
}()

// sitesOf appends the closed objects of s, at path p, and inside it.
func sitesOf(s *shape, p []string, out []faultSite) []faultSite {
	if s.closed {
		site := faultSite{path: slices.Clone(p), shape: s, faults: []string{faultUnknown, faultTwice}}
		if slices.ContainsFunc(s.names(), func(n string) bool { return strings.ToUpper(n) != n }) {
			site.faults = append(site.faults, faultCase)
		}
		if len(s.required) > 0 {
			site.faults = append(site.faults, faultMissing)
		}
		if slices.ContainsFunc(s.names(), func(n string) bool { return s.props[n].types != nil }) {
			site.faults = append(site.faults, faultType)
		}
		out = append(out, site)
		for _, n := range s.names() {
			out = sitesOf(s.props[n], append(p, n), out)
		}
	}
	if s.items != nil {
		out = sitesOf(s.items, append(p, "[]"), out)
	}
	return out
}

// schemaLoader reads the schemas of schemas.FS and resolves $ref.
type schemaLoader struct{ docs map[string]map[string]any }

// shapeOf returns the shape of the schema at ref ("#/$defs/input", or
// "other.json#/$defs/x") in file.
func (l *schemaLoader) shapeOf(file, ref string, depth int) (*shape, error) {
	if depth > 20 {
		return nil, fmt.Errorf("$ref %s: too deep", ref)
	}
	target, pointer, _ := strings.Cut(ref, "#")
	if target != "" {
		file = path.Join(path.Dir(file), target)
	}
	doc, ok := l.docs[file]
	if !ok {
		data, err := fs.ReadFile(schemas.FS(), file)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		l.docs[file] = doc
	}
	var node any = doc
	for _, step := range strings.Split(strings.TrimPrefix(pointer, "/"), "/") {
		m, ok := node.(map[string]any)
		if !ok || m[step] == nil {
			return nil, fmt.Errorf("%s#%s: no such schema", file, pointer)
		}
		node = m[step]
	}
	m, ok := node.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s#%s: not a schema object", file, pointer)
	}
	return l.shape(file, m, depth)
}

func (l *schemaLoader) shape(file string, m map[string]any, depth int) (*shape, error) {
	if ref, ok := m["$ref"].(string); ok {
		return l.shapeOf(file, ref, depth+1)
	}
	s := &shape{}
	switch t := m["type"].(type) {
	case string:
		s.types = []string{t}
	case []any:
		for _, e := range t {
			if name, ok := e.(string); ok {
				s.types = append(s.types, name)
			}
		}
	}
	if c, ok := m["const"]; ok {
		s.konst = c
	} else if e, ok := m["enum"].([]any); ok && len(e) > 0 {
		s.konst = e[0]
	}
	if s.types == nil && s.konst != nil {
		s.types = []string{typeOf(s.konst)}
	}
	if props, ok := m["properties"].(map[string]any); ok {
		s.props = map[string]*shape{}
		for name, p := range props {
			pm, ok := p.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("property %s: not a schema object", name)
			}
			ps, err := l.shape(file, pm, depth)
			if err != nil {
				return nil, fmt.Errorf("property %s: %w", name, err)
			}
			s.props[name] = ps
		}
	}
	s.closed = m["additionalProperties"] == false && s.props != nil
	for _, r := range asList(m["required"]) {
		if name, ok := r.(string); ok {
			s.required = append(s.required, name)
		}
	}
	if items, ok := m["items"].(map[string]any); ok {
		it, err := l.shape(file, items, depth)
		if err != nil {
			return nil, fmt.Errorf("items: %w", err)
		}
		s.items = it
	}
	return s, nil
}

func asList(v any) []any { l, _ := v.([]any); return l }

// typeOf is the JSON type of a value decoded by encoding/json.
func typeOf(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "boolean"
	case nil:
		return "null"
	case []any:
		return "array"
	}
	return "object"
}

// example returns a value the shape allows: its const, else a plain value
// of its first type, an object with its required members and an array of
// one item whose shape is closed (so that the objects inside are there to
// be faulted).
func (s *shape) example() *jsonv.Value {
	if s.konst != nil {
		data, _ := json.Marshal(s.konst)
		return jlit(string(data))
	}
	t := "string"
	if len(s.types) > 0 {
		t = s.types[0]
	}
	switch t {
	case "integer", "number":
		return jint(0)
	case "boolean":
		return jlit("true")
	case "null":
		return jlit("null")
	case "array":
		a := jarr()
		if s.items != nil && s.items.closed {
			a = jarr(s.items.example())
		}
		return a
	case "object":
		o := jobj()
		for _, n := range s.names() {
			if slices.Contains(s.required, n) {
				o.Members = append(o.Members, jsonv.Member{Name: jsonv.UnitsOf(n), Value: *s.props[n].example()})
			}
		}
		return o
	}
	return jstr("a")
}

// wrongTyped returns a value of none of the shape's types. Never null: the
// reference reads a null member as an absent one (SELREF-INGEST-001 says
// so of selref.ingest; elsewhere the schemas do not, and which reading is
// right is left to the specification), so a null is not certain to be
// outside the op's shape.
func (s *shape) wrongTyped(r *rand.Rand) *jsonv.Value {
	var out []*jsonv.Value
	for _, c := range []struct {
		types []string
		v     string
	}{
		{[]string{"string"}, `"1"`}, {[]string{"integer", "number"}, `1`}, {[]string{"boolean"}, `true`},
		{[]string{"array"}, `["a"]`}, {[]string{"object"}, `{}`},
	} {
		if !slices.ContainsFunc(c.types, func(t string) bool { return slices.Contains(s.types, t) }) {
			out = append(out, jlit(c.v))
		}
	}
	return pickOne(r, out)
}

// outsideSchema returns a copy of base (an input of op, usually valid)
// with one fault at one of the op's closed objects, chosen by r, and the
// site and fault chosen; nil when the op has no schema.
func outsideSchema(r *rand.Rand, op string, base *jsonv.Value) (*jsonv.Value, faultSite, string) {
	sites := faultSites[op]
	if len(sites) == 0 {
		return nil, faultSite{}, ""
	}
	site := pickOne(r, sites)
	fault := pickOne(r, site.faults)
	root := inputShapes[op]
	in := clone(base)
	if in.Type != jsonv.Object {
		in = root.example()
	}
	obj := reach(r, in, root, site.path)
	applyFault(r, obj, site.shape, fault)
	return in, site, fault
}

// reach returns the object at path p of v (of shape s), an element chosen
// by r for a step into an array's items, putting an example of the shape
// in where v holds none.
func reach(r *rand.Rand, v *jsonv.Value, s *shape, p []string) *jsonv.Value {
	for _, step := range p {
		if step == "[]" {
			s = s.items
			if v.Type != jsonv.Array {
				*v = *jarr()
			}
			if len(v.Elems) == 0 || !slices.ContainsFunc(v.Elems, func(e jsonv.Value) bool { return e.Type == jsonv.Object }) {
				v.Elems = append(v.Elems, *s.example())
			}
			for {
				if e := &v.Elems[r.IntN(len(v.Elems))]; e.Type == jsonv.Object {
					v = e
					break
				}
			}
			continue
		}
		s = s.props[step]
		m := member(v, step)
		if m == nil {
			v.Members = append(v.Members, jsonv.Member{Name: jsonv.UnitsOf(step), Value: *s.example()})
			m = &v.Members[len(v.Members)-1].Value
		}
		if want := s.example(); m.Type != want.Type {
			*m = *want
		}
		v = m
	}
	return v
}

// member returns the value of v's first member named name, or nil.
func member(v *jsonv.Value, name string) *jsonv.Value {
	for i := range v.Members {
		if jsonv.Key(v.Members[i].Name) == name {
			return &v.Members[i].Value
		}
	}
	return nil
}

// applyFault puts the fault into obj, a closed object of shape s.
func applyFault(r *rand.Rand, obj *jsonv.Value, s *shape, fault string) {
	names := s.names()
	add := func(name string, v *jsonv.Value) {
		i := r.IntN(len(obj.Members) + 1)
		obj.Members = slices.Insert(obj.Members, i, jsonv.Member{Name: jsonv.UnitsOf(name), Value: *v})
	}
	present := func(keep func(string) bool) []int {
		var idx []int
		for i, m := range obj.Members {
			if n := jsonv.Key(m.Name); s.props[n] != nil && keep(n) {
				idx = append(idx, i)
			}
		}
		return idx
	}
	switch fault {
	case faultUnknown:
		name := pickOne(r, []string{"grease", "x", "extra_member", "__proto__", pickOne(r, names) + "_"})
		add(name, pickOne(r, []*jsonv.Value{jstr("a"), jint(1), jlit("null"), jlit("{}"), jlit("true")}))
	case faultCase:
		cased := func(n string) bool { return strings.ToUpper(n) != n }
		idx := present(cased)
		if len(idx) == 0 {
			n := pickOne(r, slices.DeleteFunc(slices.Clone(names), func(n string) bool { return !cased(n) }))
			add(n, s.props[n].example())
			idx = present(func(m string) bool { return m == n })
		}
		m := &obj.Members[pickOne(r, idx)]
		m.Name = jsonv.UnitsOf(otherCase(r, jsonv.Key(m.Name)))
	case faultTwice:
		idx := present(func(string) bool { return true })
		if len(idx) == 0 {
			n := pickOne(r, names)
			add(n, s.props[n].example())
			idx = present(func(m string) bool { return m == n })
		}
		m := obj.Members[pickOne(r, idx)]
		again := clone(&m.Value)
		if r.IntN(2) == 0 {
			again = s.props[jsonv.Key(m.Name)].example()
		}
		add(jsonv.Key(m.Name), again)
	case faultMissing:
		n := pickOne(r, s.required)
		obj.Members = slices.DeleteFunc(obj.Members, func(m jsonv.Member) bool { return jsonv.Key(m.Name) == n })
	case faultType:
		typed := slices.DeleteFunc(slices.Clone(names), func(n string) bool { return s.props[n].types == nil })
		n := pickOne(r, typed)
		if v := member(obj, n); v != nil {
			*v = *s.props[n].wrongTyped(r)
		} else {
			add(n, s.props[n].wrongTyped(r))
		}
	}
}

// otherCase returns name with the case of its letters changed: all upper,
// or its first cased letter flipped.
func otherCase(r *rand.Rand, name string) string {
	if up := strings.ToUpper(name); up != name && r.IntN(2) == 0 {
		return up
	}
	rs := []rune(name)
	for i, c := range rs {
		if unicode.IsLower(c) {
			rs[i] = unicode.ToUpper(c)
			return string(rs)
		}
		if unicode.IsUpper(c) {
			rs[i] = unicode.ToLower(c)
			return string(rs)
		}
	}
	return strings.ToUpper(name)
}
