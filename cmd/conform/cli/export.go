package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/conform-suite/conform/report"
	"github.com/conform-suite/conform/runner"
	"github.com/conform-suite/conform/schemas"
	"github.com/conform-suite/conform/spec"
)

const exportHead = `Usage: conform export --out DIR [--vectors DIR]

Writes the conformance vectors as data that any test framework loads without
conform (pytest, JUnit, XCTest; docs/porting.md shows each):

  DIR/vectors/    the vector files, byte for byte ('conform run --vectors
                  DIR/vectors' judges them, under the same corpus digest)
  DIR/schemas/    the JSON Schemas of a vector file, of the protocol and of
                  each op's input and output
  DIR/index.json  the conform version, the corpus digest, each op with its
                  vector files and ids, and each requirement of the
                  specification with its level, text and vector ids
  DIR/README.md   how to load the vectors and judge an answer

DIR must be new or empty.
`

// exportIndex is DIR/index.json.
type exportIndex struct {
	Note         string                        `json:"//"`
	Conform      string                        `json:"conform"`
	Suite        string                        `json:"suite_version"`
	CorpusDigest string                        `json:"corpus_digest"`
	Ops          map[string]*exportOp          `json:"ops"`
	Requirements map[string]*exportRequirement `json:"requirements"`
}

type exportOp struct {
	Files   []string `json:"files"`
	Vectors []string `json:"vectors"`
}

type exportRequirement struct {
	Level   spec.Level `json:"level"`
	Text    string     `json:"text"`
	File    string     `json:"file"`
	Vectors []string   `json:"vectors"`
}

func (e *env) export(args []string) int {
	flags := e.newFlags("export", exportHead)
	out := flags.String("out", "", "write the export to `DIR` (new or empty)")
	dir := flags.String("vectors", "", "export the vectors of `DIR` instead of the embedded corpus")
	if done, code := e.parse(flags, args, 0); done {
		return code
	}
	if *out == "" {
		return e.usagef("--out DIR is required: the directory to write the export to")
	}
	index, code := e.writeExport(*out, *dir)
	if code != ExitOK {
		return code
	}
	n := 0
	for _, op := range index.Ops {
		n += len(op.Vectors)
	}
	fmt.Fprintf(e.stdout, "exported %d %s of %d %s to %s (corpus %s)\n", n, report.Plural(n, "vector", "vectors"), len(index.Ops), report.Plural(len(index.Ops), "op", "ops"), *out, index.CorpusDigest)
	return ExitOK
}

// copyTree copies the files of fsys that keep accepts to dir, under their
// paths, byte for byte.
func copyTree(fsys fs.FS, dir string, keep func(string) bool) error {
	return fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !keep(p) {
			return err
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if bytes.Contains(data, []byte{0}) {
			return fmt.Errorf("%s: holds a NUL byte, not a text file", p)
		}
		return os.WriteFile(dst, data, 0o644)
	})
}

// exportReadme is DIR/README.md: the rules a loader must keep to judge an
// answer as conform run does (docs/runner.md gives them in full).
const exportReadme = `<!-- Written by 'conform export'; do not edit. -->

# conform vectors, exported

Each file of vectors/ holds the vectors of one op: {"op", "description",
"vectors": [...]}. A vector has an id, the requirement ids it exercises
(index.json gives their level and text), an input (or input_text: the
input as raw JSON text, for inputs that a JSON library cannot build, such
as a member written twice), and what is expected:

- expect.output: the output an implementation must give;
- expect.outputs: one output per value of expect.choice, a choice the
  implementation declares in its hello's "choices";
- expect.error: the answer must be a protocol error of this kind
  ("bad_request": the input is not one the op accepts).

Judge as conform run does:

- compare the output as JSON values: members in any order, no member
  missing or extra, numbers by value, strings code unit by code unit (a
  lone surrogate such as \ud800 is one code unit and must stay one: use a
  JSON reader that keeps it);
- in a refusal ({"rejected": {...}} or {"dropped": {...}}) only the "code"
  is compared, and an answer that leaves it out still matches
  (PROTO-REJECT-002; a strict gate fails it: conform run --require-codes);
  a refusal's other members (a message) are never compared;
- "divergences" record what named real systems answer instead; they
  matter only when grading under a profile (conform run --profile);
- tags describe a vector; they never change how it is judged.

The schemas/ directory holds vector.schema.json (a vector file) and
ops/OP.json (each op's input and output, under $defs). 'conform run
--vectors vectors' judges an implementation from these very files.
`

// writeExport writes the corpus (the embedded one, or dir's) to out as
// 'conform export' does, and returns its index; on failure it says why,
// and returns the exit code (ExitUsage, or ExitFailed when writing failed).
func (e *env) writeExport(out, dir string) (*exportIndex, int) {
	if entries, err := os.ReadDir(out); err == nil && len(entries) > 0 {
		return nil, e.usagef("--out %s: not empty; give a new or empty directory", out)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, e.usagef("--out %s: %v", out, err)
	}
	corpus, err := loadCorpus(dir)
	if err != nil {
		return nil, e.usagef("%v", err)
	}
	id, err := identity(dir)
	if err != nil {
		return nil, e.usagef("%v", err)
	}
	index := exportIndex{
		Note:    "Written by 'conform export'; README.md beside it says how to load the vectors.",
		Conform: id.Version, Suite: runner.SuiteVersion, CorpusDigest: id.CorpusDigest,
		Ops: map[string]*exportOp{}, Requirements: map[string]*exportRequirement{},
	}
	for _, r := range embeddedSpec().Requirements {
		index.Requirements[r.ID] = &exportRequirement{Level: r.Level, Text: r.Text, File: r.File, Vectors: []string{}}
	}
	for _, f := range corpus.Files {
		op := index.Ops[f.Op]
		if op == nil {
			op = &exportOp{}
			index.Ops[f.Op] = op
		}
		op.Files = append(op.Files, path.Join("vectors", f.Path))
		for _, v := range f.Vectors {
			op.Vectors = append(op.Vectors, v.ID)
			for _, rid := range v.Requirements {
				if r := index.Requirements[rid]; r != nil {
					r.Vectors = append(r.Vectors, v.ID)
				}
			}
		}
	}
	indexJSON, _ := json.MarshalIndent(index, "", "  ") // strings, lists and maps: it cannot fail
	err = errors.Join(
		copyTree(corpusFS(dir), filepath.Join(out, "vectors"), func(p string) bool { return path.Ext(p) == ".json" || path.Base(p) == "README.md" }),
		copyTree(schemas.FS(), filepath.Join(out, "schemas"), func(p string) bool { return path.Ext(p) == ".json" }),
		os.WriteFile(filepath.Join(out, "index.json"), append(indexJSON, '\n'), 0o644),
		os.WriteFile(filepath.Join(out, "README.md"), []byte(exportReadme), 0o644),
	)
	if err != nil {
		return nil, e.failf("export to %s: %v", out, err)
	}
	return &index, ExitOK
}
