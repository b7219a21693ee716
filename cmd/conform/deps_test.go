package main

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDeps checks what the conform binary links: not the testing package,
// not godog (the scenarios run on conform's own runner; godog drives them
// only in go test ./features), and not the fake implementations of the
// tests.
func TestDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 || deps[len(deps)-1] != "github.com/conform-suite/conform/cmd/conform" {
		t.Fatalf("go list -deps gave no list of packages ending with the binary's:\n%s", out)
	}
	for _, p := range deps {
		if p == "testing" || strings.HasPrefix(p, "testing/") || strings.Contains(p, "godog") || strings.HasSuffix(p, "/internal/fakeimpl") {
			t.Errorf("the conform binary depends on %s", p)
		}
	}
}

// maxSourceLines bounds the length of a non-test Go file of the module: a
// longer one is split into files of one concern each.
const maxSourceLines = 600

// TestSourceFileLength checks every non-test Go file of the module, the
// generated ones included, against maxSourceLines.
func TestSourceFileLength(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	files := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		if n := bytes.Count(data, []byte("\n")); n > maxSourceLines {
			rel, _ := filepath.Rel(root, path)
			t.Errorf("%s has %d lines, more than %d", rel, n, maxSourceLines)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 50 {
		t.Fatalf("found only %d Go files under %s: not the module's root", files, root)
	}
}
