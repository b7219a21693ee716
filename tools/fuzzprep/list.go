package main

import (
	"bytes"
	"cmp"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// target is one native fuzz target: the package directory, relative to the
// module root and slash-separated, and the function's name.
type target struct {
	dir, name string
}

// list writes "PKGDIR TARGET", one line per native fuzz target of the module
// at root, sorted by target: every top-level func whose name go test takes
// for a fuzz target, declared in a test file that go test compiles for the
// package (the packages and files are go list's, so build constraints count
// as they do for go test). Declarations are read from the syntax tree, so
// text that only looks like one (in a string or a comment) is not a target.
//
// It fails when two packages declare a target of the same name (a libFuzzer
// binary is named after its target alone, so one would overwrite the other)
// and when a target is declared in an external test package (package p_test),
// which the libFuzzer build cannot compile (see prepare).
func list(root string, w io.Writer) error {
	cmd := exec.Command("go", "list", "-f", `{{.Dir}}{{"\t"}}{{join .TestGoFiles " "}}{{"\t"}}{{join .XTestGoFiles " "}}`, "./...")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("go list ./... in %s: %v\n%s", root, err, stderr.Bytes())
	}
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return err
	}
	var targets []target
	for line := range strings.SplitSeq(strings.TrimRight(string(out), "\n"), "\n") {
		fields := strings.Split(line, "\t")
		if len(fields) != 3 {
			return fmt.Errorf("go list: unexpected line %q", line)
		}
		rel, err := filepath.Rel(absRoot, fields[0])
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(rel)
		for i, files := range fields[1:] {
			external := i == 1
			for name := range strings.FieldsSeq(files) {
				names, err := fuzzFuncs(filepath.Join(fields[0], name))
				if err != nil {
					return err
				}
				for _, n := range names {
					if external {
						return fmt.Errorf("%s/%s: fuzz target %s is in an external test package, which the libFuzzer build cannot compile: declare it in the package itself", dir, name, n)
					}
					targets = append(targets, target{dir, n})
				}
			}
		}
	}
	slices.SortFunc(targets, func(a, b target) int {
		return cmp.Or(strings.Compare(a.name, b.name), strings.Compare(a.dir, b.dir))
	})
	for i := 1; i < len(targets); i++ {
		if a, b := targets[i-1], targets[i]; a.name == b.name {
			return fmt.Errorf("fuzz target %s is declared in both %s and %s: a libFuzzer binary is named after its target ($OUT/%s), so target names must be unique across packages", a.name, a.dir, b.dir, a.name)
		}
	}
	for _, t := range targets {
		fmt.Fprintf(w, "%s %s\n", t.dir, t.name)
	}
	return nil
}

// fuzzFuncs returns the names of the fuzz targets a test file declares: the
// top-level functions without receiver named Fuzz or Fuzz followed by
// anything but a lower-case letter (go test's rule).
func fuzzFuncs(path string) ([]string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Recv != nil || !isFuzzName(fn.Name.Name) {
			continue
		}
		names = append(names, fn.Name.Name)
	}
	return names, nil
}

func isFuzzName(name string) bool {
	rest, ok := strings.CutPrefix(name, "Fuzz")
	r, _ := utf8.DecodeRuneInString(rest)
	return ok && (rest == "" || !unicode.IsLower(r))
}
