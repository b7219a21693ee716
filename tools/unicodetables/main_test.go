package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// The reference's snap set is the one spec/data/punctuation.txt gives:
// reference/marker/snapset.go is what render writes from it.
func TestSnapSetFileIsCurrent(t *testing.T) {
	data, err := render()
	if err != nil {
		t.Fatal(err)
	}
	old, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(out)))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(old, data) {
		t.Errorf("%s is stale: run 'make unicode' (or go run ./tools/unicodetables) and commit the result", out)
	}
}
