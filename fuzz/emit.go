package fuzz

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/conform-suite/conform/internal/jsonv"
	"github.com/conform-suite/conform/internal/safetext"
	"github.com/conform-suite/conform/vectors"
)

// Provenance says where and when findings were made; it goes into the
// emitted vector files.
type Provenance struct {
	Impl string // the implementation under test, as named on the command line
	// Oracle names the implementation whose answers were taken as
	// expected, as on the command line; "" is the in-process reference.
	Oracle string
	Date   time.Time // when the run happened
}

// oracleName is how the note and the summary name the oracle.
func (p Provenance) oracleName() string { return cmp.Or(p.Oracle, "the reference") }

// ID returns the vector id of a finding: the op, the kind of fault, a hash
// of the signature (what differs) and a hash of the case (the op and the
// shrunk input), so that the same case of the same fault gets the same id
// and two faults, or two cases of one fault, never share one.
func (f *Finding) ID() string {
	sig := sha256.Sum256([]byte(f.Signature))
	c := sha256.Sum256([]byte(f.Op + "\n" + string(f.Input)))
	return f.Op + "/fuzz-" + string(f.Class) + "-" + hex.EncodeToString(sig[:4]) + "-" + hex.EncodeToString(c[:4])
}

// vectorFile returns the finding, with the id given, as the bytes of a
// vector file holding one vector whose input is the
// shrunk input and whose expected output is the oracle's answer to it (the
// reference's, unless p names another oracle), so that 'conform run
// --vectors DIR' replays it. An input the oracle refused as a bad request
// makes a vector expecting {"error": {"kind": "bad_request"}}; an input
// that names a member twice is written as input_text, its JSON text, which
// a vector file holds byte for byte (PROTO-ERROR-003). Findings of kind ClassReference (a failure
// of the reference itself) and ClassOracle (a failure or an error answer of
// another oracle) have no vector.
//
// Requirements are inferred: those of a corpus vector of the op expecting the
// same rejection code, else those of the vector the input was mutated from,
// else the op's most named requirement. The tag requirements-inferred marks
// them for review before the vector joins the corpus.
func (f *Finding) vectorFile(c *vectors.Corpus, p Provenance, id string) ([]byte, error) {
	if f.Class == ClassReference || f.Class == ClassOracle || f.Expected == nil {
		return nil, fmt.Errorf("fuzz: %s: a %s finding has no expected output", f.Op, f.Class)
	}
	reqs := inferRequirements(c, f)
	if len(reqs) == 0 {
		return nil, fmt.Errorf("fuzz: %s: the corpus names no requirement of this op", f.Op)
	}
	date := p.Date.UTC()
	expectedFrom := "Oracle answer (the expected output): "
	// The tag oracle:reference records that the in-process reference was the
	// oracle; oracle:external, another implementation, named in the note (the
	// tag triage:... then says who is off the specification, and the expected
	// output is the reference's).
	oracle := "oracle:reference"
	if p.Oracle != "" {
		oracle = "oracle:external"
	}
	expect := vectors.Expect{Output: f.Expected}
	if f.ExpectError != "" {
		expect = vectors.Expect{Error: &vectors.ExpectError{Kind: f.ExpectError}}
	}
	input, inputText := json.RawMessage(f.Input), ""
	if _, err := jsonv.Parse(f.Input); errors.Is(err, jsonv.ErrDuplicateName) {
		input, inputText = nil, string(f.Input)
	}
	tags := []string{"fuzz", "fuzz:" + string(f.Class), oracle, fmt.Sprintf("seed:%d", f.Seed), "date:" + date.Format("2006-01-02"), "requirements-inferred"}
	if f.Triage != "" {
		// Triaged against the reference: the expectation is the specification's.
		expectedFrom = "Reference answer (the expected output): "
		tags = append(tags, "triage:"+string(f.Triage))
	}
	note := fmt.Sprintf("Found by 'conform fuzz --seed %d' (case %d) on %s against %s, with %s as the oracle; shrunk from %d to %d bytes of input in %d runs",
		f.Seed, f.Case, date.Format(time.RFC3339), cmp.Or(p.Impl, "an unnamed implementation"), p.oracleName(), len(f.Original), len(f.Input), f.ShrinkRuns)
	if f.From != "" {
		note += ", mutated from " + f.From
	}
	note += ". " + expectedFrom + noteClip(string(f.Expected))
	if f.Oracle != nil {
		note += ". Oracle answer: " + noteClip(string(f.Oracle))
	}
	note += ". Implementation answer: "
	if f.Actual != nil {
		note += noteClip(string(f.Actual))
	} else {
		note += "none (" + noteClip(f.Detail) + ")"
	}
	if len(f.Diffs) > 0 {
		note += ". Differences: " + noteClip(strings.Join(f.Diffs, "; "))
	}
	note += "."
	// Laid out as the corpus lays its files out: two-space indentation, HTML
	// characters unescaped, the note first.
	data, err := jsonv.MarshalIndent(&vectors.File{
		Note:        note,
		Op:          f.Op,
		Description: "Findings of conform fuzz for " + f.Op + ", replayable with 'conform run --vectors DIR'",
		Vectors: []*vectors.Vector{{
			ID:           id,
			Description:  f.describe(p),
			Requirements: reqs,
			Tags:         tags,
			Input:        input,
			InputText:    inputText,
			Expect:       expect,
		}},
	}, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("fuzz: encode %s: %w", f.Op, err)
	}
	return vectors.Escape(append(data, '\n'), invisible), nil
}

// invisible reports whether a reader cannot see r or tell it apart, so that
// a vector file writes it as a \u escape: format characters (U+200B,
// U+FEFF...), private-use ones (the marker characters U+E200-U+E202),
// combining marks, and spaces other than U+0020. Outside strings JSON holds
// ASCII only, so escaping them never touches its structure.
func invisible(r rune) bool {
	return r >= utf8.RuneSelf && unicode.In(r, unicode.Cf, unicode.Co, unicode.Mn, unicode.Me, unicode.Zs, unicode.Zl, unicode.Zp)
}

// noteClip shortens s for the note, keeping whole runes.
func noteClip(s string) string {
	head := safetext.Head(s, 2000)
	if head == s {
		return s
	}
	return head + fmt.Sprintf("…(%d more bytes)", len(s)-len(head))
}

var modalWord = regexp.MustCompile(`(?i)\b(should|must|shall)\b`)

// describe returns the vector's one-line description.
func (f *Finding) describe(p Provenance) string {
	var what string
	switch f.Class {
	case ClassAcceptedWrongly:
		if f.ExpectError != "" {
			what = "an input the reference refuses as a bad request (outside the op's shape) is accepted"
			break
		}
		what = "an input the reference refuses (" + strings.TrimPrefix(outputRefusal(f.Expected), "rejected:") + ") is accepted"
	case ClassRejectedWrongly:
		what = "an input the reference accepts is refused"
	case ClassMismatch:
		if ref, got := parseRefusal(f.Expected), parseRefusal(f.Actual); ref.key != "" && ref.key == got.key && ref.code != got.code {
			what = "an input the reference refuses with " + ref.code + " is refused with another code"
			break
		}
		var paths []string
		for _, d := range f.Diffs {
			p, _, _ := strings.Cut(d, ": ")
			if !slices.Contains(paths, p) {
				paths = append(paths, p)
			}
		}
		what = "the output differs at " + strings.Join(paths, ", ")
	case ClassError:
		what = "the implementation answers an error: " + strings.SplitN(f.Detail, ":", 2)[0]
	case ClassCrash:
		what = "the implementation dies on this input"
	case ClassTimeout:
		what = "the implementation does not answer in time"
	case ClassProtocol:
		what = "the implementation answers with something not a protocol message"
	}
	head := "Fuzz finding: "
	if p.Oracle != "" {
		head = "Fuzz finding, against another oracle than the reference: "
		what = strings.ReplaceAll(what, "the reference", "the oracle")
	}
	d := modalWord.ReplaceAllString(head+what, "…")
	if r := []rune(d); len(r) > 150 {
		d = string(r[:149]) + "…"
	}
	return d
}

func inferRequirements(c *vectors.Corpus, f *Finding) []string {
	if c == nil {
		return nil
	}
	ofOp := slices.DeleteFunc(c.Vectors(), func(v *vectors.Vector) bool { return v.Op != f.Op })
	if f.ExpectError != "" {
		// An input outside the op's shape: the requirements of a vector of
		// the op expecting the same error, else the rule itself.
		for _, v := range ofOp {
			if v.Expect.Error != nil && v.Expect.Error.Kind == f.ExpectError {
				return slices.Clone(v.Requirements)
			}
		}
		return []string{"PROTO-ERROR-003"}
	}
	if code := outputRefusal(f.Expected); code != "" {
		for _, v := range ofOp {
			if v.Expect.Output != nil && outputRefusal(v.Expect.Output) == code {
				return slices.Clone(v.Requirements)
			}
		}
	}
	if f.From != "" {
		if v := c.Lookup(f.From); v != nil {
			return slices.Clone(v.Requirements)
		}
	}
	count := map[string]int{}
	for _, v := range ofOp {
		for _, r := range v.Requirements {
			count[r]++
		}
	}
	if len(count) == 0 {
		return nil
	}
	// The most named, the first by name of those named as often.
	return []string{slices.MaxFunc(slices.Sorted(maps.Keys(count)), func(a, b string) int { return cmp.Compare(count[a], count[b]) })}
}

// Emitted is what WriteVectors did with one finding.
type Emitted struct {
	Finding *Finding
	Path    string // the file that holds the finding's vector
	Kept    bool   // the file was there already, holding the same case
}

// maxNames bounds the names tried for one finding when files of the same
// name hold other cases.
const maxNames = 100

// maxExisting bounds how much of an existing file is read to compare it.
const maxExisting = 64 << 20

// WriteVectors writes every finding that has a vector as
// DIR/<suite>/<id>.json, one vector per file, where <id> is the vector id
// (Finding.ID) with "/" as "-". Files are created exclusively (O_EXCL): an
// existing file, or a symbolic link, is never written through. An existing
// regular file that holds the same case (the same vector id, input and
// expected output) is the same finding from an earlier run and is kept as it
// is; anything else at that name (another case, a link, a directory) makes
// the finding go under the next free name, <id>-2, <id>-3 and so on. A
// finding is never dropped silently: it is written, kept, or named in the
// error.
func WriteVectors(dir string, findings []*Finding, c *vectors.Corpus, p Provenance) ([]Emitted, error) {
	var out []Emitted
	var errs []error
	for _, f := range findings {
		if f.Class == ClassReference || f.Class == ClassOracle || !f.Triage.PortOffSpec() {
			continue
		}
		e, err := writeVector(dir, f, c, p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, e)
	}
	return out, errors.Join(errs...)
}

func writeVector(dir string, f *Finding, c *vectors.Corpus, p Provenance) (Emitted, error) {
	suite, _, _ := strings.Cut(f.Op, ".")
	if err := os.MkdirAll(filepath.Join(dir, suite), 0o755); err != nil {
		return Emitted{}, fmt.Errorf("fuzz: %s: %w", f.ID(), err)
	}
	// A suite directory planted as a link would carry the finding files
	// elsewhere: findings are written into real directories only.
	if fi, err := os.Lstat(filepath.Join(dir, suite)); err != nil || !fi.IsDir() {
		return Emitted{}, fmt.Errorf("fuzz: %s: %s is not a directory (a symbolic link is never followed)", f.ID(), filepath.Join(dir, suite))
	}
	for n := 1; n <= maxNames; n++ {
		id := f.ID()
		if n > 1 {
			id += fmt.Sprintf("-%d", n)
		}
		data, err := f.vectorFile(c, p, id)
		if err != nil {
			return Emitted{}, err
		}
		path := filepath.Join(dir, suite, strings.ReplaceAll(id, "/", "-")+".json")
		fh, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		switch {
		case err == nil:
			_, werr := fh.Write(data)
			if werr = cmp.Or(werr, fh.Close()); werr != nil {
				os.Remove(path) // created above, by this call
				return Emitted{}, fmt.Errorf("fuzz: %s: %w", path, werr)
			}
			return Emitted{Finding: f, Path: path}, nil
		case !errors.Is(err, fs.ErrExist):
			return Emitted{}, fmt.Errorf("fuzz: %s: %w", path, err)
		}
		if sameCase(path, data) {
			return Emitted{Finding: f, Path: path, Kept: true}, nil
		}
	}
	return Emitted{}, fmt.Errorf("fuzz: %s: %d files of its names hold other cases; finding not written", f.ID(), maxNames)
}

// sameCase reports whether path is a regular file (not a link) holding a
// vector file of one vector with the id, input and expected output of the
// vector file data.
func sameCase(path string, data []byte) bool {
	info, err := os.Lstat(path)
	if err != nil || !info.Mode().IsRegular() || info.Size() > maxExisting {
		return false
	}
	fh, err := os.Open(path)
	if err != nil {
		return false
	}
	defer fh.Close()
	// The file opened must be the one inspected, not a link put in its
	// place since.
	if opened, err := fh.Stat(); err != nil || !os.SameFile(info, opened) {
		return false
	}
	existing, err := io.ReadAll(io.LimitReader(fh, maxExisting))
	if err != nil {
		return false
	}
	a, errA := vectors.Parse(path, existing)
	b, errB := vectors.Parse(path, data)
	if errA != nil || errB != nil || len(a.Vectors) != 1 || len(b.Vectors) != 1 || a.Op != b.Op {
		return false
	}
	va, vb := a.Vectors[0], b.Vectors[0]
	if va.ID != vb.ID || va.InputText != vb.InputText || !sameJSON(va.Input, vb.Input) {
		return false
	}
	if va.Expect.Error != nil || vb.Expect.Error != nil {
		return va.Expect.Error != nil && vb.Expect.Error != nil && va.Expect.Error.Kind == vb.Expect.Error.Kind
	}
	return sameJSON(va.Expect.Output, vb.Expect.Output) && va.Expect.Output != nil
}

// sameJSON reports whether two JSON texts are equal once insignificant white
// space is removed; both come from vectorFile, which writes one value one
// way only.
func sameJSON(a, b []byte) bool {
	var ca, cb bytes.Buffer
	return json.Compact(&ca, a) == nil && json.Compact(&cb, b) == nil && bytes.Equal(ca.Bytes(), cb.Bytes())
}

// RecordProfile writes the findings where only the oracle is off the
// specification (TriageIncumbent) to the profile file at path as records
// of the profile name: each finding's input becomes a vector of the file,
// expecting the reference's answer, recorded with the oracle's answer and
// why, so that 'conform run --profile-file' grades the incumbent (or a
// port that keeps its behaviour) against what it does. A file already
// there keeps its records and vectors, and gains only the findings it
// lacks; a file of another profile is refused. It returns how many records
// it added.
func RecordProfile(path, name string, findings []*Finding, c *vectors.Corpus, p Provenance) (int, error) {
	pf := vectors.ProfileFile{
		Note:    "A conform profile file: 'conform run --profile-file FILE' grades under it. Written by 'conform fuzz --record-profile " + name + "'.",
		Profile: name, Records: []vectors.ProfileRecord{},
	}
	if data, err := os.ReadFile(path); err == nil {
		if err := json.Unmarshal(data, &pf); err != nil {
			return 0, fmt.Errorf("fuzz: profile file %s: %w", path, err)
		}
		if pf.Profile != name {
			return 0, fmt.Errorf("fuzz: profile file %s records profile %q, not %q", path, pf.Profile, name)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return 0, fmt.Errorf("fuzz: %w", err)
	}
	have := map[string]bool{}
	for _, r := range pf.Records {
		have[r.Vector] = true
	}
	added := 0
	for _, f := range findings {
		if f.Triage != TriageIncumbent || f.Oracle == nil || have[f.ID()] {
			continue
		}
		data, err := f.vectorFile(c, p, f.ID())
		if err != nil {
			return added, err
		}
		pf.Vectors = append(pf.Vectors, json.RawMessage(data))
		rec := vectors.Record{Output: f.Oracle, Reason: fmt.Sprintf("found by conform fuzz --seed %d against %s: %s", f.Seed, p.oracleName(), f.Signature)}
		if f.OracleError != "" {
			rec.Output, rec.Error = nil, &vectors.AnswerError{Kind: f.OracleError}
		}
		pf.Records = append(pf.Records, vectors.ProfileRecord{Vector: f.ID(), Record: rec})
		have[f.ID()] = true
		added++
	}
	data, err := pf.Encode()
	if err != nil {
		return added, fmt.Errorf("fuzz: %w", err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return added, fmt.Errorf("fuzz: %w", err)
	}
	return added, nil
}
