// Command gen regenerates every generated vector file (*.gen.json) of the
// corpus from the small deterministic programs in this directory.
//
// Usage: go run ./vectors/internal/gen [-check] [-dir vectors]
//
// With -check it writes nothing and exits 1 if any file on disk differs from
// what the generators produce.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/conform-suite/conform/vectors"
	"github.com/conform-suite/conform/vectors/internal/vectorkit"
)

func main() {
	check := flag.Bool("check", false, "report stale files instead of writing them")
	dir := flag.String("dir", "vectors", "the vectors directory")
	flag.Parse()
	stale, err := generate(*dir, *check)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen: error:", err)
		os.Exit(2)
	}
	for _, p := range stale {
		fmt.Fprintln(os.Stderr, "gen: stale:", p)
	}
	if *check && len(stale) > 0 {
		fmt.Fprintln(os.Stderr, "gen: run 'make vectors' and commit the result")
		os.Exit(1)
	}
}

// generate writes (or with check, compares) every generated file and returns
// the paths that differed from what was on disk.
func generate(dir string, check bool) ([]string, error) {
	var stale []string
	for _, g := range vectorkit.Generators() {
		f, err := g.Make()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", g.Path, err)
		}
		data, err := vectorkit.Encode(f)
		if err != nil {
			return nil, err
		}
		p := filepath.Join(dir, filepath.FromSlash(g.Path))
		old, err := os.ReadFile(p)
		if err == nil && bytes.Equal(old, data) {
			continue
		}
		stale = append(stale, p)
		if check {
			continue
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return nil, err
		}
	}
	return stale, nil
}

// genFile collects the vectors of one generated file.
type genFile struct{ f *vectors.File }

// registerGen registers the generated file path: the vectors of op that
// fill adds.
func registerGen(path, op, desc string, fill func(*genFile)) {
	vectorkit.Register(path, func() (*vectors.File, error) {
		cf := &genFile{&vectors.File{Op: op, Description: desc}}
		fill(cf)
		return cf.f, nil
	})
}

// add adds the vector op/id, which expects out for the input in, both
// marshalled with vectorkit.Raw.
func (cf *genFile) add(id, desc string, reqs, tags []string, in, out any) {
	cf.f.Vectors = append(cf.f.Vectors, &vectors.Vector{ID: cf.f.Op + "/" + id, Description: desc, Requirements: reqs, Tags: tags,
		Input: vectorkit.Raw(in), Expect: vectors.Expect{Output: vectorkit.Raw(out)}})
}

// diverge records on the vector added last that system answers out to it,
// and why.
func (cf *genFile) diverge(system, reason string, out any) {
	cf.f.Vectors[len(cf.f.Vectors)-1].Divergences = vectorkit.Diverges(system, reason, vectorkit.Raw(out))
}
