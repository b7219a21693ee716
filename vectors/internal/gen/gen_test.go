package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/conform-suite/conform/vectors/internal/vectorkit"
)

// TestGeneratedFilesAreCurrent fails when a generated vector file differs
// from what its generator produces: run 'make vectors' and commit.
func TestGeneratedFilesAreCurrent(t *testing.T) {
	for _, g := range vectorkit.Generators() {
		if !strings.HasSuffix(g.Path, ".gen.json") {
			t.Errorf("generator path %s does not end in .gen.json", g.Path)
		}
	}
	stale, err := generate(filepath.Join("..", ".."), true)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range stale {
		t.Errorf("%s is stale: run 'make vectors' and commit the result", p)
	}
}
