package spec

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/conform-suite/conform/reference"
	"github.com/conform-suite/conform/schemas"
)

// The Ops table of protocol.md is checked against the two things it
// describes: the op schemas in schemas/ops and the ops the reference
// answers. A new op, a renamed one, or a member added to a schema without
// the table following fails here.

// opRow is one row of the Ops table.
type opRow struct {
	op, input, output, chapter, schema string
	line                               int
}

var opTableRow = regexp.MustCompile("^\\|\\s*`([a-z]+(?:\\.[a-z_]+)?)`\\s*\\|(.*)\\|(.*)\\|\\s*\\[([^\\]]+)\\]\\([^)]*\\)\\s*\\|\\s*`([^`]+)`\\s*\\|\\s*$")

func readOpTable(t *testing.T) []opRow {
	t.Helper()
	data, err := fs.ReadFile(FS(), "protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	var (
		rows    []opRow
		section string
	)
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if m := heading.FindStringSubmatch(line); m != nil {
			section = m[1]
			continue
		}
		if section != "Ops" || !strings.HasPrefix(line, "|") || strings.HasPrefix(line, "| op ") || strings.HasPrefix(line, "|---") {
			continue
		}
		m := opTableRow.FindStringSubmatch(line)
		if m == nil {
			t.Errorf("protocol.md:%d: a row of the Ops table must read | `op` | input | output | [chapter](link) | `schema file` |: %q", n, line)
			continue
		}
		rows = append(rows, opRow{op: m[1], input: strings.TrimSpace(m[2]), output: strings.TrimSpace(m[3]), chapter: m[4], schema: m[5], line: n})
	}
	if len(rows) == 0 {
		t.Fatal("protocol.md has no Ops table under a heading \"Ops\"")
	}
	return rows
}

func TestOpTableListsEveryOp(t *testing.T) {
	rows := readOpTable(t)
	var table []string
	for _, r := range rows {
		if slices.Contains(table, r.op) {
			t.Errorf("protocol.md:%d: op %s listed twice", r.line, r.op)
		}
		table = append(table, r.op)
	}
	slices.Sort(table)

	files, err := fs.Glob(schemas.FS(), "ops/*.json")
	if err != nil {
		t.Fatal(err)
	}
	withSchema := []string{"hello"}
	for _, f := range files {
		withSchema = append(withSchema, strings.TrimSuffix(path.Base(f), ".json"))
	}
	slices.Sort(withSchema)
	if !slices.Equal(table, withSchema) {
		t.Errorf("the Ops table of protocol.md against hello and the ops with a schema in schemas/ops: %s", setDiff(table, withSchema))
	}

	answered := append([]string{"hello"}, reference.Ops()...)
	slices.Sort(answered)
	if !slices.Equal(table, answered) {
		t.Errorf("the Ops table of protocol.md against hello and the ops the reference answers: %s", setDiff(table, answered))
	}
}

// setDiff says what a table lists that want lacks, and the reverse.
func setDiff(table, want []string) string {
	var extra, missing []string
	for _, op := range table {
		if !slices.Contains(want, op) {
			extra = append(extra, op)
		}
	}
	for _, op := range want {
		if !slices.Contains(table, op) {
			missing = append(missing, op)
		}
	}
	return fmt.Sprintf("listed but unknown %v, missing %v", extra, missing)
}

func TestOpTableChaptersAndSchemas(t *testing.T) {
	for _, r := range readOpTable(t) {
		want := "schemas/ops/" + r.op + ".json"
		if r.op == "hello" {
			want = "schemas/protocol.schema.json"
		}
		if r.schema != want {
			t.Errorf("protocol.md:%d: %s: schema %q, want %q", r.line, r.op, r.schema, want)
		}
		data, err := fs.ReadFile(FS(), r.chapter)
		if err != nil {
			t.Errorf("protocol.md:%d: %s: chapter %s: %v", r.line, r.op, r.chapter, err)
			continue
		}
		if !strings.Contains(string(data), "`"+r.op+"`") && !strings.Contains(string(data), `"op": "`+r.op+`"`) {
			t.Errorf("protocol.md:%d: %s: chapter %s never names the op", r.line, r.op, r.chapter)
		}
	}
}

func TestOpTableShapesMatchSchemas(t *testing.T) {
	sl := &schemaLoader{files: map[string]any{}}
	for _, r := range readOpTable(t) {
		file, in, out := "ops/"+r.op+".json", "#/$defs/input", "#/$defs/output"
		if r.op == "hello" {
			file, in, out = "protocol.schema.json", "#/$defs/hello_input", "#/$defs/hello_output"
		}
		for _, side := range []struct{ name, cell, ref string }{{"input", r.input, in}, {"output", r.output, out}} {
			shapes, err := parseShapes(side.cell)
			if err != nil {
				t.Errorf("protocol.md:%d: %s %s %q: %v", r.line, r.op, side.name, side.cell, err)
				continue
			}
			sch, err := sl.resolve(file, side.ref)
			if err != nil {
				t.Errorf("protocol.md:%d: %s: %v", r.line, r.op, err)
				continue
			}
			for _, p := range sl.matchAlternatives(shapes, sch, side.name) {
				t.Errorf("protocol.md:%d: %s: %s", r.line, r.op, p)
			}
		}
	}
}

// A shape is an object of the table's short form: {a, b?: {c}, d: [{e}]}.
type shape struct{ members []member }

type member struct {
	name     string
	optional bool
	object   *shape // {…} or [{…}]
	array    bool   // the value is [{…}]
	literal  string // true, false or null
}

func (s shape) names() []string {
	var n []string
	for _, m := range s.members {
		n = append(n, m.name)
	}
	slices.Sort(n)
	return n
}

// parseShapes reads the objects of a table cell: code spans hold them, and
// the words between them ("or") are prose.
func parseShapes(cell string) ([]shape, error) {
	var out []shape
	for _, span := range codeSpan.FindAllString(cell, -1) {
		p := &shapeParser{s: strings.Trim(span, "`")}
		sh, err := p.object()
		if err != nil {
			return nil, err
		}
		if p.skip(); p.i != len(p.s) {
			return nil, fmt.Errorf("trailing %q after a shape", p.s[p.i:])
		}
		out = append(out, sh)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no shape in a code span")
	}
	return out, nil
}

type shapeParser struct {
	s string
	i int
}

func (p *shapeParser) skip() {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
}

func (p *shapeParser) eat(c byte) bool {
	if p.skip(); p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *shapeParser) ident() string {
	p.skip()
	j := p.i
	for p.i < len(p.s) && (p.s[p.i] == '_' || '0' <= p.s[p.i] && p.s[p.i] <= '9' || 'a' <= p.s[p.i] && p.s[p.i] <= 'z' || 'A' <= p.s[p.i] && p.s[p.i] <= 'Z') {
		p.i++
	}
	return p.s[j:p.i]
}

func (p *shapeParser) object() (shape, error) {
	var sh shape
	if !p.eat('{') {
		return sh, fmt.Errorf("want { at %q", p.s[p.i:])
	}
	for {
		m := member{name: p.ident()}
		if m.name == "" {
			return sh, fmt.Errorf("want a member name at %q", p.s[p.i:])
		}
		m.optional = p.eat('?')
		if p.eat(':') {
			switch p.skip(); {
			case p.i < len(p.s) && p.s[p.i] == '{':
				o, err := p.object()
				if err != nil {
					return sh, err
				}
				m.object = &o
			case p.eat('['):
				o, err := p.object()
				if err != nil {
					return sh, err
				}
				if !p.eat(']') {
					return sh, fmt.Errorf("want ] at %q", p.s[p.i:])
				}
				m.object, m.array = &o, true
			default:
				m.literal = p.ident()
				if m.literal != "true" && m.literal != "false" && m.literal != "null" {
					return sh, fmt.Errorf("member %s: want an object, [object], true, false or null", m.name)
				}
			}
		}
		sh.members = append(sh.members, m)
		if p.eat('}') {
			return sh, nil
		}
		if !p.eat(',') {
			return sh, fmt.Errorf("want , or } at %q", p.s[p.i:])
		}
	}
}

// schemaLoader reads the embedded schemas and follows $ref between them.
type schemaLoader struct{ files map[string]any }

// located is a schema with the file its relative $refs start from.
type located struct {
	file string
	s    map[string]any
}

func (l *schemaLoader) resolve(file, ref string) (located, error) {
	target, frag, _ := strings.Cut(ref, "#")
	if target != "" {
		file = path.Join(path.Dir(file), target)
	}
	doc, ok := l.files[file]
	if !ok {
		data, err := fs.ReadFile(schemas.FS(), file)
		if err != nil {
			return located{}, fmt.Errorf("$ref %s: %v", ref, err)
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			return located{}, fmt.Errorf("%s: %v", file, err)
		}
		l.files[file] = doc
	}
	for _, tok := range strings.Split(strings.TrimPrefix(frag, "/"), "/") {
		if tok == "" {
			continue
		}
		obj, ok := doc.(map[string]any)
		if !ok {
			return located{}, fmt.Errorf("%s#%s: not an object at %q", file, frag, tok)
		}
		doc, ok = obj[strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")]
		if !ok {
			return located{}, fmt.Errorf("%s#%s: no member %q", file, frag, tok)
		}
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return located{}, fmt.Errorf("%s#%s is not a schema object", file, frag)
	}
	return l.deref(located{file, obj})
}

func (l *schemaLoader) deref(s located) (located, error) {
	if ref, ok := s.s["$ref"].(string); ok {
		return l.resolve(s.file, ref)
	}
	return s, nil
}

// alternative is one object shape a schema allows: its members and which
// of them are required.
type alternative struct {
	props    map[string]located
	required []string
}

func (a alternative) names() []string {
	var n []string
	for k := range a.props {
		n = append(n, k)
	}
	slices.Sort(n)
	return n
}

func strs(v any) []string {
	var out []string
	for _, x := range asSlice(v) {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func asSlice(v any) []any { a, _ := v.([]any); return a }

func (l *schemaLoader) alternatives(s located) ([]alternative, error) {
	s, err := l.deref(s)
	if err != nil {
		return nil, err
	}
	props := func(s located) (map[string]located, error) {
		out := map[string]located{}
		pm, _ := s.s["properties"].(map[string]any)
		for k, v := range pm {
			o, _ := v.(map[string]any)
			d, err := l.deref(located{s.file, o})
			if err != nil {
				return nil, err
			}
			out[k] = d
		}
		return out, nil
	}
	oneOf := asSlice(s.s["oneOf"])
	if len(oneOf) == 0 {
		p, err := props(s)
		return []alternative{{props: p, required: strs(s.s["required"])}}, err
	}
	shaped := slices.ContainsFunc(oneOf, func(x any) bool {
		o, _ := x.(map[string]any)
		_, ref := o["$ref"]
		_, pr := o["properties"]
		return ref || pr
	})
	if shaped { // each branch is an object of its own
		var out []alternative
		for _, x := range oneOf {
			o, _ := x.(map[string]any)
			alts, err := l.alternatives(located{s.file, o})
			if err != nil {
				return nil, err
			}
			out = append(out, alts...)
		}
		return out, nil
	}
	// The branches only say which members are required: each branch is the
	// object without the members that only the other branches require.
	all, err := props(s)
	if err != nil {
		return nil, err
	}
	var out []alternative
	for i, x := range oneOf {
		o, _ := x.(map[string]any)
		mine := strs(o["required"])
		a := alternative{props: map[string]located{}, required: append(strs(s.s["required"]), mine...)}
		for k, v := range all {
			other := false
			for j, y := range oneOf {
				oy, _ := y.(map[string]any)
				if j != i && slices.Contains(strs(oy["required"]), k) && !slices.Contains(mine, k) {
					other = true
				}
			}
			if !other {
				a.props[k] = v
			}
		}
		out = append(out, a)
	}
	return out, nil
}

// matchAlternatives pairs each shape of a cell with one object the schema
// allows, member for member, and says what does not match.
func (l *schemaLoader) matchAlternatives(shapes []shape, s located, where string) []string {
	alts, err := l.alternatives(s)
	if err != nil {
		return []string{err.Error()}
	}
	var problems []string
	used := make([]bool, len(alts))
	for _, sh := range shapes {
		found := false
		for i, a := range alts {
			if used[i] || !slices.Equal(sh.names(), a.names()) {
				continue
			}
			used[i], found = true, true
			problems = append(problems, l.matchMembers(sh, a, where)...)
			break
		}
		if !found {
			var allowed []string
			for _, a := range alts {
				allowed = append(allowed, fmt.Sprint(a.names()))
			}
			problems = append(problems, fmt.Sprintf("%s: the shape with members %v is none of the schema's objects %v", where, sh.names(), allowed))
		}
	}
	for i, a := range alts {
		if !used[i] {
			problems = append(problems, fmt.Sprintf("%s: the schema allows an object with members %v that the table does not show", where, a.names()))
		}
	}
	return problems
}

func (l *schemaLoader) matchMembers(sh shape, a alternative, where string) []string {
	var problems []string
	for _, m := range sh.members {
		at := where + "." + m.name
		if req := slices.Contains(a.required, m.name); req == m.optional {
			problems = append(problems, fmt.Sprintf("%s: marked optional %v, but required by the schema is %v", at, m.optional, req))
		}
		ps := a.props[m.name]
		switch {
		case m.literal != "":
			want := map[string]any{"true": true, "false": false}[m.literal]
			if m.literal == "null" {
				if ps.s["type"] != "null" {
					problems = append(problems, fmt.Sprintf("%s: shown null, schema type %v", at, ps.s["type"]))
				}
			} else if c, ok := ps.s["const"]; !ok || !reflect.DeepEqual(c, want) {
				problems = append(problems, fmt.Sprintf("%s: shown %s, schema const %v", at, m.literal, c))
			}
		case m.array:
			items, _ := ps.s["items"].(map[string]any)
			if items == nil {
				problems = append(problems, fmt.Sprintf("%s: shown as an array of objects, the schema has no items", at))
				continue
			}
			problems = append(problems, l.matchAlternatives([]shape{*m.object}, located{ps.file, items}, at+"[]")...)
		case m.object != nil:
			problems = append(problems, l.matchAlternatives([]shape{*m.object}, ps, at)...)
		}
	}
	return problems
}
