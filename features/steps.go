package features

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/conform-suite/conform/internal/jsonv"
	"github.com/conform-suite/conform/internal/safetext"
	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/report"
	"github.com/conform-suite/conform/runner"
	"github.com/cucumber/godog"
)

// Step argument patterns.
const (
	q      = `"((?:[^"\\]|\\.)*)"`                             // a quoted argument, JSON string content
	lit    = `(-?\d[0-9.eE+-]*|true|false|null|\{.*\}|\[.*\])` // an inline JSON value other than a string
	opName = `"([a-z][a-z0-9_]*\.[a-z][a-z0-9_]*)"`            // an op: "quote.parse"
)

// errSkip, wrapped by a step's or a hook's error, skips the scenario: its
// further steps are not run, and it is neither passed nor failed. The text
// after "skipped: " is the reason.
var errSkip = godog.ErrSkip

// scenario is the state of one scenario: the input being built, and the
// answers to the calls made so far.
type scenario struct {
	h *harness
	r *record // what happened to the scenario, for what its steps record

	input    object          // members set one by one
	rawInput json.RawMessage // a whole input, when given at once

	citation    object          // quote: the citation a story builds
	response    string          // quote: the assistant response a story selects in
	breaks      json.RawMessage // quote: the inserted line feeds of a response built from HTML
	selector    json.RawMessage // quote: the selector the last selection saved
	prompt      string          // quote: the prompt a story writes
	reference   object          // selref: the reference a story builds
	parts       []dataPart      // marker: the data parts of the artifact
	modelOutput string          // marker: the text the model wrote

	sent    []byte        // protocol: the raw lines last sent
	answers [][]byte      // protocol: the raw answer lines
	ended   time.Duration // protocol: how long the session took to end after its input

	op   string
	req  json.RawMessage // the last request's input
	resp *protocol.Response
	prev *protocol.Response // the answer before the last one
}

func (s *scenario) register(sc steps) {
	// Setting up.
	sc.Step(`^an implementation under test$`, s.anImplementation)
	sc.Step(`^the input is:$`, func(d *godog.DocString) error { return s.inputIs(d.Content) })
	sc.Step(`^the input is (\{.*\})$`, s.inputIs)
	sc.Step(`^the input member `+q+` is `+q+`$`, withValue(stringValue, s.setMember))
	sc.Step(`^the input member `+q+` is `+lit+`$`, withValue(jsonValue, s.setMember))
	sc.Step(`^the input member `+q+` is:$`, withValue(docValue, s.setMember))
	sc.Step(`^the input member `+q+` is the JSON (.+)$`, withValue(jsonValue, s.setMember))
	sc.Step(`^the input member `+q+` is the previous output member `+q+`$`, s.memberFromPrevious)

	// Calling.
	sc.Step(`^`+opName+` is called$`, func(ctx context.Context, op string) error { return s.call(ctx, op, nil) })
	sc.Step(`^`+opName+` is called with (\{.*\})$`, callWith(s, jsonValue))
	sc.Step(`^`+opName+` is called with:$`, callWith(s, jsonDoc))
	sc.Step(`^`+opName+` is called with the members:$`, callWith(s, tableObject))

	// Checking.
	sc.Step(`^the output is:$`, func(d *godog.DocString) error { return s.outputInline(d.Content) })
	sc.Step(`^the output is (\{.*\})$`, s.outputInline)
	sc.Step(`^the output member `+q+` is `+q+`$`, withValue(stringValue, s.outputMember))
	sc.Step(`^the output member `+q+` is `+lit+`$`, withValue(jsonValue, s.outputMember))
	sc.Step(`^the output member `+q+` is:$`, withValue(docValue, s.outputMember))
	sc.Step(`^the output member `+q+` contains `+q+`$`, s.outputStringCheck("contain", containsUnits))
	sc.Step(`^the output member `+q+` starts with `+q+`$`, s.outputStringCheck("start with", hasPrefixUnits))
	sc.Step(`^the output member `+q+` ends with `+q+`$`, s.outputStringCheck("end with", hasSuffixUnits))
	sc.Step(`^the output member `+q+` has (\d+) elements?$`, s.outputMemberLen)
	sc.Step(`^the output member `+q+` equals the previous output member `+q+`$`, s.outputMemberEqualsPrevious)
	sc.Step(`^the output has no member `+q+`$`, s.outputHasNo)
	sc.Step(`^the input is accepted$`, s.accepted)
	sc.Step(`^the input is (rejected|dropped)$`, func(kind string) error { return s.refused(kind, nil) })
	sc.Step(`^the input is (rejected|dropped) with code `+q+`$`, func(kind, code string) error { return s.refused(kind, &code) })
	sc.Step(`^it is refused$`, func() error { return s.refused("", nil) })
	sc.Step(`^it is refused with code `+q+`$`, func(code string) error {
		if code == "" {
			return s.refused("", nil) // an empty code means any code
		}
		return s.refused("", &code)
	})
	sc.Step(`^the answer has error kind `+q+`$`, s.errorKind)

	s.registerProtocol(sc)
	// The phrasings that make the suites' stories readable, each a thin
	// layer over the generic steps.
	s.registerQuote(sc)
	s.registerAnchor(sc)
	s.registerCompose(sc)
	s.registerSelref(sc)
	s.registerMarker(sc)
}

func (s *scenario) anImplementation(ctx context.Context) error {
	_, err := s.h.handshake(ctx)
	return err
}

func (s *scenario) inputIs(input string) error {
	v, err := jsonValue(input)
	if err != nil {
		return fmt.Errorf("the input: %w", err)
	}
	s.rawInput, s.input = v, object{}
	return nil
}

// at fixes the name or path of a step: at("text", f) takes only f's
// second argument.
func at[A any](name string, f func(string, A) error) func(A) error {
	return func(arg A) error { return f(name, arg) }
}

// under prefixes the name or path of a step: under("citation.", f) checks
// or sets members of the citation.
func under[A any](prefix string, f func(string, A) error) func(string, A) error {
	return func(name string, arg A) error { return f(prefix+name, arg) }
}

// withValue adapts f, which takes a name, path or context and a JSON value,
// to a step whose second argument conv turns into that value: a quoted
// string (stringValue), an inline JSON value (jsonValue) or a doc string
// (docValue).
func withValue[K, A any](conv func(A) (json.RawMessage, error), f func(K, json.RawMessage) error) func(K, A) error {
	return func(k K, arg A) error {
		v, err := conv(arg)
		if err != nil {
			return err
		}
		return f(k, v)
	}
}

// keep adapts conv, which reads a text from a step's argument, to a step
// that keeps the text in *dst: keep(&s.prompt, quoted).
func keep[A any](dst *string, conv func(A) (string, error)) func(A) error {
	return func(arg A) error {
		t, err := conv(arg)
		*dst = t
		return err
	}
}

func (s *scenario) setMember(name string, v json.RawMessage) error {
	name, err := quoted(name)
	if err != nil {
		return err
	}
	if s.rawInput != nil {
		return fmt.Errorf("input member %q: the whole input was already given", name)
	}
	s.input.set(name, v)
	return nil
}

func (s *scenario) memberFromPrevious(name, path string) error {
	v, err := s.member(s.resp, "the previous output", path)
	if err != nil {
		return err
	}
	return s.setMember(name, v)
}

// call sends op with the given input, or with the input built so far.
// A call to an op the implementation does not offer skips the scenario, or
// fails it when the op is required (Options.RequireOps).
func (s *scenario) call(ctx context.Context, op string, input json.RawMessage) error {
	if err := s.needOp(ctx, op); err != nil {
		return err
	}
	if input == nil {
		input = s.rawInput
	}
	if input == nil {
		input = s.input.json()
	}
	s.rawInput, s.input = nil, object{}
	resp, err := s.h.call(ctx, op, input)
	if err != nil {
		return err
	}
	s.prev, s.resp, s.op, s.req = s.resp, &resp, op, input
	return nil
}

// suites are the suites whose ops a hello answer may leave out; a scenario
// calling such an op is skipped.
var suites = []string{"quote", "marker", "selref"}

// needOp is nil when the implementation offers op, by its hello answer;
// otherwise it skips the scenario, or fails it when the op is required
// (Options.RequireOps).
func (s *scenario) needOp(ctx context.Context, op string) error {
	if suite, _, _ := strings.Cut(op, "."); !slices.Contains(suites, suite) {
		return nil
	}
	hello, err := s.h.handshake(ctx)
	switch {
	case err != nil:
		return err
	case hello.Supports(op):
		return nil
	case s.h.RequireOps.Has(op):
		return fmt.Errorf("the implementation does not offer %s, and --require-ops requires it", op)
	}
	return fmt.Errorf("%w: the implementation does not offer %s", errSkip, op)
}

// callWith adapts conv to a step that calls an op with the input conv
// reads from the step's last argument: an inline JSON value (jsonValue), a
// JSON doc string (jsonDoc) or a table of member | value rows (tableObject).
func callWith[A any](s *scenario, conv func(A) (json.RawMessage, error)) func(context.Context, string, A) error {
	return func(ctx context.Context, op string, arg A) error {
		v, err := conv(arg)
		if err != nil {
			return err
		}
		return s.call(ctx, op, v)
	}
}

// context returns the last request and answer, for failure messages.
func (s *scenario) context() string {
	if s.resp == nil {
		return ""
	}
	answer, err := jsonv.Marshal(s.resp)
	if err != nil {
		answer = fmt.Appendf(nil, "%+v", *s.resp)
	}
	return fmt.Sprintf("\n    request: %s %s\n    answer:  %s", s.op, safetext.JSON(string(s.req)), safetext.JSON(string(answer)))
}

func (s *scenario) failf(format string, args ...any) error {
	return fmt.Errorf(format+"%s", append(args, s.context())...)
}

// output returns the last answer's output; an error answer is a failure.
func (s *scenario) output() (json.RawMessage, error) {
	switch {
	case s.resp == nil:
		return nil, errors.New("no op was called before this step")
	case s.resp.Error != nil:
		return nil, s.failf("the answer is an error (%s: %s), not an output", safetext.Text(s.resp.Error.Kind), safetext.Text(s.resp.Error.Message))
	case s.resp.Output == nil:
		return nil, s.failf("the answer has neither output nor error")
	}
	return s.resp.Output, nil
}

// member returns the value at path of resp's output.
func (s *scenario) member(resp *protocol.Response, what, path string) (json.RawMessage, error) {
	path, err := quoted(path)
	if err != nil {
		return nil, err
	}
	if resp == nil {
		return nil, fmt.Errorf("%s: no such call", what)
	}
	if resp.Error != nil || resp.Output == nil {
		return nil, s.failf("%s is not an output", what)
	}
	v, ok, err := lookup(resp.Output, path)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, s.failf("%s has no member %q", what, path)
	}
	return v, nil
}

// compare checks got against want with the runner's comparison.
func (s *scenario) compare(what string, want, got json.RawMessage) error {
	match, diffs, err := runner.Compare(want, got)
	if err != nil {
		return err
	}
	if match != runner.Match {
		return s.failf("%s differs: %s", what, strings.Join(diffs, "; "))
	}
	return nil
}

func (s *scenario) outputInline(v string) error {
	want, err := jsonValue(v)
	if err != nil {
		return err
	}
	return s.outputIs(want)
}

// outputIs checks the whole output against want.
func (s *scenario) outputIs(want json.RawMessage) error {
	got, err := s.output()
	if err != nil {
		return err
	}
	return s.compare("the output", want, got)
}

func (s *scenario) outputMember(path string, want json.RawMessage) error {
	got, err := s.member(s.resp, "the output", path)
	if err != nil {
		return err
	}
	return s.compare(fmt.Sprintf("output member %q", path), want, got)
}

// outputString returns the string at path of the output, decoded
// faithfully: a lone surrogate stays one, held as jsonv.Key writes it, and
// marshalText sends it back as its \u escape.
func (s *scenario) outputString(path string) (string, error) {
	units, _, err := s.outputUnits(path)
	return jsonv.Key(units), err
}

// outputUnits returns the UTF-16 code units of the string at path of the
// output, and the member as the output writes it.
func (s *scenario) outputUnits(path string) ([]uint16, json.RawMessage, error) {
	v, err := s.member(s.resp, "the output", path)
	if err != nil {
		return nil, nil, err
	}
	str, err := jsonv.Parse(v)
	if err != nil || str.Type != jsonv.String {
		return nil, nil, s.failf("output member %q = %s, want a string", path, v)
	}
	return str.Units, v, nil
}

// outputStringCheck is the step checking the string at path of the output
// against a quoted argument, code unit by code unit (a lone surrogate is not
// U+FFFD): ok reports whether the string does verb the argument.
func (s *scenario) outputStringCheck(verb string, ok func(got, want []uint16) bool) func(path, value string) error {
	return func(path, value string) error {
		want, err := quotedUnits(value)
		if err != nil {
			return err
		}
		got, v, err := s.outputUnits(path)
		if err != nil {
			return err
		}
		if !ok(got, want) {
			return s.failf("output member %q = %s, want it to %s %s", path, v, verb, jsonv.AppendString(nil, want))
		}
		return nil
	}
}

// containsUnits reports whether sub is within s.
func containsUnits(s, sub []uint16) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if slices.Equal(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

// hasPrefixUnits reports whether s begins with prefix.
func hasPrefixUnits(s, prefix []uint16) bool {
	return len(s) >= len(prefix) && slices.Equal(s[:len(prefix)], prefix)
}

// hasSuffixUnits reports whether s ends with suffix.
func hasSuffixUnits(s, suffix []uint16) bool {
	return len(s) >= len(suffix) && slices.Equal(s[len(s)-len(suffix):], suffix)
}

func (s *scenario) outputMemberLen(path, n string) error {
	v, err := s.member(s.resp, "the output", path)
	if err != nil {
		return err
	}
	var a []json.RawMessage
	if err := json.Unmarshal(v, &a); err != nil {
		return s.failf("output member %q = %s, want an array", path, v)
	}
	if want, _ := strconv.Atoi(n); len(a) != want {
		return s.failf("output member %q has %d elements, want %d", path, len(a), want)
	}
	return nil
}

func (s *scenario) outputMemberEqualsPrevious(path, prevPath string) error {
	want, err := s.member(s.prev, "the previous output", prevPath)
	if err != nil {
		return err
	}
	return s.outputMember(path, want)
}

func (s *scenario) outputHasNo(path string) error {
	out, err := s.output()
	if err != nil {
		return err
	}
	p, err := quoted(path)
	if err != nil {
		return err
	}
	v, ok, err := lookup(out, p)
	if err != nil {
		return err
	}
	if ok {
		return s.failf("output member %q = %s, want no such member", p, v)
	}
	return nil
}

// refusal returns the refusal member ("rejected" or "dropped") of the last
// output, or "" and nil when the output is no refusal. The output is
// decoded faithfully (internal/jsonv), as the runner decodes it.
func (s *scenario) refusal() (kind string, body *jsonv.Value, err error) {
	out, err := s.output()
	if err != nil {
		return "", nil, err
	}
	v, err := jsonv.Parse(out)
	if err != nil {
		return "", nil, s.failf("the output is not JSON: %v", err)
	}
	if v.Type != jsonv.Object {
		return "", nil, s.failf("the output is not an object")
	}
	kind, body = protocol.Refusal(v)
	return kind, body, nil
}

// accepted checks that the last answer is an output of the op that refuses
// nothing: no refusal member, and the shape of an accepted output, as the
// op's schema gives it (an empty object is no answer).
func (s *scenario) accepted() error {
	kind, body, err := s.refusal()
	if err != nil {
		return err
	}
	if kind != "" {
		code := []byte("none")
		if c := body.Get("code"); c != nil {
			code = jsonv.Append(nil, c)
		}
		return s.failf("the input is %s (code %s), want it accepted", kind, code)
	}
	out, err := s.output()
	if err != nil {
		return err
	}
	if err := outputSchemaError(s.op, out); err != nil {
		return s.failf("the input is accepted, but the output is not one of %s: %v", s.op, err)
	}
	return nil
}

// refused checks that the input is refused as want, "rejected" or
// "dropped" ("" for either), and with the code *code unless code is nil.
// The code is checked as the runner does: the refusal is an object whose
// code is the string wanted, or absent (or null), which PROTO-REJECT-002
// allows; such a refusal is recorded as codeless, and fails under
// --require-codes (Options.RequireCodes). A code of another string, of
// another type, or empty is a mismatch.
func (s *scenario) refused(want string, code *string) error {
	kind, body, err := s.refusal()
	switch {
	case err != nil:
		return err
	case want == "" && kind == "":
		return s.failf("the input is accepted, want it refused")
	case kind != want && want != "" && code == nil:
		return s.failf("the output is not %s", want)
	case kind != want && want != "":
		return s.failf("the output is not %s with code %s", want, *code)
	case code == nil:
		return nil
	}
	wantCode := *code
	if body.Type != jsonv.Object {
		return s.failf("the %s member is %s, want an object with code %q", kind, jsonv.Append(nil, body), wantCode)
	}
	got := body.Get("code")
	if got == nil || got.Type == jsonv.Null {
		s.r.codeless = append(s.r.codeless, report.CodelessScenario{Scenario: s.r.name, Failed: s.h.RequireCodes,
			CodelessRefusal: runner.CodelessRefusal{Member: kind, Code: wantCode}})
		if s.h.RequireCodes {
			return s.failf("$.%s.code: want %q, got no code (--require-codes)", kind, wantCode)
		}
		return nil
	}
	if got.Type != jsonv.String || !slices.Equal(got.CodeUnits(), jsonv.UnitsOf(wantCode)) {
		return s.failf("the input is %s with code %s, want %q", kind, jsonv.Append(nil, got), wantCode)
	}
	return nil
}

func (s *scenario) errorKind(kind string) error {
	switch {
	case s.resp == nil:
		return errors.New("no op was called before this step")
	case s.resp.Error == nil:
		return s.failf("the answer is an output, want an error of kind %q", kind)
	case s.resp.Error.Kind != kind:
		return s.failf("the answer is an error of kind %q, want %q", s.resp.Error.Kind, kind)
	}
	return nil
}

// outputMemberIs is the step checking the string member at a fixed path.
func (s *scenario) outputMemberIs(path string) func(string) error {
	return at(path, withValue(stringValue, s.outputMember))
}
