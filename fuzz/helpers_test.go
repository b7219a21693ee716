package fuzz

import (
	"context"
	"testing"
	"time"
)

// tb is what the shared checks need of a *testing.T, *testing.F or *rapid.T.
type tb interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// parseRun fuzzes quote.parse of cfg.Impl for 3,000 executions with the
// seed given, shrinking bounded by executions only (so that a seed shrinks
// to the same case on a loaded machine too); cfg's other fields are kept.
func parseRun(t *testing.T, seed uint64, cfg Config) *Report {
	t.Helper()
	cfg.Ops, cfg.Seed, cfg.Count, cfg.ShrinkExecs, cfg.ShrinkTime = []string{"quote.parse"}, seed, 3000, 300, 10*time.Minute
	rep, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}
