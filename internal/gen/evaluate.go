package main

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"strings"

	"golang.org/x/tools/go/ast/astutil"

	"c4solve/internal/position"
)

// handWritten7x6 are the geometry's methods whose 7x6 instances are
// written by hand (internal/position/keys.go): mirror, unrolled with
// constant shifts, where the template's loops over its pairs of columns.
var handWritten7x6 = []string{"mirror"}

// doc7x6 is the doc comment of the 7x6 board's Geometry.
const doc7x6 = `// Geometry is the 7x6 board's geometry: its methods return constants, so
// that the engine written once for every board (position.tmpl.go, with
// Geometry64 and Geometry128 for the others) compiles for 7x6 as if it had
// been written for it. It has no state: the zero value is the board, safe
// for concurrent use.`

// evaluate makes the template's geometry the 7x6 board's, by partial
// evaluation: Geometry has no fields, its methods a value receiver, and
// each read of a field is the value NewGeometry64 gives it on 7x6 (worked
// out here, by the engine's own constructor): a constant, or for an array
// a package-level variable, geometry and the field's name. NewGeometry
// and the methods of handWritten7x6 are left out.
func (r *rewriter) evaluate(f *ast.File) error {
	g, err := position.NewGeometry64(position.Width, position.Height)
	if err != nil {
		return err
	}
	values := reflect.ValueOf(g).Elem()
	var dropped [][2]token.Pos // the spans whose comments go too
	var decls []ast.Decl
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.Name == "NewGeometry" || d.Recv != nil && contains(handWritten7x6, d.Name.Name) {
				dropped = append(dropped, [2]token.Pos{d.Pos(), d.End()})
				if d.Doc != nil {
					dropped = append(dropped, [2]token.Pos{d.Doc.Pos(), d.Doc.End()})
				}
				continue
			}
			if star, ok := d.Recv.List[0].Type.(*ast.StarExpr); ok {
				d.Recv.List[0].Type = star.X
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				if ts, ok := spec.(*ast.TypeSpec); ok && ts.Name.Name == "Geometry" {
					st := ts.Type.(*ast.StructType)
					dropped = append(dropped, [2]token.Pos{st.Fields.Opening + 1, st.Fields.Closing})
					st.Fields.List, st.Fields.Closing = nil, st.Fields.Opening+1
					d.Doc.List = []*ast.Comment{{Slash: d.Doc.Pos(), Text: doc7x6}}
				}
			}
		}
		decls = append(decls, d)
	}
	f.Decls = decls
	var kept []*ast.CommentGroup
	for _, cg := range f.Comments {
		in := false
		for _, span := range dropped {
			in = in || cg.Pos() >= span[0] && cg.End() <= span[1]
		}
		if !in {
			kept = append(kept, cg)
		}
	}
	f.Comments = kept

	arrays := map[string]reflect.Value{}
	astutil.Apply(f, nil, func(c *astutil.Cursor) bool {
		sel, ok := c.Node().(*ast.SelectorExpr)
		if !ok {
			return true
		}
		s := r.info.Selections[sel]
		if s == nil || s.Kind() != types.FieldVal {
			return true
		}
		v := values.FieldByName(sel.Sel.Name)
		switch v.Kind() {
		case reflect.Array:
			name := "geometry" + strings.ToUpper(sel.Sel.Name[:1]) + sel.Sel.Name[1:]
			arrays[name] = v
			c.Replace(&ast.Ident{NamePos: sel.Pos(), Name: name})
		case reflect.Int:
			c.Replace(&ast.BasicLit{ValuePos: sel.Pos(), Kind: token.INT, Value: fmt.Sprint(v.Int())})
		case reflect.Uint, reflect.Uint64:
			typ := types.TypeString(s.Type(), types.RelativeTo(r.pkg))
			c.Replace(&ast.CallExpr{Fun: &ast.Ident{NamePos: sel.Pos(), Name: typ}, Lparen: sel.Pos(),
				Args: []ast.Expr{&ast.BasicLit{ValuePos: sel.Pos(), Kind: token.INT, Value: literal(v)}}, Rparen: sel.End() - 1})
		default:
			r.fail(sel, "field %s of kind %v", sel.Sel.Name, v.Kind())
		}
		return true
	})
	r.arrays(f, arrays)
	return nil
}

// arrays writes the package-level variables of the array fields evaluate
// read, named as evaluate names them, their trailing zeros left out, as
// the source that follows the file (rewriter.tail); and drops the imports
// nothing uses any more.
func (r *rewriter) arrays(f *ast.File, arrays map[string]reflect.Value) {
	var src strings.Builder
	src.WriteString("\n// The tables of the 7x6 board's geometry, as NewGeometry64 works them out.\nvar (\n")
	for _, name := range sortedKeys(arrays) {
		v := arrays[name]
		n := v.Len()
		for n > 0 && v.Index(n-1).IsZero() {
			n--
		}
		elems := make([]string, n)
		for i := range n {
			elems[i] = literal(v.Index(i))
		}
		typ := strings.ReplaceAll(v.Type().String(), "position.", "")
		fmt.Fprintf(&src, "\t%s = %s{%s}\n", name, typ, strings.Join(elems, ", "))
	}
	src.WriteString(")\n")
	r.tail = src.String()
	for _, imp := range f.Imports {
		if path := strings.Trim(imp.Path.Value, `"`); !astutil.UsesImport(f, path) {
			astutil.DeleteImport(r.fset, f, path) // NewGeometry's
		}
	}
}

// literal writes an integer field's value: in hex for a bitboard.
func literal(v reflect.Value) string {
	switch {
	case v.Type().Name() == "Bitboard":
		return fmt.Sprintf("%#x", v.Uint())
	case v.CanInt():
		return fmt.Sprint(v.Int())
	}
	return fmt.Sprint(v.Uint())
}
