package doccheck

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// What the module declares, for TestComments, which checks the names
// comments cite against it: every Go file of the module, read with
// go/parser. Generated files (a "Code generated ... DO NOT EDIT." line, the
// z*.go files internal/gen writes) are read for the names they declare but
// their comments are not checked: those come from the templates
// (*.tmpl.go), which are checked as any other file.

// A source is one Go file to index: its slash-separated path from the
// root (for messages), its package's directory and its text.
type source struct {
	path, dir string
	text      []byte
}

// A modPackage is what the module declares in one directory, its test
// files and templates included.
type modPackage struct {
	dir      string
	name     string
	internal bool            // under an internal/ directory
	top      map[string]bool // the names declared at the top level
	real     map[string]bool // those declared by files that are not templates
	local    map[string]bool // every name declared anywhere: top level, fields, methods, parameters, locals
}

// A modType is every type of one name in the module: its methods and
// fields, and the types it embeds or is defined as (whose members it may
// have too).
type modType struct {
	members map[string]bool
	bases   []string
}

// A modIndex is what the module declares, read by indexModule.
type modIndex struct {
	fset   *token.FileSet
	files  []*modFile
	pkgs   map[string]*modPackage   // by directory
	byName map[string][]*modPackage // by package name
	types  map[string]*modType      // by type name
	all    map[string]bool          // every name declared anywhere in the module
	std    map[string]bool          // the names of the standard library's packages and of those the module imports
}

// A modFile is a parsed file of the index.
type modFile struct {
	path      string
	generated bool
	test      bool
	template  bool
	preamble  *ast.CommentGroup // the C code of a file that imports "C"
	pkg       *modPackage
	ast       *ast.File
}

// readModule returns the Go files under dir, but those of testdata and
// hidden directories, and its web pages and scripts (.html, .js), whose
// functions comments may cite.
func readModule(dir string) ([]source, error) {
	var srcs []source
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != dir && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if ext := filepath.Ext(path); ext != ".go" && ext != ".html" && ext != ".js" {
			return nil
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		text, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		srcs = append(srcs, source{path: rel, dir: filepath.ToSlash(filepath.Dir(rel)), text: text})
		return nil
	})
	return srcs, err
}

// indexModule parses srcs and indexes what they declare.
func indexModule(srcs []source) (*modIndex, error) {
	ix := &modIndex{
		fset:   token.NewFileSet(),
		pkgs:   map[string]*modPackage{},
		byName: map[string][]*modPackage{},
		types:  map[string]*modType{},
		all:    map[string]bool{},
		std:    stdPackages(),
	}
	for _, s := range srcs {
		if !strings.HasSuffix(s.path, ".go") {
			for _, m := range jsFunc.FindAllSubmatch(s.text, -1) {
				ix.all[string(m[1])] = true
			}
			continue
		}
		f, err := parser.ParseFile(ix.fset, s.path, s.text, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		name := strings.TrimSuffix(f.Name.Name, "_test")
		p := ix.pkgs[s.dir]
		if p == nil {
			p = &modPackage{dir: s.dir, name: name, top: map[string]bool{}, real: map[string]bool{}, local: map[string]bool{},
				internal: s.dir == "internal" || strings.HasPrefix(s.dir, "internal/") || strings.Contains(s.dir, "/internal/")}
			ix.pkgs[s.dir] = p
			ix.byName[name] = append(ix.byName[name], p)
		}
		mf := &modFile{path: s.path, generated: ast.IsGenerated(f), test: strings.HasSuffix(s.path, "_test.go"),
			template: strings.HasSuffix(s.path, ".tmpl.go"), pkg: p, ast: f}
		ix.files = append(ix.files, mf)
		for _, imp := range f.Imports {
			path := strings.Trim(imp.Path.Value, `"`)
			ix.std[path[strings.LastIndex(path, "/")+1:]] = true
			if imp.Name != nil {
				ix.std[imp.Name.Name] = true
			}
		}
		ix.declare(mf)
	}
	return ix, nil
}

// stdPackages returns the names of the standard library's packages, from
// the directories of GOROOT/src.
func stdPackages() map[string]bool {
	std := map[string]bool{}
	src := filepath.Join(build.Default.GOROOT, "src")
	filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if d.Name() == "testdata" || d.Name() == "vendor" || d.Name() == "cmd" {
			return filepath.SkipDir
		}
		std[d.Name()] = true
		return nil
	})
	return std
}

// declare adds what mf declares to ix and its package: in a file that
// imports "C", the names of its C code too.
func (ix *modIndex) declare(mf *modFile) {
	p, f := mf.pkg, mf.ast
	local := func(id *ast.Ident) {
		if id != nil && id.Name != "_" {
			p.local[id.Name] = true
			ix.all[id.Name] = true
		}
	}
	top := func(id *ast.Ident) {
		local(id)
		if id != nil && id.Name != "_" && !p.top[id.Name] {
			p.top[id.Name] = true
		}
		if id != nil && !mf.template {
			p.real[id.Name] = true
		}
	}
	for _, imp := range f.Imports {
		if imp.Path.Value != `"C"` {
			continue
		}
		mf.preamble = imp.Doc
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT && len(g.Specs) == 1 && g.Specs[0] == imp && g.Doc != nil {
				mf.preamble = g.Doc
			}
		}
		if mf.preamble != nil {
			for _, w := range wordRun.FindAllString(mf.preamble.Text(), -1) {
				p.local[w] = true
				ix.all[w] = true
			}
		}
	}
	typ := func(name string) *modType {
		t := ix.types[name]
		if t == nil {
			t = &modType{members: map[string]bool{}}
			ix.types[name] = t
		}
		return t
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil && len(d.Recv.List) == 1 {
				if name := typeName(d.Recv.List[0].Type); name != "" {
					typ(name).members[d.Name.Name] = true
				}
				local(d.Name)
			} else {
				top(d.Name)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.ValueSpec:
					for _, n := range s.Names {
						top(n)
					}
				case *ast.TypeSpec:
					top(s.Name)
					t := typ(s.Name.Name)
					switch u := s.Type.(type) {
					case *ast.StructType:
						for _, fl := range u.Fields.List {
							if len(fl.Names) == 0 {
								t.bases = append(t.bases, typeName(fl.Type))
							}
							for _, n := range fl.Names {
								t.members[n.Name] = true
							}
						}
					case *ast.InterfaceType:
						for _, m := range u.Methods.List {
							if len(m.Names) == 0 {
								t.bases = append(t.bases, typeName(m.Type))
							}
							for _, n := range m.Names {
								t.members[n.Name] = true
							}
						}
					default:
						if b := typeName(u); b != "" {
							t.bases = append(t.bases, b)
						}
					}
				}
			}
		}
	}
	// Every other name declared in the file: fields, parameters, results,
	// locals, labels.
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			for _, id := range n.Names {
				local(id)
			}
		case *ast.ValueSpec:
			for _, id := range n.Names {
				local(id)
			}
		case *ast.TypeSpec:
			local(n.Name)
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, e := range n.Lhs {
					if id, ok := e.(*ast.Ident); ok {
						local(id)
					}
				}
			}
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if id, ok := e.(*ast.Ident); ok {
						local(id)
					}
				}
			}
		case *ast.LabeledStmt:
			local(n.Label)
		}
		return true
	})
}

// typeName returns the name of the type expression e names (T, *T, pkg.T,
// T[K]), or "".
func typeName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.StarExpr:
		return typeName(e.X)
	case *ast.SelectorExpr:
		return e.Sel.Name
	case *ast.IndexExpr:
		return typeName(e.X)
	case *ast.IndexListExpr:
		return typeName(e.X)
	case *ast.ParenExpr:
		return typeName(e.X)
	}
	return ""
}

// hasMember reports whether a type named typ, or one it embeds or is
// defined as, has a method or field named m.
func (ix *modIndex) hasMember(typ, m string, seen map[string]bool) bool {
	t := ix.types[typ]
	if t == nil || seen[typ] {
		return false
	}
	if t.members[m] {
		return true
	}
	seen[typ] = true
	for _, b := range t.bases {
		if ix.hasMember(b, m, seen) {
			return true
		}
	}
	return false
}

// members returns the members of a type named typ and of those it embeds.
func (ix *modIndex) members(typ string, into map[string]bool) {
	t := ix.types[typ]
	if t == nil || into[" "+typ] {
		return
	}
	into[" "+typ] = true
	for m := range t.members {
		into[m] = true
	}
	for _, b := range t.bases {
		ix.members(b, into)
	}
}
