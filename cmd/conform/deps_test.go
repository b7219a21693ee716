package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestDeps checks what the conform binary links: godog, the engine of
// `conform features`, and not the fake implementations of the tests.
func TestDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 || deps[len(deps)-1] != "github.com/conform-suite/conform/cmd/conform" {
		t.Fatalf("go list -deps gave no list of packages ending with the binary's:\n%s", out)
	}
	if !slices.Contains(deps, "github.com/cucumber/godog") {
		t.Errorf("the conform binary does not link godog, the engine of conform features")
	}
	for _, p := range deps {
		if strings.HasSuffix(p, "/internal/fakeimpl") {
			t.Errorf("the conform binary depends on %s", p)
		}
	}
}

// TestProtocolNamesDefinedOnce: the protocol's types, error kinds and limits
// are named once, in package protocol, and used under that name: no other
// package of the module declares an alias of one (type X = protocol.Y) or a
// constant or variable that only renames one (X = protocol.Y).
func TestProtocolNamesDefinedOnce(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	files := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata" || d.Name() == "node_modules" || path == filepath.Join(root, "protocol")) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		rel, _ := filepath.Rel(root, path)
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, spec := range gd.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					if s.Assign.IsValid() && isProtocolName(s.Type) {
						t.Errorf("%s: type %s is an alias of a protocol type: use protocol's name", rel, s.Name.Name)
					}
				case *ast.ValueSpec:
					for i, v := range s.Values {
						if isProtocolName(v) {
							t.Errorf("%s: %s renames a protocol constant or variable: use protocol's name", rel, s.Names[i].Name)
						}
					}
				}
			}
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

// isProtocolName reports whether e is protocol.X with X exported.
func isProtocolName(e ast.Expr) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "protocol" && sel.Sel.IsExported()
}
