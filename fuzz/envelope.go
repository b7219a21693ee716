package fuzz

// This file fuzzes request envelopes: lines that are not requests, or
// requests whose id, op or input is wrong, judged by spec/protocol.md
// (PROTO-FRAME-006, -008, -009, PROTO-ID-001, -005) rather than by an
// oracle: each line is built with the answer the protocol requires of it.
// A finding is a Gherkin scenario with the steps of
// features/protocol/envelopes.feature, the form envelope cases take (a
// vector holds an op's input, where there is no envelope).

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/conform-suite/conform/runner"
)

// envelopeCase is one line sent and the answer the protocol requires.
type envelopeCase struct {
	fault string   // what is wrong with the line, for the signature
	reqs  []string // the requirements that say how it is answered
	line  []byte   // without its line feed
	// answered: the line gets one answer (a blank line gets none); output:
	// that answer has an output (a request whose id is spelt unusually),
	// else an error of kind bad_request; id: the JSON of the answer's id
	// ("null" when the line has none).
	answered, output bool
	id               string
}

// nextID is the id of the request sent after each line, whose answer shows
// that serving went on.
const nextID = "900001"

// nextLine is that request.
const nextLine = `{"id":` + nextID + `,"op":"hello","input":{"protocol":1}}`

// Ids the lines carry: strings and integers an implementation echoes,
// numbers spelt otherwise that are ids all the same (PROTO-ID-005), and
// values that are no id.
var (
	envIDs       = []string{`7`, `-7`, `0`, `9007199254740991`, `-9007199254740991`, `"q"`, `""`, `"7"`, `"a&b"`, `"é"`, `"😀"`, `"\u00e9"`, `"line\nfeed"`}
	envIDSpelled = [][2]string{{`1.0`, `1`}, {`1e0`, `1`}, {`10E-1`, `1`}, {`-0`, `0`}, {`2.50e1`, `25`}, {`9007199254740991.0`, `9007199254740991`}}
	envNoIDs     = []string{`1.5`, `-0.5`, `9007199254740992`, `-9007199254740992`, `1e400`, `null`, `true`, `false`, `{}`, `{"id":1}`, `[]`, `[1]`}
	envBadOps    = []string{`1`, `null`, `true`, `{"name":"hello"}`, `["hello"]`, `1.5`}
	envBadInputs = []string{`"protocol"`, `[{"protocol":1}]`, `null`, `1`, `true`}
	envNotJSON   = []string{`this is not JSON`, `{`, `{"op":"hello","input":{"protocol":1}`, `{"op":"hello" "input":{}}`, `{'id':1}`,
		`[{"id":1,"op":"hello","input":{"protocol":1}}]`, `1`, `null`, `"id"`, "\ufeff{\"op\":\"hello\"}", `{"id":}`}
	envBlank      = []string{"", " ", "\t", "\r", " \r\t\r", "\t \t"}
	envOtherSpace = []string{"\u00a0", "\v", "\f", "\u0085", "\ufeff", "\u3000", "\x1c", "\x00", "\u2028", " \u00a0 "}
	envNotUTF8    = []string{"\xff", "\xc3\x28", "\xed\xa0\x80", "{\"op\":\"hello\",\"input\":{\"protocol\":1},\"\xfe\":1}", "\xc0\xaf"}
)

// member is one member of an envelope, as written.
type envMember struct{ name, value string }

// envelopeLine writes members as a JSON object, in an order chosen by r,
// with an unknown member (grease, which is ignored) now and then.
func envelopeLine(r *rand.Rand, members ...envMember) []byte {
	members = slices.Clone(members)
	if r.IntN(3) == 0 {
		members = append(members, envMember{`"grease_` + strconv.Itoa(r.IntN(9)) + `"`, `{"ignore":true}`})
	}
	r.Shuffle(len(members), func(i, j int) { members[i], members[j] = members[j], members[i] })
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range members {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(m.name + ":" + m.value)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// genEnvelope returns a case drawn by r; blank lines only when blank is
// set (they are a matter of stdio: PROTO-FRAME-008).
func genEnvelope(r *rand.Rand, blank bool) envelopeCase {
	id := pickOne(r, envIDs)
	idM, op, in := envMember{`"id"`, id}, envMember{`"op"`, `"hello"`}, envMember{`"input"`, `{"protocol":1}`}
	bad := func(fault string, line []byte, id string, reqs ...string) envelopeCase {
		return envelopeCase{fault: fault, reqs: reqs, line: line, answered: true, id: id}
	}
	kinds := 11
	if !blank {
		kinds--
	}
	switch r.IntN(kinds) {
	case 0:
		return bad("no op", envelopeLine(r, idM, in), id, "PROTO-FRAME-006")
	case 1:
		return bad("op not a string", envelopeLine(r, idM, envMember{`"op"`, pickOne(r, envBadOps)}, in), id, "PROTO-FRAME-006")
	case 2:
		if r.IntN(3) == 0 {
			return bad("input missing", envelopeLine(r, idM, op), id, "PROTO-FRAME-002", "PROTO-ERROR-003")
		}
		return bad("input not an object", envelopeLine(r, idM, op, envMember{`"input"`, pickOne(r, envBadInputs)}), id, "PROTO-FRAME-002", "PROTO-ERROR-003")
	case 3:
		s := pickOne(r, envIDSpelled)
		if r.IntN(2) == 0 {
			s = [2]string{id, id}
		}
		return envelopeCase{fault: "id echoed", reqs: []string{"PROTO-ID-001", "PROTO-ID-005"}, line: envelopeLine(r, envMember{`"id"`, s[0]}, op, in), answered: true, output: true, id: s[1]}
	case 4:
		if r.IntN(4) == 0 {
			return bad("id missing", envelopeLine(r, op, in), "null", "PROTO-FRAME-006")
		}
		return bad("not an id", envelopeLine(r, envMember{`"id"`, pickOne(r, envNoIDs)}, op, in), "null", "PROTO-FRAME-006", "PROTO-ID-005")
	case 5:
		again := id
		if r.IntN(2) == 0 {
			again = pickOne(r, envIDs)
		}
		return bad("id named twice", envelopeLine(r, idM, envMember{`"id"`, again}, op, in), "null", "PROTO-FRAME-009")
	case 6:
		members := []envMember{idM, op, in}
		switch r.IntN(3) {
		case 0:
			members = append(members, op)
		case 1:
			members = append(members, in)
		default:
			members = append(members, envMember{`"grease"`, `1`}, envMember{`"grease"`, `2`})
		}
		return bad("member named twice", envelopeLine(r, members...), id, "PROTO-FRAME-009")
	case 7:
		return bad("not JSON", []byte(pickOne(r, envNotJSON)), "null", "PROTO-FRAME-006")
	case 8:
		return bad("not UTF-8", []byte(pickOne(r, envNotUTF8)), "null", "PROTO-FRAME-006")
	case 9:
		return bad("white space other than JSON's", []byte(pickOne(r, envOtherSpace)), "null", "PROTO-FRAME-008", "PROTO-FRAME-006")
	}
	return envelopeCase{fault: "blank line", reqs: []string{"PROTO-FRAME-008"}, line: []byte(pickOne(r, envBlank))}
}

// judge returns what is wrong with the answer lines out to the case's
// line followed by nextLine, as the steps of the case's scenario check
// it, or "" when nothing is.
func (c envelopeCase) judge(out []byte) string {
	var answers []map[string]json.RawMessage
	for line := range bytes.SplitAfterSeq(out, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var m map[string]json.RawMessage
		if json.Unmarshal(line, &m) != nil || m == nil {
			return "an answer that is not a JSON object"
		}
		answers = append(answers, m)
	}
	want := 1
	if c.answered {
		want = 2
	}
	switch {
	case len(answers) < want && c.answered:
		return "no answer to the line, or none after it"
	case len(answers) != want:
		return fmt.Sprintf("%d answers, want %d", len(answers), want)
	}
	if c.answered {
		a := answers[0]
		_, hasOut := a["output"]
		_, hasErr := a["error"]
		var e struct{ Kind string }
		json.Unmarshal(a["error"], &e)
		switch {
		case c.output && (!hasOut || hasErr):
			return "an error, want an output"
		case !c.output && (hasOut || e.Kind != "bad_request"):
			return "not an error of kind bad_request"
		case !sameID(c.id, a["id"]):
			return "the id " + idClass(a["id"]) + ", want " + idClass(json.RawMessage(c.id))
		}
	}
	next := answers[len(answers)-1]
	if _, ok := next["output"]; !ok || !sameID(nextID, next["id"]) {
		return "serving did not go on: the next request is not answered right"
	}
	return ""
}

// sameID reports whether the answer's id got is want by value, as the
// step "the answer's id is" compares them.
func sameID(want string, got json.RawMessage) bool {
	if got == nil {
		return false
	}
	v, _, err := runner.Compare(json.RawMessage(want), got)
	return err == nil && v == runner.Match
}

// idClass names the kind of an id for a signature, without its value.
func idClass(id json.RawMessage) string {
	s := string(bytes.TrimSpace(id))
	switch {
	case id == nil:
		return "missing"
	case s == "null":
		return "null"
	case strings.HasPrefix(s, `"`):
		return "a string"
	}
	return "a number or another value"
}

// LineExchanger sends protocol lines to an implementation and returns the
// answer lines they caused (features.Session: one process for every
// exchange over stdio).
type LineExchanger interface {
	Exchange(ctx context.Context, input []byte) ([]byte, error)
}

// EnvelopeConfig describes a run of conform fuzz --envelopes.
type EnvelopeConfig struct {
	Lines    LineExchanger // the implementation, spoken to in raw lines
	Blank    bool          // send blank lines too (over stdio: PROTO-FRAME-008)
	Seed     uint64
	Count    int           // stop after Count lines; 0 for no bound
	Duration time.Duration // stop after Duration; 0 for no bound
	Timeout  time.Duration // per line; 0 means 5s
}

// EnvelopeFinding is one distinct wrong answer to a line.
type EnvelopeFinding struct {
	Signature string // "envelope FAULT: DIFFERENCE"
	Fault     string
	Diff      string
	Reqs      []string
	Line      []byte
	Answered  bool
	Output    bool
	WantID    string // the JSON of the id the answer to the line carries
	Answers   []byte // what the implementation answered to the line and the next request
	Seed      uint64
	Case      int
	Hits      int
}

// EnvelopeReport is the result of an envelope run.
type EnvelopeReport struct {
	Execs    int
	Findings []*EnvelopeFinding
	Elapsed  time.Duration
}

// RunEnvelopes sends cfg.Count lines (or for cfg.Duration), one at a time
// with the request nextLine after each, and judges the answers. Lines are
// sent in order through one session, so the findings of a seed depend on
// nothing else.
func RunEnvelopes(ctx context.Context, cfg EnvelopeConfig) (*EnvelopeReport, error) {
	if cfg.Lines == nil {
		return nil, errors.New("fuzz: no implementation to send lines to")
	}
	if cfg.Count <= 0 && cfg.Duration <= 0 {
		return nil, errors.New("fuzz: neither a count nor a duration bounds the run")
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 5 * time.Second
	}
	s := cfg.Lines
	rep := &EnvelopeReport{}
	start := time.Now()
	byKey := map[string]*EnvelopeFinding{}
	for i := 0; (cfg.Count <= 0 || i < cfg.Count) && (cfg.Duration <= 0 || time.Since(start) < cfg.Duration) && ctx.Err() == nil; i++ {
		c := genEnvelope(newCaseRand(cfg.Seed, uint64(i)), cfg.Blank)
		cctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
		out, err := s.Exchange(cctx, append(append(slices.Clone(c.line), '\n'), nextLine+"\n"...))
		cancel()
		if ctx.Err() != nil {
			break
		}
		rep.Execs++
		diff := c.judge(out)
		if err != nil {
			diff = "no answer: the implementation failed or timed out"
		}
		if diff == "" {
			continue
		}
		key := "envelope " + c.fault + ": " + diff
		if f := byKey[key]; f != nil {
			f.Hits++
			continue
		}
		f := &EnvelopeFinding{Signature: key, Fault: c.fault, Diff: diff, Reqs: c.reqs, Line: c.line, Answered: c.answered, Output: c.output,
			WantID: c.id, Answers: out, Seed: cfg.Seed, Case: i, Hits: 1}
		byKey[key] = f
		rep.Findings = append(rep.Findings, f)
	}
	rep.Elapsed = time.Since(start)
	return rep, nil
}

// ID returns the finding's name: the fault, a hash of the signature and
// one of the line.
func (f *EnvelopeFinding) ID() string {
	sig, line := sha256.Sum256([]byte(f.Signature)), sha256.Sum256(f.Line)
	return "envelope-fuzz-" + strings.ReplaceAll(f.Fault, " ", "-") + "-" + hex.EncodeToString(sig[:4]) + "-" + hex.EncodeToString(line[:4])
}

// Feature returns the finding as a feature file: one scenario, with the
// steps of features/protocol/envelopes.feature, that 'conform features
// --dir DIR' runs.
func (f *EnvelopeFinding) Feature(p Provenance) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# Written by conform fuzz --envelopes: a finding, replayable with 'conform features --dir DIR'.\n")
	fmt.Fprintf(&b, "Feature: Fuzz finding of a request envelope: %s\n", f.Fault)
	fmt.Fprintf(&b, "  Found by 'conform fuzz --envelopes --seed %d' (case %d) on %s against %s.\n", f.Seed, f.Case, p.Date.UTC().Format(time.RFC3339),
		cleanNote(cmpOr(p.Impl, "an unnamed implementation")))
	fmt.Fprintf(&b, "  What is wrong: %s. The implementation answered: %s\n\n", f.Diff, cleanNote(strconv.QuoteToASCII(noteClip(string(f.Answers)))))
	b.WriteString("  Background:\n    Given an implementation under test\n\n")
	tags := []string{}
	for _, r := range f.Reqs {
		tags = append(tags, "@"+r)
	}
	fmt.Fprintf(&b, "  %s @fuzz\n  Scenario: %s (%s)\n", strings.Join(tags, " "), f.Fault, f.ID())
	if utf8.Valid(f.Line) {
		fmt.Fprintf(&b, "    When it is sent the line \"%s\" and then the request line:\n", stepEscape(string(f.Line)))
	} else {
		fmt.Fprintf(&b, "    When it is sent the line of bytes \"%s\" and then the request line:\n", spacedHex(f.Line))
	}
	fmt.Fprintf(&b, "      \"\"\"\n      %s\n      \"\"\"\n", nextLine)
	switch {
	case !f.Answered:
		fmt.Fprintf(&b, "    Then the answer is one line of UTF-8 JSON\n    And the answer's id is %s\n    And the answer has an output\n", nextID)
		return []byte(b.String())
	case f.Output:
		b.WriteString("    Then answer 1 has an output\n")
	default:
		b.WriteString("    Then answer 1 has error kind \"bad_request\"\n")
	}
	fmt.Fprintf(&b, "    And answer 1's id is %s\n    And answer 2's id is %s\n    And answer 2 has an output\n", f.WantID, nextID)
	return []byte(b.String())
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// cleanNote keeps a note of the feature's description on one line.
func cleanNote(s string) string { return strings.NewReplacer("\n", " ", "\r", " ").Replace(s) }

// stepEscape writes s as the content of a quoted step argument (JSON
// string content): printable ASCII as it is, '"' and '\' escaped, any
// other character as \u escapes, so that every character shows.
func stepEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r >= 0x20 && r < 0x7f:
			b.WriteRune(r)
		case r > 0xffff:
			fmt.Fprintf(&b, `\u{%X}`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}

// spacedHex writes data as hexadecimal bytes separated by spaces.
func spacedHex(data []byte) string {
	parts := make([]string, len(data))
	for i, c := range data {
		parts[i] = fmt.Sprintf("%02x", c)
	}
	return strings.Join(parts, " ")
}

// WriteEnvelopeFeatures writes each finding as DIR/envelope/<id>.feature,
// created exclusively; a file already there with the same content is the
// same finding from an earlier run and is kept. It returns the paths.
func WriteEnvelopeFeatures(dir string, findings []*EnvelopeFinding, p Provenance) ([]Emitted, error) {
	var out []Emitted
	var errs []error
	sub := filepath.Join(dir, "envelope")
	if len(findings) > 0 {
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return nil, fmt.Errorf("fuzz: %w", err)
		}
		if fi, err := os.Lstat(sub); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("fuzz: %s is not a directory (a symbolic link is never followed)", sub)
		}
	}
	for _, f := range findings {
		data := f.Feature(p)
		path := filepath.Join(sub, f.ID()+".feature")
		fh, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		switch {
		case err == nil:
			_, werr := fh.Write(data)
			if werr = errors.Join(werr, fh.Close()); werr != nil {
				errs = append(errs, fmt.Errorf("fuzz: %s: %w", path, werr))
				continue
			}
			out = append(out, Emitted{Path: path})
		case errors.Is(err, fs.ErrExist) && sameScenario(path, data):
			out = append(out, Emitted{Path: path, Kept: true})
		default:
			errs = append(errs, fmt.Errorf("fuzz: %s: a file of that name holds another finding, or: %w", path, err))
		}
	}
	return out, errors.Join(errs...)
}

// sameScenario reports whether the regular file at path holds the
// scenario of data (its steps: the lines after the description, which
// carries the date).
func sameScenario(path string, data []byte) bool {
	info, err := os.Lstat(path)
	if err != nil || !info.Mode().IsRegular() || info.Size() > 1<<20 {
		return false
	}
	old, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	_, a, _ := bytes.Cut(old, []byte("  Background:"))
	_, b, _ := bytes.Cut(data, []byte("  Background:"))
	return len(a) > 0 && bytes.Equal(a, b)
}
