package fuzz

import (
	"context"
	"os"
	"slices"
	"testing"

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
	i := slices.IndexFunc(plantedBugs, func(p *plantedBug) bool { return p.name == name })
	if i < 0 {
		os.Exit(3)
	}
	if err := runner.ServeStdio(context.Background(), plantedBugs[i], os.Stdin, os.Stdout, 0); err != nil {
		os.Exit(4)
	}
	os.Exit(0)
}

// TestPlantedBugOverStdio fuzzes a planted bug served by a child process
// through the runner's stdio transport: found, shrunk and emitted as over
// the in-process path.
func TestPlantedBugOverStdio(t *testing.T) {
	pb := plantedBugs[slices.IndexFunc(plantedBugs, func(p *plantedBug) bool { return p.name == "duplicate-comment-accepted" })]
	impl := runner.NewStdio(os.Args[0], "-test.run=^TestPlantedHelperProcess$")
	impl.Env = append(os.Environ(), plantedEnv+"="+pb.name)
	defer impl.Close()
	rep, err := Run(context.Background(), Config{Impl: impl, Ops: []string{pb.op}, Seed: 1, Count: pb.count, StopWhen: pb.found})
	if err != nil {
		t.Fatal(err)
	}
	checkPlanted(t, pb, rep)
}
