package fuzz

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/runner"
	"github.com/conform-suite/conform/vectors"
)

// The engine's own tests use a toy op, so that they do not depend on any
// suite: "toy.limit" takes {"text"} and answers {"units": n}, the length
// of the text in UTF-16 code units, or refuses a text longer than 8 units
// with TOO_LONG.

const toyLimit = 8

type toyFault int

const (
	toyCorrect         toyFault = iota
	toyCountBytes               // counts UTF-8 bytes against the limit
	toyCrashOnPercent           // the call fails when the text holds a "%"
	toyHangOnPercent            // never answers when the text holds a "%"
	toyNoHello                  // answers hello with no ops
	toyGarbleOnPercent          // answers a text holding a "%" with a line that is not JSON
	toyErrorOnPercent           // answers a text holding a "%" with an internal error
)

type toyImpl struct{ fault toyFault }

func (t toyImpl) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	resp := protocol.Response{ID: req.ID}
	if req.Op == "hello" {
		ops := []string{"toy.limit"}
		if t.fault == toyNoHello {
			ops = []string{}
		}
		resp.Output, _ = json.Marshal(protocol.Hello{Protocol: 1, Name: "toy", Ops: ops})
		return resp, nil
	}
	var in struct {
		Text *string `json:"text"`
	}
	if err := json.Unmarshal(req.Input, &in); err != nil || in.Text == nil {
		resp.Error = &protocol.Error{Kind: "bad_request", Message: "no text"}
		return resp, nil
	}
	if strings.Contains(*in.Text, "%") {
		switch t.fault {
		case toyCrashOnPercent:
			return resp, errors.New("process exited: signal: killed")
		case toyHangOnPercent:
			<-ctx.Done()
			return resp, ctx.Err()
		case toyGarbleOnPercent:
			return resp, &runner.CallError{Outcome: runner.ProtocolErr, Msg: "the answer is not JSON"}
		case toyErrorOnPercent:
			resp.Error = &protocol.Error{Kind: "internal", Message: "boom"}
			return resp, nil
		}
	}
	n := len(utf16.Encode([]rune(*in.Text)))
	if t.fault == toyCountBytes {
		n = len(*in.Text)
	}
	if n > toyLimit {
		resp.Output = json.RawMessage(`{"rejected":{"code":"TOO_LONG"}}`)
	} else {
		resp.Output, _ = json.Marshal(map[string]int{"units": len(utf16.Encode([]rune(*in.Text)))})
	}
	return resp, nil
}

func (toyImpl) Close() error { return nil }

const toyCorpusFile = `{
  "op": "toy.limit",
  "description": "The toy limit of the engine's tests.",
  "vectors": [
    {"id": "toy.limit/short", "description": "A short text", "requirements": ["TOY-LIMIT-001"], "input": {"text": "abc"}, "expect": {"output": {"units": 3}}},
    {"id": "toy.limit/over", "description": "A text over the limit", "requirements": ["TOY-LIMIT-002"], "input": {"text": "abcdefghi"}, "expect": {"output": {"rejected": {"code": "TOO_LONG"}}}}
  ]
}`

func toyCorpus(t *testing.T) *vectors.Corpus {
	t.Helper()
	f, err := vectors.Parse("toy/limit.json", []byte(toyCorpusFile))
	if err != nil {
		t.Fatal(err)
	}
	return &vectors.Corpus{Files: []*vectors.File{f}}
}

func toyRun(t *testing.T, fault toyFault, mod func(*Config)) *Report {
	t.Helper()
	cfg := Config{Impl: toyImpl{fault}, Ref: toyImpl{toyCorrect}, Corpus: toyCorpus(t), Seed: 7, Count: 400}
	if mod != nil {
		mod(&cfg)
	}
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return rep
}

func toyText(t *testing.T, input json.RawMessage) string {
	t.Helper()
	var in struct{ Text string }
	if err := json.Unmarshal(input, &in); err != nil {
		t.Fatalf("input %s: %v", input, err)
	}
	return in.Text
}

func TestRunCorrectImplementationHasNoFindings(t *testing.T) {
	rep := toyRun(t, toyCorrect, nil)
	if rep.Execs != 400 {
		t.Errorf("Execs = %d, want 400", rep.Execs)
	}
	if len(rep.Findings) != 0 {
		t.Errorf("findings against a correct implementation: %+v", rep.Findings[0])
	}
}

// TestRunShrinksByteCounter checks the byte-counting fault is found and
// shrunk to a one-minimal input: over the limit in bytes, within it in
// UTF-16 units, and agreeing again when any one code point is removed.
func TestRunShrinksByteCounter(t *testing.T) {
	rep := toyRun(t, toyCountBytes, nil)
	if len(rep.Findings) != 1 {
		t.Fatalf("findings = %d, want 1 (%+v)", len(rep.Findings), rep.Findings)
	}
	f := rep.Findings[0]
	if f.Class != ClassRejectedWrongly {
		t.Errorf("Kind = %s, want %s", f.Class, ClassRejectedWrongly)
	}
	text := toyText(t, f.Input)
	units := len(utf16.Encode([]rune(text)))
	if len(text) <= toyLimit || units > toyLimit {
		t.Errorf("shrunk text %q has %d bytes and %d units, want > %d bytes and <= %d units", text, len(text), units, toyLimit, toyLimit)
	}
	for i, r := range []rune(text) {
		shorter := string(slices.Delete([]rune(text), i, i+1))
		if len(shorter) > toyLimit && len(utf16.Encode([]rune(shorter))) <= toyLimit {
			t.Errorf("shrunk text %q is not minimal: without %q it still diverges", text, r)
		}
	}
	if f.Hits < 2 {
		t.Errorf("Hits = %d, want the repeated divergences counted into one finding", f.Hits)
	}
	if rep.Divergent < f.Hits {
		t.Errorf("Divergent = %d, want >= Hits %d", rep.Divergent, f.Hits)
	}
}

func TestRunIsReproducible(t *testing.T) {
	a := toyRun(t, toyCountBytes, nil)
	b := toyRun(t, toyCountBytes, nil)
	if len(a.Findings) == 0 || len(a.Findings) != len(b.Findings) {
		t.Fatalf("findings %d and %d, want the same non-zero number", len(a.Findings), len(b.Findings))
	}
	for i := range a.Findings {
		fa, fb := a.Findings[i], b.Findings[i]
		if fa.Case != fb.Case || !bytes.Equal(fa.Input, fb.Input) || !bytes.Equal(fa.Original, fb.Original) {
			t.Errorf("finding %d: case %d %s vs case %d %s, want equal", i, fa.Case, fa.Input, fb.Case, fb.Input)
		}
	}
	p := toyRun(t, toyCountBytes, func(c *Config) { c.Parallel = 4 })
	if len(p.Findings) != len(a.Findings) || p.Execs != a.Execs || p.Findings[0].Case != a.Findings[0].Case || !bytes.Equal(p.Findings[0].Input, a.Findings[0].Input) {
		t.Errorf("Parallel 4: %d findings in %d executions, want the %d of Parallel 1 in %d", len(p.Findings), p.Execs, len(a.Findings), a.Execs)
	}
	c := toyRun(t, toyCountBytes, func(c *Config) { c.Seed = 8 })
	if len(c.Findings) > 0 && c.Findings[0].Case == a.Findings[0].Case && bytes.Equal(c.Findings[0].Original, a.Findings[0].Original) {
		t.Errorf("seeds 7 and 8 found the same original input %s at the same case", a.Findings[0].Original)
	}
}

func TestRunClassifiesNoAnswer(t *testing.T) {
	tests := []struct {
		fault toyFault
		want  Class
	}{
		{toyCrashOnPercent, ClassCrash},
		{toyHangOnPercent, ClassTimeout},
		{toyGarbleOnPercent, ClassProtocol},
		{toyErrorOnPercent, ClassError},
	}
	for _, tt := range tests {
		rep := toyRun(t, tt.fault, func(c *Config) {
			c.Count = 150
			c.Timeout = 20 * time.Millisecond
			c.ShrinkExecs = 40
		})
		if len(rep.Findings) == 0 {
			t.Errorf("fault %d: no findings, want %s", tt.fault, tt.want)
			continue
		}
		f := rep.Findings[0]
		if f.Class != tt.want || !strings.Contains(toyText(t, f.Input), "%") {
			t.Errorf("fault %d: finding %s on %s, want %s on an input holding %%", tt.fault, f.Class, f.Input, tt.want)
		}
		// The shrinker keeps a percent-escaped character whole: "%" or
		// one escape such as "%14" is as short as it gets.
		if got := toyText(t, f.Input); !regexp.MustCompile(`^%([0-9A-Fa-f]{2})?$`).MatchString(got) && tt.fault == toyCrashOnPercent {
			t.Errorf("fault %d: shrunk text %q, want %q or one percent-escape", tt.fault, got, "%")
		}
	}
}

func TestRunRefusesUnfuzzableConfig(t *testing.T) {
	tests := []struct {
		name string
		mod  func(*Config)
	}{
		{"no bound", func(c *Config) { c.Count = 0 }},
		{"no implementation", func(c *Config) { c.Impl = nil }},
		{"unknown op", func(c *Config) { c.Ops = []string{"toy.nothing"} }},
		{"nothing offered", func(c *Config) { c.Impl = toyImpl{toyNoHello} }},
	}
	for _, tt := range tests {
		cfg := Config{Impl: toyImpl{toyCorrect}, Ref: toyImpl{toyCorrect}, Corpus: toyCorpus(t), Count: 10}
		tt.mod(&cfg)
		if rep, err := Run(context.Background(), cfg); err == nil {
			t.Errorf("%s: Run = %+v, want an error", tt.name, rep.Stats)
		}
	}
}

// TestWriteVectorsReplays checks an emitted vector file validates against
// the vector schema, loads as a corpus, passes on the reference and fails
// on the faulty implementation.
func TestWriteVectorsReplays(t *testing.T) {
	rep := toyRun(t, toyCountBytes, nil)
	if len(rep.Findings) == 0 {
		t.Fatal("no findings")
	}
	dir := t.TempDir()
	p := Provenance{Impl: "toy --count-bytes", Date: time.Date(2026, 11, 29, 23, 0, 0, 0, time.UTC)}
	emitted, err := WriteVectors(dir, rep.Findings, toyCorpus(t), p)
	written, kept := emittedPaths(emitted)
	if err != nil || len(written) != len(rep.Findings) || len(kept) != 0 {
		t.Fatalf("WriteVectors = %v, %v, %v; want %d files written", written, kept, err, len(rep.Findings))
	}
	emitted, err = WriteVectors(dir, rep.Findings, toyCorpus(t), p)
	again, kept := emittedPaths(emitted)
	if err != nil || len(again) != 0 || !slices.Equal(kept, written) {
		t.Errorf("second WriteVectors wrote %v and kept %v (%v), want the existing files %v kept", again, kept, err, written)
	}
	for i, data := range checkVectorFiles(t, written) {
		if !bytes.Contains(data, []byte("--seed 7")) || !bytes.Contains(data, []byte(`"seed:7"`)) {
			t.Errorf("%s: no seed in the provenance:\n%s", filepath.Base(written[i]), data)
		}
	}
	corpus, err := vectors.Load(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	vs := corpus.Vectors()
	for _, tc := range []struct {
		impl toyImpl
		pass bool
	}{{toyImpl{toyCorrect}, true}, {toyImpl{toyCountBytes}, false}} {
		r := &runner.Runner{Impl: tc.impl}
		for _, res := range r.Run(context.Background(), vs) {
			if (res.Outcome == runner.Pass) != tc.pass {
				t.Errorf("fault %d: %s = %s %v, want pass=%v", tc.impl.fault, res.Vector.ID, res.Outcome, res.Diffs, tc.pass)
			}
		}
	}
}

func TestJSON16RoundTrip(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"a":"b"}`, `{"a":"b"}`},
		{`{ "text" : "\ud83d" }`, `{"text":"\ud83d"}`},
		{`"\ud83d\ude00"`, `"😀"`},
		{`"\ude00\ud83d"`, `"\ude00\ud83d"`},
		{`["\u0000\n\u001f","\u2028<&>"]`, `["\u0000\n\u001f","` + "\u2028" + `<&>"]`},
		{`{"n":-1.5e3,"t":true,"z":null,"e":[],"o":{}}`, `{"n":-1.5e3,"t":true,"z":null,"e":[],"o":{}}`},
		{`{"k":1,"k":2}`, `{"k":1,"k":2}`},
		{`"\u00e9\/"`, `"é/"`},
	}
	for _, tt := range tests {
		v, err := parseJSON16([]byte(tt.in))
		if err != nil {
			t.Errorf("parseJSON16(%q) error %v", tt.in, err)
			continue
		}
		if got := string(encode(v)); got != tt.want {
			t.Errorf("encode(parseJSON16(%q)) = %q, want %q", tt.in, got, tt.want)
		}
		if !json.Valid(encode(v)) {
			t.Errorf("encode(parseJSON16(%q)) = %q is not valid JSON", tt.in, encode(v))
		}
	}
	for _, bad := range []string{``, `{`, `{"a"}`, `[1,]`, `"\x"`, "\"a\x01\"", `01`, `{"a":1}x`, `+1`, `NaN`} {
		if v, err := parseJSON16([]byte(bad)); err == nil {
			t.Errorf("parseJSON16(%q) = %s, want an error", bad, encode(v))
		}
	}
}

// TestGeneratorsAndMutationsWriteValidJSON checks every generator, and
// every mutation of what it generates, encodes to JSON that encoding/json
// accepts and that parses back to the same encoding.
func TestGeneratorsAndMutationsWriteValidJSON(t *testing.T) {
	for _, op := range GeneratedOps() {
		for i := range 100 {
			r := newCaseRand(3, uint64(i))
			v := inputGens[op](r)
			if i%2 == 1 {
				v = mutate(r, v)
			}
			data := encode(v)
			if !json.Valid(data) {
				t.Fatalf("%s case %d: invalid JSON %q", op, i, data)
			}
			back, err := parseJSON16(data)
			if err != nil || !bytes.Equal(encode(back), data) {
				t.Fatalf("%s case %d: %q does not round-trip (%v)", op, i, data, err)
			}
		}
	}
}

// toyMortal dies for good on the first text holding a "%": every later call
// fails too, as a stdio transport does once its restart budget is spent.
type toyMortal struct{ dead bool }

func (m *toyMortal) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	if req.Op != "hello" && (m.dead || strings.Contains(string(req.Input), "%")) {
		m.dead = true
		return protocol.Response{}, errors.New("not sent: the implementation died")
	}
	return toyImpl{toyCorrect}.Call(ctx, req)
}

func (*toyMortal) Close() error { return nil }

func TestRunStopsWhenTheImplementationIsGone(t *testing.T) {
	rep := toyRun(t, toyCorrect, func(c *Config) { c.Impl = &toyMortal{} })
	if rep.Stopped == "" || rep.Execs >= 400 {
		t.Fatalf("Stopped = %q after %d executions, want the run stopped early", rep.Stopped, rep.Execs)
	}
	if len(rep.Findings) != 1 {
		t.Fatalf("findings = %d, want the one input after which nothing answered", len(rep.Findings))
	}
	f := rep.Findings[0]
	if f.Class != ClassCrash || !strings.Contains(toyText(t, f.Input), "%") || !bytes.Equal(f.Input, f.Original) {
		t.Errorf("finding %s on %s (original %s), want an unshrunk crash on the text holding %%", f.Class, f.Input, f.Original)
	}
}

func TestEscapeInvisible(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"a":"x` + "\u200b" + `y"}`, `{"a":"x\u200by"}`},
		{`"` + "\ue200cite\ue202a\ue201" + `"`, `"\ue200cite\ue202a\ue201"`},
		{`"e` + "\u0301\u00a0\u3000" + `"`, `"e\u0301\u00a0\u3000"`},
		{`"` + "\U000e0001" + `"`, `"\udb40\udc01"`},
		{`"é😀引 ok"`, `"é😀引 ok"`},
	}
	for _, tt := range tests {
		got := vectors.Escape([]byte(tt.in), invisible)
		if string(got) != tt.want {
			t.Errorf("Escape(%q) = %q, want %q", tt.in, got, tt.want)
		}
		var a, b any
		if json.Unmarshal([]byte(tt.in), &a) != nil || json.Unmarshal(got, &b) != nil || !reflect.DeepEqual(a, b) {
			t.Errorf("Escape(%q) = %q does not decode to the same value", tt.in, got)
		}
	}
}

// TestClassesAreTheRunnersWords holds the classes of wrong answers to the
// names of the runner's comparisons.
func TestClassesAreTheRunnersWords(t *testing.T) {
	for c, class := range map[runner.Comparison]Class{runner.Mismatch: ClassMismatch, runner.AcceptedWrongly: ClassAcceptedWrongly, runner.RejectedWrongly: ClassRejectedWrongly} {
		if c.String() != string(class) {
			t.Errorf("comparison %q, class %q", c, class)
		}
		if got := classOf(runner.Result{Outcome: runner.Fail, Comparison: c}); got != class {
			t.Errorf("classOf(fail, %s) = %q", c, got)
		}
	}
}
