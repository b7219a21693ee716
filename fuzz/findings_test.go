package fuzz

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/reference"
	"github.com/conform-suite/conform/runner"
	"github.com/conform-suite/conform/vectors"
)

// Findings are never lost and an implementation cannot multiply them: the
// signature names what differs from the reference's answer (never the
// implementation's own choice of code or member name), and a file is never
// taken for a finding it does not hold.

func emittedPaths(es []Emitted) (written, kept []string) {
	for _, e := range es {
		if e.Kept {
			kept = append(kept, e.Path)
		} else {
			written = append(written, e.Path)
		}
	}
	return written, kept
}

// codeLiar is the reference except that, in op, a refusal whose code is a
// key of swap is answered with the code swap maps it to; with random set,
// every refusal of op gets a code made up for the occasion, and with
// refuseAll every input of op is refused so.
type codeLiar struct {
	op        string
	swap      map[string]string
	random    bool
	refuseAll bool
}

func (l codeLiar) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	resp, err := reference.InProcess{}.Call(ctx, req)
	if err != nil || req.Op != l.op || resp.Output == nil {
		return resp, err
	}
	ref := parseRefusal(resp.Output)
	if ref.key == "" && l.refuseAll {
		ref.key = "rejected"
	}
	if ref.key == "" {
		return resp, nil
	}
	code, ok := l.swap[ref.code]
	if l.random {
		code, ok = fmt.Sprintf("LIAR_%08X", rand.Uint32()), true
	}
	if ok {
		resp.Output = mustJSON(map[string]map[string]string{ref.key: {"code": code}})
	}
	return resp, nil
}

func (codeLiar) Close() error { return nil }

// refCodes is the reference, noting every refusal code it answers per op.
type refCodes struct {
	mu    sync.Mutex
	codes map[string]bool // "op code"
}

func (r *refCodes) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	resp, err := reference.InProcess{}.Call(ctx, req)
	if err == nil && resp.Output != nil {
		if ref := parseRefusal(resp.Output); ref.key != "" {
			r.mu.Lock()
			r.codes[req.Op+" "+ref.key+":"+ref.code] = true
			r.mu.Unlock()
		}
	}
	return resp, err
}

func (*refCodes) Close() error { return nil }

// The two faults of quote.send_turn: an empty input and an over-long input
// are refused, each with the other's code.
var (
	emptyAsTooLong = map[string]string{"QUOTE_INPUT_EMPTY": "QUOTE_INPUT_TOO_LONG"}
	tooLongAsEmpty = map[string]string{"QUOTE_INPUT_TOO_LONG": "QUOTE_INPUT_EMPTY"}
)

func sendTurnRun(t *testing.T, impl runner.Implementation, seed uint64, count int) *Report {
	t.Helper()
	// Shrinking is bounded by executions only, so that a seed shrinks to the
	// same case on a loaded machine too.
	rep, err := Run(context.Background(), Config{Impl: impl, Ops: []string{"quote.send_turn"}, Seed: seed, Count: count,
		ShrinkExecs: 300, ShrinkTime: 10 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		if f.Class == ClassReference {
			t.Fatalf("the reference failed: %s on %s", f.Detail, f.Input)
		}
	}
	return rep
}

// wrongCodes returns the reference code of each finding that is a refusal
// with another code than the reference's.
func wrongCodes(t *testing.T, rep *Report) []string {
	t.Helper()
	var codes []string
	for _, f := range rep.Findings {
		ref, got := parseRefusal(f.Expected), parseRefusal(f.Actual)
		if f.Class != ClassMismatch || ref.key == "" || got.key != ref.key || got.code == ref.code {
			t.Errorf("finding %s %s: reference %s, implementation %s; want a refusal with another code", f.Class, f.Signature, f.Expected, f.Actual)
			continue
		}
		codes = append(codes, ref.code)
	}
	slices.Sort(codes)
	return codes
}

func corpusOf(t *testing.T) *vectors.Corpus {
	t.Helper()
	c, err := embeddedCorpus()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// replays checks the vector files under dir pass on the reference and
// fail on impl.
func replays(t *testing.T, dir string, impl runner.Implementation) {
	t.Helper()
	corpus, err := vectors.Load(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		impl runner.Implementation
		pass bool
	}{{reference.InProcess{}, true}, {impl, false}} {
		r := &runner.Runner{Impl: tc.impl}
		for _, res := range r.Run(context.Background(), corpus.Vectors()) {
			if (res.Outcome == runner.Pass) != tc.pass {
				t.Errorf("%s on %T: %s, want pass=%v", res.Vector.ID, tc.impl, res.Outcome, tc.pass)
			}
		}
	}
}

// TestTwoWrongCodeFaultsOfOneOp plants both faults in one implementation:
// two findings, two files, each replaying.
func TestTwoWrongCodeFaultsOfOneOp(t *testing.T) {
	both := codeLiar{op: "quote.send_turn", swap: map[string]string{"QUOTE_INPUT_EMPTY": "QUOTE_INPUT_TOO_LONG", "QUOTE_INPUT_TOO_LONG": "QUOTE_INPUT_EMPTY"}}
	rep := sendTurnRun(t, both, 1, 300)
	if got, want := wrongCodes(t, rep), []string{"QUOTE_INPUT_EMPTY", "QUOTE_INPUT_TOO_LONG"}; !slices.Equal(got, want) {
		t.Fatalf("findings with reference codes %v, want one for each of %v", got, want)
	}
	if rep.Findings[0].Signature == rep.Findings[1].Signature {
		t.Errorf("both faults have the signature %q", rep.Findings[0].Signature)
	}
	dir := t.TempDir()
	emitted, err := WriteVectors(dir, rep.Findings, corpusOf(t), Provenance{Impl: "both", Date: time.Now()})
	written, kept := emittedPaths(emitted)
	if err != nil || len(written) != 2 || len(kept) != 0 || written[0] == written[1] {
		t.Fatalf("WriteVectors wrote %v, kept %v (%v); want two distinct files", written, kept, err)
	}
	checkVectorFiles(t, written)
	replays(t, dir, both)
}

// TestSecondFaultInAnotherRunIsWritten fuzzes one fault, then another fault
// of the same op into the same directory: the second is written, not taken
// for the first; the first found again is kept.
func TestSecondFaultInAnotherRunIsWritten(t *testing.T) {
	dir := t.TempDir()
	corpus := corpusOf(t)
	first := codeLiar{op: "quote.send_turn", swap: emptyAsTooLong}
	second := codeLiar{op: "quote.send_turn", swap: tooLongAsEmpty}

	rep := sendTurnRun(t, first, 1, 300)
	if got := wrongCodes(t, rep); !slices.Equal(got, []string{"QUOTE_INPUT_EMPTY"}) {
		t.Fatalf("first run: reference codes %v, want [QUOTE_INPUT_EMPTY]", got)
	}
	emitted, err := WriteVectors(dir, rep.Findings, corpus, Provenance{Impl: "first", Date: time.Now()})
	w1, _ := emittedPaths(emitted)
	if err != nil || len(w1) != 1 {
		t.Fatalf("first run wrote %v (%v), want one file", w1, err)
	}

	rep = sendTurnRun(t, second, 1, 300)
	if got := wrongCodes(t, rep); !slices.Equal(got, []string{"QUOTE_INPUT_TOO_LONG"}) {
		t.Fatalf("second run: reference codes %v, want [QUOTE_INPUT_TOO_LONG]", got)
	}
	emitted, err = WriteVectors(dir, rep.Findings, corpus, Provenance{Impl: "second", Date: time.Now()})
	w2, k2 := emittedPaths(emitted)
	if err != nil || len(w2) != 1 || len(k2) != 0 || w2[0] == w1[0] {
		t.Fatalf("second run wrote %v, kept %v (%v); want a new file besides %v", w2, k2, err, w1)
	}

	// The first fault found again, by the same seed, is the same case.
	rep = sendTurnRun(t, first, 1, 300)
	emitted, err = WriteVectors(dir, rep.Findings, corpus, Provenance{Impl: "first", Date: time.Now()})
	w3, k3 := emittedPaths(emitted)
	if err != nil || len(w3) != 0 || !slices.Equal(k3, w1) {
		t.Errorf("first fault again wrote %v, kept %v (%v); want %v kept", w3, k3, err, w1)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "quote", "*.json"))
	if len(files) != 2 {
		t.Errorf("files %v, want the two faults' files", files)
	}
	// Each file fails on the implementation that has its fault.
	for _, tc := range []struct {
		path string
		impl runner.Implementation
	}{{w1[0], first}, {w2[0], second}} {
		single := t.TempDir()
		data, err := os.ReadFile(tc.path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(single, filepath.Base(tc.path)), data, 0o644); err != nil {
			t.Fatal(err)
		}
		replays(t, single, tc.impl)
	}
}

// TestRandomCodeLiarIsBounded answers refusals with codes of its own
// making (every refusal, or every input): the wrong-code findings are
// bounded by maxCodes codes of the implementation's and one for any other
// (and one for refusing inputs the reference accepts), however many
// executions diverge.
func TestRandomCodeLiarIsBounded(t *testing.T) {
	for _, tc := range []struct {
		op        string
		refuseAll bool
	}{{"quote.send_turn", false}, {"quote.select", false}, {"quote.send_turn", true}} {
		t.Run(fmt.Sprintf("%s/refuseAll=%v", tc.op, tc.refuseAll), func(t *testing.T) {
			liar := codeLiar{op: tc.op, random: true, refuseAll: tc.refuseAll}
			ref := &refCodes{codes: map[string]bool{}}
			rep, err := Run(context.Background(), Config{Impl: liar, Ref: ref, Ops: []string{tc.op}, Seed: 5, Count: 300,
				ShrinkExecs: 200, ShrinkTime: 10 * time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			var wrongCode []*Finding
			refused := 0
			for _, f := range rep.Findings {
				switch {
				case f.Class == ClassRejectedWrongly && tc.refuseAll:
					refused++
				case f.Class == ClassMismatch:
					wrongCode = append(wrongCode, f)
				default:
					t.Errorf("finding %s %s: want a wrong code or a refusal", f.Class, f.Signature)
				}
			}
			wrongCodes(t, &Report{Findings: wrongCode})
			if len(wrongCode) == 0 || len(wrongCode) > maxCodes+1 {
				t.Errorf("%d wrong-code findings, want 1 to %d (the reference answered %d codes)", len(wrongCode), maxCodes+1, len(ref.codes))
			}
			others := 0
			for _, f := range wrongCode {
				if strings.HasSuffix(f.Signature, "another code") {
					others++
				}
			}
			if others > 1 {
				t.Errorf("%d findings for the codes past the first %d, want one", others, maxCodes)
			}
			if want := map[bool]int{false: 0, true: 1}[tc.refuseAll]; refused != want {
				t.Errorf("%d rejected-wrongly findings, want %d", refused, want)
			}
			if rep.Divergent <= 2*len(rep.Findings) {
				t.Errorf("%d divergent executions for %d findings: the liar was hardly exercised", rep.Divergent, len(rep.Findings))
			}
			dir := t.TempDir()
			emitted, err := WriteVectors(dir, rep.Findings, corpusOf(t), Provenance{Impl: "liar", Date: time.Now()})
			written, _ := emittedPaths(emitted)
			if err != nil || len(written) != len(rep.Findings) {
				t.Fatalf("WriteVectors wrote %v (%v), want %d files", written, err, len(rep.Findings))
			}
			replays(t, dir, liar)
		})
	}
}

// TestSignature checks what the signature of a comparison holds, with the
// verdicts and diffs of runner.Compare.
func TestSignature(t *testing.T) {
	sig := func(expected, actual string) string {
		t.Helper()
		v, diffs, err := runner.Compare(json.RawMessage(expected), json.RawMessage(actual))
		if err != nil || v == runner.Match {
			t.Fatalf("Compare(%s, %s) = %v, %v", expected, actual, v, err)
		}
		s, _ := compareSig(v, json.RawMessage(expected), json.RawMessage(actual), diffs, "reference")
		return s
	}
	same := []struct{ name, e1, a1, e2, a2 string }{
		{"wrong code, whatever the reference's code",
			`{"rejected":{"code":"A"}}`, `{"rejected":{"code":"X"}}`, `{"rejected":{"code":"B"}}`, `{"rejected":{"code":"X"}}`},
		{"accepted wrongly, whatever the implementation answered",
			`{"rejected":{"code":"A"}}`, `{"n":1}`, `{"rejected":{"code":"A"}}`, `{"m":[2]}`},
		{"rejected wrongly, whatever the implementation's code",
			`{"n":1}`, `{"rejected":{"code":"X"}}`, `{"n":2}`, `{"rejected":{"code":"Y"}}`},
		{"an extra member, whatever its name",
			`{"n":1}`, `{"n":1,"zz":0}`, `{"n":1}`, `{"n":1,"a b":0}`},
		{"a different value at an index",
			`{"n":[1,2]}`, `{"n":[1,3]}`, `{"n":[1,2]}`, `{"n":[0,2]}`},
		// A refusal written with a member twice is no output the judge
		// reads (a mismatch at the duplicate), not a refusal with the
		// last code: the fault is the duplicate, whatever it repeats.
		{"a refusal written twice, whatever its code",
			`{"rejected":{"code":"A"}}`, `{"rejected":{"code":"X"},"rejected":{"code":"X"}}`, `{"rejected":{"code":"A"}}`, `{"rejected":{"code":"Y"},"rejected":{"code":"Y"}}`},
	}
	for _, tt := range same {
		if s1, s2 := sig(tt.e1, tt.a1), sig(tt.e2, tt.a2); s1 != s2 {
			t.Errorf("%s: signatures %q and %q, want one", tt.name, s1, s2)
		}
	}
	differ := []struct{ name, e1, a1, e2, a2 string }{
		{"wrong codes where the implementation's codes differ",
			`{"rejected":{"code":"A"}}`, `{"rejected":{"code":"X"}}`, `{"rejected":{"code":"A"}}`, `{"rejected":{"code":"Y"}}`},
		{"accepted wrongly where the reference's codes differ",
			`{"rejected":{"code":"A"}}`, `{"n":1}`, `{"rejected":{"code":"B"}}`, `{"n":1}`},
		{"a refusal with a code and one without",
			`{"n":1}`, `{"rejected":{"code":"X"}}`, `{"n":1}`, `{"rejected":{}}`},
		{"another member differs",
			`{"n":1,"m":1}`, `{"n":2,"m":1}`, `{"n":1,"m":1}`, `{"n":1,"m":2}`},
		{"an extra member and a missing one",
			`{"n":1}`, `{"n":1,"m":1}`, `{"n":1,"m":1}`, `{"n":1}`},
		{"rejected instead of dropped, and a wrong code",
			`{"dropped":{"code":"A"}}`, `{"rejected":{"code":"A"}}`, `{"dropped":{"code":"A"}}`, `{"dropped":{"code":"X"}}`},
		// Codes are read as the judge reads them (jsonv): two lone
		// surrogates are two codes, not one U+FFFD.
		{"wrong codes that differ in a lone surrogate",
			`{"rejected":{"code":"A"}}`, `{"rejected":{"code":"\ud800"}}`, `{"rejected":{"code":"A"}}`, `{"rejected":{"code":"\ud801"}}`},
	}
	for _, tt := range differ {
		if s1, s2 := sig(tt.e1, tt.a1), sig(tt.e2, tt.a2); s1 == s2 {
			t.Errorf("%s: both have the signature %q", tt.name, s1)
		}
	}
	// A wrong code is named by the code the implementation gave (engine.key
	// bounds how many), not by the rule the reference refused the input for.
	if s := sig(`{"rejected":{"code":"REF_CODE"}}`, `{"rejected":{"code":"IMPL_CODE"}}`); strings.Contains(s, "REF_CODE") || !strings.HasSuffix(s, "IMPL_CODE") {
		t.Errorf("signature %q, want the implementation's code at its end and not the reference's", s)
	}
	// An extra member is classed as such.
	if s := sig(`{"n":1}`, `{"n":1,"zz":0}`); s != "$.*=extra" {
		t.Errorf("extra member: signature %q, want %q", s, "$.*=extra")
	}
	if s := sig(`{"o":{"n":1}}`, `{"o":{"n":1,"a[\"b":0}}`); s != "$.o.*=extra" {
		t.Errorf("extra member with a quoted name: signature %q, want %q", s, "$.o.*=extra")
	}
	// Error kinds the protocol does not define are one class.
	if errorKindSig("made_up_1") != errorKindSig("made_up_2") || errorKindSig("internal") == errorKindSig("bad_request") {
		t.Error("errorKindSig: want the protocol's kinds apart and any other kind one class")
	}
}

// oneFinding returns a finding of the toy byte counter and its vector's
// file name in dir.
func oneFinding(t *testing.T, dir string) (*Finding, string) {
	t.Helper()
	rep := toyRun(t, toyCountBytes, nil)
	if len(rep.Findings) != 1 {
		t.Fatalf("findings = %d, want 1", len(rep.Findings))
	}
	f := rep.Findings[0]
	return f, filepath.Join(dir, "toy", strings.ReplaceAll(f.ID(), "/", "-")+".json")
}

// TestWriteVectorsNeverFollowsALink plants a symbolic link at the name of
// a finding's file, to a file outside the directory and to a name that
// does not exist yet: neither is written through, and the finding goes
// under another name.
func TestWriteVectorsNeverFollowsALink(t *testing.T) {
	for _, dangling := range []bool{false, true} {
		t.Run(fmt.Sprintf("dangling=%v", dangling), func(t *testing.T) {
			dir, outside := t.TempDir(), t.TempDir()
			f, target := oneFinding(t, dir)
			victim := filepath.Join(outside, "victim")
			const content = "not to be touched\n"
			if !dangling {
				if err := os.WriteFile(victim, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(victim, target); err != nil {
				t.Fatal(err)
			}
			emitted, err := WriteVectors(dir, []*Finding{f}, toyCorpus(t), Provenance{Date: time.Now()})
			if err != nil || len(emitted) != 1 || emitted[0].Kept || emitted[0].Path == target {
				t.Fatalf("WriteVectors = %+v, %v; want the finding written under another name", emitted, err)
			}
			data, err := os.ReadFile(victim)
			switch {
			case dangling && err == nil:
				t.Errorf("the dangling link's target was created: %q", data)
			case !dangling && string(data) != content:
				t.Errorf("the link's target now holds %q (%v)", data, err)
			}
			if fi, err := os.Lstat(target); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Errorf("the planted link is gone or replaced (%v)", err)
			}
			if fi, err := os.Lstat(emitted[0].Path); err != nil || !fi.Mode().IsRegular() {
				t.Fatalf("%s is not a regular file (%v)", emitted[0].Path, err)
			}
			checkVectorFiles(t, []string{emitted[0].Path})
			replaysToy(t, dir, emitted[0].Path)
		})
	}
}

func replaysToy(t *testing.T, dir, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	vf, err := vectors.Parse(path, data)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		impl toyImpl
		pass bool
	}{{toyImpl{toyCorrect}, true}, {toyImpl{toyCountBytes}, false}} {
		for _, res := range (&runner.Runner{Impl: tc.impl}).Run(context.Background(), vf.Vectors) {
			if (res.Outcome == runner.Pass) != tc.pass {
				t.Errorf("%s on fault %d: %s, want pass=%v", res.Vector.ID, tc.impl.fault, res.Outcome, tc.pass)
			}
		}
	}
}

// TestWriteVectorsSameNameOtherCase puts another case under a finding's
// file name: it is left as it is and the finding goes under another name;
// a second write of the finding keeps that file.
func TestWriteVectorsSameNameOtherCase(t *testing.T) {
	dir := t.TempDir()
	f, target := oneFinding(t, dir)
	other := *f
	other.Input = json.RawMessage(`{"text":"another case"}`)
	planted, err := other.vectorFile(toyCorpus(t), Provenance{}, f.ID())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(target, planted, 0o644); err != nil {
		t.Fatal(err)
	}
	emitted, err := WriteVectors(dir, []*Finding{f}, toyCorpus(t), Provenance{Date: time.Now()})
	if err != nil || len(emitted) != 1 || emitted[0].Kept || emitted[0].Path == target {
		t.Fatalf("WriteVectors = %+v, %v; want the finding written under another name", emitted, err)
	}
	if data, _ := os.ReadFile(target); !bytes.Equal(data, planted) {
		t.Errorf("the other case's file was changed")
	}
	again, err := WriteVectors(dir, []*Finding{f}, toyCorpus(t), Provenance{Date: time.Now().Add(time.Hour)})
	if err != nil || len(again) != 1 || !again[0].Kept || again[0].Path != emitted[0].Path {
		t.Errorf("second WriteVectors = %+v, %v; want %s kept", again, err, emitted[0].Path)
	}
	// Both files load together: their vector ids differ.
	if _, err := vectors.Load(os.DirFS(dir)); err != nil {
		t.Errorf("the directory does not load as a corpus: %v", err)
	}
	replaysToy(t, dir, emitted[0].Path)
}

// TestWriteVectorsReportsWhatItCannotWrite: a finding whose directory
// cannot be made is named in the error, not dropped silently.
func TestWriteVectorsReportsWhatItCannotWrite(t *testing.T) {
	dir := t.TempDir()
	f, _ := oneFinding(t, dir)
	if err := os.WriteFile(filepath.Join(dir, "toy"), []byte("a file where a directory goes"), 0o644); err != nil {
		t.Fatal(err)
	}
	emitted, err := WriteVectors(dir, []*Finding{f}, toyCorpus(t), Provenance{Date: time.Now()})
	if err == nil || len(emitted) != 0 || !strings.Contains(err.Error(), f.ID()) {
		t.Errorf("WriteVectors = %+v, %v; want an error naming %s", emitted, err, f.ID())
	}
}

// A suite directory planted in advance as a link to somewhere else: the
// finding is reported as not written, and nothing appears where the link
// points.
func TestWriteVectorsNeverFollowsASuiteLink(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	f, target := oneFinding(t, dir)
	if err := os.Symlink(outside, filepath.Dir(target)); err != nil {
		t.Fatal(err)
	}
	emitted, err := WriteVectors(dir, []*Finding{f}, toyCorpus(t), Provenance{Date: time.Now()})
	if err == nil || len(emitted) != 0 || !strings.Contains(err.Error(), "symbolic link") || !strings.Contains(err.Error(), f.ID()) {
		t.Fatalf("WriteVectors = %+v, %v; want an error naming the finding and the link", emitted, err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("%d files appeared where the link points", len(entries))
	}
}

// commentRefuser is the reference but that it refuses every quote.parse
// href holding a comment with one code; with zeroStart, it also answers
// every citation it accepts with start 0.
type commentRefuser struct{ zeroStart bool }

func (c commentRefuser) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	resp, err := reference.InProcess{}.Call(ctx, req)
	if err != nil || req.Op != "quote.parse" || resp.Output == nil {
		return resp, err
	}
	var in struct{ Href string }
	if json.Unmarshal(req.Input, &in) == nil && (strings.Contains(in.Href, "?comment=") || strings.Contains(in.Href, "&comment=")) {
		resp.Output = json.RawMessage(`{"rejected":{"code":"QUOTE_COMMENT_UNSUPPORTED"}}`)
		return resp, nil
	}
	if c.zeroStart {
		var out map[string]map[string]any
		if json.Unmarshal(resp.Output, &out) == nil && out["citation"] != nil && out["citation"]["start"] != float64(0) {
			out["citation"]["start"] = 0
			resp.Output = mustJSON(out)
		}
	}
	return resp, nil
}

func (commentRefuser) Close() error { return nil }

// TestOneBugOneFinding: the bug of refusing every href holding a comment,
// which the reference refuses for many reasons of its own, is one finding
// (two at most: where the reference accepts such an href, and where it
// refuses it for another reason), every other divergence a further hit of
// those; a second bug of the same op is a finding of its own.
func TestOneBugOneFinding(t *testing.T) {
	run := func(impl runner.Implementation) *Report { return parseRun(t, 3, Config{Impl: impl}) }
	rep := run(commentRefuser{})
	hits := 0
	for _, f := range rep.Findings {
		hits += f.Hits
		t.Logf("%s (%d hits): %.200s", f.Signature, f.Hits, f.Input)
	}
	if len(rep.Findings) == 0 || len(rep.Findings) > 2 || hits < 10 {
		t.Fatalf("%d findings with %d hits in all, want one or two findings hit again and again", len(rep.Findings), hits)
	}
	both := run(commentRefuser{zeroStart: true})
	start := slices.IndexFunc(both.Findings, func(f *Finding) bool { return strings.Contains(f.Signature, "$.citation.start=value") })
	if start < 0 || len(both.Findings) < len(rep.Findings)+1 || len(both.Findings) > 3 {
		var sigs []string
		for _, f := range both.Findings {
			sigs = append(sigs, f.Signature)
		}
		t.Errorf("two bugs of quote.parse gave the findings %q, want the comment bug's and one for the start", sigs)
	}
}
