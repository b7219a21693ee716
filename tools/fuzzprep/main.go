// Command fuzzprep prepares one native fuzz target for a libFuzzer build.
//
// The libFuzzer build of a Go fuzz target (the go-118-fuzz-build tool that
// OSS-Fuzz's compile_native_go_fuzzer runs) compiles the one test file that
// declares the target as if it were an ordinary file of the package, with
// its "testing" import replaced by a shim: the package's other test files
// are left out. The targets of this module use helpers spread over several
// test files, so fuzzprep rewrites the test files of the target's package in
// place (run it on a copy of the module: scripts/fuzz-libfuzzer.sh does):
//
//   - every declaration of the package's test files that the target reaches
//     (functions, types with their methods, variables, constants) is copied
//     into one file, DIR/zz_libfuzzer_TARGET_test.go;
//   - testing.TB, which the shim lacks, becomes an interface of the methods
//     both the shim's and the standard library's T and F have;
//   - every other test file of the package is removed.
//
// The result still builds and runs under plain `go test`.
//
// With -list it prints instead the module's native fuzz targets, one
// "PKGDIR TARGET" line each (see list), which scripts/fuzz-libfuzzer.sh
// builds.
//
// Usage: fuzzprep -dir DIR -func TARGET
//
//	fuzzprep -list [-root MODULEDIR]
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/printer"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

func main() {
	dir := flag.String("dir", "", "the package directory (of a copy of the module)")
	target := flag.String("func", "", "the fuzz target, e.g. FuzzCollect")
	listMode := flag.Bool("list", false, "print the module's native fuzz targets, one \"PKGDIR TARGET\" line each")
	root := flag.String("root", ".", "with -list: the module's root directory")
	flag.Parse()
	if *listMode {
		if err := list(*root, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "fuzzprep:", err)
			os.Exit(1)
		}
		return
	}
	if *dir == "" || !strings.HasPrefix(*target, "Fuzz") {
		fmt.Fprintln(os.Stderr, "usage: fuzzprep -dir DIR -func FuzzNAME, or fuzzprep -list [-root MODULEDIR]")
		os.Exit(2)
	}
	if err := prepare(*dir, *target); err != nil {
		fmt.Fprintln(os.Stderr, "fuzzprep:", err)
		os.Exit(1)
	}
}

// tbName replaces testing.TB in the prepared file.
const tbName = "libfuzzerTB"

const tbDecl = `
// ` + tbName + ` stands for testing.TB, which the libFuzzer testing shim lacks:
// the methods the test helpers call, which both testing's and the shim's T
// and F have.
type ` + tbName + ` interface {
	Helper()
	Error(args ...any)
	Errorf(format string, args ...any)
	Fatal(args ...any)
	Fatalf(format string, args ...any)
	Log(args ...any)
	Logf(format string, args ...any)
	Skip(args ...any)
	Name() string
}
`

// decl is one top-level declaration of a test file, or one spec of a
// grouped var or type declaration (a const group is kept whole).
type decl struct {
	file *ast.File
	node ast.Node // *ast.FuncDecl, or *ast.GenDecl holding one spec
	uses map[string]bool
	keep bool
}

func prepare(dir, target string) error {
	names, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil || len(names) == 0 {
		return fmt.Errorf("%s: no test files (%v)", dir, err)
	}
	fset := token.NewFileSet()
	pkgName := ""
	var files []*ast.File
	for _, name := range names {
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		if strings.HasSuffix(f.Name.Name, "_test") {
			continue // an external test package: never part of the target
		}
		if pkgName != "" && f.Name.Name != pkgName {
			return fmt.Errorf("%s: package %s, want %s", name, f.Name.Name, pkgName)
		}
		pkgName = f.Name.Name
		files = append(files, f)
	}

	byName := map[string][]*decl{} // top-level name (or receiver type) -> declarations
	var all []*decl
	// declare records node, of file f, as declaring names.
	declare := func(f *ast.File, node ast.Node, names ...*ast.Ident) {
		d := &decl{file: f, node: node, uses: identifiers(node)}
		all = append(all, d)
		for _, id := range names {
			byName[id.Name] = append(byName[id.Name], d)
		}
	}
	for _, f := range files {
		for _, n := range f.Decls {
			switch n := n.(type) {
			case *ast.FuncDecl:
				name := n.Name
				if n.Recv != nil {
					name = recvType(n.Recv.List[0].Type) // a method comes with its type
				}
				declare(f, n, name)
			case *ast.GenDecl:
				switch n.Tok {
				case token.IMPORT:
				case token.CONST:
					// Kept whole: a spec may take its value from iota
					// and the expression of the spec before it.
					var names []*ast.Ident
					for _, s := range n.Specs {
						names = append(names, s.(*ast.ValueSpec).Names...)
					}
					declare(f, n, names...)
				default:
					for _, s := range n.Specs {
						g := &ast.GenDecl{Doc: n.Doc, Tok: n.Tok, Lparen: n.Lparen, Specs: []ast.Spec{s}, Rparen: n.Rparen}
						switch s := s.(type) {
						case *ast.ValueSpec:
							declare(f, g, s.Names...)
						case *ast.TypeSpec:
							declare(f, g, s.Name)
						}
					}
				}
			}
		}
	}
	roots := byName[target]
	if len(roots) == 0 {
		return fmt.Errorf("%s: no func %s in the test files of package %s", dir, target, pkgName)
	}
	work := slices.Clone(roots)
	for len(work) > 0 {
		d := work[len(work)-1]
		work = work[:len(work)-1]
		if d.keep {
			continue
		}
		d.keep = true
		for name := range d.uses {
			work = append(work, byName[name]...)
		}
	}

	// The imports the kept declarations use, by the name they are used under.
	imports := map[string]string{} // name -> path
	named := map[string]bool{}     // imported under an explicit name
	for _, f := range files {
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			name := importName(path)
			if imp.Name != nil {
				name = imp.Name.Name
				named[name] = true
			}
			if name == "_" || name == "." {
				continue
			}
			if old, dup := imports[name]; dup && old != path {
				return fmt.Errorf("%s: %q names both %s and %s", dir, name, old, path)
			}
			imports[name] = path
		}
	}
	used := map[string]bool{}
	var buf bytes.Buffer
	for _, d := range all {
		if !d.keep {
			continue
		}
		ast.Inspect(d.node, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && imports[x.Name] != "" {
					if x.Name == "testing" && sel.Sel.Name == "TB" {
						x.Name, sel.Sel.Name = "", tbName // printed as a plain identifier below
						return false
					}
					used[x.Name] = true
				}
			}
			return true
		})
		buf.WriteString("\n")
		if err := printer.Fprint(&buf, fset, &printer.CommentedNode{Node: d.node, Comments: d.file.Comments}); err != nil {
			return err
		}
		buf.WriteString("\n")
	}
	body := strings.ReplaceAll(buf.String(), "."+tbName, tbName)

	var out bytes.Buffer
	fmt.Fprintf(&out, "// Code generated by tools/fuzzprep for the libFuzzer build of %s; DO NOT EDIT.\n\npackage %s\n\nimport (\n", target, pkgName)
	for _, name := range slices.Sorted(maps.Keys(used)) {
		// Named as in the source: a package's name need not be its path's
		// last element. "testing" stays unnamed, as the libFuzzer build
		// replaces only an unnamed import of it.
		if named[name] {
			fmt.Fprintf(&out, "\t%s %q\n", name, imports[name])
		} else {
			fmt.Fprintf(&out, "\t%q\n", imports[name])
		}
	}
	out.WriteString(")\n")
	if strings.Contains(body, tbName) {
		out.WriteString(tbDecl)
	}
	out.WriteString(body)
	src, err := format.Source(out.Bytes())
	if err != nil {
		return fmt.Errorf("formatting the prepared file: %v", err)
	}
	for _, name := range names {
		if err := os.Remove(name); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(dir, "zz_libfuzzer_"+target+"_test.go"), src, 0o644)
}

// identifiers returns every identifier n mentions (a superset of the
// top-level names it uses: field and local names come along, which at
// worst keeps a declaration that is not needed).
func identifiers(n ast.Node) map[string]bool {
	ids := map[string]bool{}
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			ids[id.Name] = true
		}
		return true
	})
	return ids
}

// recvType returns the name of a method's receiver type.
func recvType(e ast.Expr) *ast.Ident {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.Ident:
			return t
		default:
			return &ast.Ident{}
		}
	}
}

// importName guesses the name a package is imported under: the last
// element of its path, skipping a major-version suffix (…/v42) and a
// gopkg.in-style ".vN".
func importName(path string) string {
	parts := strings.Split(path, "/")
	name := parts[len(parts)-1]
	if len(parts) > 1 && len(name) > 1 && name[0] == 'v' && strings.Trim(name[1:], "0123456789") == "" {
		name = parts[len(parts)-2]
	}
	if i := strings.Index(name, ".v"); i > 0 {
		name = name[:i]
	}
	return strings.ReplaceAll(name, "-", "_")
}
