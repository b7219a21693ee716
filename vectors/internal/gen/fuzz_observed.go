package main

// Generators for the inputs that 'conform fuzz' found against the real
// systems (T3 Code, vance), where the real code and the reference answered
// differently. testdata/fuzz-<system>.jsonl.gz holds the observations as
// they were made, one per line: {"op", "input", "system", "reference",
// "real"}. Each input that no other vector of its op already makes becomes a
// vector <op>/fuzz-<system>-<hash> in <suite>/<op>-fuzz-<system>.gen.json:
// it expects the reference's answer, and records the real answer as a
// divergence of the system unless the runner would judge it the expected one.
// Each record's reason is the one testdata/fuzz-reasons.txt gives the
// vector: a class of reasonClasses, worked out by hand from the input and
// the two answers. TestObservationsRepresented checks that every line is
// represented.

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/conform-suite/conform/internal/jsonv"
	"github.com/conform-suite/conform/internal/schemaset"
	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/runner"
	"github.com/conform-suite/conform/vectors"
	"github.com/conform-suite/conform/vectors/internal/vectorkit"
)

//go:embed testdata/fuzz-t3code.jsonl.gz testdata/fuzz-vance.jsonl.gz testdata/fuzz-reasons.txt
var observedFS embed.FS

// fuzzSystems are the systems observed by fuzzing, with the name reports use.
var fuzzSystems = []struct{ id, name string }{{"t3code", "T3 Code"}, {"vance", "vance"}}

// observation is one line of an observation file; the JSON values are kept
// as written, so a lone surrogate escape stays one.
type observation struct {
	Op        string          `json:"op"`
	Input     json.RawMessage `json:"input"`
	System    string          `json:"system"`
	Reference json.RawMessage `json:"reference"`
	Real      json.RawMessage `json:"real"`
	Line      int             `json:"-"`
}

// answer is a protocol answer body: {"output": ...} or {"error": ...}.
type answer struct {
	Output json.RawMessage      `json:"output"`
	Error  *vectors.AnswerError `json:"error"`
}

func init() {
	for _, sys := range fuzzSystems {
		obs, err := readObservations(sys.id)
		if err != nil {
			panic(err) // the embedded data is part of the program
		}
		byOp := map[string][]observation{}
		for _, o := range obs {
			byOp[o.Op] = append(byOp[o.Op], o)
		}
		for op, obs := range byOp {
			suite, name, _ := strings.Cut(op, ".")
			vectorkit.Register(suite+"/"+name+"-fuzz-"+sys.id+".gen.json", func() (*vectors.File, error) {
				return fuzzFile(sys.id, sys.name, op, obs)
			})
		}
	}
}

// readObservations reads the observation file of system.
func readObservations(system string) ([]observation, error) {
	name := "testdata/fuzz-" + system + ".jsonl.gz"
	gz, err := observedFS.ReadFile(name)
	if err != nil {
		return nil, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var out []observation
	for i, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		o := observation{Line: i + 1}
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&o); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, o.Line, err)
		}
		if o.System != system || o.Op == "" || len(o.Input) == 0 || len(o.Reference) == 0 || len(o.Real) == 0 {
			return nil, fmt.Errorf("%s:%d: want op, input, reference and real of system %s", name, o.Line, system)
		}
		out = append(out, o)
	}
	return out, nil
}

// canonical writes a JSON text compactly, members in the order written,
// strings so that a reader sees every unit: printable characters as UTF-8,
// and as \u escapes a lone surrogate and every character that is not
// printable (controls, spaces other than U+0020, format characters), which
// fuzzing puts in on purpose. sorted also orders the members of every
// object by name, for comparing two texts as values.
func canonical(raw []byte, sorted bool) ([]byte, error) {
	v, err := jsonv.Options{MaxValues: -1, AllowDuplicateNames: true}.Parse(raw)
	if err != nil {
		return nil, err
	}
	if sorted {
		sortMembers(v)
	}
	return vectors.Escape(jsonv.Append(nil, v), func(r rune) bool { return !unicode.IsPrint(r) }), nil
}

func sortMembers(v *jsonv.Value) {
	for i := range v.Elems {
		sortMembers(&v.Elems[i])
	}
	for i := range v.Members {
		sortMembers(&v.Members[i].Value)
	}
	slices.SortStableFunc(v.Members, func(a, b jsonv.Member) int { return strings.Compare(jsonv.Key(a.Name), jsonv.Key(b.Name)) })
}

// inputKey identifies a request: its op and its input as a value.
func inputKey(op string, input []byte) (string, error) {
	c, err := canonical(input, true)
	if err != nil {
		return "", fmt.Errorf("%s input: %w", op, err)
	}
	return op + "\x00" + string(c), nil
}

// classOf names an answer's kind: "error:KIND", "rejected:CODE",
// "dropped:CODE" or "output".
func classOf(a answer) string {
	if a.Error != nil {
		return "error:" + a.Error.Kind
	}
	v, err := jsonv.Parse(a.Output)
	if err != nil {
		return "output"
	}
	k, body := protocol.Refusal(v)
	if k == "" {
		return "output"
	}
	if c := body.Get("code"); c != nil && c.Type == jsonv.String {
		return k + ":" + jsonv.Key(c.Units)
	}
	return k + ":"
}

func expectClass(v *vectors.Vector) string {
	if v.Expect.Error != nil {
		return "error:" + v.Expect.Error.Kind
	}
	if len(v.Expect.Output) == 0 {
		return "choice"
	}
	return classOf(answer{Output: v.Expect.Output})
}

// corpusIndex is the rest of the corpus: the requests its vectors make,
// and its vectors by op, for borrowing requirements and reasons; and the
// schemas that say which inputs an op takes.
type corpusIndex struct {
	inputs  map[string]string // inputKey -> vector id
	byOp    map[string][]*vectors.Vector
	schemas *schemaset.Set
}

// otherVectors indexes every vector outside the files of these generators.
var otherVectors = sync.OnceValues(func() (corpusIndex, error) {
	c, err := vectors.Load(vectors.FS())
	if err != nil {
		return corpusIndex{}, err
	}
	schemas, err := schemaset.Load()
	if err != nil {
		return corpusIndex{}, err
	}
	idx := corpusIndex{inputs: map[string]string{}, byOp: map[string][]*vectors.Vector{}, schemas: schemas}
	for _, v := range c.Vectors() {
		if strings.Contains(v.File, "-fuzz-") {
			continue
		}
		k, err := inputKey(v.Op, v.Input)
		if err != nil {
			return corpusIndex{}, fmt.Errorf("%s: %s: %w", v.File, v.ID, err)
		}
		if _, seen := idx.inputs[k]; !seen {
			idx.inputs[k] = v.ID
		}
		idx.byOp[v.Op] = append(idx.byOp[v.Op], v)
	}
	return idx, nil
})

// fuzzFile builds the vectors of one op from system's observations of it.
func fuzzFile(system, name, op string, obs []observation) (*vectors.File, error) {
	idx, err := otherVectors()
	if err != nil {
		return nil, err
	}
	f := &vectors.File{
		Op: op,
		Description: op + ": inputs that conform fuzz found against " + name + " (testdata/fuzz-" + system +
			".jsonl.gz of vectors/internal/gen), each expecting the reference's answer and recording " + name + "'s where the runner would judge it otherwise.",
	}
	seen := map[string]bool{}
	for _, o := range obs {
		k, err := inputKey(op, o.Input)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", o.Line, err)
		}
		if idx.inputs[k] != "" || seen[k] {
			continue // another vector makes this request
		}
		seen[k] = true
		v, err := fuzzVector(idx, system, name, o, k)
		if err != nil {
			return nil, fmt.Errorf("fuzz-%s.jsonl line %d: %w", system, o.Line, err)
		}
		f.Vectors = append(f.Vectors, v)
	}
	if len(f.Vectors) == 0 {
		return nil, fmt.Errorf("no observation of %s on %s left for a vector", system, op)
	}
	// A reason for a vector that records no divergence is stale.
	table, err := fuzzReasons()
	if err != nil {
		return nil, err
	}
	prefix := op + "/fuzz-" + system + "-"
	for id := range table {
		recorded := func(v *vectors.Vector) bool { return v.ID == id && v.Divergence(system) != nil }
		if strings.HasPrefix(id, prefix) && !slices.ContainsFunc(f.Vectors, recorded) {
			return nil, fmt.Errorf("testdata/fuzz-reasons.txt gives a reason to %s, which records no divergence", id)
		}
	}
	return f, nil
}

func fuzzVector(idx corpusIndex, system, name string, o observation, key string) (*vectors.Vector, error) {
	var ref, real answer
	if err := json.Unmarshal(o.Reference, &ref); err != nil {
		return nil, fmt.Errorf("reference: %w", err)
	}
	if err := json.Unmarshal(o.Real, &real); err != nil {
		return nil, fmt.Errorf("real: %w", err)
	}
	if (ref.Error == nil) == (len(ref.Output) == 0) || (real.Error == nil) == (len(real.Output) == 0) {
		return nil, fmt.Errorf("an answer without exactly one of output and error")
	}
	input, err := canonical(o.Input, false)
	if err != nil {
		return nil, fmt.Errorf("input: %w", err)
	}
	sum := sha256.Sum256([]byte(key))
	v := &vectors.Vector{
		ID:    o.Op + "/fuzz-" + system + "-" + hex.EncodeToString(sum[:5]),
		Input: input,
		Tags:  []string{"fuzz"},
	}
	// An input outside the op's input schema is a bad request, whatever
	// the reference answered when the observation was made.
	outside := false
	if err := idx.schemas.Validate("ops/"+o.Op+".json", "/$defs/input", input); err != nil {
		outside = true
		ref = answer{Error: &vectors.AnswerError{Kind: "bad_request"}}
	}
	refClass, realClass := classOf(ref), classOf(real)
	if ref.Error != nil {
		v.Expect.Error = &vectors.ExpectError{Kind: ref.Error.Kind}
	} else if v.Expect.Output, err = canonical(ref.Output, false); err != nil {
		return nil, fmt.Errorf("reference output: %w", err)
	}

	// Requirements come from the first other vector of the op expecting an
	// answer of the same class, preferring one where the system answers
	// with the same class too, or else from the first vector of the op.
	others := idx.byOp[o.Op]
	if len(others) == 0 {
		return nil, fmt.Errorf("no other vector of %s to take requirements from", o.Op)
	}
	sameClass := func(w *vectors.Vector) bool { return expectClass(w) == refClass }
	like := slices.IndexFunc(others, func(w *vectors.Vector) bool {
		d := w.Divergence(system)
		return sameClass(w) && d != nil && classOf(answer{Output: d.Output, Error: d.Error}) == realClass
	})
	if like < 0 {
		like = max(slices.IndexFunc(others, sameClass), 0)
	}
	v.Requirements = slices.Clone(others[like].Requirements)

	// The record: the real answer, unless the runner judges it the
	// expected one.
	same := false
	var diffs []string
	switch {
	case real.Error != nil:
		same = ref.Error != nil && ref.Error.Kind == real.Error.Kind
	case ref.Error == nil:
		cmp, d, err := runner.Compare(v.Expect.Output, real.Output)
		if err != nil {
			return nil, err
		}
		same, diffs = cmp == runner.Match, d
	}
	at := ""
	if len(diffs) > 0 && refClass == "output" && realClass == "output" {
		at, _, _ = strings.Cut(diffs[0], ": ")
	}
	switch {
	case same:
		v.Description = fmt.Sprintf("Fuzz-found input: %s's answer is judged the expected %s", name, describe(refClass))
	case outside:
		v.Description = fmt.Sprintf("Fuzz-found input outside the op's input schema, a bad request: %s answers %s", name, describe(realClass))
	case at != "":
		v.Description = fmt.Sprintf("Fuzz-found input: %s answers otherwise at %s", name, at)
	default:
		v.Description = fmt.Sprintf("Fuzz-found input: %s answers %s where the reference answers %s", name, describe(realClass), describe(refClass))
	}
	v.Description += " (input " + v.ID[strings.LastIndex(v.ID, "-")+1:] + ")"
	if same {
		return v, nil
	}
	d := &vectors.Divergence{System: system}
	if real.Error != nil {
		d.Error = real.Error
	} else if d.Output, err = canonical(real.Output, false); err != nil {
		return nil, fmt.Errorf("real output: %w", err)
	}
	if d.Reason, err = reasonOf(v.ID); err != nil {
		return nil, err
	}
	d.Reason += derivedNote(system, o.Op, realClass, real) + " (found by conform fuzz, shrunk)"
	v.Divergences = []*vectors.Divergence{d}
	return v, nil
}

// describe puts an answer class in words.
func describe(class string) string {
	kind, detail, _ := strings.Cut(class, ":")
	switch kind {
	case "error":
		return "an error of kind " + detail
	case "rejected", "dropped":
		if detail == "" {
			return kind + " without a code"
		}
		return kind + " " + detail
	}
	return "an output"
}

// derivedNote says which part of a real answer had to be derived, since
// the real code cannot state it (see the observations' README).
func derivedNote(system, op, realClass string, real answer) string {
	var members map[string]json.RawMessage
	json.Unmarshal(real.Output, &members)
	_, hasReason := members["reason"]
	switch {
	case system == "t3code" && op == "quote.submit_check":
		return "; its excess is read from the real message"
	case system == "t3code" && op == "quote.resolve" && hasReason:
		return "; its reason is derived from a count of the normalized quote"
	case system == "t3code" && op == "quote.send_turn" && strings.HasPrefix(realClass, "rejected:"):
		return "; its code is named from the stage that refused"
	case system == "vance" && strings.HasPrefix(realClass, "dropped:"):
		return "; its drop code follows vance's own order of checks"
	}
	return ""
}
