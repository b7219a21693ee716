// Package vectors holds conform's test vectors: one or more JSON files per op
// under <suite>/, each validating against schemas/vector.schema.json. The
// corpus is embedded, so the runner needs no source tree; consumers in other
// languages read the same files from disk.
package vectors

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
)

//go:embed quote marker selref
var files embed.FS

// FS returns the embedded corpus.
func FS() fs.FS { return files }

// File is one vector file: the cases of one op.
type File struct {
	Path        string    `json:"-"`
	Note        string    `json:"//,omitempty"`
	Op          string    `json:"op"`
	Description string    `json:"description"`
	Vectors     []*Vector `json:"vectors"`
}

// Vector is one case.
type Vector struct {
	ID           string          `json:"id"`
	Description  string          `json:"description"`
	Requirements []string        `json:"requirements"`
	Tags         []string        `json:"tags,omitempty"`
	Input        json.RawMessage `json:"input"`
	Expect       Expect          `json:"expect"`

	// Op and File are filled in by Load from the enclosing file.
	Op   string `json:"-"`
	File string `json:"-"`
}

// Expect is a vector's expectation: the exact Output, or, for an
// implementation-defined point, one output per value of Choice.
type Expect struct {
	Output  json.RawMessage            `json:"output,omitempty"`
	Choice  string                     `json:"choice,omitempty"`
	Outputs map[string]json.RawMessage `json:"outputs,omitempty"`
}

// Suite returns the suite of the vector's op ("quote" for "quote.parse").
func (v *Vector) Suite() string { s, _, _ := strings.Cut(v.Op, "."); return s }

// HasTag reports whether the vector carries tag.
func (v *Vector) HasTag(tag string) bool { return slices.Contains(v.Tags, tag) }

// Corpus is every vector file of a tree, in path order.
type Corpus struct {
	Files []*File
}

// Vectors returns every vector of the corpus in file order.
func (c *Corpus) Vectors() []*Vector {
	var all []*Vector
	for _, f := range c.Files {
		all = append(all, f.Vectors...)
	}
	return all
}

// Lookup returns the vector with the given id, or nil.
func (c *Corpus) Lookup(id string) *Vector {
	for _, f := range c.Files {
		for _, v := range f.Vectors {
			if v.ID == id {
				return v
			}
		}
	}
	return nil
}

// Load reads every *.json file below the root of fsys as a vector file.
// Decoding is strict: an unknown member, a vector id that does not start with
// its file's op, or an id used twice is an error naming the file. Load
// reports every problem it finds, not only the first.
func Load(fsys fs.FS) (*Corpus, error) {
	var (
		c    Corpus
		errs []error
		ids  = map[string]string{}
	)
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || path.Ext(p) != ".json" {
			return nil
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			errs = append(errs, err)
			return nil
		}
		f, err := Parse(p, data)
		if err != nil {
			errs = append(errs, err)
			return nil
		}
		for _, v := range f.Vectors {
			if prev, dup := ids[v.ID]; dup {
				errs = append(errs, fmt.Errorf("vectors: %s: id %s already used in %s", p, v.ID, prev))
			}
			ids[v.ID] = p
		}
		c.Files = append(c.Files, f)
		return nil
	})
	if err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return &c, nil
}

// Parse decodes one vector file. name is used in errors only.
func Parse(name string, data []byte) (*File, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f File
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("vectors: %s: %w", name, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("vectors: %s: trailing data after the top-level object", name)
	}
	f.Path = name
	var errs []error
	if f.Op == "" {
		errs = append(errs, fmt.Errorf("vectors: %s: missing op", name))
	}
	for i, v := range f.Vectors {
		if v == nil {
			errs = append(errs, fmt.Errorf("vectors: %s: vector %d is null", name, i))
			continue
		}
		v.Op, v.File = f.Op, name
		if !strings.HasPrefix(v.ID, f.Op+"/") {
			errs = append(errs, fmt.Errorf("vectors: %s: vector %d: id %q does not start with %q", name, i, v.ID, f.Op+"/"))
		}
		if len(v.Expect.Output) == 0 && (v.Expect.Choice == "" || len(v.Expect.Outputs) == 0) {
			errs = append(errs, fmt.Errorf("vectors: %s: %s: expect has neither output nor choice with outputs", name, v.ID))
		}
	}
	f.Vectors = slices.DeleteFunc(f.Vectors, func(v *Vector) bool { return v == nil })
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return &f, nil
}
