package fuzz

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/conform-suite/conform/reference"
)

// descriptorOps returns the ops of the descriptor table, in its order.
func descriptorOps() []string {
	var ops []string
	for _, d := range opDescriptors {
		ops = append(ops, d.Op)
	}
	return ops
}

// TestOpListsMatchTheDescriptors holds every list of ops outside fuzz/ops.go
// to its table: the reference's dispatch and its hello, schemas/ops, the
// op table of spec/protocol.md and the generators.
func TestOpListsMatchTheDescriptors(t *testing.T) {
	ops := descriptorOps()
	if !slices.IsSorted(ops) || len(slices.Compact(slices.Clone(ops))) != len(ops) {
		t.Errorf("the descriptor table is not sorted by op without repeats: %v", ops)
	}
	schemas, _ := filepath.Glob("../schemas/ops/*.json")
	for i, p := range schemas {
		schemas[i] = strings.TrimSuffix(filepath.Base(p), ".json")
	}
	proto, err := os.ReadFile("../spec/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	var table []string
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z]+\\.[a-z_]+)` \\|").FindAllStringSubmatch(string(proto), -1) {
		table = append(table, m[1])
	}
	slices.Sort(table)
	for name, list := range map[string][]string{
		"reference.Ops (the dispatch)": reference.Ops(), "reference.Hello().Ops": reference.Hello().Ops,
		"schemas/ops": schemas, "spec/protocol.md's op table": table, "the generators (inputGens)": GeneratedOps(),
	} {
		if !slices.Equal(list, ops) {
			t.Errorf("%s lists %v; the descriptors (fuzz/ops.go) %v", name, list, ops)
		}
	}
}

// missingFacets names what an op's descriptor lacks without a reason: a
// generator, the coverage-guided target, fuzz kit properties, a schema.
func missingFacets(d OpDescriptor) []string {
	var out []string
	if !d.HasGenerator() {
		out = append(out, "an input generator")
	}
	if d.NoDifferential != "" && len(d.NoDifferential) < 20 {
		out = append(out, "a reason for having no coverage-guided target")
	}
	if len(d.Properties) == 0 && d.NoProperties == "" {
		out = append(out, "fuzz kit properties, or a reason for having none")
	}
	if _, err := os.Stat(filepath.Join("..", d.Schema())); err != nil {
		out = append(out, "a schema ("+d.Schema()+")")
	}
	for _, p := range d.Properties {
		if len(p.Requirements) == 0 {
			out = append(out, "a requirement for the property "+p.Text)
		}
	}
	return out
}

// TestEveryOpHasItsFacets: every op the reference offers has a generator,
// the coverage-guided target and fuzz kit properties, or its descriptor
// says why not; a descriptor without properties and without a reason
// fails the check.
func TestEveryOpHasItsFacets(t *testing.T) {
	for _, op := range reference.Ops() {
		d, ok := Descriptor(op)
		if !ok {
			t.Errorf("the reference offers %s, which has no descriptor in fuzz/ops.go", op)
			continue
		}
		for _, m := range missingFacets(d) {
			t.Errorf("%s lacks %s", op, m)
		}
	}
	liar := opDescriptors[0]
	liar.Properties = nil
	if m := missingFacets(liar); len(m) != 1 {
		t.Errorf("a descriptor of %s without properties or a reason: missing %q, want the properties named", liar.Op, m)
	}
}

// Schema returns the path of the op's schema in the repository.
func (d OpDescriptor) Schema() string { return "schemas/ops/" + d.Op + ".json" }

// HasGenerator reports whether the op has an input generator (gen_*.go).
func (d OpDescriptor) HasGenerator() bool { return inputGens[d.Op] != nil }
