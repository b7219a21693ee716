package fuzz

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"testing"

	gofuzz "github.com/google/gofuzz"

	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/reference"
)

// Native fuzz targets of the differential engine itself: its JSON codec
// must agree with encoding/json, and what its generators and mutations
// build must be valid JSON that the reference answers without failing.

// FuzzJSON16 checks parseJSON16 against encoding/json: both accept the same
// documents, and re-encoding gives a document encoding/json decodes to the
// same value (lone surrogates become U+FFFD in both).
func FuzzJSON16(f *testing.F) {
	if currentSeedMode() != seedsNone {
		c, err := embeddedCorpus()
		if err != nil {
			f.Fatal(err)
		}
		// One small input per vector file keeps the baseline quick; the
		// documents differ in shape, not in size.
		var docs []json.RawMessage
		for _, file := range c.Files {
			for _, v := range file.Vectors {
				if len(v.Input) <= 512 {
					docs = append(docs, v.Input)
					break
				}
			}
		}
		if len(docs) == 0 {
			f.Fatal("no vector inputs to seed from")
		}
		for _, doc := range thinSeeds(docs, func(d json.RawMessage) int { return len(d) }) {
			f.Add([]byte(doc))
		}
	}
	for _, doc := range []string{`"\ud83d"`, `"\ude00\ud83d"`, `{"a":1,"a":[true,null,-0.5e-3]}`, `[[[]]]`, "\"\xff\"", `"\u2028"`} {
		f.Add([]byte(doc))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > json16FuzzMax {
			return // see json16FuzzMax
		}
		want, stdErr := decodeNumbers(data)
		v, err := parseJSON16(data)
		if (err == nil) != (stdErr == nil) {
			t.Fatalf("parseJSON16(%q) error %v, encoding/json error %v", data, err, stdErr)
		}
		if err != nil {
			return
		}
		out := encode(v)
		got, err := decodeNumbers(out)
		if err != nil {
			t.Fatalf("encode(parseJSON16(%q)) = %q: not JSON: %v", data, out, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("encode(parseJSON16(%q)) = %q decodes to %v, want %v", data, out, got, want)
		}
	})
}

// json16FuzzMax caps the documents FuzzJSON16 checks. Both decoders are
// linear, but the engine minimises every new interesting input by trying
// to remove each byte in turn, and on documents of tens of kilobytes it
// spent whole seconds at 0 execs/s doing so; every shape of document the
// codec handles fits in a few kilobytes.
const json16FuzzMax = 4 << 10

// decodeNumbers decodes one JSON document, keeping numbers as written.
func decodeNumbers(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("trailing data")
	}
	return v, nil
}

// genParams are the choices of one generated input, filled by gofuzz from
// the fuzzer's bytes.
type genParams struct {
	Seed, Case uint64
	Op         uint8
	Mutations  uint8
}

// FuzzGeneratedInputs drives the generators and mutations from the fuzzer's
// bytes: every input is valid JSON that round-trips through parseJSON16, and
// the reference answers it with an output or a bad_request, never an
// internal error (a panic).
func FuzzGeneratedInputs(f *testing.F) {
	ops := generatedOpsOnce()
	if len(ops) == 0 {
		f.Fatal("no generators")
	}
	for i := range 2 * len(ops) {
		f.Add([]byte{byte(i), byte(i * 7), byte(i * 13), 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17})
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var p genParams
		gofuzz.NewFromGoFuzz(data).Fuzz(&p)
		op := ops[int(p.Op)%len(ops)]
		r := newCaseRand(p.Seed, p.Case)
		v := inputGens[op](r)
		for range p.Mutations % 4 {
			v = mutate(r, v)
		}
		in := encode(v)
		if !json.Valid(in) {
			t.Fatalf("%s: generated input is not JSON: %q", op, in)
		}
		if back, err := parseJSON16(in); err != nil || string(encode(back)) != string(in) {
			t.Fatalf("%s: %q does not round-trip (%v)", op, in, err)
		}
		if !slices.Contains(reference.Ops(), op) {
			return
		}
		_, err := reference.Handle(op, in)
		var e *protocol.Error
		if errors.As(err, &e) && e.Kind == protocol.KindInternal {
			t.Fatalf("reference.Handle(%s, %q) = internal error %s", op, in, e.Message)
		}
	})
}

// TestCrashersHaveTargets checks that every crasher directory under
// testdata/fuzz names a fuzz target of this package: Go replays a crasher
// only as a seed of the target it is named after, so a renamed target would
// silently stop replaying it.
func TestCrashersHaveTargets(t *testing.T) {
	targets := map[string]bool{}
	files, err := filepath.Glob("*_test.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files found (%v)", err)
	}
	decl := regexp.MustCompile(`(?m)^func (Fuzz\w+)\(f \*testing\.F\)`)
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range decl.FindAllSubmatch(data, -1) {
			targets[string(m[1])] = true
		}
	}
	if !targets["FuzzJSON16"] {
		t.Fatalf("targets %v: the declaration pattern no longer matches", targets)
	}
	dirs, err := os.ReadDir(filepath.Join("testdata", "fuzz"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if !targets[d.Name()] {
			t.Errorf("testdata/fuzz/%s names no fuzz target: its crashers no longer replay", d.Name())
		}
	}
}
