package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/printer"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ast/astutil"
)

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
		// A constant bitboard: Of128(v), placed where e was, so that the
		// comments around it stay there.
		if tv := r.info.Types[e]; tv.Value != nil && isBitboard(tv.Type) {
			s := tv.Value.ExactString()
			if strings.HasPrefix(s, "-") || len(s) > 20 {
				r.fail(e, "bitboard constant %s is not a word", s)
			}
			c.Replace(r.of128(&ast.BasicLit{ValuePos: e.Pos(), Kind: token.INT, Value: s}, e))
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
		op, ops := assignOp(n.Tok), r.operands[n]
		if op == token.ILLEGAL || !isBitboard(ops[0].Type) {
			break
		}
		name, ok := binaryMethods[op]
		if !ok {
			r.fail(n, "assignment %v to a bitboard", n.Tok)
			break
		}
		n.Rhs[0] = method(n, n.Lhs[0], name, argument(op, n.Rhs[0], ops[1]))
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
// constant (which needs no guard) as count&63 (variant.maskShifts).
func (r *rewriter) mask(n ast.Node) {
	var count *ast.Expr
	op := token.ILLEGAL
	switch n := n.(type) {
	case *ast.BinaryExpr:
		op, count = n.Op, &n.Y
	case *ast.AssignStmt:
		op, count = assignOp(n.Tok), &n.Rhs[0]
	}
	ops := r.operands[n]
	if op != token.SHL && op != token.SHR || !isBitboard(ops[0].Type) || ops[1].Value != nil {
		return
	}
	*count = &ast.ParenExpr{Lparen: (*count).Pos(), X: &ast.BinaryExpr{X: paren(*count), OpPos: (*count).End(), Op: token.AND, Y: &ast.BasicLit{ValuePos: (*count).End(), Kind: token.INT, Value: "63"}}, Rparen: (*count).End()}
}

var binaryMethods = map[token.Token]string{
	token.AND: "And", token.OR: "Or", token.XOR: "Xor", token.AND_NOT: "AndNot",
	token.ADD: "Add", token.SUB: "Sub", token.SHL: "Shl", token.SHR: "Shr",
}

// assignOp returns the operator of the assignment tok (ADD of ADD_ASSIGN,
// whose constants token declares in the same order), or ILLEGAL.
func assignOp(tok token.Token) token.Token {
	if token.ADD_ASSIGN <= tok && tok <= token.AND_NOT_ASSIGN {
		return tok - token.ADD_ASSIGN + token.ADD
	}
	return token.ILLEGAL
}

// binary rewrites an operator on bitboards as a method of Bits128.
func (r *rewriter) binary(c *astutil.Cursor, n *ast.BinaryExpr) {
	ops := r.operands[n]
	if !isBitboard(ops[0].Type) && !isBitboard(ops[1].Type) {
		return
	}
	var e ast.Expr
	switch n.Op {
	case token.EQL, token.NEQ:
		// Against the constant 0, IsZero; else Bits128 is comparable.
		switch {
		case isZero(ops[1]):
			e = method(n, n.X, "IsZero")
		case isZero(ops[0]):
			e = method(n, n.Y, "IsZero")
		default:
			return
		}
	case token.LSS, token.GEQ:
		e = method(n, n.X, "Less", n.Y)
	case token.GTR, token.LEQ:
		e = method(n, n.Y, "Less", n.X)
	default:
		name, ok := binaryMethods[n.Op]
		if !ok {
			r.fail(n, "operator %v on bitboards", n.Op)
			return
		}
		e = method(n, n.X, name, argument(n.Op, n.Y, ops[1]))
	}
	if n.Op == token.NEQ || n.Op == token.LEQ || n.Op == token.GEQ {
		e = &ast.UnaryExpr{OpPos: n.Pos(), Op: token.NOT, X: e}
	}
	c.Replace(e)
}

// isZero reports whether tv is the constant 0.
func isZero(tv types.TypeAndValue) bool { return tv.Value != nil && tv.Value.ExactString() == "0" }

// of128 returns Of128(lo), placed at at.
func (r *rewriter) of128(lo ast.Expr, at ast.Node) ast.Expr {
	var fun ast.Expr = &ast.Ident{NamePos: at.Pos(), Name: "Of128"}
	if r.j.dir != "internal/position" { // elsewhere, position.Of128
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

// argument returns y, the right operand of op on a bitboard, as Bits128's
// method takes it: the count of a shift a uint, y itself where it is one.
func argument(op token.Token, y ast.Expr, tv types.TypeAndValue) ast.Expr {
	if b, ok := tv.Type.(*types.Basic); op != token.SHL && op != token.SHR || ok && b.Kind() == types.Uint && tv.Value == nil {
		return ast.Unparen(y)
	}
	return &ast.CallExpr{Fun: &ast.Ident{NamePos: y.Pos(), Name: "uint"}, Lparen: y.Pos(), Args: []ast.Expr{ast.Unparen(y)}, Rparen: y.End() - 1}
}

// rename gives an identifier of the template its variant's name.
func (r *rewriter) rename(c *astutil.Cursor, id *ast.Ident) {
	obj := r.info.ObjectOf(id)
	if obj == nil || obj.Pkg() != r.pkg || obj.Parent() != r.pkg.Scope() {
		return // not a package-level name of this package
	}
	name := id.Name
	switch {
	case r.declared[name] || slices.Contains(r.j.varying, name):
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
	if r.unexported(name) {
		id.Name = strings.ToLower(name[:1]) + name[1:]
	}
	id.Name += r.v.suffix
	if slices.Contains(r.j.pointer, name) && r.isTypeUse(c) {
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

// unexported reports whether the variants unexport name: an exported
// name the template declares, in a job that unexports them.
func (r *rewriter) unexported(name string) bool {
	return r.j.unexport && r.declared[name] && ast.IsExported(name)
}

// renameDocs makes the doc comment of each top-level declaration the
// variant renamed name its new name where its first word is the old one:
// "// Position is ..." over type Position64 becomes "// Position64 is ...".
func (r *rewriter) renameDocs(f *ast.File) {
	for id, doc := range topLevel(f) {
		if doc == nil || !strings.HasSuffix(id.Name, r.v.suffix) {
			continue
		}
		old := strings.TrimSuffix(id.Name, r.v.suffix)
		if up := strings.ToUpper(old[:1]) + old[1:]; r.unexported(up) {
			old = up
		}
		if c, prefix := doc.List[0], "// "+old+" "; old != id.Name && strings.HasPrefix(c.Text, prefix) {
			c.Text = "// " + id.Name + " " + strings.TrimPrefix(c.Text, prefix)
		}
	}
}

// print writes the variant's file: a header, the template without its
// build constraint and its leading comment, gofmt'ed.
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
