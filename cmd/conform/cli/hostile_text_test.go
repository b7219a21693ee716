package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/conform-suite/conform/internal/fixture"
	"github.com/conform-suite/conform/protocol"
)

// hostileEnv makes the test binary an implementation that writes text meant
// for a terminal or a Markdown renderer in every field it can: hello, error
// messages, answers and stderr.
const hostileEnv = "CONFORM_TEST_HOSTILE"

// hostilePayload: a title change (OSC 0), a clipboard write (OSC 52), a
// screen clear (CSI 2J), NUL, a bidi override, a forged closing line, an
// image, a javascript link, HTML, C1 controls (CSI U+009B, NEL U+0085),
// invisible characters (U+FEFF, U+200B) and invalid UTF-8.
const hostilePayload = "\x1b]0;pwned\x07 \x1b]52;c;aGk=\x07 \x1b[2J \x00 \u202eevil\u202c\n999 passed, 0 failed\n" +
	"![](http://x.test/i.png) [x](javascript:alert(1)) <img src=x onerror=alert(1)> \u009b \u0085 c\ufeff \u200b \xff"

type hostile struct{}

func (hostile) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	str, _ := json.Marshal(hostilePayload)
	if req.Op == "hello" {
		return protocol.Response{ID: req.ID, Output: json.RawMessage(fmt.Sprintf(`{"protocol":1,"name":%s,"version":%s,"language":%s,"ops":["echo.echo"]}`, str, str, str))}, nil
	}
	var in struct{ N int }
	json.Unmarshal(req.Input, &in)
	switch in.N % 5 {
	case 1:
		return protocol.Response{ID: req.ID, Error: &protocol.Error{Kind: "internal", Message: hostilePayload}}, nil
	case 2:
		// The payload and a lone surrogate.
		return protocol.Response{ID: req.ID, Output: json.RawMessage(`{"text":` + strings.TrimSuffix(string(str), `"`) + `\ud800"}`)}, nil
	case 3:
		return protocol.Response{ID: req.ID, Output: json.RawMessage(`{"rejected":{"code":` + string(str) + `}}`)}, nil
	case 4:
		fmt.Fprintln(os.Stderr, hostilePayload)
		os.Exit(3)
	}
	return protocol.Response{ID: req.ID, Output: req.Input}, nil
}

func (hostile) Close() error { return nil }

func serveHostile() int {
	if err := protocol.ServeStdio(context.Background(), hostile{}, os.Stdin, os.Stdout, protocol.DefaultMaxLine); err != nil {
		return 1
	}
	return 0
}

// hostileTextDir writes n echo.echo vectors to a directory.
func hostileTextDir(t *testing.T, n int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(`{"op":"echo.echo","description":"Echo.","vectors":[`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id":"echo.echo/v%d","description":"echo %d","requirements":["PROTO-FRAME-001"],"input":{"text":"a","n":%d},"expect":{"output":{"text":"a","n":%d}}}`, i, i, i, i)
	}
	b.WriteString("]}")
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "echo"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "echo", "echo.json"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// A liar that writes escape sequences and Markdown everywhere: every report
// shows them as escapes, the run fails with exit code 1, and the closing
// lines cannot be forged.
func TestHostileTextStaysText(t *testing.T) {
	t.Setenv(hostileEnv, "1")
	dir := hostileTextDir(t, 10)
	out := t.TempDir()
	tap, junit, md, known := filepath.Join(out, "r.tap"), filepath.Join(out, "r.xml"), filepath.Join(out, "r.md"), filepath.Join(out, "known.txt")
	annotations := filepath.Join(out, "annotations.txt")
	code, stdout, stderr := conform(t, "", "run", "--stdio", quoteArg(os.Args[0]), "--vectors", dir, "--parallel", "1",
		"--tap", tap, "--junit", junit, "--markdown", md, "--write-expectations", known, "--annotations", annotations)
	if code != ExitFailed {
		t.Errorf("exit code %d, want %d\n%s", code, ExitFailed, stderr)
	}
	if got := lastLine(stdout); got != "2 passed, 8 failed" {
		t.Errorf("the text report ends %q, want %q", got, "2 passed, 8 failed")
	}
	for name, s := range map[string]string{"stdout": stdout, "stderr": stderr} {
		if p := fixture.RawText(s); p != "" {
			t.Errorf("%s holds %s", name, p)
		}
	}
	for _, want := range []string{`implementation: \x1b]0;pwned\x07`, `detail:   internal: \x1b]0;pwned\x07`, `| \x1b]0;pwned\x07 \x1b]52;c;aGk=\x07 \x1b[2J \x00 \u202eevil\u202c`} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the text report lacks %q", want)
		}
	}
	read := func(p string) string {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	for _, p := range []string{tap, junit, md, known, annotations} {
		if problem := fixture.RawText(read(p)); problem != "" {
			t.Errorf("%s holds %s", filepath.Base(p), problem)
		}
	}
	// Each line is one workflow command that conform wrote: the payload's
	// line breaks cannot start a command of its own, and the title ends at
	// the first "::".
	command := regexp.MustCompile(`^::(error title=conform%3A [^:,]*|notice title=conform)::[^\r]*$`)
	lines := strings.Split(strings.TrimSuffix(read(annotations), "\n"), "\n")
	for _, l := range lines {
		if !command.MatchString(l) {
			t.Errorf("annotations: a line that is not one of conform's workflow commands: %q", l)
		}
	}
	if len(lines) < 8 {
		t.Errorf("annotations: %d lines for 8 failures", len(lines))
	}
	points := 0
	sc := bufio.NewScanner(strings.NewReader(read(tap)))
	point := regexp.MustCompile(`^(not )?ok \d+ `)
	for sc.Scan() {
		if point.MatchString(sc.Text()) {
			points++
		}
	}
	if points != 10 {
		t.Errorf("TAP has %d test points, want 10", points)
	}
	dec := xml.NewDecoder(strings.NewReader(read(junit)))
	for {
		if _, err := dec.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Errorf("the JUnit report is not XML: %v", err)
			break
		}
	}
	if tests, failures, errs, _ := junitTotals(t, []byte(read(junit))); tests != 10 || failures+errs != 8 {
		t.Errorf("JUnit: %d tests, %d failures, %d errors; want 10 tests, 8 failing", tests, failures, errs)
	}
	rest := fixture.OutsideCodeSpans(read(md))
	for _, bad := range []string{"<", "](", "![", "javascript:", "x.test"} {
		if strings.Contains(rest, bad) {
			t.Errorf("the Markdown report has %q outside a code span:\n%s", bad, rest)
		}
	}
	if !strings.HasSuffix(read(md), "\n2 passed, 8 failed\n") {
		t.Errorf("the Markdown report does not end with the true closing line")
	}
}

// TestExplainEscapes: conform explain shows a vector whose description, tags and
// input hold invisible characters (U+0085, U+FEFF, U+200B, U+009B) and a
// lone surrogate with every one of them escaped, and its request line is
// still JSON of the same value.
func TestExplainEscapes(t *testing.T) {
	dir := invisibleVectors(t)
	code, stdout, stderr := conform(t, "", "explain", "--vectors", dir, "echo.echo/invisible")
	if code != ExitOK {
		t.Fatalf("explain: exit %d\n%s", code, stderr)
	}
	if p := fixture.RawText(stdout); p != "" {
		t.Errorf("explain prints %s", p)
	}
	for _, want := range []string{`description: a\u0085b\ufeffc\u200bd\u009be`, `tags:        t\u200bx, \u009b`, `"text": "a\u0085b\ufeffc\u200bd\u009be\ud800"`, `"text": "\ufeff"`} {
		if !strings.Contains(stdout, want) {
			t.Errorf("explain lacks %q:\n%s", want, stdout)
		}
	}
	_, line, _ := strings.Cut(stdout, "one line of stdin):\n")
	var req struct{ Input json.RawMessage }
	if err := json.Unmarshal([]byte(line), &req); err != nil || string(req.Input) != `{"text":"a\u0085b\ufeffc\u200bd\u009be\ud800"}` {
		t.Errorf("the request line %q is not the vector's request (%v)", line, err)
	}
}

// invisibleVectors writes a corpus of one vector whose description and
// input hold invisible characters (U+0085, U+FEFF, U+200B, U+009B) and a
// lone surrogate, and returns its directory.
func invisibleVectors(t *testing.T) string {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "echo"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := `{"op":"echo.echo","description":"Echo.","vectors":[{"id":"echo.echo/invisible","description":"a\u0085b\ufeffc\u200bd\u009be",` +
		`"requirements":["PROTO-FRAME-001"],"tags":["t\u200bx","\u009b"],"input":{"text":"a\u0085b\ufeffc\u200bd\u009be\ud800"},"expect":{"output":{"text":"\ufeff"}}}]}`
	if err := os.WriteFile(filepath.Join(dir, "echo", "echo.json"), []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestListEscapes: conform list prints a vector's description, and with
// --divergent a profile file's recorded answer (raw U+FEFF in its JSON
// text) and reason (a tab, U+200B, U+0085), with every invisible character
// escaped, and a tab only between fields.
func TestListEscapes(t *testing.T) {
	dir := invisibleVectors(t)
	profile := filepath.Join(t.TempDir(), "own.json")
	if err := os.WriteFile(profile, []byte(`{"profile":"own","records":[{"vector":"echo.echo/invisible","reason":"r\tu\u200bs\u0085","output":{"text":"`+"\ufeff"+` x"}}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"list", "--vectors", dir}, "echo.echo/invisible\tPROTO-FRAME-001\ta\\u0085b\\ufeffc\\u200bd\\u009be\n"},
		{[]string{"list", "--vectors", dir, "--divergent", "--profile-file", profile}, "echo.echo/invisible\t{\"output\":{\"text\":\"\\ufeff x\"}}\tr\\tu\\u200bs\\u0085\n"},
	} {
		code, stdout, stderr := conform(t, "", tc.args...)
		if code != ExitOK || stdout != tc.want {
			t.Errorf("%s: exit %d\n got %q\nwant %q\n%s", strings.Join(tc.args, " "), code, stdout, tc.want, stderr)
		}
		if p := fixture.RawText(strings.ReplaceAll(stdout, "\t", " ")); p != "" { // the tabs between fields are the format's
			t.Errorf("%s prints %s", strings.Join(tc.args, " "), p)
		}
	}
}

// doctor fails a hello with control characters, and prints it escaped.
func TestDoctorHostileHello(t *testing.T) {
	t.Setenv(hostileEnv, "1")
	code, stdout, stderr := conform(t, "", "doctor", "--stdio", quoteArg(os.Args[0]), "--vectors", hostileTextDir(t, 1), "--pings", "0")
	if code != ExitFailed {
		t.Errorf("exit code %d, want %d\n%s%s", code, ExitFailed, stdout, stderr)
	}
	if !strings.Contains(stdout, "FAIL hello: name, version and language are plain text") {
		t.Errorf("doctor does not fail the hello's control characters:\n%s", stdout)
	}
	for name, s := range map[string]string{"stdout": stdout, "stderr": stderr} {
		if p := fixture.RawText(s); p != "" {
			t.Errorf("%s holds %s", name, p)
		}
	}
	if got := lastLine(stdout); !regexp.MustCompile(`^\d+ passed, [1-9]\d* failed$`).MatchString(got) {
		t.Errorf("doctor ends %q", got)
	}
}
