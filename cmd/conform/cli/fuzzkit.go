package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/conform-suite/conform/fuzz"
	"github.com/conform-suite/conform/report"
	"github.com/conform-suite/conform/spec"
	"github.com/conform-suite/conform/vectors"
)

const fuzzkitHead = `Usage: conform fuzzkit --out DIR [--op OP]...

Writes what a client's own coverage-guided fuzzer (Atheris, Jazzer,
Jazzer.js, libFuzzer for Swift, cargo-fuzz) needs to fuzz its parser with
the knowledge of the formats, without conform in the loop:

  DIR/                    the export of the corpus, as 'conform export'
                          writes it (vectors, schemas, index.json)
  DIR/ops/OP/seeds/       a seed corpus: the input of each vector of OP,
                          one JSON file each, as the op's input object
  DIR/ops/OP/seeds-raw/   the same inputs as the raw string the client's
                          parser takes (the href, the text), when the input
                          is an object of one string member
  DIR/ops/OP/OP.dict      a libFuzzer/AFL dictionary of the format's tokens
                          and the characters at its edges
  DIR/ops/OP/PROPERTIES.md  the properties every answer must keep, with the
                          requirements they rest on

docs/fuzzing.md gives the recipes; examples/fuzzkit holds ready targets for
Atheris and Jazzer that check the properties and compare each input's answer
with 'conform serve --stdio'. Without --op, every op is written.
`

func (e *env) fuzzkit(args []string) int {
	flags := e.newFlags("fuzzkit", fuzzkitHead)
	out := flags.String("out", "", "write the kit to `DIR` (new or empty)")
	var ops listFlag
	flags.Var(&ops, "op", "only `OP` (repeatable, or comma separated: --op quote.parse,marker.strip)")
	if done, code := e.parse(flags, args, 0); done {
		return code
	}
	if *out == "" {
		return e.usagef("--out DIR is required: the directory to write the kit to")
	}
	corpus := embeddedCorpus()
	if err := checkOps(corpus, ops, "--op "); err != nil {
		return e.usagef("%v", err)
	}
	index, code := e.writeExport(*out, "")
	if code != ExitOK {
		return code
	}
	if len(ops) == 0 {
		ops = slices.Collect(maps.Keys(index.Ops))
	}
	slices.Sort(ops)
	sp := embeddedSpec()
	var errs []error
	seeds := 0
	for _, op := range ops {
		vs := slices.DeleteFunc(corpus.Vectors(), func(v *vectors.Vector) bool { return v.Op != op })
		n, err := writeKitOp(filepath.Join(*out, "ops", op), op, vs, sp)
		seeds += n
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return e.failf("fuzzkit: %v", err)
	}
	fmt.Fprintf(e.stdout, "fuzz kit for %d %s written to %s: %d seeds, a dictionary and the properties of each op\n", len(ops), report.Plural(len(ops), "op", "ops"), *out, seeds)
	return ExitOK
}

// writeKitOp writes the kit of one op into dir, from the op's vectors vs;
// it returns how many seeds it wrote.
func writeKitOp(dir, op string, vs []*vectors.Vector, sp *spec.Spec) (int, error) {
	for _, d := range []string{"seeds", "seeds-raw"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			return 0, err
		}
	}
	n, raw := 0, 0
	for _, v := range vs {
		// The vector's name, with a short hash so that no two names
		// collide once cut and no name is too long for a file system.
		base, _ := strings.CutPrefix(v.ID, op+"/")
		sum := sha256.Sum256([]byte(v.ID))
		base = safeName(base) + "-" + hex.EncodeToString(sum[:4])
		if err := os.WriteFile(filepath.Join(dir, "seeds", base+".json"), v.Input, 0o644); err != nil {
			return n, err
		}
		n++
		if _, value, ok := fuzz.RawInput(v.Input); ok {
			if err := os.WriteFile(filepath.Join(dir, "seeds-raw", base+".txt"), []byte(value), 0o644); err != nil {
				return n, err
			}
			raw++
		}
	}
	if raw == 0 {
		os.Remove(filepath.Join(dir, "seeds-raw"))
	}
	if err := os.WriteFile(filepath.Join(dir, op+".dict"), []byte(fuzz.Dictionary(op)), 0o644); err != nil {
		return n, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<!-- Written by 'conform fuzzkit'; do not edit. -->\n\n# Properties of %s\n\nA fuzz target checks each of them on every input it makes.\n", op)
	for i, p := range fuzz.Properties(op) {
		fmt.Fprintf(&b, "\n%d. %s\n", i+1, p.Text)
		for _, id := range p.Requirements {
			r, ok := sp.Lookup(id)
			if !ok {
				return n, fmt.Errorf("%s: property %d names %s, which the specification does not define", op, i+1, id)
			}
			fmt.Fprintf(&b, "   - %s (%s): %s\n", id, r.Level, r.Text)
		}
	}
	return n, os.WriteFile(filepath.Join(dir, "PROPERTIES.md"), []byte(b.String()), 0o644)
}

// unsafeChar is a character safeName replaces.
var unsafeChar = regexp.MustCompile(`[^a-zA-Z0-9._-]`)

// safeName keeps the letters, digits, '-', '_' and '.' of s, at most 80;
// any other character becomes '_'.
func safeName(s string) string {
	s = unsafeChar.ReplaceAllString(s, "_")
	if len(s) > 80 {
		s = s[:80]
	}
	return s
}
