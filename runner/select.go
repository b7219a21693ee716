package runner

import (
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/conform-suite/conform/vectors"
)

// Selection chooses vectors. Within a field, any entry may match; across
// fields, every non-empty field must match. The zero Selection selects all.
type Selection struct {
	Suites       []string // "quote"
	Ops          []string // "quote.parse"
	IDs          []string // id globs, as in path.Match: "quote.parse/*-surrogate*"
	Tags         []string
	Requirements []string // "QUOTE-LINK-012", or a prefix ending in "-": "QUOTE-LINK-"
	Shard        Shard
}

// Shard is the i-th of n equal parts of a selection, 1-based; the zero
// Shard is the whole selection.
type Shard struct{ I, N int }

// String is "i/n", or "" for the whole selection.
func (s Shard) String() string {
	if s.N == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.I, s.N)
}

// ParseShard parses "i/n" with 1 <= i <= n.
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return Shard{}, fmt.Errorf("shard %q is not i/n with 1 <= i <= n", s)
	}
	return Shard{I: i, N: n}, nil
}

// CheckGlobs reports the first malformed id glob.
func (s *Selection) CheckGlobs() error {
	for _, g := range s.IDs {
		if _, err := path.Match(g, ""); err != nil {
			return fmt.Errorf("bad id pattern %q: %v", g, err)
		}
	}
	return nil
}

// Matches reports whether v is selected, shard aside.
func (s *Selection) Matches(v *vectors.Vector) bool {
	if len(s.Suites) > 0 && !slices.Contains(s.Suites, v.Suite()) {
		return false
	}
	if len(s.Ops) > 0 && !slices.Contains(s.Ops, v.Op) {
		return false
	}
	if len(s.IDs) > 0 && !slices.ContainsFunc(s.IDs, func(g string) bool {
		ok, _ := path.Match(g, v.ID)
		return ok
	}) {
		return false
	}
	if len(s.Tags) > 0 && !slices.ContainsFunc(s.Tags, v.HasTag) {
		return false
	}
	if len(s.Requirements) > 0 && !slices.ContainsFunc(s.Requirements, func(want string) bool {
		return slices.ContainsFunc(v.Requirements, func(id string) bool {
			return id == want || strings.HasSuffix(want, "-") && strings.HasPrefix(id, want)
		})
	}) {
		return false
	}
	return true
}

// Select returns the selected vectors of vs, in order. A shard takes every
// n-th selected vector, starting with the i-th, so shards are disjoint,
// cover the selection, and differ in size by at most one.
func (s *Selection) Select(vs []*vectors.Vector) []*vectors.Vector {
	var out []*vectors.Vector
	k := 0
	for _, v := range vs {
		if !s.Matches(v) {
			continue
		}
		if s.Shard.N <= 1 || k%s.Shard.N == s.Shard.I-1 {
			out = append(out, v)
		}
		k++
	}
	return out
}
