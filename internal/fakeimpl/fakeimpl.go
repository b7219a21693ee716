// Package fakeimpl holds deliberately faulty protocol v1 implementations for
// the runner's and the CLI's tests. A test binary calls MaybeRun from its
// TestMain: when the environment variable Env names a mode, the binary
// becomes that implementation (speaking on stdin and stdout) and exits.
//
// Every mode answers hello with the op "echo.echo", whose correct output is
// its input. A fault is triggered by a member of the input, so one corpus
// (Corpus) serves every mode: a correct mode passes it whole, a faulty one
// fails exactly the vector that triggers its fault.
package fakeimpl

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing/fstest"
	"time"

	"github.com/conform-suite/conform/protocol"
)

// Env is the environment variable that selects a mode; EnvN gives the N of
// "crash" and EnvFile the marker file that makes "crash" crash only once
// (and that "hang" writes when it begins to hang).
const (
	Env     = "CONFORM_FAKE_IMPL"
	EnvN    = "CONFORM_FAKE_N"
	EnvFile = "CONFORM_FAKE_FILE"
	// EnvRestartDelay, a duration, is how long a mode takes to start when
	// EnvFile exists: a slow start-up after a crash (a JVM's).
	EnvRestartDelay = "CONFORM_FAKE_RESTART_DELAY"
)

// Modes.
const (
	Echo        = "echo"        // correct
	Wrong       = "wrong"       // answers {"text":"wrong"} to {"text":"b"}
	CrashOnce   = "crash"       // exits with status 3 on its EnvN-th request, once
	Hang        = "hang"        // never answers {"hang":true}
	NonJSON     = "nonjson"     // answers {"garbage":true} with a line that is not JSON
	SpaceLine   = "spaceline"   // answers {"garbage":true} with a line of U+00A0, then the right answer
	UnknownID   = "unknownid"   // answers {"badid":true} with an id nobody sent
	ExitAtStart = "exitstart"   // writes to stderr and exits with status 1 at once
	HugeLine    = "hugeline"    // answers {"huge":true} with a 100 MB line
	StderrFlood = "stderrflood" // writes 50 MB to stderr, then behaves
	Reverse     = "reverse"     // answers the requests waiting in its input in reverse order
	NoHello     = "nohello"     // does not know hello: answers it unsupported
	NoHelloBad  = "nohellobad"  // answers hello unsupported, without the message an error must carry
	Unsupported = "unsupported" // lists no op in hello
	ErrorAnswer = "errorkind"   // answers {"internal":true} with error kind internal
	Twice       = "twice"       // answers {"text":"b"} with an output naming a member twice
	Many        = "many"        // answers {"huge":true} with an output of ManyValues JSON values
	// CrashHolding reads two requests other than hello without answering
	// them, then exits with status 3, once (EnvFile): both are in flight
	// when it dies. It answers as Echo after that.
	CrashHolding = "crashholding"
	// EnvelopeNullID decodes each request line into a typed envelope, and
	// answers one whose op is missing or not a string, or whose input is
	// missing or not an object, with bad_request and id null, where
	// PROTO-FRAME-006 wants the request's id; it answers hello and echo.echo
	// as Echo does.
	EnvelopeNullID = "envnullid"
)

// ManyValues is the number of JSON values of Many's output: more than any
// answer may decode into (protocol.DefaultMaxAnswerValues), in 140 KB.
const ManyValues = 70000

// HugeSize is the length of HugeLine's line, in bytes.
const HugeSize = 100 << 20

// MaybeRun runs the mode named by Env, if any, and exits.
func MaybeRun() {
	mode := os.Getenv(Env)
	if mode == "" {
		return
	}
	os.Exit(Run(mode, os.Stdin, os.Stdout, os.Stderr))
}

// Serve reads request lines from br and passes each to handle, which
// answers on w; a line that is not JSON is answered bad_request at once. w
// is flushed whenever br holds no more input. Serve returns 0 at the end of
// the input, or the exit code handle returns with stop set.
func Serve(br *bufio.Reader, w *bufio.Writer, handle func(protocol.Request) (code int, stop bool)) int {
	for {
		line, err := br.ReadBytes('\n')
		if len(line) == 0 && err != nil {
			w.Flush()
			return 0
		}
		var req protocol.Request
		if json.Unmarshal(line, &req) != nil {
			fmt.Fprintln(w, `{"id":null,"error":{"kind":"bad_request","message":"not JSON"}}`)
			w.Flush()
			continue
		}
		if code, stop := handle(req); stop {
			return code
		}
		if br.Buffered() == 0 {
			w.Flush()
		}
	}
}

// Run is the fake implementation in the given mode.
func Run(mode string, in io.Reader, out, errOut io.Writer) int {
	switch mode {
	case ExitAtStart:
		fmt.Fprintln(errOut, "fake: cannot initialise, giving up")
		return 1
	case StderrFlood:
		chunk := strings.Repeat("flood of diagnostics ", 50) + "\n"
		for n := 0; n < 50<<20; n += len(chunk) {
			io.WriteString(errOut, chunk)
		}
	}
	if d, err := time.ParseDuration(os.Getenv(EnvRestartDelay)); err == nil {
		if _, err := os.Stat(os.Getenv(EnvFile)); err == nil {
			time.Sleep(d)
		}
	}
	crashAt, _ := strconv.Atoi(os.Getenv(EnvN))
	br := bufio.NewReaderSize(in, 1<<20)
	w := bufio.NewWriter(out)
	if mode == EnvelopeNullID {
		return serveTypedEnvelope(br, w)
	}
	var held []protocol.Request
	count := 0
	return Serve(br, w, func(req protocol.Request) (int, bool) {
		count++
		if mode == CrashOnce && count == crashAt && crashDue() {
			os.WriteFile(os.Getenv(EnvFile), nil, 0o644)
			w.Flush()
			fmt.Fprintln(errOut, "fake: boom on request", count)
			return 3, true
		}
		if mode == CrashHolding && req.Op != "hello" && crashDue() {
			if held = append(held, req); len(held) < 2 {
				return 0, false
			}
			os.WriteFile(os.Getenv(EnvFile), nil, 0o644)
			fmt.Fprintln(errOut, "fake: boom holding two requests")
			return 3, true
		}
		if mode == Reverse && req.Op != "hello" {
			held = append(held, req)
			if br.Buffered() > 0 {
				return 0, false
			}
			for i := len(held) - 1; i >= 0; i-- {
				answer(w, mode, held[i])
			}
			held = held[:0]
		} else {
			answer(w, mode, req)
		}
		return 0, false
	})
}

// crashDue reports whether a mode that crashes once has still to crash:
// EnvFile names a marker file that does not exist yet.
func crashDue() bool {
	f := os.Getenv(EnvFile)
	_, err := os.Stat(f)
	return f != "" && err != nil
}

func answer(w *bufio.Writer, mode string, req protocol.Request) {
	var in map[string]any
	json.Unmarshal(req.Input, &in)
	id := string(req.ID)
	switch {
	case req.Op == "hello" && mode == NoHelloBad:
		fmt.Fprintf(w, `{"id":%s,"error":{"kind":"unsupported"}}`+"\n", id)
	case req.Op == "hello" && mode == NoHello:
		fmt.Fprintf(w, `{"id":%s,"error":{"kind":"unsupported","message":"what is hello?"}}`+"\n", id)
	case req.Op == "hello":
		ops := `["echo.echo"]`
		if mode == Unsupported {
			ops = `[]`
		}
		fmt.Fprintf(w, `{"id":%s,"output":{"protocol":1,"name":"fake-%s","version":"0.0.1","language":"go","ops":%s}}`+"\n", id, mode, ops)
	case req.Op != "echo.echo":
		fmt.Fprintf(w, `{"id":%s,"error":{"kind":"unsupported","message":"no such op"}}`+"\n", id)
	case mode == Hang && in["hang"] == true:
		w.Flush()
		if f := os.Getenv(EnvFile); f != "" {
			os.WriteFile(f, []byte("hanging\n"), 0o644) // tells a test that the hang began
		}
		time.Sleep(time.Hour)
	case mode == NonJSON && in["garbage"] == true:
		fmt.Fprintf(w, "this is not JSON at all\n")
	case mode == SpaceLine && in["garbage"] == true:
		fmt.Fprintf(w, "\u00a0\n"+`{"id":%s,"output":%s}`+"\n", id, req.Input)
	case mode == UnknownID && in["badid"] == true:
		fmt.Fprintf(w, `{"id":"somebody-else","output":{}}`+"\n")
	case mode == ErrorAnswer && in["internal"] == true:
		fmt.Fprintf(w, `{"id":%s,"error":{"kind":"internal","message":"fake: out of luck"}}`+"\n", id)
	case mode == HugeLine && in["huge"] == true:
		fmt.Fprintf(w, `{"id":%s,"output":{"huge":"`, id)
		chunk := strings.Repeat("a", 1<<16)
		for n := 0; n < HugeSize; n += len(chunk) {
			w.WriteString(chunk)
		}
		w.WriteString("\"}}\n")
	case mode == Twice && in["text"] == "b":
		fmt.Fprintf(w, `{"id":%s,"output":{"text":"b","text":"b"}}`+"\n", id)
	case mode == Many && in["huge"] == true:
		fmt.Fprintf(w, `{"id":%s,"output":{"many":[0%s]}}`+"\n", id, strings.Repeat(",0", ManyValues-3))
	case mode == Wrong && in["text"] == "b":
		fmt.Fprintf(w, `{"id":%s,"output":{"text":"wrong"}}`+"\n", id)
	default:
		fmt.Fprintf(w, `{"id":%s,"output":%s}`+"\n", id, req.Input)
	}
}

// Corpus is a vector tree for op echo.echo: one plain vector per fault
// trigger, in a fixed order (see IDs).
func Corpus() fstest.MapFS {
	type vec struct{ id, input string }
	vs := []vec{
		{"plain", `{"text":"a"}`},
		{"wrong-answer", `{"text":"b"}`},
		{"astral", `{"text":"😀 and 中"}`},
		{"hang", `{"hang":true}`},
		{"garbage", `{"garbage":true}`},
		{"bad-id", `{"badid":true}`},
		{"huge-answer", `{"huge":true}`},
		{"internal-error", `{"internal":true}`},
		{"after-all", `{"text":"z"}`},
	}
	var b strings.Builder
	b.WriteString(`{"op":"echo.echo","description":"Echo: the output is the input.","vectors":[`)
	for i, v := range vs {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id":"echo.echo/%s","description":"echo %s","requirements":["PROTO-FRAME-001"],"tags":["fake"],"input":%s,"expect":{"output":%s}}`, v.id, v.id, v.input, v.input)
	}
	b.WriteString("]}")
	return fstest.MapFS{"echo/echo.json": {Data: []byte(b.String())}}
}

// serveTypedEnvelope is EnvelopeNullID: a line that decodes into no
// envelope of the expected types is answered with id null, whatever id it
// carries; blank lines get no answer.
func serveTypedEnvelope(br *bufio.Reader, w *bufio.Writer) int {
	defer w.Flush()
	for {
		line, err := br.ReadBytes('\n')
		if len(line) == 0 && err != nil {
			return 0
		}
		if n := len(line); n > 0 && line[n-1] == '\n' {
			line = line[:n-1]
		}
		if protocol.BlankLine(line) {
			continue
		}
		var env struct {
			ID    json.RawMessage `json:"id"`
			Op    string          `json:"op"`
			Input map[string]any  `json:"input"`
		}
		if json.Unmarshal(line, &env) != nil || env.Op == "" || env.Input == nil || !protocol.ValidID(env.ID) {
			fmt.Fprintln(w, `{"id":null,"error":{"kind":"bad_request","message":"not a request"}}`)
		} else {
			answer(w, Echo, protocol.Request{ID: env.ID, Op: env.Op, Input: mustJSON(env.Input)})
		}
		if br.Buffered() == 0 {
			w.Flush()
		}
	}
}

func mustJSON(v any) json.RawMessage { data, _ := json.Marshal(v); return data }
