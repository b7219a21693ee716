package runner

import (
	"slices"
	"strings"
	"testing"

	"github.com/conform-suite/conform/internal/fixture"
	"github.com/conform-suite/conform/vectors"
)

func ids(vs []*vectors.Vector) string {
	var out []string
	for _, v := range vs {
		out = append(out, v.ID)
	}
	return strings.Join(out, " ")
}

func TestSelect(t *testing.T) {
	tests := []struct {
		name string
		sel  Selection
		want string
	}{
		{"all", Selection{}, "quote.parse/duplicate-text quote.parse/lone-surrogate quote.format/plain marker.strip/astral-offset selref.ingest/long-label"},
		{"suite", Selection{Suites: []string{"quote"}}, "quote.parse/duplicate-text quote.parse/lone-surrogate quote.format/plain"},
		{"op", Selection{Ops: []string{"quote.format", "selref.ingest"}}, "quote.format/plain selref.ingest/long-label"},
		{"id glob", Selection{IDs: []string{"*/*surrogate*"}}, "quote.parse/lone-surrogate"},
		{"tag", Selection{Tags: []string{"astral"}}, "quote.parse/lone-surrogate marker.strip/astral-offset"},
		{"requirement", Selection{Requirements: []string{"SELREF-INGEST-004"}}, "selref.ingest/long-label"},
		{"requirement prefix", Selection{Requirements: []string{"QUOTE-LINK-"}}, "quote.parse/duplicate-text quote.parse/lone-surrogate quote.format/plain"},
		{"fields combine", Selection{Suites: []string{"quote"}, Tags: []string{"astral"}}, "quote.parse/lone-surrogate"},
		{"shard 1/2", Selection{Shard: Shard{1, 2}}, "quote.parse/duplicate-text quote.format/plain selref.ingest/long-label"},
		{"shard 2/2", Selection{Shard: Shard{2, 2}}, "quote.parse/lone-surrogate marker.strip/astral-offset"},
		{"shard of a selection", Selection{Suites: []string{"quote"}, Shard: Shard{2, 2}}, "quote.parse/lone-surrogate"},
	}
	for _, tt := range tests {
		if got := ids(tt.sel.Select(fixture.Vectors())); got != tt.want {
			t.Errorf("%s: Select(%+v) = %q, want %q", tt.name, tt.sel, got, tt.want)
		}
	}
}

// TestShardsPartition checks the property shards promise: disjoint, and
// together the whole selection.
func TestShardsPartition(t *testing.T) {
	all := fixture.Vectors()
	for n := 1; n <= 7; n++ {
		var union []string
		for i := 1; i <= n; i++ {
			s := Selection{Shard: Shard{i, n}}
			for _, v := range s.Select(all) {
				union = append(union, v.ID)
			}
		}
		slices.Sort(union)
		want := strings.Fields(ids(all))
		slices.Sort(want)
		if !slices.Equal(union, want) {
			t.Errorf("shards of %d: union %v, want each vector once: %v", n, union, want)
		}
	}
}

func TestParseShard(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want Shard
		ok   bool
	}{{"1/1", Shard{1, 1}, true}, {"3/4", Shard{3, 4}, true}, {"0/4", Shard{}, false}, {"5/4", Shard{}, false}, {"1", Shard{}, false}, {"a/b", Shard{}, false}, {"1/0", Shard{}, false}} {
		got, err := ParseShard(tt.in)
		if got != tt.want || (err == nil) != tt.ok {
			t.Errorf("ParseShard(%q) = %v, %v; want %v, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}
