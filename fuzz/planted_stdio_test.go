package fuzz

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/conform-suite/conform/protocol"
	"github.com/conform-suite/conform/reference"
	"github.com/conform-suite/conform/runner"
)

// plantedEnv names the planted bug a re-executed test binary serves.
const plantedEnv = "CONFORM_FUZZ_PLANTED"

// TestPlantedHelperProcess is not a test: re-executed with plantedEnv set,
// the test binary serves that planted bug over stdio (protocol v1), as a
// porting team's adapter would.
func TestPlantedHelperProcess(t *testing.T) {
	name := os.Getenv(plantedEnv)
	if name == "" {
		t.Skip("helper process for TestPlantedBugOverStdio")
	}
	all := append(slices.Clone(plantedBugs), exitOnNUL, hangOnLength)
	i := slices.IndexFunc(all, func(p *plantedBug) bool { return p.name == name })
	var impl protocol.Answerer = reference.InProcess{} // "reference": no bug
	switch {
	case i >= 0:
		impl = all[i]
	case name != "reference":
		os.Exit(3)
	}
	if err := protocol.ServeStdio(context.Background(), impl, os.Stdin, os.Stdout, 0); err != nil {
		os.Exit(4)
	}
	os.Exit(0)
}

// exitOnNUL is a planted crash, served over stdio only: the process exits
// when a selref.ingest input holds U+0000.
var exitOnNUL = &plantedBug{
	name: "exit-on-nul", op: "selref.ingest", kind: ClassCrash, count: 3000,
	alter: func(_ context.Context, req protocol.Request, out json.RawMessage) json.RawMessage {
		if strings.Contains(string(req.Input), `\u0000`) {
			os.Exit(3)
		}
		return out
	},
	check: func(t *testing.T, f *Finding) {
		if !strings.Contains(string(f.Input), `\u0000`) || len(f.Input) > 40 {
			t.Errorf("shrunk input %s: want a short input holding U+0000", f.Input)
		}
	},
}

// hangOnLength is a planted hang, served over stdio only: the process stops
// answering (every request, as a sequential server stuck on one) when a
// selref.ingest input's length is a multiple of 8. It never crashes.
var hangOnLength = &plantedBug{
	name: "hang-on-length", op: "selref.ingest", kind: ClassTimeout,
	alter: func(_ context.Context, req protocol.Request, out json.RawMessage) json.RawMessage {
		if hangs(req.Input) {
			select {}
		}
		return out
	},
}

func hangs(input []byte) bool { return len(input)%8 == 0 }

// TestPlantedHangMakesNoCrash fuzzes an implementation that hangs and never
// crashes, with requests in flight: the requests stuck behind a hang when
// the child is killed for it are sent again, and none is reported as a
// crash (a finding whose input crashes nothing) or as a hang of its own.
// Every finding is a timeout on an input that hangs the implementation.
func TestPlantedHangMakesNoCrash(t *testing.T) {
	impl := runner.NewStdio(os.Args[0], "-test.run=^TestPlantedHelperProcess$")
	impl.Env = append(os.Environ(), plantedEnv+"="+hangOnLength.name)
	impl.Restarts = 1000
	defer impl.Close()
	rep, err := Run(context.Background(), Config{Impl: impl, Ops: []string{hangOnLength.op}, Seed: 1, Count: 16, Parallel: 8, Timeout: time.Second, ShrinkExecs: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Findings) == 0 {
		t.Fatalf("no finding in %d executions", rep.Execs)
	}
	for _, f := range rep.Findings {
		if f.Class != ClassTimeout || !hangs(f.Input) {
			t.Errorf("a %s finding (%s) on %s, from an implementation that only hangs, on inputs of a length divisible by 8", f.Class, f.Detail, f.Input)
		}
	}
	t.Logf("%d executions, %d inconclusive, %d findings", rep.Execs, rep.Inconclusive, len(rep.Findings))
}

// TestPlantedBugOverStdio fuzzes planted bugs served by a child process
// through the runner's stdio transport: found, shrunk and emitted as over
// the in-process path; the crash restarts the child each time.
func TestPlantedBugOverStdio(t *testing.T) {
	for _, pb := range []*plantedBug{plantedBugs[slices.IndexFunc(plantedBugs, func(p *plantedBug) bool { return p.name == "duplicate-comment-accepted" })], exitOnNUL} {
		t.Run(pb.name, func(t *testing.T) {
			impl := runner.NewStdio(os.Args[0], "-test.run=^TestPlantedHelperProcess$")
			impl.Env = append(os.Environ(), plantedEnv+"="+pb.name)
			impl.Restarts = 1000
			defer impl.Close()
			rep, err := Run(context.Background(), Config{Impl: impl, Ops: []string{pb.op}, Seed: 1, Count: pb.count, StopWhen: pb.found})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Stopped != "" {
				t.Errorf("Stopped = %q, want the child restarted after every crash", rep.Stopped)
			}
			checkPlanted(t, pb, rep, impl)
		})
	}
}
