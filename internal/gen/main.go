// Command gen writes the engine's instantiations from its one source, as
// the standard library's sort package writes zsortfunc.go and
// zsortinterface.go from gen_sort_variants.go.
//
// The engine (the position and its rules in internal/position's
// position.tmpl.go, the geometry of a board in geometry.tmpl.go, the
// search in solver/engine.tmpl.go) is written once, as ordinary Go for
// the 7x6 board with bitboards of one word. gen writes four variants of
// it, and a fifth of the search:
//
//   - 7x6, the source as written (Position, engine, ...), on a geometry
//     whose fields gen replaces by their values on 7x6 (evaluate.go), so
//     that its methods are constants the compiler folds;
//   - 49, the search of the boards of at most 49 bits (engine49) on the
//     positions of variant 64, its tables ttable.Table, whose entries
//     are of one word, as 7x6's;
//   - 64, for any board of at most 64 bits (Position64, engine64, ...),
//     the geometry a pointer to the dimensions and masks worked out once;
//   - 128, for any board of at most 128 bits (Position128, engine128,
//     ...), its bitboards position.Bits128: every operator on a bitboard
//     becomes Bits128's method (a & b is a.And(b), a << n is a.Shl(n), a
//     constant is a Bits128 literal), found by the types go/types gives
//     each expression;
//   - Packed, for the boards of at most 64 cells whose bitboards with a
//     sentinel bit a column take more than 64 bits (8x8, 9x7, 10x6): one
//     word without the sentinels (PositionPacked, enginePacked, ...), the
//     code under the constant packed taking their place.
//
// The names a template declares at the top level get the variant's
// suffix, and so do the names each job lists as varying (the geometry,
// the key type); the search's exported names are unexported in every
// variant (Engine is engine in 7x6's, engine64 in 64's), which
// solver.Solver reaches. Plain generics would do the same at run time, but
// their instantiations share code by GC shape and call the geometry's methods
// through a dictionary: the 7x6 path lost 5-11% of its instructions so
// (docs/performance.md).
//
// Run it with go generate ./... from the module's root (internal/position/doc.go
// holds the one directive); -check reports the files that differ instead
// of writing them, and fails if any does (CI runs it). gen imports
// internal/position, whose Geometry64 gives the values of 7x6's geometry:
// that package must build, from the files gen wrote last, for gen to run.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/importer"
	"go/parser"
	"go/printer"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/ast/astutil"
)

// variant is one instantiation of a template.
type variant struct {
	suffix string // appended to the names that vary: "", "64" or "128"
	wide   bool   // bitboards are position.Bits128
	// maskShifts: every shift of a bitboard by a count that is not a
	// constant is by less than 64 (the board has at most 64 bits), and
	// the count is written masked, count&63, so that the compiler leaves
	// out its guard for counts of 64 or more (three instructions a shift
	// in the hottest functions).
	maskShifts bool
	// position is the suffix of package position's names the variant uses, if
	// not its own: the search of boards of at most 49 bits (suffix 49)
	// plays on the positions of those of 64.
	position string
	// compact: the variant keeps its positions in a ttable.Table, as 7x6
	// does, not in the job's qualified names (ttable.Wide).
	compact bool
	// constant: the variant is the geometry of one board, 7x6, its
	// fields the constants NewGeometry gives them (see evaluate).
	constant bool
}

var (
	v7x6 = variant{suffix: "", compact: true}
	// the 7x6 board's geometry, its methods constants (see evaluate)
	vConst = variant{suffix: "", constant: true}
	v49    = variant{suffix: "49", maskShifts: true, position: "64", compact: true}
	v64    = variant{suffix: "64", maskShifts: true}
	v128   = variant{suffix: "128", wide: true}
	// Packed: the boards of at most 64 cells over 64 bits (8x8, 9x7,
	// 10x6), in one word without sentinel bits, keys of two words.
	vPacked = variant{suffix: "Packed", maskShifts: true}
)

// positionSuffix returns the suffix of package position's names in v.
func (v variant) positionSuffix() string {
	if v.position != "" {
		return v.position
	}
	return v.suffix
}

// job is the templates of one package and their variants.
type job struct {
	dir string // the package's directory, from the module root
	// templates are the templates' file names, type-checked together: a
	// variant of t.tmpl.go is written to "z" + t + suffix + ".go".
	templates []string
	variants  []variant // what to write
	// others are the package's files the templates are type-checked with
	// (nil: every non-test .go file of the package but the templates'
	// own outputs, so the position's template sees the geometries
	// generated before it).
	others []string
	// stub is more source type-checked with the templates: declarations
	// a variant's files make that the templates need.
	stub string
	// varying are names declared outside the templates that take the
	// suffix; pointer those of them that are pointers in the variants of
	// other boards (the geometry).
	varying, pointer []string
	// qualified maps pkg.Name, for other packages' names, to the name in
	// each variant but 7x6's (the same for both).
	qualified map[string]string
	// glue, if not nil, returns more source of the package, written to
	// glueOut and type-checked with the templates (in place of the file
	// there, which may be stale or broken): the variants' glue.
	glue    func() ([]byte, error)
	glueOut string
	// unexport: the variants unexport the names the templates export
	// (Engine is engine in 7x6's, engine64 in 64's): the package's one
	// door reaches them.
	unexport bool
}

// out returns the base of the names of the files a template's variants
// are written to: "search" for search.tmpl.go.
func out(template string) string { return strings.TrimSuffix(template, ".tmpl.go") }

var jobs = []job{
	{
		dir: "internal/position", templates: []string{"geometry.tmpl.go"},
		variants: []variant{vConst, v64, v128, vPacked},
		others:   []string{"bitboard.go", "names.go"},
		stub:     "package position\nconst geometryBits = 64\nconst packed = false\n",
		varying:  []string{"geometryBits", "packed"},
	},
	{
		dir: "internal/position", templates: []string{"position.tmpl.go"},
		variants: []variant{v7x6, v64, v128, vPacked},
		varying:  []string{"Geometry", "Key", "packed"},
		pointer:  []string{"Geometry"},
	},
	{
		dir:       "solver",
		templates: []string{"engine.tmpl.go", "search.tmpl.go", "worker.tmpl.go", "analysis.tmpl.go", "pv.tmpl.go"},
		variants:  solverVariants(),
		glue:      glue, glueOut: "zvariants.go",
		varying:   []string{"positionOfKey", "keyOfPosition", "maxWidth", "maxCells", "tableRef", "tablePut", "newTable", "keyHash", "keyWords", "tablePutWords", "growTable", "helpersSpread", "drawRule", "gallop"},
		qualified: map[string]string{
			"ttable.Table": "ttable.Wide",
			"ttable.Ref":   "ttable.WideRef",
		},
		unexport: true,
	},
}

// positionVarying are the names of package position that vary, for templates
// of other packages: position.Position is position.Position64 in variant 64.
var positionVarying = map[string]bool{"Position": true, "Geometry": true, "Key": true}

func main() {
	check := flag.Bool("check", false, "report the generated files that differ from their templates' output, and fail if any does, instead of writing them")
	root := flag.String("root", ".", "the module's root")
	flag.Parse()
	if err := run(*root, jobs, *check); err != nil {
		fmt.Fprintf(os.Stderr, "gen: %v\n", err)
		os.Exit(1)
	}
}

// errStale is run's error when -check found files that differ.
var errStale = errors.New("generated files differ from their templates: run go generate ./...")

// run generates the variants of every job's templates under root and
// writes those that differ from the files there; with check, it reports
// them on standard error instead, and fails (errStale) if any does. The
// jobs run in order, each on the files the ones before it wrote.
func run(root string, jobs []job, check bool) error {
	stale := 0
	for _, j := range jobs {
		outs, err := j.generate(root)
		if err != nil {
			return fmt.Errorf("%s/%s: %v", j.dir, strings.Join(j.templates, ", "), err)
		}
		for _, name := range sortedKeys(outs) {
			path := filepath.Join(root, j.dir, name)
			old, _ := os.ReadFile(path)
			if bytes.Equal(old, outs[name]) {
				continue
			}
			if check {
				fmt.Fprintf(os.Stderr, "gen: %s is not what %s generates: run go generate ./...\n", path, j.dir)
				stale++
				continue
			}
			if err := os.WriteFile(path, outs[name], 0o644); err != nil {
				return err
			}
		}
	}
	if stale > 0 {
		return errStale
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// generate returns the variants of j's templates, by file name.
func (j job) generate(root string) (map[string][]byte, error) {
	dir := filepath.Join(root, j.dir)
	outs := make(map[string][]byte)
	var glue []byte
	if j.glue != nil {
		src, err := j.glue()
		if err != nil {
			return nil, err
		}
		glue, outs[j.glueOut] = src, src
	}
	for _, v := range j.variants {
		// Each variant parses and checks the templates afresh: the
		// rewrites change their trees.
		fset := token.NewFileSet()
		files, info, pkg, err := j.load(fset, dir, glue)
		if err != nil {
			return nil, err
		}
		declared := make(map[string]bool)
		for _, f := range files {
			for name := range declaredNames(f) {
				declared[name] = true
			}
		}
		for i, file := range files {
			r := &rewriter{j: j, v: v, template: j.templates[i], fset: fset, info: info, pkg: pkg, declared: declared}
			if v.constant {
				if err := r.evaluate(root, file); err != nil {
					return nil, err
				}
			}
			if err := r.rewrite(file); err != nil {
				return nil, err
			}
			src, err := r.print(file)
			if err != nil {
				return nil, err
			}
			outs["z"+out(j.templates[i])+v.suffix+".go"] = src
		}
	}
	return outs, nil
}

// load parses j's templates and type-checks them with the package's other
// files (not those it writes) and the stub. It fails on an error of the
// check in a template: the rewrites need the types of its expressions.
// Errors in the other files are left out: they may name what only the
// generated files declare (the variants' glue in solver/variants.go).
func (j job) load(fset *token.FileSet, dir string, glue []byte) ([]*ast.File, *types.Info, *types.Package, error) {
	var files []*ast.File
	templates := make(map[*token.File]bool)
	for _, t := range j.templates {
		f, err := parser.ParseFile(fset, filepath.Join(dir, t), nil, parser.ParseComments)
		if err != nil {
			return nil, nil, nil, err
		}
		files = append(files, f)
		templates[fset.File(f.Pos())] = true
	}
	others := j.others
	if others == nil {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, nil, nil, err
		}
		for _, e := range entries {
			if n := e.Name(); strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") && !strings.HasSuffix(n, ".tmpl.go") && !j.writes(n) {
				others = append(others, n)
			}
		}
	}
	for _, n := range others {
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, 0)
		if err != nil {
			return nil, nil, nil, err
		}
		if isIgnored(f) {
			continue
		}
		files = append(files, f)
	}
	if j.stub != "" {
		f, err := parser.ParseFile(fset, "stub.go", j.stub, 0)
		if err != nil {
			return nil, nil, nil, err
		}
		files = append(files, f)
	}
	if glue != nil {
		f, err := parser.ParseFile(fset, filepath.Join(dir, j.glueOut), glue, 0)
		if err != nil {
			return nil, nil, nil, err
		}
		files = append(files, f)
	}
	info := &types.Info{
		Types:      make(map[ast.Expr]types.TypeAndValue),
		Defs:       make(map[*ast.Ident]types.Object),
		Uses:       make(map[*ast.Ident]types.Object),
		Selections: make(map[*ast.SelectorExpr]*types.Selection),
	}
	var errs []string
	conf := types.Config{
		Importer: importer.ForCompiler(fset, "source", nil),
		Error: func(err error) {
			if te, ok := err.(types.Error); ok && templates[te.Fset.File(te.Pos)] {
				errs = append(errs, err.Error())
			}
		},
	}
	pkg, _ := conf.Check(j.dir, fset, files, info)
	if len(errs) > 0 {
		return nil, nil, nil, fmt.Errorf("the templates do not type-check:\n%s", strings.Join(errs, "\n"))
	}
	return files[:len(j.templates)], info, pkg, nil
}

// writes reports whether name is one of the files j writes: "z", a
// template's out, a variant's suffix, ".go".
func (j job) writes(name string) bool {
	if j.glue != nil && name == j.glueOut {
		return true
	}
	for _, t := range j.templates {
		for _, v := range j.variants {
			if name == "z"+out(t)+v.suffix+".go" {
				return true
			}
		}
	}
	return false
}

// isIgnored reports whether f is built only with the ignore tag.
func isIgnored(f *ast.File) bool {
	for _, cg := range f.Comments {
		if cg.Pos() >= f.Package {
			break
		}
		for _, c := range cg.List {
			if strings.HasPrefix(c.Text, "//go:build") && strings.Contains(c.Text, "ignore") {
				return true
			}
		}
	}
	return false
}

// declaredNames returns the names f declares at the top level: functions
// (not methods), types, variables and constants.
func declaredNames(f *ast.File) map[string]bool {
	names := make(map[string]bool)
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				names[d.Name.Name] = true
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					names[s.Name.Name] = true
				case *ast.ValueSpec:
					for _, n := range s.Names {
						names[n.Name] = true
					}
				}
			}
		}
	}
	return names
}

// rewriter instantiates one variant of a template.
type rewriter struct {
	j        job
	v        variant
	template string // the file name of the template rewritten
	fset     *token.FileSet
	info     *types.Info
	pkg      *types.Package
	declared map[string]bool
	err      error
	// tail is source written after the file's (evaluate's tables).
	tail string
	// operands holds the types of the operands of the expressions the
	// wide variant rewrites, taken before the operands are rewritten.
	operands map[ast.Node][2]types.TypeAndValue
}

func (r *rewriter) fail(n ast.Node, format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%v: %s", r.fset.Position(n.Pos()), fmt.Sprintf(format, args...))
	}
}

// isBitboard reports whether t is package position's Bitboard.
func isBitboard(t types.Type) bool {
	n, ok := t.(*types.Named)
	if !ok {
		return false
	}
	o := n.Obj()
	return o.Name() == "Bitboard" && o.Pkg() != nil && o.Pkg().Name() == "position"
}

// positionQual is how the variant's code names package position's identifiers:
// "" inside it, "position." elsewhere.
func (r *rewriter) positionQual() string {
	if r.j.dir == "internal/position" {
		return ""
	}
	return "position."
}

func (r *rewriter) rewrite(f *ast.File) error {
	r.operands = make(map[ast.Node][2]types.TypeAndValue)
	astutil.Apply(f, r.pre, r.post)
	return r.err
}

func (r *rewriter) pre(c *astutil.Cursor) bool {
	switch n := c.Node().(type) {
	case *ast.BinaryExpr:
		r.operands[n] = [2]types.TypeAndValue{r.info.Types[n.X], r.info.Types[n.Y]}
	case *ast.UnaryExpr:
		r.operands[n] = [2]types.TypeAndValue{r.info.Types[n.X]}
	case *ast.AssignStmt:
		if len(n.Lhs) == 1 {
			r.operands[n] = [2]types.TypeAndValue{r.info.Types[n.Lhs[0]], r.info.Types[n.Rhs[0]]}
		}
	case *ast.CallExpr:
		if len(n.Args) == 1 {
			r.operands[n] = [2]types.TypeAndValue{r.info.Types[n.Fun], r.info.Types[n.Args[0]]}
		}
	}
	return true
}

func (r *rewriter) post(c *astutil.Cursor) bool {
	n := c.Node()
	if id, ok := n.(*ast.Ident); ok {
		r.rename(c, id)
		return true
	}
	if sel, ok := n.(*ast.SelectorExpr); ok {
		r.renameQualified(c, sel)
		return true
	}
	if r.v.maskShifts {
		r.mask(n)
	}
	if !r.v.wide {
		return true
	}
	if e, ok := n.(ast.Expr); ok {
		if tv := r.info.Types[e]; tv.Value != nil && isBitboard(tv.Type) {
			c.Replace(r.literal(e, tv))
			return true
		}
	}
	switch n := n.(type) {
	case *ast.ParenExpr:
		if _, ok := n.X.(*ast.CallExpr); ok {
			c.Replace(n.X)
		}
	case *ast.BinaryExpr:
		r.binary(c, n)
	case *ast.UnaryExpr:
		ops := r.operands[n]
		if !isBitboard(ops[0].Type) {
			break
		}
		switch n.Op {
		case token.SUB:
			c.Replace(method(n, n.X, "Neg"))
		case token.XOR:
			c.Replace(method(n, n.X, "Not"))
		default:
			r.fail(n, "operator %v on a bitboard", n.Op)
		}
	case *ast.AssignStmt:
		ops, ok := r.operands[n]
		if !ok || !isBitboard(ops[0].Type) || n.Tok == token.ASSIGN || n.Tok == token.DEFINE {
			break
		}
		name, ok := assignMethods[n.Tok]
		if !ok {
			r.fail(n, "assignment %v to a bitboard", n.Tok)
			break
		}
		arg := unparen(n.Rhs[0])
		if n.Tok == token.SHL_ASSIGN || n.Tok == token.SHR_ASSIGN {
			arg = shiftCount(n.Rhs[0], ops[1])
		}
		n.Rhs[0] = method(n, n.Lhs[0], name, arg)
		n.Tok = token.ASSIGN
	case *ast.CallExpr:
		// A conversion to Bitboard of an integer: the low word.
		ops, ok := r.operands[n]
		if ok && ops[0].IsType() && isBitboard(ops[0].Type) && !isBitboard(ops[1].Type) {
			c.Replace(r.of128(&ast.CallExpr{Fun: &ast.Ident{NamePos: n.Pos(), Name: "uint64"}, Lparen: n.Pos(), Args: n.Args, Rparen: n.End() - 1}, n))
		}
	}
	return true
}

// mask writes the count of a shift of a bitboard by a count that is not a
// constant as count&63 (variant.maskShifts).
func (r *rewriter) mask(n ast.Node) {
	var count *ast.Expr
	var tv types.TypeAndValue
	switch n := n.(type) {
	case *ast.BinaryExpr:
		if n.Op != token.SHL && n.Op != token.SHR {
			return
		}
		ops := r.operands[n]
		count, tv = &n.Y, ops[1]
		if !isBitboard(ops[0].Type) {
			return
		}
	case *ast.AssignStmt:
		if n.Tok != token.SHL_ASSIGN && n.Tok != token.SHR_ASSIGN {
			return
		}
		ops := r.operands[n]
		count, tv = &n.Rhs[0], ops[1]
		if !isBitboard(ops[0].Type) {
			return
		}
	default:
		return
	}
	if tv.Value != nil {
		return // a constant: no guard
	}
	*count = &ast.ParenExpr{Lparen: (*count).Pos(), X: &ast.BinaryExpr{X: paren(*count), OpPos: (*count).End(), Op: token.AND, Y: &ast.BasicLit{ValuePos: (*count).End(), Kind: token.INT, Value: "63"}}, Rparen: (*count).End()}
}

var binaryMethods = map[token.Token]string{
	token.AND: "And", token.OR: "Or", token.XOR: "Xor", token.AND_NOT: "AndNot",
	token.ADD: "Add", token.SUB: "Sub", token.SHL: "Shl", token.SHR: "Shr",
}

var assignMethods = map[token.Token]string{
	token.AND_ASSIGN: "And", token.OR_ASSIGN: "Or", token.XOR_ASSIGN: "Xor", token.AND_NOT_ASSIGN: "AndNot",
	token.ADD_ASSIGN: "Add", token.SUB_ASSIGN: "Sub", token.SHL_ASSIGN: "Shl", token.SHR_ASSIGN: "Shr",
}

// binary rewrites an operator on bitboards as a method of Bits128.
func (r *rewriter) binary(c *astutil.Cursor, n *ast.BinaryExpr) {
	ops := r.operands[n]
	if !isBitboard(ops[0].Type) && !isBitboard(ops[1].Type) {
		return
	}
	switch n.Op {
	case token.EQL, token.NEQ:
		// Against the constant 0, IsZero; else Bits128 is comparable.
		var e ast.Expr
		switch {
		case isZero(ops[1]):
			e = method(n, n.X, "IsZero")
		case isZero(ops[0]):
			e = method(n, n.Y, "IsZero")
		default:
			return
		}
		if n.Op == token.NEQ {
			e = &ast.UnaryExpr{OpPos: n.Pos(), Op: token.NOT, X: e}
		}
		c.Replace(e)
	case token.LSS:
		c.Replace(method(n, n.X, "Less", n.Y))
	case token.GTR:
		c.Replace(method(n, n.Y, "Less", n.X))
	case token.LEQ:
		c.Replace(&ast.UnaryExpr{OpPos: n.Pos(), Op: token.NOT, X: method(n, n.Y, "Less", n.X)})
	case token.GEQ:
		c.Replace(&ast.UnaryExpr{OpPos: n.Pos(), Op: token.NOT, X: method(n, n.X, "Less", n.Y)})
	case token.SHL, token.SHR:
		c.Replace(method(n, n.X, binaryMethods[n.Op], shiftCount(n.Y, ops[1])))
	default:
		name, ok := binaryMethods[n.Op]
		if !ok {
			r.fail(n, "operator %v on bitboards", n.Op)
			return
		}
		c.Replace(method(n, n.X, name, unparen(n.Y)))
	}
}

// isZero reports whether tv is the constant 0.
func isZero(tv types.TypeAndValue) bool { return tv.Value != nil && tv.Value.ExactString() == "0" }

// literal returns the Bits128 of the constant expression e: Of128(v),
// placed where e was, so that the comments around it stay there.
func (r *rewriter) literal(e ast.Expr, tv types.TypeAndValue) ast.Expr {
	s := tv.Value.ExactString()
	if strings.HasPrefix(s, "-") || len(s) > 20 {
		r.fail(e, "bitboard constant %s is not a word", s)
	}
	return r.of128(&ast.BasicLit{ValuePos: e.Pos(), Kind: token.INT, Value: s}, e)
}

// of128 returns Of128(lo), placed at at.
func (r *rewriter) of128(lo ast.Expr, at ast.Node) ast.Expr {
	var fun ast.Expr = &ast.Ident{NamePos: at.Pos(), Name: "Of128"}
	if r.positionQual() != "" {
		fun = &ast.SelectorExpr{X: &ast.Ident{NamePos: at.Pos(), Name: "position"}, Sel: &ast.Ident{NamePos: at.Pos(), Name: "Of128"}}
	}
	return &ast.CallExpr{Fun: fun, Lparen: at.Pos(), Args: []ast.Expr{lo}, Rparen: at.End() - 1}
}

// method returns x.name(args...), placed where at was.
func method(at ast.Node, x ast.Expr, name string, args ...ast.Expr) ast.Expr {
	return &ast.CallExpr{
		Fun:    &ast.SelectorExpr{X: paren(x), Sel: &ast.Ident{NamePos: x.End(), Name: name}},
		Lparen: x.End(), Args: args, Rparen: at.End() - 1,
	}
}

// paren wraps x in parentheses where a selector on it needs them.
func paren(x ast.Expr) ast.Expr {
	switch x.(type) {
	case *ast.Ident, *ast.SelectorExpr, *ast.CallExpr, *ast.ParenExpr, *ast.IndexExpr, *ast.CompositeLit:
		return x
	}
	return &ast.ParenExpr{Lparen: x.Pos(), X: x, Rparen: x.End()}
}

// unparen returns x without its parentheses.
func unparen(x ast.Expr) ast.Expr {
	for {
		p, ok := x.(*ast.ParenExpr)
		if !ok {
			return x
		}
		x = p.X
	}
}

// shiftCount returns the count of a shift as Bits128's methods take it,
// a uint: y itself where it is one.
func shiftCount(y ast.Expr, tv types.TypeAndValue) ast.Expr {
	if b, ok := tv.Type.(*types.Basic); ok && b.Kind() == types.Uint && tv.Value == nil {
		return unparen(y)
	}
	return &ast.CallExpr{Fun: &ast.Ident{NamePos: y.Pos(), Name: "uint"}, Lparen: y.Pos(), Args: []ast.Expr{unparen(y)}, Rparen: y.End() - 1}
}

// rename gives an identifier of the template its variant's name.
func (r *rewriter) rename(c *astutil.Cursor, id *ast.Ident) {
	obj := r.info.Defs[id]
	if obj == nil {
		obj = r.info.Uses[id]
	}
	if obj == nil || obj.Pkg() != r.pkg || obj.Parent() != r.pkg.Scope() {
		return // not a package-level name of this package
	}
	name := id.Name
	switch {
	case r.declared[name] || contains(r.j.varying, name):
	case r.j.dir == "internal/position" && name == "Bitboard":
		if r.v.wide {
			id.Name = "Bits128"
		}
		return
	default:
		return
	}
	if r.v.suffix == "" && !r.unexported(name) {
		return
	}
	id.Name = r.variantName(name)
	if contains(r.j.pointer, name) && r.isTypeUse(c) {
		c.Replace(&ast.StarExpr{X: id})
	}
}

// isTypeUse reports whether the cursor's identifier names a type: not a
// declaration's name, nor the receiver of a selector or composite literal
// whose type it is.
func (r *rewriter) isTypeUse(c *astutil.Cursor) bool {
	switch c.Parent().(type) {
	case *ast.TypeSpec:
		return c.Name() != "Name"
	case *ast.CompositeLit, *ast.SelectorExpr, *ast.StarExpr:
		return false
	case *ast.CallExpr:
		return c.Name() != "Fun"
	}
	return true
}

// renameQualified gives pkg.Name of another package its variant's name.
func (r *rewriter) renameQualified(c *astutil.Cursor, sel *ast.SelectorExpr) {
	pkgID, ok := sel.X.(*ast.Ident)
	if !ok || r.v.suffix == "" {
		return
	}
	if _, isPkg := r.info.Uses[pkgID].(*types.PkgName); !isPkg {
		return
	}
	full := pkgID.Name + "." + sel.Sel.Name
	if to, ok := r.j.qualified[full]; ok && !r.v.compact {
		pkgName, name, _ := strings.Cut(to, ".")
		pkgID.Name, sel.Sel.Name = pkgName, name
		return
	}
	if pkgID.Name != "position" {
		return
	}
	switch name := sel.Sel.Name; {
	case name == "Bitboard":
		if r.v.wide {
			sel.Sel.Name = "Bits128"
		}
	case positionVarying[name]:
		sel.Sel.Name = name + r.v.positionSuffix()
		if name == "Geometry" && r.isTypeUse(c) {
			c.Replace(&ast.StarExpr{X: sel})
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// print writes the variant's file: a header, the template without its
// build constraint and its leading comment, gofmt'ed.
// variantName returns the name of the variant's instance of name, which
// the template declares or the job lists as varying.
func (r *rewriter) variantName(name string) string {
	if r.unexported(name) {
		name = strings.ToLower(name[:1]) + name[1:]
	}
	return name + r.v.suffix
}

// unexported reports whether the variants unexport name: an exported
// name the template declares, in a job that unexports them.
func (r *rewriter) unexported(name string) bool {
	return r.j.unexport && r.declared[name] && ast.IsExported(name)
}

// renameDocs makes the doc comment of each top-level declaration the
// variant renamed name its new name where its first word is the old one:
// "// Position is ..." over type Position64 becomes "// Position64 is ...".
func (r *rewriter) renameDocs(f *ast.File) {
	name := func(doc *ast.CommentGroup, id *ast.Ident) {
		if doc == nil || !strings.HasSuffix(id.Name, r.v.suffix) {
			return
		}
		c := doc.List[0]
		old := strings.TrimSuffix(id.Name, r.v.suffix)
		if up := strings.ToUpper(old[:1]) + old[1:]; r.unexported(up) {
			old = up
		}
		if old == id.Name {
			return
		}
		if prefix := "// " + old + " "; strings.HasPrefix(c.Text, prefix) {
			c.Text = "// " + id.Name + " " + strings.TrimPrefix(c.Text, prefix)
		}
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				name(d.Doc, d.Name)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					doc := s.Doc
					if doc == nil && len(d.Specs) == 1 {
						doc = d.Doc
					}
					name(doc, s.Name)
				case *ast.ValueSpec:
					doc := s.Doc
					if doc == nil && len(d.Specs) == 1 {
						doc = d.Doc
					}
					name(doc, s.Names[0])
				}
			}
		}
	}
}

func (r *rewriter) print(f *ast.File) ([]byte, error) {
	// Drop the comments before the package clause (the build constraint
	// and the template's note): the header replaces them.
	var kept []*ast.CommentGroup
	for _, cg := range f.Comments {
		if cg.Pos() > f.Package {
			kept = append(kept, cg)
		}
	}
	f.Comments, f.Doc = kept, nil
	r.renameDocs(f)
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "// Code generated by internal/gen from %s; DO NOT EDIT.\n\n", r.template)
	if err := (&printer.Config{Mode: printer.UseSpaces | printer.TabIndent, Tabwidth: 8}).Fprint(&buf, r.fset, f); err != nil {
		return nil, err
	}
	buf.WriteString(r.tail)
	src, err := format.Source(buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("formatting the %s variant: %v\n%s", r.v.suffix, err, buf.Bytes())
	}
	return src, nil
}
