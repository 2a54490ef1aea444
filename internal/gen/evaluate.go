package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/tools/go/ast/astutil"
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
// out by the engine's own constructor: see geometryValues): a constant,
// or for an array a package-level variable, geometry and the field's
// name. NewGeometry and the methods of handWritten7x6 are left out.
func (r *rewriter) evaluate(root string, f *ast.File) error {
	values, err := geometryValues(root)
	if err != nil {
		return err
	}
	var dropped [][2]token.Pos // the spans whose comments go too
	var decls []ast.Decl
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.Name == "NewGeometry" || d.Recv != nil && slices.Contains(handWritten7x6, d.Name.Name) {
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

	arrays := map[string]field{}
	astutil.Apply(f, nil, func(c *astutil.Cursor) bool {
		sel, ok := c.Node().(*ast.SelectorExpr)
		if !ok {
			return true
		}
		s := r.info.Selections[sel]
		if s == nil || s.Kind() != types.FieldVal {
			return true
		}
		v := values[sel.Sel.Name]
		switch v.Kind {
		case "array":
			name := "geometry" + strings.ToUpper(sel.Sel.Name[:1]) + sel.Sel.Name[1:]
			arrays[name] = v
			c.Replace(&ast.Ident{NamePos: sel.Pos(), Name: name})
		case "int":
			c.Replace(&ast.BasicLit{ValuePos: sel.Pos(), Kind: token.INT, Value: v.Value})
		case "uint":
			typ := types.TypeString(s.Type(), types.RelativeTo(r.pkg))
			c.Replace(&ast.CallExpr{Fun: &ast.Ident{NamePos: sel.Pos(), Name: typ}, Lparen: sel.Pos(),
				Args: []ast.Expr{&ast.BasicLit{ValuePos: sel.Pos(), Kind: token.INT, Value: v.Value}}, Rparen: sel.End() - 1})
		default:
			r.fail(sel, "field %s of kind %q", sel.Sel.Name, v.Kind)
		}
		return true
	})
	// The arrays' variables, their trailing zeros left out, follow the
	// file's source.
	var src strings.Builder
	src.WriteString("\n// The tables of the 7x6 board's geometry, as NewGeometry64 works them out.\nvar (\n")
	for _, name := range slices.Sorted(maps.Keys(arrays)) {
		v := arrays[name]
		fmt.Fprintf(&src, "\t%s = %s{%s}\n", name, v.Type, strings.Join(v.Elems, ", "))
	}
	src.WriteString(")\n")
	r.tail = src.String()
	pruneImports(r.fset, f) // NewGeometry's
	return nil
}

// field is the value of a field of the 7x6 board's Geometry64, as Go
// source: Kind "int" or "uint" with its Value, or "array" with its Type
// and Elems, the elements but its trailing zeros.
type field struct {
	Kind, Value, Type string
	Elems             []string
}

// geometryValues returns the fields of the geometry NewGeometry64 makes of
// the 7x6 board, by name. gen does not import package position, so that it
// runs where that package's generated files are broken: it builds a program
// of the files the geometry's template is type-checked with, the 64-bit
// variant of the template it generates afresh and geometryMain, in a
// module of its own in a temporary directory, and reads what it prints.
func geometryValues(root string) (map[string]field, error) {
	g := jobs[0]
	if g.templates[0] != "geometry.tmpl.go" {
		return nil, fmt.Errorf("jobs[0] is not the geometry's")
	}
	g.variants = []variant{v64}
	outs, err := g.generate(root)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "c4solve-gen-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	files := map[string][]byte{"main.go": []byte(geometryMain), "stub.go": []byte("package main\n\nconst geometryBits64 = 64\nconst packed64 = false\n")}
	for name, src := range outs {
		files[name] = src
	}
	for _, name := range g.others {
		src, err := os.ReadFile(filepath.Join(root, g.dir, name))
		if err != nil {
			return nil, err
		}
		files[name] = src
	}
	goLine := "go 1.22"
	if mod, err := os.ReadFile(filepath.Join(root, "go.mod")); err == nil {
		if m := regexp.MustCompile(`(?m)^go [0-9.]+$`).Find(mod); m != nil {
			goLine = string(m)
		}
	}
	files["go.mod"] = []byte("module geometry\n\n" + goLine + "\n")
	pkgClause := regexp.MustCompile(`(?m)^package position$`)
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(tmp, name), pkgClause.ReplaceAll(src, []byte("package main")), 0o644); err != nil {
			return nil, err
		}
	}
	cmd := exec.Command("go", "run", ".")
	cmd.Dir = tmp
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("working out the 7x6 geometry: %v\n%s", err, stderr.Bytes())
	}
	var values map[string]field
	if err := json.Unmarshal(stdout, &values); err != nil {
		return nil, fmt.Errorf("working out the 7x6 geometry: %v", err)
	}
	return values, nil
}

// geometryMain is the program geometryValues runs: it prints the fields
// of NewGeometry64(Width, Height) as JSON, a field each, by name.
const geometryMain = `package main

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
)

type field struct {
	Kind, Value, Type string
	Elems             []string
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

func main() {
	g, err := NewGeometry64(Width, Height)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	v := reflect.ValueOf(g).Elem()
	out := make(map[string]field)
	for i := range v.NumField() {
		f, name := v.Field(i), v.Type().Field(i).Name
		switch f.Kind() {
		case reflect.Array:
			n := f.Len()
			for n > 0 && f.Index(n-1).IsZero() {
				n--
			}
			elems := make([]string, n)
			for i := range n {
				elems[i] = literal(f.Index(i))
			}
			out[name] = field{Kind: "array", Type: strings.ReplaceAll(f.Type().String(), "main.", ""), Elems: elems}
		case reflect.Int:
			out[name] = field{Kind: "int", Value: literal(f)}
		case reflect.Uint, reflect.Uint64:
			out[name] = field{Kind: "uint", Value: literal(f)}
		default:
			out[name] = field{Kind: f.Kind().String()}
		}
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
`
