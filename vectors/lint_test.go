package vectors_test

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/conform-suite/conform/internal/coverage"
	"github.com/conform-suite/conform/internal/schemaset"
	"github.com/conform-suite/conform/spec"
	"github.com/conform-suite/conform/vectors"
)

// TestSchema validates every vector file against schemas/vector.schema.json,
// and every vector's input and expected outputs against its op's schema: a
// vector that expects a protocol error has an input that fails the op's input
// schema, and every other vector's input passes it.
func TestSchema(t *testing.T) {
	set, err := schemaset.Load()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	err = fs.WalkDir(vectors.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".json" {
			return err
		}
		n++
		data, err := fs.ReadFile(vectors.FS(), p)
		if err != nil {
			return err
		}
		if err := set.Validate("vector.schema.json", "", data); err != nil {
			t.Errorf("%s: %v", p, err)
			return nil
		}
		f, err := vectors.Parse(p, data)
		if err != nil {
			t.Error(err)
			return nil
		}
		opFile := "ops/" + f.Op + ".json"
		if !set.Has(opFile) {
			t.Errorf("%s: op %s has no schema schemas/%s", p, f.Op, opFile)
			return nil
		}
		for _, v := range f.Vectors {
			err := set.Validate(opFile, "/$defs/input", v.Input)
			switch {
			case v.InputText != "" && v.Expect.Error == nil:
				t.Errorf("%s: %s: an input that names a member twice is malformed (PROTO-ERROR-003): expect error kind bad_request", p, v.ID)
			case v.InputText != "":
				// A schema validator reads one of the two members: the
				// input is malformed for naming one twice, which it cannot see.
			case v.Expect.Error != nil && err == nil:
				t.Errorf("%s: %s: expects error kind %s, but its input passes the op's input schema: a malformed input fails the schema", p, v.ID, v.Expect.Error.Kind)
			case v.Expect.Error == nil && err != nil:
				t.Errorf("%s: %s: input: %v", p, v.ID, err)
			}
			for _, o := range v.AllowedOutputs() {
				if err := set.Validate(opFile, "/$defs/output", o); err != nil {
					t.Errorf("%s: %s: expected output: %v", p, v.ID, err)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no vector files found")
	}
}

var modal = regexp.MustCompile(`(?i)\b(should|must|shall)\b`)

// TestLint checks the corpus beyond what a schema can say: ids unique,
// descriptions unique per file and free of modal verbs, every requirement
// named exists, and every requirement of the spec is exercised.
func TestLint(t *testing.T) {
	c, err := vectors.Load(vectors.FS())
	if err != nil {
		t.Fatal(err)
	}
	s, err := spec.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	produced := map[string]bool{}
	defined := map[string]bool{}
	withdrawn := map[string]bool{}
	for _, code := range s.Codes {
		defined[code.Code] = !code.Withdrawn
		withdrawn[code.Code] = code.Withdrawn
	}
	for _, f := range c.Files {
		descs := map[string]string{}
		for _, v := range f.Vectors {
			if prev, dup := descs[v.Description]; dup {
				t.Errorf("%s: %s: description %q already used by %s", f.Path, v.ID, v.Description, prev)
			}
			descs[v.Description] = v.ID
			if modal.MatchString(v.Description) {
				t.Errorf("%s: %s: description %q uses a modal verb: say what the vector does", f.Path, v.ID, v.Description)
			}
			for _, code := range refusalCodes(t, v) {
				produced[code] = true
				switch {
				case withdrawn[code]:
					t.Errorf("%s: %s: code %s is withdrawn: no vector produces it", f.Path, v.ID, code)
				case !defined[code]:
					t.Errorf("%s: %s: code %s is in no Rejection codes table of spec/", f.Path, v.ID, code)
				}
			}
		}
	}
	scenarios, err := coverage.Scenarios(os.DirFS(filepath.Join("..", "features")))
	if err != nil {
		t.Fatal(err)
	}
	cov := coverage.Build(s, c, scenarios)
	for _, u := range cov.Undefined {
		t.Errorf("%s: requirement %s is not defined in spec/", u.By, u.ID)
	}
	for _, code := range s.Codes {
		if !produced[code.Code] && !code.Withdrawn {
			t.Errorf("%s:%d: rejection code %s is produced by no vector", code.File, code.Line, code.Code)
		}
	}
	for _, id := range cov.Unexercised {
		r, _ := s.Lookup(id)
		t.Errorf("%s:%d: requirement %s (%s) is exercised by no vector and no scenario", r.File, r.Line, r.ID, r.Level)
	}
	for _, id := range cov.Vectorless {
		r, _ := s.Lookup(id)
		t.Errorf("%s:%d: requirement %s (%s) is named by no vector: a scenario alone does not pin a mandatory rule of an op", r.File, r.Line, r.ID, r.Level)
	}
}

// refusalCodes returns the codes of the refusals ("rejected" or "dropped")
// in a vector's expected outputs.
func refusalCodes(t *testing.T, v *vectors.Vector) []string {
	var codes []string
	for _, o := range v.AllowedOutputs() {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(o, &m); err != nil {
			t.Errorf("%s: expected output is not an object: %v", v.ID, err)
			continue
		}
		for _, k := range []string{"rejected", "dropped"} {
			var r struct {
				Code string `json:"code"`
			}
			if raw, ok := m[k]; ok {
				if err := json.Unmarshal(raw, &r); err != nil || r.Code == "" {
					t.Errorf("%s: expected %s carries no code", v.ID, k)
					continue
				}
				codes = append(codes, r.Code)
			}
		}
	}
	return codes
}

// TestNoRepeatedRequest: no two vectors of an op send the same request (the
// same input bytes, member order kept, whitespace aside). A second one
// judges nothing the first does not, and counts a failure twice.
func TestNoRepeatedRequest(t *testing.T) {
	c, err := vectors.Load(vectors.FS())
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{} // op and request bytes -> vector id
	for _, v := range c.Vectors() {
		req := v.InputText
		if req == "" {
			var b bytes.Buffer
			if err := json.Compact(&b, v.Input); err != nil {
				t.Fatalf("%s: %v", v.ID, err)
			}
			req = b.String()
		}
		key := v.Op + "\n" + req
		if first, ok := seen[key]; ok {
			t.Errorf("%s sends the request of %s: %s", v.ID, first, req)
			continue
		}
		seen[key] = v.ID
	}
}
