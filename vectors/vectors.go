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
	"maps"
	"path"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/conform-suite/conform/internal/jsonv"
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
	Input        json.RawMessage `json:"input,omitempty"`
	// InputText is the input as JSON text, sent byte for byte, for an input
	// a vector file cannot hold as a value: one that names a member twice.
	// A vector gives input or input_text; Parse sets Input from it.
	InputText   string        `json:"input_text,omitempty"`
	Expect      Expect        `json:"expect"`
	Divergences []*Divergence `json:"divergences,omitempty"`

	// Op and File are filled in by Load from the enclosing file.
	Op   string `json:"-"`
	File string `json:"-"`
}

// Expect is a vector's expectation: the exact Output, or, for an
// implementation-defined point, one output per value of Choice, or a
// protocol error answer of the kind Error.Kind (its message, if any, is
// never compared).
type Expect struct {
	Output  json.RawMessage            `json:"output,omitempty"`
	Choice  string                     `json:"choice,omitempty"`
	Outputs map[string]json.RawMessage `json:"outputs,omitempty"`
	Error   *ExpectError               `json:"error,omitempty"`
}

// ExpectError is an expected protocol error answer: only its kind is
// compared.
type ExpectError struct {
	Kind string `json:"kind"`
}

// ErrorKinds are the error kinds a vector may expect. "unsupported" and
// "internal" are not among them: the first means an op is not offered and the
// second a fault, neither an answer the spec can require.
var ErrorKinds = []string{"bad_request"}

// Systems are the real systems a divergence may name: "seed" (what a seed
// document states), "t3code" (T3 Code's citation functions) and "vance"
// (vance's selection-reference classes).
var Systems = []string{"seed", "t3code", "vance"}

// DivergencePrefix starts the tag derived from a divergence record:
// "divergence:t3code". Such tags are never written in a vector file.
const DivergencePrefix = "divergence:"

// Divergence records what a named real system answers to a vector where its
// answer differs from the standard expectation.
type Divergence struct {
	System string `json:"system"`
	Record
}

// Record is a system's recorded answer to a vector: exactly one of Output
// or Error, kept as written (escapes included), and a one-line reason. A
// vector file keys it by system (Divergence), a profile file by vector
// (ProfileRecord).
type Record struct {
	Reason string          `json:"reason"`
	Output json.RawMessage `json:"output,omitempty"`
	Error  *AnswerError    `json:"error,omitempty"`
}

// AnswerError is a recorded protocol error answer: its kind, and the message
// the system gave (for people; never compared).
type AnswerError struct {
	Kind    string `json:"kind"`
	Message string `json:"message,omitempty"`
}

// Answer returns the recorded answer as a protocol answer body without its
// id: {"output": ...} or {"error": ...}.
func (r *Record) Answer() json.RawMessage {
	if r.Error != nil {
		e, _ := json.Marshal(map[string]*AnswerError{"error": r.Error})
		return e
	}
	return json.RawMessage(`{"output":` + string(r.Output) + `}`)
}

// Divergence returns the answer that system is recorded to give to the
// vector, or nil when the system is recorded to answer as expected.
func (v *Vector) Divergence(system string) *Divergence {
	for _, d := range v.Divergences {
		if d.System == system {
			return d
		}
	}
	return nil
}

// MarshalJSON writes the vector as a vector file holds it.
func (v *Vector) MarshalJSON() ([]byte, error) {
	type plain Vector
	p := plain(*v)
	if p.InputText != "" {
		p.Input = nil // it is input_text's
	}
	return jsonv.Marshal(&p)
}

// Suite returns the suite of the vector's op ("quote" for "quote.parse").
func (v *Vector) Suite() string { s, _, _ := strings.Cut(v.Op, "."); return s }

// AllowedOutputs returns every output the vector accepts: its Output, or
// its Outputs, one per value of Choice, in the order of the values. A vector
// expecting a protocol error has none.
func (v *Vector) AllowedOutputs() []json.RawMessage {
	if v.Expect.Output != nil {
		return []json.RawMessage{v.Expect.Output}
	}
	outs := make([]json.RawMessage, 0, len(v.Expect.Outputs))
	for _, value := range slices.Sorted(maps.Keys(v.Expect.Outputs)) {
		outs = append(outs, v.Expect.Outputs[value])
	}
	return outs
}

// AllTags returns the vector's tags followed by the tag
// "divergence:<system>" of each of its divergence records.
func (v *Vector) AllTags() []string {
	tags := slices.Clone(v.Tags)
	for _, d := range v.Divergences {
		tags = append(tags, DivergencePrefix+d.System)
	}
	return tags
}

// HasTag reports whether the vector carries tag, including the tags
// "divergence:<system>" derived from its divergence records.
func (v *Vector) HasTag(tag string) bool { return slices.Contains(v.AllTags(), tag) }

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

// Divergent returns the vectors that record a divergence for system, in
// file order.
func (c *Corpus) Divergent(system string) []*Vector {
	return slices.DeleteFunc(c.Vectors(), func(v *Vector) bool { return v.Divergence(system) == nil })
}

// Lookup returns the vector with the given id, or nil.
func (c *Corpus) Lookup(id string) *Vector {
	for _, v := range c.Vectors() {
		if v.ID == id {
			return v
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
	paths, walkErr := jsonFiles(fsys)
	for _, p := range paths {
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		f, err := Parse(p, data)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, v := range f.Vectors {
			if prev, dup := ids[v.ID]; dup {
				errs = append(errs, fmt.Errorf("vectors: %s: id %s already used in %s", p, v.ID, prev))
			}
			ids[v.ID] = p
		}
		c.Files = append(c.Files, f)
	}
	if err := errors.Join(append(errs, walkErr)...); err != nil {
		return nil, err
	}
	return &c, nil
}

// jsonFiles returns the path of every *.json file below the root of fsys,
// in lexical order, and the error that stopped the walk, if one did.
func jsonFiles(fsys fs.FS) ([]string, error) {
	var paths []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && path.Ext(p) == ".json" {
			paths = append(paths, p)
		}
		return err
	})
	return paths, err
}

// decodeOne decodes data, one JSON object and nothing after it, into v,
// refusing members v does not name.
func decodeOne(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("trailing data after the top-level object")
	}
	return nil
}

// Parse decodes one vector file. name is used in errors only.
func Parse(name string, data []byte) (*File, error) {
	var f File
	if err := decodeOne(data, &f); err != nil {
		return nil, fmt.Errorf("vectors: %s: %w", name, err)
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
		switch {
		case v.InputText != "" && len(v.Input) > 0:
			errs = append(errs, fmt.Errorf("vectors: %s: %s: gives input and input_text: give one", name, v.ID))
		case v.InputText != "":
			if err := duplicateName(v.InputText); err != nil {
				errs = append(errs, fmt.Errorf("vectors: %s: %s: input_text: %v", name, v.ID, err))
			}
			v.Input = json.RawMessage(v.InputText)
		}
		switch e := v.Expect; {
		case e.Error != nil && (len(e.Output) > 0 || e.Choice != "" || len(e.Outputs) > 0):
			errs = append(errs, fmt.Errorf("vectors: %s: %s: expect gives an error and an output: give one", name, v.ID))
		case e.Error != nil && !slices.Contains(ErrorKinds, e.Error.Kind):
			errs = append(errs, fmt.Errorf("vectors: %s: %s: expect.error.kind %q is not one a vector may expect (%s)", name, v.ID, e.Error.Kind, strings.Join(ErrorKinds, ", ")))
		case e.Error == nil && len(e.Output) == 0 && (e.Choice == "" || len(e.Outputs) == 0):
			errs = append(errs, fmt.Errorf("vectors: %s: %s: expect has neither output nor choice with outputs nor error", name, v.ID))
		}
		errs = append(errs, checkDivergences(name, v)...)
	}
	f.Vectors = slices.DeleteFunc(f.Vectors, func(v *Vector) bool { return v == nil })
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return &f, nil
}

// duplicateName checks that text is a JSON object that names a member
// twice, the one input input_text is for.
func duplicateName(text string) error {
	if v, err := (jsonv.Options{AllowDuplicateNames: true}).Parse([]byte(text)); err != nil {
		return err
	} else if v.Type != jsonv.Object {
		return errors.New("not a JSON object")
	}
	if _, err := jsonv.Parse([]byte(text)); !errors.Is(err, jsonv.ErrDuplicateName) {
		return errors.New("names no member twice: give it as input")
	}
	return nil
}

// checkDivergences checks a vector's divergence records and its tags: a
// file that writes a tag "divergence:<system>" by hand is refused, since
// AllTags derives them from the records.
func checkDivergences(name string, v *Vector) []error {
	var errs []error
	for _, t := range v.Tags {
		if strings.HasPrefix(t, DivergencePrefix) {
			errs = append(errs, fmt.Errorf("vectors: %s: %s: tag %q is derived from the divergences member: record the system's answer there instead", name, v.ID, t))
		}
	}
	seen := map[string]bool{}
	for i, d := range v.Divergences {
		switch {
		case d == nil:
			errs = append(errs, fmt.Errorf("vectors: %s: %s: divergence %d is null", name, v.ID, i))
			continue
		case !slices.Contains(Systems, d.System):
			errs = append(errs, fmt.Errorf("vectors: %s: %s: divergence %d: unknown system %q (known: %s)", name, v.ID, i, d.System, strings.Join(Systems, ", ")))
		case seen[d.System]:
			errs = append(errs, fmt.Errorf("vectors: %s: %s: divergence %d: system %s recorded twice", name, v.ID, i, d.System))
		}
		seen[d.System] = true
		if (len(d.Output) == 0) == (d.Error == nil) {
			errs = append(errs, fmt.Errorf("vectors: %s: %s: divergence of %s: give exactly one of output and error", name, v.ID, d.System))
		}
		if strings.TrimSpace(d.Reason) == "" {
			errs = append(errs, fmt.Errorf("vectors: %s: %s: divergence of %s: missing reason", name, v.ID, d.System))
		}
	}
	return errs
}

// Escape rewrites the JSON text raw with every rune for which escape
// reports true written as the \u escapes of its UTF-16 units, so that a
// vector file shows what an editor would hide; escape must report false for
// the runes JSON's syntax is made of. A byte of ill-formed UTF-8 is passed
// to escape as U+FFFD and, unless escaped, kept as it is.
func Escape(raw []byte, escape func(rune) bool) []byte {
	var out []byte
	for len(raw) > 0 {
		r, n := utf8.DecodeRune(raw)
		if !escape(r) {
			out = append(out, raw[:n]...)
		} else {
			for _, u := range utf16.AppendRune(nil, r) {
				out = fmt.Appendf(out, `\u%04x`, u)
			}
		}
		raw = raw[n:]
	}
	return out
}
