package fuzz

import (
	"context"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"testing"
	"time"

	"github.com/conform-suite/conform/reference"
	"github.com/conform-suite/conform/runner"
)

// BenchmarkFuzz measures the engine's executions per second, fuzzing the
// reference against itself (nothing diverges, so no time goes to
// shrinking): in process, and over the runner's stdio transport to a
// child serving the reference (what 'conform fuzz --stdio "conform serve
// --stdio"' does). Each op is a run of 2,000 executions with the CLI's
// default of 4 in flight per CPU.
func BenchmarkFuzz(b *testing.B) {
	c, err := embeddedCorpus()
	if err != nil {
		b.Fatal(err)
	}
	// The conform command's garbage collection target (cli.GCPercent), in
	// both processes, as conform fuzz and conform serve run.
	const gcPercent = 400
	defer debug.SetGCPercent(debug.SetGCPercent(gcPercent))
	stdio := runner.NewStdio(os.Args[0], "-test.run=^TestPlantedHelperProcess$")
	stdio.Env = append(os.Environ(), plantedEnv+"=reference", "GOGC="+strconv.Itoa(gcPercent))
	defer stdio.Close()
	for _, tc := range []struct {
		name string
		impl runner.Implementation
	}{{"in-process", reference.InProcess{}}, {"stdio", stdio}} {
		b.Run(tc.name, func(b *testing.B) {
			execs, elapsed := 0, time.Duration(0)
			for i := 0; b.Loop(); i++ {
				rep, err := Run(context.Background(), Config{Impl: tc.impl, Corpus: c, Seed: uint64(i + 1), Count: 2000, Parallel: 4 * runtime.GOMAXPROCS(0)})
				if err != nil || rep.Diverged() {
					b.Fatalf("run %d: %v, %d findings", i, err, len(rep.Findings))
				}
				execs, elapsed = execs+rep.Execs, elapsed+rep.Elapsed
			}
			b.ReportMetric(float64(execs)/elapsed.Seconds(), "execs/s")
		})
	}
}
