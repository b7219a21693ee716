package main

import (
	"fmt"
	"go/ast"
	"go/types"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/callgraph/cha"
	"golang.org/x/tools/go/callgraph/vta"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// reach maps a function of the reference, keyed as a Mutation names it
// ("file:Func"), to the ops whose handlers reach it in the call graph: the
// ops an equivalence check of a mutant of that function has to fuzz.
// Closures count as their enclosing function. The graph is VTA's, seeded
// with CHA's: it follows calls through interfaces and function values to
// what can flow there (CHA alone sends a strings.IndexFunc predicate to
// every op). What only reflection reaches is not in it: the methods the
// standard library calls that way (UnmarshalJSON and the like) are left
// out, and a function the graph does not know is checked against its
// whole suite (Judge.opsFor).
type reach map[string][]string

// reflected are the method names the standard library may call through
// reflection or its own interfaces (encoding/json, fmt, errors).
var reflected = []string{"MarshalJSON", "UnmarshalJSON", "MarshalText", "UnmarshalText", "Error", "String", "Unwrap", "Format", "GoString"}

// buildReach loads the reference under root and walks the call graph from
// each op's handler, as the suites' Ops maps name it.
func buildReach(root string) (reach, error) {
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax, Dir: root}, "./reference/...")
	if err != nil {
		return nil, err
	}
	if packages.PrintErrors(pkgs) > 0 {
		return nil, fmt.Errorf("loading ./reference/... failed")
	}
	prog, _ := ssautil.AllPackages(pkgs, ssa.InstantiateGenerics)
	prog.Build()
	cg := vta.CallGraph(ssautil.AllFunctions(prog), cha.CallGraph(prog))
	r := reach{}
	for _, p := range pkgs {
		for op, roots := range handlerRoots(p) {
			seen := map[*ssa.Function]bool{}
			var queue []*ssa.Function
			for _, obj := range roots {
				queue = append(queue, prog.FuncValue(obj))
			}
			for len(queue) > 0 {
				fn := queue[0]
				queue = queue[1:]
				if fn == nil || seen[fn] {
					continue
				}
				seen[fn] = true
				queue = append(queue, fn.AnonFuncs...)
				if node := cg.Nodes[fn]; node != nil {
					for _, e := range node.Out {
						queue = append(queue, e.Callee.Func)
					}
				}
				if fn.Signature.Recv() != nil && slices.Contains(reflected, fn.Name()) {
					continue
				}
				if k := r.key(prog, root, fn); k != "" && !slices.Contains(r[k], op) {
					r[k] = append(r[k], op)
				}
			}
		}
	}
	for k := range r {
		slices.Sort(r[k])
	}
	return r, nil
}

// key names fn as Mutation.ID names its function: the file relative to
// root, and Type.Method or the function's name; a closure is its
// enclosing function's. "" for a function outside reference/.
func (reach) key(prog *ssa.Program, root string, fn *ssa.Function) string {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	pos := prog.Fset.Position(fn.Pos())
	rel, err := filepath.Rel(root, pos.Filename)
	if err != nil || !strings.HasPrefix(filepath.ToSlash(rel), "reference/") {
		return ""
	}
	name := fn.Name()
	if recv := fn.Signature.Recv(); recv != nil {
		t := recv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := t.(*types.Named); ok {
			name = n.Obj().Name() + "." + name
		}
	}
	return strings.TrimPrefix(filepath.ToSlash(rel), "reference/") + ":" + name
}

// handlerRoots reads the Ops map of a suite package: each op with the
// functions its handler expression names (a function, or a call such as
// promptOp(Expand), whose function and arguments are all roots).
func handlerRoots(p *packages.Package) map[string][]*types.Func {
	out := map[string][]*types.Func{}
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, s := range gd.Specs {
				vs, ok := s.(*ast.ValueSpec)
				if !ok || len(vs.Names) != 1 || vs.Names[0].Name != "Ops" || len(vs.Values) != 1 {
					continue
				}
				lit, ok := vs.Values[0].(*ast.CompositeLit)
				if !ok {
					continue
				}
				for _, el := range lit.Elts {
					kv, ok := el.(*ast.KeyValueExpr)
					if !ok {
						continue
					}
					bl, ok := kv.Key.(*ast.BasicLit)
					if !ok {
						continue
					}
					op, err := strconv.Unquote(bl.Value)
					if err != nil {
						continue
					}
					ast.Inspect(kv.Value, func(n ast.Node) bool {
						if id, ok := n.(*ast.Ident); ok {
							if fn, ok := p.TypesInfo.Uses[id].(*types.Func); ok {
								out[op] = append(out[op], fn)
							}
						}
						return true
					})
				}
			}
		}
	}
	return out
}
