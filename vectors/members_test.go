package vectors_test

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/conform-suite/conform/internal/jsonv"
	"github.com/conform-suite/conform/schemas"
	"github.com/conform-suite/conform/vectors"
)

// The faults of PROTO-ERROR-005, which every object an op reads must meet
// in some vector expecting a bad request.
const (
	faultUnknown = "an unknown member"
	faultCase    = "a member in another case"
	faultTwice   = "a member named twice"
)

// TestMembersAtEveryLevel walks each op's input schema to the objects whose
// members it lists and closes (additionalProperties false), at every depth
// (PROTO-ERROR-005), and checks that for each the corpus holds a vector
// expecting bad_request whose input has an unknown member there, one with a
// member in another case there and one with a member named twice there.
func TestMembersAtEveryLevel(t *testing.T) {
	c, err := vectors.Load(vectors.FS())
	if err != nil {
		t.Fatal(err)
	}
	sc := &schemaSet{fsys: schemas.FS(), docs: map[string]map[string]any{}}
	seen := map[string]map[string]bool{} // "op input.parts[]" -> faults
	for _, v := range c.Vectors() {
		if v.Expect.Error == nil || v.Expect.Error.Kind != "bad_request" {
			continue
		}
		in, err := jsonv.Options{AllowDuplicateNames: true}.Parse(v.Input)
		if err != nil {
			continue // an input that is not JSON is another vector's business
		}
		node, file, err := sc.input(v.Op)
		if err != nil {
			t.Fatal(err)
		}
		sc.faults(in, node, file, v.Op+" input", func(place, fault string) {
			if seen[place] == nil {
				seen[place] = map[string]bool{}
			}
			seen[place][fault] = true
		})
	}
	ops, err := fs.Glob(schemas.FS(), "ops/*.json")
	if err != nil {
		t.Fatal(err)
	}
	places := 0
	for _, p := range ops {
		op := strings.TrimSuffix(path.Base(p), ".json")
		node, file, err := sc.input(op)
		if err != nil {
			t.Fatal(err)
		}
		for _, place := range sc.closed(node, file, op+" input", 0) {
			places++
			for _, fault := range []string{faultUnknown, faultCase, faultTwice} {
				if !seen[place][fault] {
					t.Errorf("%s: no vector expecting bad_request has %s there", place, fault)
				}
			}
		}
	}
	if places < 29 {
		t.Errorf("found %d closed objects in the op schemas, want the 23 inputs and the objects inside them", places)
	}
}

// TestMembersWalkFindsNested holds the walk to the places PROTO-ERROR-005
// names, so that a walk that stops at the top level fails.
func TestMembersWalkFindsNested(t *testing.T) {
	sc := &schemaSet{fsys: schemas.FS(), docs: map[string]map[string]any{}}
	var got []string
	for _, op := range []string{"quote.comment", "quote.resolve", "marker.strip", "marker.stream", "marker.artifact", "selref.replay", "marker.locate"} {
		node, file, err := sc.input(op)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, sc.closed(node, file, op+" input", 0)...)
	}
	want := []string{"quote.comment input", "quote.comment input.citation", "quote.resolve input", "quote.resolve input.selector",
		"marker.strip input", "marker.strip input.parts[]", "marker.stream input", "marker.stream input.parts[]",
		"marker.artifact input", "selref.replay input", "marker.locate input"}
	if !slices.Equal(got, want) {
		t.Errorf("closed objects = %q\nwant %q", got, want)
	}
}

// schemaSet reads the op schemas and resolves their $refs (a file name and
// a JSON pointer, or a pointer into the same file).
type schemaSet struct {
	fsys fs.FS
	docs map[string]map[string]any
}

func (s *schemaSet) doc(file string) (map[string]any, error) {
	if d, ok := s.docs[file]; ok {
		return d, nil
	}
	data, err := fs.ReadFile(s.fsys, "ops/"+file)
	if err != nil {
		return nil, err
	}
	var d map[string]any
	if err := json.Unmarshal(data, &d); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	s.docs[file] = d
	return d, nil
}

func (s *schemaSet) input(op string) (map[string]any, string, error) {
	return s.ref(op+".json#/$defs/input", op+".json")
}

// ref resolves the reference r made in file.
func (s *schemaSet) ref(r, file string) (map[string]any, string, error) {
	f, ptr, _ := strings.Cut(r, "#")
	if f != "" {
		file = f
	}
	d, err := s.doc(file)
	if err != nil {
		return nil, "", err
	}
	var node any = d
	for _, step := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		m, ok := node.(map[string]any)
		if !ok || m[step] == nil {
			return nil, "", fmt.Errorf("%s: no %s", file, r)
		}
		node = m[step]
	}
	m, ok := node.(map[string]any)
	if !ok {
		return nil, "", fmt.Errorf("%s: %s is not a schema", file, r)
	}
	return m, file, nil
}

// resolve follows node's $ref, if any.
func (s *schemaSet) resolve(node map[string]any, file string) (map[string]any, string) {
	for node["$ref"] != nil {
		n, f, err := s.ref(node["$ref"].(string), file)
		if err != nil {
			panic(err)
		}
		node, file = n, f
	}
	return node, file
}

// properties returns the member schemas of an object schema, merged over
// its oneOf, anyOf and allOf branches, and whether it is closed.
func (s *schemaSet) properties(node map[string]any, file string) (map[string]any, bool) {
	node, file = s.resolve(node, file)
	props := map[string]any{}
	for name, p := range mapOf(node["properties"]) {
		props[name] = p
	}
	for _, k := range []string{"oneOf", "anyOf", "allOf"} {
		for _, b := range listOf(node[k]) {
			bp, _ := s.properties(mapOf(b), file)
			for name, p := range bp {
				props[name] = p
			}
		}
	}
	return props, node["additionalProperties"] == false && len(props) > 0
}

// closed lists the closed objects at and below node, by place.
func (s *schemaSet) closed(node map[string]any, file, place string, depth int) []string {
	node, file = s.resolve(node, file)
	if depth > 10 {
		return nil
	}
	var out []string
	props, closed := s.properties(node, file)
	if closed {
		out = append(out, place)
		names := make([]string, 0, len(props))
		for name := range props {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			out = append(out, s.closed(mapOf(props[name]), file, place+"."+name, depth+1)...)
		}
	}
	if items := mapOf(node["items"]); items != nil {
		out = append(out, s.closed(items, file, place+"[]", depth+1)...)
	}
	return out
}

// faults walks the value v along node and reports each fault of
// PROTO-ERROR-005 it finds in a closed object, by the object's place.
func (s *schemaSet) faults(v *jsonv.Value, node map[string]any, file, place string, report func(place, fault string)) {
	node, file = s.resolve(node, file)
	switch v.Type {
	case jsonv.Object:
		props, closed := s.properties(node, file)
		if !closed {
			return // a value the op carries: its members are not read (PROTO-ERROR-005)
		}
		names := map[string]bool{}
		for i := range v.Members {
			name := jsonv.Key(v.Members[i].Name)
			if names[name] {
				report(place, faultTwice)
			}
			names[name] = true
			p, known := props[name]
			switch {
			case known:
				s.faults(&v.Members[i].Value, mapOf(p), file, place+"."+name, report)
			case slices.ContainsFunc(keys(props), func(k string) bool { return strings.EqualFold(k, name) }):
				report(place, faultCase)
			default:
				report(place, faultUnknown)
			}
		}
	case jsonv.Array:
		if items := mapOf(node["items"]); items != nil {
			for i := range v.Elems {
				s.faults(&v.Elems[i], items, file, place+"[]", report)
			}
		}
	}
}

func mapOf(v any) map[string]any { m, _ := v.(map[string]any); return m }
func listOf(v any) []any         { l, _ := v.([]any); return l }

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
