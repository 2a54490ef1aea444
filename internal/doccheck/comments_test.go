package doccheck

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// The comment check reads every Go file of the module with go/parser and
// checks the names its comments cite against the names the module
// declares. Generated files (a "Code generated ... DO NOT EDIT." line, the
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
	fset     *token.FileSet
	files    []*modFile
	pkgs     map[string]*modPackage   // by directory
	byName   map[string][]*modPackage // by package name
	types    map[string]*modType      // by type name
	topLevel map[string][]string      // top-level name -> the directories declaring it
	all      map[string]bool          // every name declared anywhere in the module
	std      map[string]bool          // the names of the standard library's packages and of those the module imports
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

// A finding is a comment that cites something wrong.
type finding struct {
	path string // the file, slash-separated from the root
	line int
	name string // the name cited
	msg  string // what is wrong
}

func (f finding) String() string { return fmt.Sprintf("%s:%d: %s", f.path, f.line, f.msg) }

// pendingMoves are findings in files that other work of issue 60 is moving
// or rewriting right now (the engine's template, Solver's file, the
// variants' glue, the generator, the command's solve.go, sized.go and
// engine.go, the server's sized.go, review, board's Key, ttable's
// constructors): the path of the file and the name cited. It is
// temporary: each entry is fixed where its comment lands, and the list
// emptied, when that work is merged.
var pendingMoves = map[string][]string{
	// Position.ClaimevenBound, Position.ClaimevenReplyBound,
	// Position.OddThreatBound (methods, not functions of position);
	// Engine.startHelpers, Engine.analyze (the engine's, not Solver's);
	// ttable.Table.NewSearch.
	"solver/engine.tmpl.go": {"position.ClaimevenBound", "position.ClaimevenReplyBound", "position.OddThreatBound",
		"Solver.startHelpers", "Solver.analyze", "ttable.NewSearch"},
	// Exported docs: name the boards each engine takes, not the engines.
	"solver/sized.go": {"engine49", "engine64", "enginePacked", "engine128", "position.Packs"},
	// "32 MiB" for growStartMiB.
	"ttable/ttable.go": {"growStartMiB"},
	// engine64 (or Position64) for solver64.
	"internal/gen/main.go": {"solver64"},
}

// TestComments checks the comments of every Go file of the module:
//
//   - every name a comment cites in backquotes that looks like a Go
//     identifier (an upper-case letter, a digit, or a dotted form:
//     leafEmpty, engine49, Solver, ttable.Limit, Engine.spread) is declared
//     in the module, is a package of the module or of the standard library,
//     or is predeclared (uint64); a plain lower-case word (pos, score, a
//     JSON field) is not taken for one;
//   - so is every lower-camel-case word (leafEmpty) or word ending in
//     digits (engine49) outside backquotes;
//   - in every NAME.MEMBER form, backquoted or not, whose NAME is a type
//     of the module, MEMBER is a method or field of a type of that name
//     (or of one it embeds), and whose NAME is a package of the module,
//     MEMBER is declared at that package's top level;
//   - the doc comments of exported declarations, and package docs, of the
//     packages that are not main cite no unexported name of the module
//     (the function's own parameters aside), nor, outside internal/, a
//     name of an internal package: go doc shows them to readers who cannot
//     reach those names.
func TestComments(t *testing.T) {
	srcs, err := readModule(root)
	if err != nil {
		t.Fatal(err)
	}
	ix, err := indexModule(srcs)
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	for _, f := range ix.check() {
		if slices.Contains(pendingMoves[f.path], f.name) {
			used[f.path+" "+f.name] = true
			continue
		}
		t.Error(f)
	}
	for path, names := range pendingMoves {
		for _, name := range names {
			if !used[path+" "+name] {
				t.Logf("pendingMoves lists %s in %s, which no comment of it cites wrongly now: delete the entry", name, path)
			}
		}
	}
}

// TestCommentsCatch checks the checker on a small package of two files
// with stale citations, and one that cites only true names.
func TestCommentsCatch(t *testing.T) {
	srcs := []source{
		{path: "fake/fake.go", dir: "fake", text: []byte(`// Package fake is a package for the checker's test. Its Table is a
// fixed-size table (see leafStones), made by New.
package fake

// Table is a table. Table.Store stores; Table.Probe probes; Table.size
// is its size, a power of 2, and tableMagic heads its files.
type Table struct {
	size int
}

// Store stores ` + "`key`" + `; see ` + "`Table.Lookup`, `Table.size` and `other.Thing`" + `.
func (t *Table) Store(key uint64) {}

const tableMagic = "fake table\n"

// leafEmpty is the number of empty cells at a leaf.
const leafEmpty = 3

// New returns a Table of ` + "`bits`" + ` bits (` + "`maxBits`" + ` at most: ` + "`uint64`, `strings.Builder`" + `).
func New(maxBits int) *Table { return &Table{size: maxBits} }

// newTable cites ` + "`leafStones`" + ` and solver64, unexported: it may cite tableMagic.
func newTable() {}
`)},
		{path: "fake/z.go", dir: "fake", text: []byte(`// Code generated by hand for the test. DO NOT EDIT.

package fake

// engine49 cites nothingAtAll, unchecked: generated.
type engine49 struct{}
`)},
		{path: "other/other.go", dir: "other", text: []byte(`// Package other cites ` + "`fake.New`" + ` and fake.Table.Store, true; fake.Missing, not;
// and deep.Helper, of an internal package.
package other

// Thing is a thing.
type Thing int
`)},
		{path: "internal/deep/deep.go", dir: "internal/deep", text: []byte(`// Package deep may cite fake.Table.Store: fake is not internal.
package deep

// Helper helps fake.New.
func Helper() {}
`)},
	}
	ix, err := indexModule(srcs)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range ix.check() {
		got = append(got, f.String())
	}
	want := []string{
		"fake/fake.go:2: cites leafStones, which is declared nowhere in the module; did you mean leafEmpty?",
		"fake/fake.go:5: cites Table.Probe, but Table has no method or field Probe",
		"fake/fake.go:5: the doc of exported Table cites Table.size, unexported",
		"fake/fake.go:6: the doc of exported Table cites tableMagic, unexported",
		"fake/fake.go:11: cites Table.Lookup, but Table has no method or field Lookup",
		"fake/fake.go:11: the doc of exported Table.Store cites Table.size, unexported",
		"fake/fake.go:22: cites leafStones, which is declared nowhere in the module; did you mean leafEmpty?",
		"fake/fake.go:22: cites solver64, which is declared nowhere in the module",
		"other/other.go:1: cites fake.Missing, but package fake declares no Missing",
		"other/other.go:2: the doc of exported package other cites deep.Helper, of an internal package",
	}
	if !slices.Equal(got, want) {
		t.Errorf("the checker found\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
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
		fset:     token.NewFileSet(),
		pkgs:     map[string]*modPackage{},
		byName:   map[string][]*modPackage{},
		types:    map[string]*modType{},
		topLevel: map[string][]string{},
		all:      map[string]bool{},
		std:      stdPackages(),
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
			ix.topLevel[id.Name] = append(ix.topLevel[id.Name], p.dir)
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

var (
	// backquoted is a backquoted span of a comment line.
	backquoted = regexp.MustCompile("`([^`\n]+)`")
	// dotted is a run of identifiers joined by dots, not inside a longer
	// run of word characters, dots or slashes (a path, a URL).
	dotted = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+`)
	// wordRun is a run of word characters.
	wordRun = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)
	// identLike is a name a backquoted span may cite: an identifier or a
	// dotted run of them, with an optional * before and () after.
	identLike = regexp.MustCompile(`^\*?([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)(?:\(\))?$`)
	// jsFunc is the name of a function a web page's script declares.
	jsFunc = regexp.MustCompile(`\bfunction\s+([A-Za-z_$][A-Za-z0-9_$]*)`)
	// testFunc is the name of a test, benchmark, fuzz test or example.
	testFunc = regexp.MustCompile(`^(Test|Benchmark|Fuzz|Example)([A-Z_]|$)`)
	// plainWord is a lower-case word that is not taken for an identifier.
	plainWord = regexp.MustCompile(`^[a-z_]+$`)
	// proseIdent is a word outside backquotes taken for an identifier: lower
	// camel case (leafEmpty), or letters then digits (engine49).
	proseIdent = regexp.MustCompile(`^(?:[a-z]+[A-Z][A-Za-z0-9]*|[a-z]{3,}[0-9]+)$`)
)

// fileExts are the last parts of dotted runs that name files (solver.go,
// engine.tmpl.go), not members.
var fileExts = map[string]bool{
	"go": true, "md": true, "txt": true, "json": true, "mod": true, "sum": true, "sh": true,
	"tmpl": true, "html": true, "js": true, "css": true, "gz": true, "csv": true, "c4book": true,
	"out": true, "svg": true, "png": true, "yml": true, "yaml": true, "bin": true, "h": true,
	"c": true, "py": true, "log": true, "pprof": true, "prof": true, "test": true, "exe": true,
	"com": true, "org": true, "io": true, "net": true, "dev": true, "ttable": true, "tar": true, "sbatch": true,
}

// proseWords are words outside backquotes shaped like identifiers that
// are not Go names: architectures, hashes, formats.
var proseWords = map[string]bool{
	"amd64": true, "arm64": true, "x86": true, "x64": true, "i386": true, "sha1": true,
	"sha256": true, "md5": true, "utf8": true, "base64": true, "ipv4": true, "ipv6": true,
	"go1": true, "macOS": true, "iOS": true, "eBPF": true, "gRPC": true, "mmap2": true,
}

// check returns the findings in the comments of every file of ix that is
// not generated.
func (ix *modIndex) check() []finding {
	var out []finding
	for _, f := range ix.files {
		if f.generated {
			continue
		}
		exported := ix.exportedDocs(f)
		for _, g := range f.ast.Comments {
			if g == f.preamble {
				continue
			}
			doc, isExported := exported[g]
			for _, c := range g.List {
				out = append(out, ix.checkComment(f, c, doc, isExported)...)
			}
		}
	}
	return out
}

// An exportedDoc is the doc comment of an exported declaration, or a
// package doc: its declaration's name and the names it may cite though
// unexported (a function's parameters).
type exportedDoc struct {
	name   string
	params map[string]bool
}

// exportedDocs returns the comment groups of f that are the docs of
// exported declarations, or f's package doc, in a package that is not
// main; none in test files.
func (ix *modIndex) exportedDocs(f *modFile) map[*ast.CommentGroup]exportedDoc {
	docs := map[*ast.CommentGroup]exportedDoc{}
	if f.test || f.ast.Name.Name == "main" {
		return docs
	}
	add := func(g *ast.CommentGroup, name string, params map[string]bool) {
		if f.template && !f.pkg.real[strings.Split(name, ".")[0]] && !strings.HasPrefix(name, "package ") {
			return // a name the generated variants unexport
		}
		if g != nil {
			docs[g] = exportedDoc{name: name, params: params}
		}
	}
	add(f.ast.Doc, "package "+f.ast.Name.Name, nil)
	fields := func(fl *ast.FieldList, into map[string]bool) {
		if fl == nil {
			return
		}
		for _, p := range fl.List {
			for _, n := range p.Names {
				into[n.Name] = true
			}
		}
	}
	for _, d := range f.ast.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() {
				continue
			}
			if d.Recv != nil && len(d.Recv.List) == 1 && !ast.IsExported(typeName(d.Recv.List[0].Type)) {
				continue
			}
			if f.template && d.Recv != nil && !f.pkg.real[typeName(d.Recv.List[0].Type)] {
				continue
			}
			params := map[string]bool{}
			ast.Inspect(d.Type, func(n ast.Node) bool {
				if fl, ok := n.(*ast.FieldList); ok {
					fields(fl, params)
				}
				return true
			})
			name := d.Name.Name
			if d.Recv != nil && len(d.Recv.List) == 1 {
				name = typeName(d.Recv.List[0].Type) + "." + name
			}
			add(d.Doc, name, params)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.IsExported() {
							add(s.Doc, n.Name, nil)
							if len(d.Specs) == 1 || d.Lparen == token.NoPos {
								add(d.Doc, n.Name, nil)
							}
						}
					}
				case *ast.TypeSpec:
					if !s.Name.IsExported() {
						continue
					}
					add(s.Doc, s.Name.Name, nil)
					if d.Lparen == token.NoPos {
						add(d.Doc, s.Name.Name, nil)
					}
					var fl *ast.FieldList
					switch u := s.Type.(type) {
					case *ast.StructType:
						fl = u.Fields
					case *ast.InterfaceType:
						fl = u.Methods
					}
					if fl == nil {
						continue
					}
					for _, field := range fl.List {
						for _, n := range field.Names {
							if n.IsExported() {
								add(field.Doc, s.Name.Name+"."+n.Name, nil)
								add(field.Comment, s.Name.Name+"."+n.Name, nil)
							}
						}
					}
				}
			}
		}
	}
	return docs
}

// checkComment returns the findings in one comment of f; doc is set, and
// isExported true, when the comment is part of an exported doc.
func (ix *modIndex) checkComment(f *modFile, c *ast.Comment, doc exportedDoc, isExported bool) []finding {
	var out []finding
	base := ix.fset.Position(c.Slash).Line
	text := c.Text
	lineAt := func(off int) int { return base + strings.Count(text[:off], "\n") }
	report := func(off int, name, format string, args ...any) {
		out = append(out, finding{path: f.path, line: lineAt(off), name: name, msg: fmt.Sprintf(format, args...)})
	}
	inQuotes := make([]bool, len(text))
	for _, m := range backquoted.FindAllStringSubmatchIndex(text, -1) {
		for i := m[0]; i < m[1]; i++ {
			inQuotes[i] = true
		}
		span := text[m[2]:m[3]]
		id := identLike.FindStringSubmatch(span)
		if id == nil {
			continue // spaces, dashes, slashes, quotes: not a name
		}
		name := id[1]
		if !strings.Contains(name, ".") {
			if plainWord.MatchString(name) {
				continue
			}
			ix.checkName(f, m[2], name, doc, isExported, report)
			continue
		}
		ix.checkDotted(f, m[2], name, true, doc, isExported, report)
	}
	// Outside backquotes: dotted runs, and words shaped like identifiers.
	for _, m := range dotted.FindAllStringIndex(text, -1) {
		if inQuotes[m[0]] || (m[0] > 0 && isWordByte(text[m[0]-1]) || strings.ContainsRune("./\\-", rune(text[m[0]-1]))) ||
			(m[1] < len(text) && strings.ContainsRune("/\\-", rune(text[m[1]]))) {
			continue
		}
		ix.checkDotted(f, m[0], text[m[0]:m[1]], false, doc, isExported, report)
	}
	for _, m := range wordRun.FindAllStringIndex(text, -1) {
		w := text[m[0]:m[1]]
		if inQuotes[m[0]] || !proseIdent.MatchString(w) || proseWords[w] ||
			(m[0] > 0 && isWordByte(text[m[0]-1]) || strings.ContainsRune("./\\-", rune(text[m[0]-1]))) ||
			(m[1] < len(text) && strings.ContainsRune("./\\-", rune(text[m[1]]))) {
			continue
		}
		ix.checkName(f, m[0], w, doc, isExported, report)
	}
	return out
}

// checkName checks a single name a comment of f cites.
func (ix *modIndex) checkName(f *modFile, off int, name string, doc exportedDoc, isExported bool, report func(int, string, string, ...any)) {
	switch {
	case f.pkg.local[name] || ix.all[name] && ast.IsExported(name):
	case ix.all[name]:
		// An unexported name of another package: cited as its own
		// package's, or a local of it.
	case types.Universe.Lookup(name) != nil || ix.std[name] || len(ix.byName[name]) > 0:
		return
	default:
		report(off, name, "cites %s, which is declared nowhere in the module%s", name, ix.suggest(name, ix.all))
		return
	}
	if isExported && !ast.IsExported(name) && !doc.params[name] && len(ix.byName[name]) == 0 && ix.all[name] {
		report(off, name, "the doc of exported %s cites %s, unexported", doc.name, name)
	}
}

// checkDotted checks a dotted run a comment of f cites: X.Y or X.Y.Z, X a
// package or a type of the module. A run whose X is neither is left alone
// (a local variable's field, a file name, prose), but for a backquoted
// one, whose X must then exist.
func (ix *modIndex) checkDotted(f *modFile, off int, run string, quoted bool, doc exportedDoc, isExported bool, report func(int, string, string, ...any)) {
	parts := strings.Split(run, ".")
	if fileExts[parts[len(parts)-1]] {
		return
	}
	if slices.ContainsFunc(parts[1:], func(p string) bool { return fileExts[p] }) {
		return
	}
	x, rest := parts[0], parts[1:]
	pkgs := ix.byName[x]
	_, isType := ix.types[x]
	switch {
	case len(pkgs) > 0 && !f.pkg.local[x] || len(pkgs) > 0 && !isType:
		// X.Y, X a package of the module: Y declared at its top level.
		y := rest[0]
		var in *modPackage
		for _, p := range pkgs {
			if p.top[y] {
				in = p
			}
		}
		if in == nil {
			if isType && ix.hasMember(x, y, map[string]bool{}) {
				return
			}
			top := map[string]bool{}
			for _, p := range pkgs {
				for n := range p.top {
					top[n] = true
				}
			}
			report(off, x+"."+y, "cites %s.%s, but package %s declares no %s%s", x, y, x, y, ix.suggest(y, top))
			return
		}
		if isExported {
			switch {
			case !ast.IsExported(y):
				report(off, x+"."+y, "the doc of exported %s cites %s.%s, unexported", doc.name, x, y)
			case in.internal && !f.pkg.internal:
				report(off, x+"."+y, "the doc of exported %s cites %s.%s, of an internal package", doc.name, x, y)
			}
		}
		if len(rest) > 1 {
			ix.checkMember(f, off, y, rest[1], doc, isExported, report)
		}
	case isType:
		ix.checkMember(f, off, x, rest[0], doc, isExported, report)
	case quoted && !plainWord.MatchString(x):
		ix.checkName(f, off, x, doc, isExported, report)
	}
}

// checkMember checks the citation typ.m, typ a name that may be a type of
// the module.
func (ix *modIndex) checkMember(f *modFile, off int, typ, m string, doc exportedDoc, isExported bool, report func(int, string, string, ...any)) {
	if _, ok := ix.types[typ]; !ok {
		return
	}
	if !ix.hasMember(typ, m, map[string]bool{}) {
		members := map[string]bool{}
		ix.members(typ, members)
		report(off, typ+"."+m, "cites %s.%s, but %s has no method or field %s%s", typ, m, typ, m, ix.suggest(m, members))
		return
	}
	if isExported && !ast.IsExported(m) {
		report(off, typ+"."+m, "the doc of exported %s cites %s.%s, unexported", doc.name, typ, m)
	}
}

// suggest returns "; did you mean NAME?" for the name of names nearest to
// name by edit distance, when one is near enough; or "".
func (ix *modIndex) suggest(name string, names map[string]bool) string {
	best, bestD, bestP := "", max(2, len(name)/2)+1, 0
	for n := range names {
		if strings.HasPrefix(n, " ") || n == name || testFunc.MatchString(n) {
			continue
		}
		d := editDistance(strings.ToLower(name), strings.ToLower(n))
		p := commonPrefix(name, n)
		if d < bestD || d == bestD && (p > bestP || p == bestP && n < best) {
			best, bestD, bestP = n, d, p
		}
	}
	if best == "" {
		return ""
	}
	return "; did you mean " + best + "?"
}

// isWordByte reports whether b may be part of an identifier.
func isWordByte(b byte) bool {
	return b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}

// commonPrefix returns the length of the longest common prefix of a and b.
func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// editDistance returns the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

var _ = unicode.IsUpper
