package features

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/runner"
	"github.com/cucumber/godog"
)

// registerProtocol registers the steps of the framing scenarios, which talk
// to the implementation in raw protocol lines through Options.Raw. Without a
// Raw they are skipped.
func (s *scenario) registerProtocol(sc steps) {
	sc.Step(`^it is sent the request lines?:$`, func(ctx context.Context, d *godog.DocString) error { return s.sendLines(ctx, d.Content) })
	sc.Step(`^it is sent the line `+q+` and then the request line:$`, s.sendLineThen)
	sc.Step(`^it is sent the line of bytes `+q+` and then the request line:$`, s.sendBytesThen)
	sc.Step(`^it is sent the hello request$`, func(ctx context.Context) error {
		return s.exchange(ctx, []byte(`{"id":0,"op":"hello","input":{"protocol":1}}`+"\n"))
	})
	sc.Step(`^its standard input is closed$`, s.closeInput)
	sc.Step(`^it exits within (\d+) seconds?$`, s.exitsWithin)
	sc.Step(`^the answer is one line of UTF-8 JSON$`, s.oneLine)
	sc.Step(`^the answer's id is (.+)$`, func(id string) error { return s.answerID("1", id) })
	sc.Step(`^answer (\d+)'s id is (.+)$`, s.answerID)
	sc.Step(`^the answer has an output$`, func() error { return s.answerHasOutput("1") })
	sc.Step(`^answer (\d+) has an output$`, s.answerHasOutput)
	sc.Step(`^answer (\d+) has error kind `+q+`$`, s.answerErrorKind)
	sc.Step(`^the answer's output member `+q+` is (.+)$`, s.answerOutputMember)
	sc.Step(`^the answer's output has the members (.+)$`, s.answerOutputMembers)
	sc.Step(`^every request is answered exactly once$`, s.answeredOnce)
}

// exchange sends input through the raw transport and records the answers.
func (s *scenario) exchange(ctx context.Context, input []byte) error {
	if s.h.Raw == nil {
		return fmt.Errorf("%w: no raw transport to send protocol lines", errSkip)
	}
	ctx, cancel := context.WithTimeout(ctx, s.h.Timeout)
	defer cancel()
	var out []byte
	var ended time.Duration
	var err error
	if st, ok := s.h.Raw.(StdioRaw); ok && input != nil {
		out, err = s.h.shared(ctx, st, input)
	} else {
		out, ended, err = s.h.Raw.Exchange(ctx, input)
	}
	if err != nil {
		return err
	}
	s.sent, s.ended = input, ended
	s.answers = slices.DeleteFunc(bytes.SplitAfter(out, []byte("\n")), func(line []byte) bool { return len(line) == 0 })
	// The first answer is also the answer the generic steps check.
	s.resp, s.op, s.req = nil, "(raw)", input
	if len(s.answers) > 0 {
		var resp protocol.Response
		if json.Unmarshal(s.answers[0], &resp) == nil {
			s.resp = &resp
		}
	}
	return nil
}

// sendLines sends the raw request lines of text. A line that names an op
// the implementation does not offer skips the scenario (or fails it under
// --require-ops), as a call of that op does; a line that is not a request,
// or names no op, is sent as it is.
func (s *scenario) sendLines(ctx context.Context, text string) error {
	for line := range strings.SplitSeq(text, "\n") {
		var r struct {
			Op *string `json:"op"`
		}
		if json.Unmarshal([]byte(line), &r) != nil || r.Op == nil {
			continue
		}
		if err := s.needOp(ctx, *r.Op); err != nil {
			return err
		}
	}
	return s.exchange(ctx, []byte(text+"\n"))
}

// sendLineThen sends the line that the quoted argument spells (with JSON
// escapes, so that white space of every kind can be written), then the
// request line of d. A blank line (protocol.BlankLine) is a matter of stdio
// (PROTO-FRAME-008): over HTTP, where there is no line to send, the scenario
// is skipped.
func (s *scenario) sendLineThen(ctx context.Context, line string, d *godog.DocString) error {
	text, err := quoted(line)
	if err != nil {
		return err
	}
	if strings.Contains(text, "\n") {
		return fmt.Errorf("the line %q holds a line feed: it would be two lines", text)
	}
	if _, ok := s.h.Raw.(HTTPRaw); ok && protocol.BlankLine([]byte(text)) {
		return fmt.Errorf("%w: a blank line is a matter of stdio, and HTTP has no lines", errSkip)
	}
	return s.sendLines(ctx, text+"\n"+d.Content)
}

// sendBytesThen sends the line of the bytes that the quoted argument
// spells in hexadecimal (pairs of digits, spaces between them allowed), so
// that a line that is not UTF-8 can be written, then the request line of d.
func (s *scenario) sendBytesThen(ctx context.Context, digits string, d *godog.DocString) error {
	line, err := hex.DecodeString(strings.ReplaceAll(digits, " ", ""))
	if err != nil {
		return fmt.Errorf("the line of bytes %q: %w", digits, err)
	}
	if bytes.ContainsAny(line, "\n") {
		return fmt.Errorf("the line of bytes %q holds a line feed: it would be two lines", digits)
	}
	return s.sendLines(ctx, string(line)+"\n"+d.Content)
}

// closeInput ends the input of a fresh session at once (a process of its
// own, for the time it takes to exit); an HTTP service has no input to
// end, so the scenario is skipped there.
func (s *scenario) closeInput(ctx context.Context) error {
	if _, ok := s.h.Raw.(HTTPRaw); ok {
		return fmt.Errorf("%w: an HTTP service has no standard input", errSkip)
	}
	return s.exchange(ctx, nil)
}

// exitsWithin checks the time the implementation took to exit once its
// input ended against the scenario's bound, or against --exit-within when
// that is set.
func (s *scenario) exitsWithin(seconds int) error {
	bound, from := time.Duration(seconds)*time.Second, "the scenario's bound"
	if s.h.ExitWithin > 0 {
		bound, from = s.h.ExitWithin, "--exit-within"
	}
	if s.ended > bound {
		return fmt.Errorf("it ended %v after its input was closed, want within %v (%s)", s.ended.Round(time.Millisecond), bound, from)
	}
	return nil
}

func (s *scenario) rawFailf(format string, args ...any) error {
	return fmt.Errorf(format+"\n    sent:     %q\n    answered: %q", append(args, s.sent, bytes.Join(s.answers, nil))...)
}

// answer returns the nth answer line (1-based) as a JSON object.
func (s *scenario) answer(n string) (map[string]json.RawMessage, error) {
	i, _ := strconv.Atoi(n)
	if i < 1 || i > len(s.answers) {
		return nil, s.rawFailf("there is no answer %d", i)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(s.answers[i-1], &m); err != nil || m == nil {
		return nil, s.rawFailf("answer %d is not a JSON object", i)
	}
	return m, nil
}

func (s *scenario) oneLine() error {
	if len(s.answers) != 1 {
		return s.rawFailf("%d answer lines, want 1", len(s.answers))
	}
	line := s.answers[0]
	if !bytes.HasSuffix(line, []byte("\n")) {
		return s.rawFailf("the answer does not end with a line feed")
	}
	if !utf8.Valid(line) {
		return s.rawFailf("the answer is not UTF-8")
	}
	_, err := s.answer("1")
	return err
}

func (s *scenario) answerID(n, id string) error {
	m, err := s.answer(n)
	if err != nil {
		return err
	}
	want, err := jsonValue(id)
	if err != nil {
		return err
	}
	got, ok := m["id"]
	if !ok {
		return s.rawFailf("answer %s has no id, want %s", n, want)
	}
	// Values of two types never match: an id 1 is not an id "1".
	if v, _, err := runner.Compare(want, got); err != nil || v != runner.Match {
		return s.rawFailf("answer %s's id is %s, want %s", n, got, want)
	}
	return nil
}

func (s *scenario) answerHasOutput(n string) error {
	m, err := s.answer(n)
	if err != nil {
		return err
	}
	_, out := m["output"]
	_, bad := m["error"]
	if !out || bad {
		return s.rawFailf("answer %s carries no output, or an error too", n)
	}
	return nil
}

func (s *scenario) answerErrorKind(n, kind string) error {
	m, err := s.answer(n)
	if err != nil {
		return err
	}
	var e struct {
		Kind string `json:"kind"`
	}
	if json.Unmarshal(m["error"], &e) != nil || e.Kind != kind {
		return s.rawFailf("answer %s is not an error of kind %q", n, kind)
	}
	if _, out := m["output"]; out {
		return s.rawFailf("answer %s carries an output besides its error", n)
	}
	return nil
}

func (s *scenario) answerOutputMember(path, value string) error {
	m, err := s.answer("1")
	if err != nil {
		return err
	}
	p, err := quoted(path)
	if err != nil {
		return err
	}
	want, err := jsonValue(value)
	if err != nil {
		return err
	}
	got, ok, err := lookup(m["output"], p)
	if err != nil {
		return err
	}
	if !ok {
		return s.rawFailf("the answer's output has no member %q", p)
	}
	if v, diffs, _ := runner.Compare(want, got); v != runner.Match {
		return s.rawFailf("the answer's output member %q differs: %v", p, diffs)
	}
	return nil
}

var quotedName = regexp.MustCompile(`"([^"]*)"`)

func (s *scenario) answerOutputMembers(list string) error {
	m, err := s.answer("1")
	if err != nil {
		return err
	}
	var out map[string]json.RawMessage
	if err := json.Unmarshal(m["output"], &out); err != nil {
		return s.rawFailf("the answer's output is not an object")
	}
	for _, name := range quotedName.FindAllStringSubmatch(list, -1) {
		if _, ok := out[name[1]]; !ok {
			return s.rawFailf("the answer's output has no member %q", name[1])
		}
	}
	return nil
}

// answeredOnce checks that the ids of the answers are the ids of the
// request lines sent, each exactly once, in any order.
func (s *scenario) answeredOnce() error {
	var sent, got []string
	for _, line := range bytes.Split(bytes.TrimSpace(s.sent), []byte("\n")) {
		var r struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal(line, &r) != nil {
			return fmt.Errorf("request line %q is not a request", line)
		}
		sent = append(sent, Compact(r.ID))
	}
	for i := range s.answers {
		m, err := s.answer(strconv.Itoa(i + 1))
		if err != nil {
			return err
		}
		got = append(got, Compact(m["id"]))
	}
	slices.Sort(sent)
	slices.Sort(got)
	if !slices.Equal(sent, got) {
		return s.rawFailf("answered ids %v, want each of %v once", got, sent)
	}
	return nil
}

// Compact returns the JSON text v without insignificant white space, or v
// as it is when it is not JSON; escapes are kept as written.
func Compact(v json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return string(v)
	}
	return b.String()
}
