package fuzz

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/conform-suite/conform/vectors"
)

// Provenance says where and when findings were made; it goes into the
// emitted vector files.
type Provenance struct {
	Impl string    // the implementation under test, as named on the command line
	Date time.Time // when the run happened
}

// ID returns the vector id of a finding: the op, the kind of fault and a
// hash of the signature, so the same fault found twice gets the same id.
func (f *Finding) ID() string {
	sum := sha256.Sum256([]byte(f.Signature))
	return f.Op + "/fuzz-" + string(f.Kind) + "-" + hex.EncodeToString(sum[:4])
}

// VectorFile returns the finding as a vector file holding one vector whose
// input is the shrunk input and whose expected output is the reference's
// answer to it, so that 'conform run --vectors DIR' replays it. Findings of
// kind KindReference (a failure of the reference itself) have no vector.
//
// Requirements are inferred: those of a corpus vector of the op expecting the
// same rejection code, else those of the vector the input was mutated from,
// else the op's most named requirement. The tag requirements-inferred marks
// them for review before the vector joins the corpus.
func (f *Finding) VectorFile(c *vectors.Corpus, p Provenance) (*vectors.File, error) {
	if f.Kind == KindReference || f.Expected == nil {
		return nil, fmt.Errorf("fuzz: %s: a %s finding has no expected output", f.Op, f.Kind)
	}
	reqs := inferRequirements(c, f)
	if len(reqs) == 0 {
		return nil, fmt.Errorf("fuzz: %s: the corpus names no requirement of this op", f.Op)
	}
	date := p.Date.UTC()
	tags := []string{"fuzz", "fuzz:" + string(f.Kind), fmt.Sprintf("seed:%d", f.Seed), "date:" + date.Format("2006-01-02"), "requirements-inferred"}
	note := fmt.Sprintf("Found by 'conform fuzz --seed %d' (case %d) on %s against %s; shrunk from %d to %d bytes of input in %d runs",
		f.Seed, f.Case, date.Format(time.RFC3339), orUnnamed(p.Impl), len(f.Original), len(f.Input), f.ShrinkRuns)
	if f.From != "" {
		note += ", mutated from " + f.From
	}
	note += ". Reference answer: " + noteClip(string(f.Expected)) + ". Implementation answer: "
	if f.Actual != nil {
		note += noteClip(string(f.Actual))
	} else {
		note += "none (" + noteClip(f.Detail) + ")"
	}
	if len(f.Diffs) > 0 {
		note += ". Differences: " + noteClip(strings.Join(f.Diffs, "; "))
	}
	note += "."
	return &vectors.File{
		Note:        note,
		Op:          f.Op,
		Description: "Findings of conform fuzz for " + f.Op + ", replayable with 'conform run --vectors DIR'",
		Vectors: []*vectors.Vector{{
			ID:           f.ID(),
			Description:  f.describe(),
			Requirements: reqs,
			Tags:         tags,
			Input:        f.Input,
			Expect:       vectors.Expect{Output: f.Expected},
		}},
	}, nil
}

func orUnnamed(s string) string {
	if s == "" {
		return "an unnamed implementation"
	}
	return s
}

// noteClip shortens s for the note, keeping whole runes.
func noteClip(s string) string {
	const max = 2000
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && (s[cut]&0xc0) == 0x80 {
		cut--
	}
	return s[:cut] + fmt.Sprintf("…(%d more bytes)", len(s)-cut)
}

var modalWord = regexp.MustCompile(`(?i)\b(should|must|shall)\b`)

// describe returns the vector's one-line description.
func (f *Finding) describe() string {
	var what string
	switch f.Kind {
	case KindAcceptedWrongly:
		what = "an input the reference refuses (" + strings.TrimPrefix(outputRefusal(f.Expected), "rejected:") + ") is accepted"
	case KindRejectedWrongly:
		what = "an input the reference accepts is refused"
	case KindMismatch:
		var paths []string
		for _, d := range f.Diffs {
			p, _, _ := strings.Cut(d, ": ")
			if !slices.Contains(paths, p) {
				paths = append(paths, p)
			}
		}
		what = "the output differs at " + strings.Join(paths, ", ")
	case KindError:
		what = "the implementation answers an error: " + strings.SplitN(f.Detail, ":", 2)[0]
	case KindCrash:
		what = "the implementation dies on this input"
	case KindTimeout:
		what = "the implementation does not answer in time"
	case KindProtocol:
		what = "the implementation answers with something not a protocol message"
	}
	d := modalWord.ReplaceAllString("Fuzz finding: "+what, "…")
	if r := []rune(d); len(r) > 150 {
		d = string(r[:149]) + "…"
	}
	return d
}

func inferRequirements(c *vectors.Corpus, f *Finding) []string {
	if c == nil {
		return nil
	}
	var ofOp []*vectors.Vector
	for _, v := range c.Vectors() {
		if v.Op == f.Op {
			ofOp = append(ofOp, v)
		}
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
	best := ""
	for _, v := range ofOp {
		for _, r := range v.Requirements {
			count[r]++
			if best == "" || count[r] > count[best] || count[r] == count[best] && r < best {
				best = r
			}
		}
	}
	if best == "" {
		return nil
	}
	return []string{best}
}

// EncodeVectorFile renders a vector file the way the corpus lays them out:
// two-space indentation, HTML characters unescaped, the note first.
func EncodeVectorFile(f *vectors.File) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(f); err != nil {
		return nil, fmt.Errorf("fuzz: encode %s: %w", f.Op, err)
	}
	return escapeInvisible(buf.Bytes()), nil
}

// escapeInvisible rewrites, inside the JSON text data, every character a
// reader cannot see or tell apart as a \u escape: format characters (U+200B,
// U+FEFF...), private-use ones (the marker characters U+E200-U+E202),
// combining marks, and spaces other than U+0020. Outside strings JSON holds
// ASCII only, so the rewrite never touches its structure.
func escapeInvisible(data []byte) []byte {
	var out []byte
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r < utf8.RuneSelf || !unicode.In(r, unicode.Cf, unicode.Co, unicode.Mn, unicode.Me, unicode.Zs, unicode.Zl, unicode.Zp) {
			out = append(out, data[i:i+n]...)
			i += n
			continue
		}
		if r1, r2 := utf16.EncodeRune(r); r1 != utf8.RuneError {
			out = fmt.Appendf(out, `\u%04x\u%04x`, r1, r2)
		} else {
			out = fmt.Appendf(out, `\u%04x`, r)
		}
		i += n
	}
	return out
}

// WriteVectors writes every finding that has a vector as
// DIR/<suite>/<op>-fuzz-<hash>.json, one vector per file. A file that
// already exists holds the same fault from an earlier run and is kept as it
// is. It returns the paths written and those kept.
func WriteVectors(dir string, findings []*Finding, c *vectors.Corpus, p Provenance) (written, kept []string, err error) {
	var errs []error
	for _, f := range findings {
		if f.Kind == KindReference {
			continue
		}
		vf, err := f.VectorFile(c, p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		suite, _, _ := strings.Cut(f.Op, ".")
		name := strings.ReplaceAll(strings.TrimPrefix(f.ID(), f.Op+"/"), "/", "-")
		path := filepath.Join(dir, suite, f.Op+"-"+name+".json")
		if _, err := os.Stat(path); err == nil {
			kept = append(kept, path)
			continue
		} else if !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
			continue
		}
		data, err := EncodeVectorFile(vf)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			errs = append(errs, err)
			continue
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			errs = append(errs, err)
			continue
		}
		written = append(written, path)
	}
	return written, kept, errors.Join(errs...)
}
