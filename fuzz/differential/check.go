package differential

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/reference"
	"github.com/conform-suite/conform/runner"
)

// StdioEnv names the environment variable that gives the implementation
// under test: a command line run by /bin/sh that speaks protocol v1 over
// its standard input and output, as for `conform run --stdio`.
const StdioEnv = "CONFORM_FUZZ_STDIO"

// callTimeout bounds one request; an implementation that does not answer
// in time is a difference.
const callTimeout = 10 * time.Second

// serveLine is the reference answering through the stdio server's line
// handler: encoded as a request line, answered as an answer line, decoded.
// Compared with the reference called in process, it checks the protocol
// path itself when no implementation is given.
type serveLine struct{}

func (serveLine) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	line, err := runner.RequestLine(req)
	if err != nil {
		return protocol.Response{}, err
	}
	out := protocol.ServeLine(ctx, reference.InProcess{}, []byte(strings.TrimSuffix(line, "\n")))
	var resp protocol.Response
	if err := json.Unmarshal(out, &resp); err != nil {
		return protocol.Response{}, fmt.Errorf("answer line %q: %v", out, err)
	}
	resp.Raw = bytes.TrimSuffix(out, []byte("\n"))
	return resp, nil
}

func (serveLine) Close() error { return nil }

var (
	sharedMu    sync.Mutex
	sharedImpl  runner.Implementation
	sharedHello *protocol.Hello
)

// implementation returns the implementation under test, started once per
// process (a libFuzzer build runs the target's setup before every input),
// and its answer to hello: nil when it does not know hello (every op is
// then taken as offered).
func implementation() (runner.Implementation, string, *protocol.Hello, error) {
	cmd := os.Getenv(StdioEnv)
	name := cmp.Or(cmd, "the reference over ServeLine")
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if sharedImpl == nil {
		var impl runner.Implementation = serveLine{}
		if cmd != "" {
			s := runner.NewStdio("/bin/sh", "-c", "exec "+cmd)
			s.Restarts = 1000
			impl = s
		}
		ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
		defer cancel()
		hello, err := runner.Connect(ctx, impl)
		if err != nil {
			impl.Close()
			return nil, name, nil, fmt.Errorf("%s: %v", name, err)
		}
		sharedImpl, sharedHello = impl, hello
	}
	return sharedImpl, name, sharedHello, nil
}

// offered returns the ops of opInputs that hello offers.
func offered(hello *protocol.Hello) []string {
	return slices.DeleteFunc(slices.Clone(opInputs), func(op string) bool { return !hello.Supports(op) })
}

// closeImplementation stops the implementation started by implementation.
func closeImplementation() {
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if sharedImpl != nil {
		sharedImpl.Close()
		sharedImpl, sharedHello = nil, nil
	}
}

// check sends one input to impl and to the reference and describes how the
// answers differ; nil when they agree, or when the reference itself refuses
// the request as malformed (the input is then not one an implementation
// has to answer alike).
func check(impl runner.Implementation, op string, input json.RawMessage) error {
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	req := protocol.Request{ID: protocol.IntID(1), Op: op, Input: input}
	want, err := reference.InProcess{}.Call(ctx, req)
	if err != nil {
		return fmt.Errorf("reference: %v", err)
	}
	if want.Error != nil {
		if want.Error.Kind == protocol.KindBadRequest {
			return nil
		}
		return fmt.Errorf("reference answered %s error: %s (a bug in conform)", want.Error.Kind, want.Error.Message)
	}
	line, _ := runner.RequestLine(req)
	line = strings.TrimSpace(line)
	got, err := impl.Call(ctx, req)
	switch {
	case err != nil:
		return fmt.Errorf("request %s: no answer: %v", line, err)
	case got.Error != nil:
		return fmt.Errorf("request %s: answered %s error %q, reference output %s", line, got.Error.Kind, got.Error.Message, want.Output)
	}
	cmp, diffs, err := runner.Compare(want.Output, got.Output)
	if err != nil {
		return fmt.Errorf("request %s: comparing: %v", line, err)
	}
	if cmp != runner.Match {
		return fmt.Errorf("request %s: %s\n  reference: %s\n  implementation: %s\n  %s", line, cmp, want.Output, got.Output, strings.Join(diffs, "\n  "))
	}
	return nil
}
