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
	moduleFiles(t, func(rel string) bool { return strings.HasPrefix(rel, "protocol/") }, func(rel string, f *ast.File) {
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
	})
}

// TestOutcomesOnlyFromTheRunner: the runner's judge is the only one. No
// package but runner declares a type of outcomes, converts to
// runner.Outcome, sets a result's Outcome or gives one to a runner.Result
// literal; fuzz and features take theirs from runner.Runner.Judge and
// runner.Compare, and the reports copy them. Test files may build results
// by hand, and report/read.go restores the outcomes a JSON report records.
func TestOutcomesOnlyFromTheRunner(t *testing.T) {
	moduleFiles(t, func(rel string) bool {
		return strings.HasPrefix(rel, "runner/") || strings.HasSuffix(rel, "_test.go") || rel == "report/read.go"
	}, func(rel string, f *ast.File) {
		for _, v := range outcomeViolations(f) {
			t.Errorf("%s: %s: outcomes are the runner's to give", rel, v)
		}
	})
	// The check itself finds each kind of breach.
	src := `package p
type verdictOutcome string
func f(r *runner.Result) {
	r.Outcome = runner.Pass
	_ = runner.Result{Outcome: "pass"}
	_ = runner.Outcome("fail")
	_ = jsonResult{Outcome: r.Outcome}
}`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := outcomeViolations(f); len(got) != 4 {
		t.Errorf("outcomeViolations found %q in a file with 4 breaches", got)
	}
}

// outcomeViolations lists the places of f that define or assign an outcome.
func outcomeViolations(f *ast.File) []string {
	var found []string
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.TypeSpec:
			if strings.Contains(strings.ToLower(n.Name.Name), "outcome") {
				found = append(found, "type "+n.Name.Name)
			}
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if sel, ok := l.(*ast.SelectorExpr); ok && sel.Sel.Name == "Outcome" {
					found = append(found, "assigns .Outcome")
				}
			}
		case *ast.CompositeLit:
			if !isResultType(n.Type) {
				break
			}
			for _, e := range n.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Outcome" {
						found = append(found, "a runner.Result literal with an Outcome")
					}
				}
			}
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Outcome" {
				if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "runner" {
					found = append(found, "converts to runner.Outcome")
				}
			}
		}
		return true
	})
	return found
}

// isResultType reports whether e names runner.Result.
func isResultType(e ast.Expr) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "runner" && sel.Sel.Name == "Result"
}

// moduleFiles parses every Go file of the module, but those under .git,
// testdata and node_modules and those skip names (by their path from the
// module's root, with slashes), and hands each to visit.
func moduleFiles(t *testing.T, skip func(rel string) bool, visit func(rel string, f *ast.File)) {
	t.Helper()
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
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() || !strings.HasSuffix(path, ".go") || skip(rel) {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files++
		visit(rel, f)
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
