package differential

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/reference"

	"github.com/conform-suite/conform/runner"
)

// FuzzDifferential asks the implementation named by CONFORM_FUZZ_STDIO
// hello, then makes an input of one of the ops it offers from the fuzzer's
// bytes (the op's generator, its choices taken from them), sends it to
// the implementation and to the reference, and fails on any difference
// with the request line and the differences. Without CONFORM_FUZZ_STDIO it
// compares the reference in process with the reference through the stdio
// server's line handler. The coverage that guides it is this process's:
// the reference's and the runner's code, not the implementation's, which
// runs in a process of its own.
func FuzzDifferential(f *testing.F) {
	impl, name, hello, err := implementation()
	if err != nil {
		f.Fatalf("cannot start the implementation: %v", err)
	}
	f.Cleanup(closeImplementation)
	ops := offered(hello)
	if len(ops) == 0 {
		f.Fatalf("%s offers none of the ops this target fuzzes (hello lists %v)", name, hello.Ops)
	}
	for i := range seedCount {
		f.Add(seedData(i))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		op, input, err := fill(data, ops)
		if err != nil {
			t.Fatalf("filling an input of %s: %v", op, err)
		}
		if err := check(impl, op, input); err != nil {
			t.Fatalf("%s differs from the reference on %s: %v", name, op, err)
		}
	})
}

// seedCount seeds, each a different pseudo-random byte string, reach every op.
const seedCount = 48

func seedData(i int) []byte {
	x := uint64(i)*0x9E3779B97F4A7C15 + 1
	out := make([]byte, 48)
	for j := range out {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		out[j] = byte(x)
	}
	return out
}

// plantedEnv makes the test binary serve a planted fault over stdio.
const plantedEnv = "CONFORM_DIFF_PLANTED"

// TestPlantedHelperProcess is not a test: re-executed with plantedEnv set,
// the test binary is a protocol v1 implementation over stdio that answers
// as the reference would for the input with every character outside the
// Basic Multilingual Plane replaced by U+FFFD (an implementation that keeps
// text as UCS-2).
func TestPlantedHelperProcess(t *testing.T) {
	if os.Getenv(plantedEnv) == "" {
		t.Skip("helper process for the planted-fault tests")
	}
	var impl protocol.Answerer = ucs2{}
	if os.Getenv(plantedEnv) == "partial" {
		impl = onlyParse{}
	}
	if err := protocol.ServeStdio(context.Background(), impl, os.Stdin, os.Stdout, 0); err != nil {
		os.Exit(4)
	}
	os.Exit(0)
}

type ucs2 struct{}

func (ucs2) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	req.Input = json.RawMessage(strings.Map(func(r rune) rune {
		if r > 0xFFFF {
			return 0xFFFD
		}
		return r
	}, string(req.Input)))
	req.Value = nil // the decoded input no longer matches the rewritten one
	return reference.InProcess{}.Call(ctx, req)
}

func (ucs2) Close() error { return nil }

// onlyParse is a correct implementation of quote.parse alone: hello lists
// it, and every other op is answered unsupported.
type onlyParse struct{}

func (onlyParse) Call(ctx context.Context, req protocol.Request) (protocol.Response, error) {
	switch req.Op {
	case "hello":
		h := reference.Hello()
		h.Ops = []string{"quote.parse"}
		out, err := json.Marshal(h)
		return protocol.Response{ID: req.ID, Output: out}, err
	case "quote.parse":
		return reference.InProcess{}.Call(ctx, req)
	}
	return protocol.Response{ID: req.ID, Error: &protocol.Error{Kind: protocol.KindUnsupported, Message: req.Op + " is not implemented"}}, nil
}

// TestFuzzDifferentialPartial runs the target against an implementation of
// quote.parse alone: it asks hello and fuzzes only that op, so every seed
// passes (before, the second seed failed as "answered unsupported").
func TestFuzzDifferentialPartial(t *testing.T) {
	if os.Getenv(StdioEnv) != "" {
		t.Skip("runs only when no implementation is given")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^FuzzDifferential$", "-test.v")
	cmd.Env = append(os.Environ(), StdioEnv+"="+plantedCommand(), plantedEnv+"=partial")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: FuzzDifferential") || strings.Count(string(out), "--- PASS: FuzzDifferential/seed#") != seedCount {
		t.Fatalf("FuzzDifferential against a quote.parse-only implementation: %v\n%s", err, out)
	}
	for i := range seedCount {
		if op, _, _ := fill(seedData(i), offered(&protocol.Hello{Ops: []string{"quote.parse"}})); op != "quote.parse" {
			t.Errorf("seed %d fills %s for an implementation offering quote.parse alone", i, op)
		}
	}
}

func plantedCommand() string {
	return os.Args[0] + " -test.run=^TestPlantedHelperProcess$"
}

// TestSeedsFindPlantedFault runs the target's seeds against the planted
// fault over the runner's stdio transport: one of them must show the
// difference, with the request and the differing member.
func TestSeedsFindPlantedFault(t *testing.T) {
	impl := runner.NewStdio("/bin/sh", "-c", "exec "+plantedCommand())
	impl.Env = append(os.Environ(), plantedEnv+"=1")
	defer impl.Close()
	for i := range seedCount {
		op, input, err := fill(seedData(i), opInputs)
		if err != nil {
			t.Fatal(err)
		}
		if err := check(impl, op, input); err != nil {
			msg := err.Error()
			if !strings.Contains(msg, `"op":"`+op+`"`) || !strings.Contains(msg, "mismatch") || !strings.Contains(msg, "😀") {
				t.Fatalf("seed %d (%s): difference %q: want the request line, a mismatch and the character the fault replaced", i, op, msg)
			}
			t.Logf("seed %d finds it: %v", i, err)
			return
		}
	}
	t.Fatalf("none of the %d seeds shows the planted fault", seedCount)
}

// TestSeedsAgreeWithoutImplementation: the reference in process and over
// ServeLine agree on every seed (the target's default comparison).
func TestSeedsAgreeWithoutImplementation(t *testing.T) {
	ops := map[string]bool{}
	for i := range seedCount {
		op, input, err := fill(seedData(i), opInputs)
		if err != nil {
			t.Fatal(err)
		}
		ops[op] = true
		if err := check(serveLine{}, op, input); err != nil {
			t.Errorf("seed %d: %v", i, err)
		}
	}
	if len(ops) < len(opInputs)/2 {
		t.Errorf("the seeds reach %d ops, want at least %d of %d", len(ops), len(opInputs)/2, len(opInputs))
	}
}

// TestFuzzDifferentialFailsOnPlantedFault runs the target as a porting team
// would, with CONFORM_FUZZ_STDIO naming the planted implementation: the test
// binary must exit 1 and name the difference.
func TestFuzzDifferentialFailsOnPlantedFault(t *testing.T) {
	if os.Getenv(StdioEnv) != "" {
		t.Skip("runs only when no implementation is given")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^FuzzDifferential$")
	cmd.Env = append(os.Environ(), StdioEnv+"="+plantedCommand(), plantedEnv+"=1")
	out, err := cmd.CombinedOutput()
	code := -1
	if cmd.ProcessState != nil {
		code = cmd.ProcessState.ExitCode()
	}
	if code != 1 || !strings.Contains(string(out), "--- FAIL: FuzzDifferential") || !strings.Contains(string(out), "differs from the reference") {
		t.Fatalf("exit %d (%v), output:\n%s\nwant exit 1 and a difference from the reference", code, err, out)
	}
}
