// Package schemaset compiles the JSON Schemas embedded in package schemas,
// each under its $id, and validates JSON documents against them. It serves
// conform doctor and the tests that check messages and reports.
package schemaset

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/conform-suite/conform/schemas"
)

// Base is the $id prefix of every schema in schemas/.
const Base = "https://conform-suite.github.io/schemas/"

// Set compiles schemas on demand and caches them.
type Set struct {
	c     *jsonschema.Compiler
	cache map[string]*jsonschema.Schema
	files map[string]bool
}

// Load reads every schema of schemas.FS().
func Load() (*Set, error) {
	s := &Set{c: jsonschema.NewCompiler(), cache: map[string]*jsonschema.Schema{}, files: map[string]bool{}}
	s.c.DefaultDraft(jsonschema.Draft2020)
	err := fs.WalkDir(schemas.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Ext(p) != ".json" {
			return err
		}
		data, err := fs.ReadFile(schemas.FS(), p)
		if err != nil {
			return err
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			return fmt.Errorf("schemas/%s: %w", p, err)
		}
		s.files[p] = true
		return s.c.AddResource(Base+p, doc)
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Has reports whether schemas/ holds file ("ops/quote.parse.json").
func (s *Set) Has(file string) bool { return s.files[file] }

// Validate checks the JSON document raw against file#pointer (pointer "" for
// the whole file). The error, if any, is on one line.
func (s *Set) Validate(file, pointer string, raw []byte) error {
	url := Base + file
	if pointer != "" {
		url += "#" + pointer
	}
	sch, ok := s.cache[url]
	if !ok {
		var err error
		if sch, err = s.c.Compile(url); err != nil {
			return fmt.Errorf("schema %s: %v", url, err)
		}
		s.cache[url] = sch
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return fmt.Errorf("not JSON: %v", err)
	}
	if err := sch.Validate(v); err != nil {
		return fmt.Errorf("%s", strings.Join(strings.Fields(err.Error()), " "))
	}
	return nil
}
