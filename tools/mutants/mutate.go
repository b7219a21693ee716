package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Mutation kinds. Each names one way of making the reference wrong.
const (
	KindIntInc        = "int-inc"        // an integer literal plus one
	KindIntDec        = "int-dec"        // an integer literal minus one
	KindCharInc       = "char-inc"       // a character compared against, plus one
	KindCharDec       = "char-dec"       // a character compared against, minus one
	KindLtLe          = "lt-le"          // < becomes <=
	KindLeLt          = "le-lt"          // <= becomes <
	KindGtGe          = "gt-ge"          // > becomes >=
	KindGeGt          = "ge-gt"          // >= becomes >
	KindEqNe          = "eq-ne"          // == becomes !=
	KindNeEq          = "ne-eq"          // != becomes ==
	KindAndOr         = "and-or"         // && becomes ||
	KindOrAnd         = "or-and"         // || becomes &&
	KindDropGuard     = "drop-guard"     // an if that leaves early never fires
	KindDropCase      = "drop-case"      // a case of a tagless switch never matches
	KindDropSurrogate = "drop-surrogate" // an if about surrogates or UTF-16 never fires
	KindBytesRunes    = "bytes-runes"    // len(s) counts runes
	KindBytesUnits    = "bytes-units"    // len(s) counts UTF-16 units
	KindRunesBytes    = "runes-bytes"    // a rune count counts bytes
	KindRunesUnits    = "runes-units"    // a rune count counts UTF-16 units
	KindUnitsBytes    = "units-bytes"    // a UTF-16 count counts bytes
	KindUnitsRunes    = "units-runes"    // a UTF-16 count counts runes
	KindRuneWidthOne  = "rune-width-one" // utf16.RuneLen(r) is 1: astral characters count 1
	KindAppendUnit    = "append-unit"    // utf16.AppendRune appends one unit, splitting nothing
	KindDropSort      = "drop-sort"      // a sort is not done
	KindFlipSort      = "flip-sort"      // a sort's comparison is reversed
)

// kindPriority orders the judging: limit checks and unit counting first, so
// that a run cut short by its budget has judged what matters most.
var kindPriority = map[string]int{
	KindBytesRunes: 0, KindBytesUnits: 0, KindRunesBytes: 0, KindRunesUnits: 0, KindUnitsBytes: 0,
	KindUnitsRunes: 0, KindRuneWidthOne: 0, KindAppendUnit: 0, KindDropSurrogate: 0,
	KindLtLe: 1, KindLeLt: 1, KindGtGe: 1, KindGeGt: 1,
	KindIntInc: 2, KindIntDec: 2, KindCharInc: 2, KindCharDec: 2,
	KindEqNe: 3, KindNeEq: 3, KindDropGuard: 3, KindDropCase: 3,
	KindAndOr: 4, KindOrAnd: 4, KindDropSort: 4, KindFlipSort: 4,
}

// Edit replaces the bytes [Start, End) of a file with Text.
type Edit struct {
	Start, End int
	Text       string
}

// Mutation is one mutant: a small set of edits to one file.
type Mutation struct {
	// ID is file:func:kind:n, n counting the mutations of that kind in
	// that function from 1 in source order. It does not move when other
	// functions change.
	ID        string
	File      string // slash path relative to the module root
	Func      string // enclosing function, Type.Method, or declared name
	Kind      string
	Line, Col int
	Orig      string // the original expression or statement head
	Mutated   string // what it became
	Edits     []Edit
}

// Apply returns src with the mutation's edits made.
func (m *Mutation) Apply(src []byte) []byte {
	edits := slices.Clone(m.Edits)
	slices.SortFunc(edits, func(a, b Edit) int { return a.Start - b.Start })
	var out bytes.Buffer
	pos := 0
	for _, e := range edits {
		out.Write(src[pos:e.Start])
		out.WriteString(e.Text)
		pos = e.End
	}
	out.Write(src[pos:])
	return out.Bytes()
}

// Inline counters that need no import and compile for strings only, so that
// a mutant applied to a slice is discarded by the compiler rather than
// being an identity.
const (
	runeCounter = "func(s string) (n int) { for range s { n++ }; return }"
	unitCounter = "func(s string) (n int) { for _, r := range s { n++; if r > 0xFFFF { n++ } }; return }"
)

// surrogateRE matches the text of a condition that is about surrogates or
// UTF-16 code units.
var surrogateRE = regexp.MustCompile(`(?i)surrogate|pair|ishigh|islow|0xD[89AB][0-9A-F]{2}|0xD[C-F][0-9A-F]{2}|0xFFFF|0x10000`)

// Package describes what the mutator needs to know beyond one file: the
// constant names of the file's package (len of a constant is never
// mutated) and the UTF-16 length helpers of the whole tree.
type Package struct {
	Consts  map[string]bool
	Helpers map[string]bool // func(string) int whose name says it counts UTF-16 units
}

// helperRE matches the names of UTF-16 length helpers.
var helperRE = regexp.MustCompile(`(?i)utf16|^units$`)

// Scan adds the constants and UTF-16 helpers of a parsed file to p.
func (p *Package) Scan(f *ast.File) {
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			if d.Tok != token.CONST {
				continue
			}
			for _, s := range d.Specs {
				for _, n := range s.(*ast.ValueSpec).Names {
					p.Consts[n.Name] = true
				}
			}
		case *ast.FuncDecl:
			if d.Recv != nil || !helperRE.MatchString(d.Name.Name) {
				continue
			}
			t := d.Type
			if t.Params.NumFields() == 1 && t.Results.NumFields() == 1 &&
				isIdent(t.Params.List[0].Type, "string") && isIdent(t.Results.List[0].Type, "int") {
				p.Helpers[d.Name.Name] = true
			}
		}
	}
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

// Generate returns every mutation of one file. path is the file's slash
// path relative to the module root, used in ids.
func Generate(path string, src []byte, pkg *Package) ([]*Mutation, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	g := &generator{path: path, src: src, tf: fset.File(f.Pos()), pkg: pkg, seen: map[string]int{}}
	for _, d := range f.Decls {
		g.decl(d)
	}
	return g.out, nil
}

type generator struct {
	path string
	src  []byte
	tf   *token.File
	pkg  *Package
	fn   string
	seen map[string]int // fn+kind -> count
	out  []*Mutation
}

func (g *generator) decl(d ast.Decl) {
	switch d := d.(type) {
	case *ast.FuncDecl:
		g.fn = d.Name.Name
		if d.Recv != nil && len(d.Recv.List) == 1 {
			g.fn = recvName(d.Recv.List[0].Type) + "." + d.Name.Name
			if d.Name.Name == "Error" || d.Name.Name == "String" {
				return // message text is not API: nothing a vector can see
			}
		}
		if d.Body != nil {
			g.walk(d.Body)
		}
	case *ast.GenDecl:
		for _, s := range d.Specs {
			if vs, ok := s.(*ast.ValueSpec); ok && len(vs.Names) > 0 {
				g.fn = vs.Names[0].Name
				for _, v := range vs.Values {
					g.walk(v)
				}
			}
		}
	}
}

func recvName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return recvName(e.X)
	case *ast.IndexExpr:
		return recvName(e.X)
	case *ast.Ident:
		return e.Name
	}
	return "?"
}

func (g *generator) off(p token.Pos) int { return g.tf.Offset(p) }

func (g *generator) text(n ast.Node) string { return string(g.src[g.off(n.Pos()):g.off(n.End())]) }

func (g *generator) add(kind string, at token.Pos, orig, mutated string, edits ...Edit) {
	key := g.fn + "\x00" + kind
	g.seen[key]++
	pos := g.tf.Position(at)
	g.out = append(g.out, &Mutation{
		ID:   fmt.Sprintf("%s:%s:%s:%d", strings.TrimPrefix(g.path, "reference/"), g.fn, kind, g.seen[key]),
		File: g.path, Func: g.fn, Kind: kind, Line: pos.Line, Col: pos.Column,
		Orig: orig, Mutated: mutated, Edits: edits,
	})
}

// replace adds a mutation replacing node n by text.
func (g *generator) replace(kind string, n ast.Node, text string) {
	g.add(kind, n.Pos(), g.text(n), text, Edit{g.off(n.Pos()), g.off(n.End()), text})
}

// walk visits n, generating mutations, and skips the subtrees that cannot
// change an answer: capacity hints (b.Grow(n), the capacity of make(T,
// len, cap)) and panic messages.
func (g *generator) walk(n ast.Node) {
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if isIdent(n.Fun, "make") && len(n.Args) == 3 {
				g.walk(n.Args[1]) // the length of make still counts
				return false
			}
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Grow" || isIdent(n.Fun, "panic") {
				return false
			}
			g.call(n)
		case *ast.BasicLit:
			g.intLit(n)
		case *ast.BinaryExpr:
			g.binary(n)
		case *ast.IfStmt:
			g.ifStmt(n)
		case *ast.SwitchStmt:
			g.switchStmt(n)
		case *ast.ExprStmt:
			g.sortStmt(n)
		case *ast.CompositeLit:
			if isErrorType(n.Type) {
				// An error's fields other than its code (offsets,
				// details) are not API: only the code is answered.
				for _, e := range n.Elts {
					if kv, ok := e.(*ast.KeyValueExpr); ok && isIdent(kv.Key, "Code") {
						g.walk(kv.Value)
					}
				}
				return false
			}
		case *ast.ReturnStmt:
			if failing(n) {
				// The other results of a failure are never read:
				// walk them skipping their top-level literals.
				for _, r := range n.Results[:len(n.Results)-1] {
					if _, lit := r.(*ast.BasicLit); !lit {
						g.walk(r)
					}
				}
				g.walk(n.Results[len(n.Results)-1])
				return false
			}
		}
		return true
	})
}

// isErrorType reports whether t names an error struct type: Error or
// XxxError, possibly qualified.
func isErrorType(t ast.Expr) bool { return strings.HasSuffix(exprName(t), "Error") }

// failing reports whether a return statement reports a failure in its last
// result: false, or an error that is not nil (an Err or err variable, a
// call of fail, errors.New or fmt.Errorf, or &XxxError{...}).
func failing(r *ast.ReturnStmt) bool {
	if len(r.Results) < 2 {
		return false
	}
	switch last := r.Results[len(r.Results)-1].(type) {
	case *ast.Ident:
		return last.Name == "false" || strings.HasPrefix(last.Name, "Err") || last.Name == "err"
	case *ast.CallExpr:
		name := exprName(last.Fun)
		return name == "fail" || name == "errors.New" || name == "fmt.Errorf"
	case *ast.UnaryExpr:
		lit, ok := last.X.(*ast.CompositeLit)
		return ok && last.Op == token.AND && isErrorType(lit.Type)
	}
	return false
}

func (g *generator) intLit(lit *ast.BasicLit) {
	if lit.Kind != token.INT {
		return
	}
	v, err := strconv.ParseInt(strings.ReplaceAll(lit.Value, "_", ""), 0, 64)
	if err != nil {
		return
	}
	format := func(v int64) string {
		switch {
		case v < 0:
			return fmt.Sprintf("(%d)", v)
		case strings.HasPrefix(lit.Value, "0x"), strings.HasPrefix(lit.Value, "0X"):
			return fmt.Sprintf("0x%X", v)
		}
		return strconv.FormatInt(v, 10)
	}
	g.replace(KindIntInc, lit, format(v+1))
	g.replace(KindIntDec, lit, format(v-1))
}

// charLit mutates a character literal that is a comparison boundary.
func (g *generator) charLit(e ast.Expr) {
	if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.CHAR {
		g.replace(KindCharInc, lit, "("+lit.Value+"+1)")
		g.replace(KindCharDec, lit, "("+lit.Value+"-1)")
	}
}

var swapOp = map[token.Token]struct {
	to   token.Token
	kind string
}{
	token.LSS:  {token.LEQ, KindLtLe},
	token.LEQ:  {token.LSS, KindLeLt},
	token.GTR:  {token.GEQ, KindGtGe},
	token.GEQ:  {token.GTR, KindGeGt},
	token.EQL:  {token.NEQ, KindEqNe},
	token.NEQ:  {token.EQL, KindNeEq},
	token.LAND: {token.LOR, KindAndOr},
	token.LOR:  {token.LAND, KindOrAnd},
}

func (g *generator) binary(b *ast.BinaryExpr) {
	s, ok := swapOp[b.Op]
	if !ok {
		return
	}
	if b.Op != token.LAND && b.Op != token.LOR {
		g.charLit(b.X)
		g.charLit(b.Y)
	}
	at := g.off(b.OpPos)
	edit := Edit{at, at + len(b.Op.String()), s.to.String()}
	g.add(s.kind, b.OpPos, g.text(b), g.text(b.X)+" "+s.to.String()+" "+g.text(b.Y), edit)
}

// exits reports whether a block leaves early: it ends in a return, break,
// continue, goto or panic.
func exits(body *ast.BlockStmt) bool {
	if len(body.List) == 0 {
		return false
	}
	switch s := body.List[len(body.List)-1].(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
		return true
	case *ast.ExprStmt:
		call, ok := s.X.(*ast.CallExpr)
		return ok && isIdent(call.Fun, "panic")
	}
	return false
}

// never returns the edit that makes condition e always false while keeping
// every variable in it used.
func (g *generator) never(e ast.Expr) (Edit, string) {
	text := "false && (" + g.text(e) + ")"
	return Edit{g.off(e.Pos()), g.off(e.End()), text}, text
}

func (g *generator) ifStmt(s *ast.IfStmt) {
	kind := KindDropGuard
	if surrogateRE.MatchString(g.text(s.Cond)) {
		kind = KindDropSurrogate
	} else if s.Else != nil || !exits(s.Body) {
		return
	}
	edit, text := g.never(s.Cond)
	g.add(kind, s.Pos(), "if "+g.text(s.Cond), "if "+text, edit)
}

func (g *generator) switchStmt(s *ast.SwitchStmt) {
	if s.Tag != nil {
		return
	}
	for _, c := range s.Body.List {
		cc := c.(*ast.CaseClause)
		if len(cc.List) == 0 {
			continue
		}
		var edits []Edit
		var heads, texts []string
		for _, e := range cc.List {
			edit, text := g.never(e)
			edits = append(edits, edit)
			heads = append(heads, g.text(e))
			texts = append(texts, text)
		}
		head, kind := strings.Join(heads, ", "), KindDropCase
		if surrogateRE.MatchString(head) { // no match spans the ", " between two
			kind = KindDropSurrogate
		}
		g.add(kind, cc.Pos(), "case "+head, "case "+strings.Join(texts, ", "), edits...)
	}
}

// exprName returns "pkg.Name" for a qualified name and "Name" otherwise,
// as a call's function or a composite literal's type names it.
func exprName(e ast.Expr) string {
	switch f := e.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		if x, ok := f.X.(*ast.Ident); ok {
			return x.Name + "." + f.Sel.Name
		}
		return f.Sel.Name
	}
	return ""
}

// call mutates how a call counts.
func (g *generator) call(call *ast.CallExpr) {
	name := exprName(call.Fun)
	switch {
	case name == "utf16.AppendRune" && len(call.Args) == 2:
		a, r := g.text(call.Args[0]), g.text(call.Args[1])
		g.replace(KindAppendUnit, call, "append("+a+", uint16("+r+"))")
	case (name == "cmp.Compare" || name == "strings.Compare") && len(call.Args) == 2:
		a, b := call.Args[0], call.Args[1]
		g.add(KindFlipSort, call.Pos(), g.text(call), name+"("+g.text(b)+", "+g.text(a)+")",
			Edit{g.off(a.Pos()), g.off(a.End()), g.text(b)}, Edit{g.off(b.Pos()), g.off(b.End()), g.text(a)})
	case name == "slices.Sorted" && len(call.Args) == 1:
		g.replace(KindDropSort, call, "slices.Collect("+g.text(call.Args[0])+")")
	}
	if len(call.Args) != 1 {
		return
	}
	arg := g.text(call.Args[0])
	short := name[strings.LastIndexByte(name, '.')+1:]
	switch {
	case name == "len":
		if g.isConst(call.Args[0]) {
			return // the length of a constant is the same in every unit
		}
		g.replace(KindBytesRunes, call, runeCounter+"("+arg+")")
		g.replace(KindBytesUnits, call, unitCounter+"("+arg+")")
	case name == "utf8.RuneCountInString":
		g.replace(KindRunesBytes, call, "len("+arg+")")
		g.replace(KindRunesUnits, call, unitCounter+"("+arg+")")
	case g.pkg.Helpers[short]:
		g.replace(KindUnitsBytes, call, "len("+arg+")")
		g.replace(KindUnitsRunes, call, runeCounter+"("+arg+")")
	case name == "utf16.RuneLen":
		g.replace(KindRuneWidthOne, call, "min(1, "+g.text(call)+")")
	}
}

func (g *generator) isConst(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BasicLit:
		return true
	case *ast.Ident:
		return g.pkg.Consts[e.Name]
	case *ast.SelectorExpr:
		// pkg.Const: an exported name of another package that is a
		// constant here too.
		_, ok := e.X.(*ast.Ident)
		return ok && g.pkg.Consts[e.Sel.Name]
	}
	return false
}

// sortFuncs are the calls that order a slice; each drop-sort mutant keeps
// the arguments evaluated so that nothing becomes unused.
var sortFuncs = map[string]bool{
	"slices.Sort": true, "slices.SortFunc": true, "slices.SortStableFunc": true,
	"sort.Slice": true, "sort.SliceStable": true, "sort.Sort": true, "sort.Stable": true,
	"sort.Strings": true, "sort.Ints": true,
}

// sortStmt mutates a statement that sorts.
func (g *generator) sortStmt(s *ast.ExprStmt) {
	call, ok := s.X.(*ast.CallExpr)
	if !ok || !sortFuncs[exprName(call.Fun)] {
		return
	}
	blanks := strings.TrimSuffix(strings.Repeat("_, ", len(call.Args)), ", ")
	var args []string
	for _, a := range call.Args {
		args = append(args, g.text(a))
	}
	g.replace(KindDropSort, call, blanks+" = "+strings.Join(args, ", "))
	if lit, ok := call.Args[len(call.Args)-1].(*ast.FuncLit); ok {
		var names []*ast.Ident
		for _, f := range lit.Type.Params.List {
			names = append(names, f.Names...)
		}
		if len(names) >= 2 {
			a, b := names[0], names[1]
			g.add(KindFlipSort, call.Pos(), g.text(lit.Type), "parameters "+a.Name+" and "+b.Name+" swapped",
				Edit{g.off(a.Pos()), g.off(a.End()), b.Name}, Edit{g.off(b.Pos()), g.off(b.End()), a.Name})
		}
	}
}
