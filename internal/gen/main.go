// Command gen writes the engine's instantiations from its one source, as
// the standard library's sort package writes zsortfunc.go and
// zsortinterface.go from gen_sort_variants.go.
//
// The engine (the position and its rules in internal/position's
// position.tmpl.go, the geometry of a board in geometry.tmpl.go, the
// search in solver's templates, one a layer: engine.tmpl.go,
// search.tmpl.go, worker.tmpl.go, analysis.tmpl.go and pv.tmpl.go) is
// written once, as ordinary Go for the 7x6 board with bitboards of one
// word. A template t.tmpl.go is written as zt.go and, for each variant
// of other boards, as zt plus the variant's suffix (zsearch64.go). The
// variants, a row each of the table engines (engines.go) for the search:
//
//   - 7x6 (no suffix), the source as written (Position, engine, ...), on
//     a geometry whose fields gen replaces by their values on 7x6
//     (evaluate.go), so that its methods are constants the compiler folds;
//   - 49, the search of the boards of at most 49 bits (engine49) on the
//     positions of variant 64, its tables of one-word entries
//     (tables.Compact), as 7x6's;
//   - 64, for any board of at most 64 bits (Position64, engine64, ...),
//     the geometry a pointer to the dimensions and masks worked out once;
//   - Packed, the positions of the boards of at most 64 cells whose
//     bitboards with a sentinel bit a column take more than 64 bits (8x8,
//     9x7, 10x6, 11x5, 12x5, 13x4 ...): one word without the sentinels
//     (PositionPacked, ...), the code under the constant packed taking
//     their place; 80, their search (engine80), whose keys are of at
//     most 80 bits;
//   - 128, for any board of at most 128 bits (Position128, engine128,
//     ...), its bitboards position.Bits128: every operator on a bitboard
//     becomes Bits128's method (a & b is a.And(b), a << n is a.Shl(n), a
//     constant is a Bits128 literal), found by the types go/types gives
//     each expression.
//
// The names a package's templates declare at the top level get the
// variant's suffix, and so do the names each job lists as varying (the
// geometry, the key type); the search's exported names are unexported in
// every variant (Engine is engine in 7x6's, engine64 in 64's), which
// solver.Solver reaches. From the table engines and zvariants.go.tmpl
// gen also writes the search's glue, solver/zvariants.go: each variant's
// table and key functions, its tuning constants, and engineKinds, from
// which the solver's constructors pick the engine of a board. Plain
// generics would do the same at run time, but their instantiations share
// code by GC shape and call the geometry's methods through a dictionary:
// the 7x6 path lost 5-11% of its instructions so (docs/performance.md).
//
// Run it with go generate ./... from the module's root
// (internal/position/doc.go holds the one directive); -check reports the
// files that differ instead of writing them, and fails if any does (CI
// runs it). gen imports none of the packages it writes, and type-checks
// each package's templates without the files it generates for them, so
// that it runs, and repairs them, where they are stale or broken.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"iter"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/ast/astutil"
)

// variant is one instantiation of a template.
type variant struct {
	// suffix is appended to the names that vary: a position's names the
	// layout of its bitboards, a search's the most bits of its keys.
	suffix string
	wide   bool // bitboards are position.Bits128
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
	// does, not in the job's qualified names (tables.Wide).
	compact bool
	// constant: the variant is the geometry of one board, 7x6, its
	// fields the constants NewGeometry gives them (see evaluate).
	constant bool
}

var (
	v7x6   = variant{suffix: "", compact: true}
	vConst = variant{suffix: "", constant: true}
	v49    = variant{suffix: "49", maskShifts: true, position: "64", compact: true}
	v64    = variant{suffix: "64", maskShifts: true}
	v128   = variant{suffix: "128", wide: true}
	// v80's keys are of 64 bits and one a column, at most 80 (16x4).
	vPacked = variant{suffix: "Packed", maskShifts: true}
	v80     = variant{suffix: "80", maskShifts: true, position: "Packed"}
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
	// templates are the templates' file names, type-checked together
	// (output names the file of each variant).
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

// output returns the name of the file v's variant of a template is written
// to: "z" + t + v's suffix + ".go" for t.tmpl.go (zsearch64.go).
func output(template string, v variant) string {
	return "z" + strings.TrimSuffix(template, ".tmpl.go") + v.suffix + ".go"
}

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
		varying: []string{"positionOfKey", "keyOfPosition", "maxWidth", "maxCells", "tableRef", "tablePut", "newTable", "keyHash", "keyWords", "tablePutWords", "growTable", "helpersSpread", "drawRule", "gallop"},
		qualified: map[string]string{
			"tables.Compact":    "tables.Wide",
			"tables.CompactRef": "tables.WideRef",
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
		if err != errStale { // run named the stale files
			fmt.Fprintf(os.Stderr, "gen: %v\n", err)
		}
		os.Exit(1)
	}
}

// errStale is run's error when -check found files that differ.
var errStale = errors.New("generated files differ from their templates: run go generate")

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
		for _, name := range slices.Sorted(maps.Keys(outs)) {
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
			for id := range topLevel(f) {
				declared[id.Name] = true
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
			outs[output(j.templates[i], v)] = src
		}
	}
	return outs, nil
}

// load parses j's templates and type-checks them with the package's other
// files (not those it writes) and the stub. It fails on an error of the
// check in a template: the rewrites need the types of its expressions.
// Errors in the other files are left out: they may name what only the
// generated files declare (the job's glue, with which load checks the
// templates as generated now).
func (j job) load(fset *token.FileSet, dir string, glue []byte) ([]*ast.File, *types.Info, *types.Package, error) {
	others := j.others
	if others == nil {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, nil, nil, err
		}
		for _, e := range entries {
			n := e.Name()
			if !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") || strings.HasSuffix(n, ".tmpl.go") || j.writes(n) {
				continue
			}
			if ok, err := build.Default.MatchFile(dir, n); err != nil {
				return nil, nil, nil, err
			} else if ok { // not built only with the ignore tag
				others = append(others, n)
			}
		}
	}
	var files []*ast.File
	var err error
	parse := func(name string, src any, mode parser.Mode) {
		if err == nil {
			var f *ast.File
			f, err = parser.ParseFile(fset, name, src, mode)
			files = append(files, f)
		}
	}
	for _, t := range j.templates {
		parse(filepath.Join(dir, t), nil, parser.ParseComments)
	}
	for _, n := range others {
		parse(filepath.Join(dir, n), nil, 0)
	}
	if j.stub != "" {
		parse("stub.go", j.stub, 0)
	}
	if glue != nil {
		parse(filepath.Join(dir, j.glueOut), glue, 0)
	}
	if err != nil {
		return nil, nil, nil, err
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
			if te, ok := err.(types.Error); ok && slices.Contains(j.templates, filepath.Base(te.Fset.Position(te.Pos).Filename)) {
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
			if name == output(t, v) {
				return true
			}
		}
	}
	return false
}

// topLevel yields the names f declares at the top level (functions, not
// methods; types, variables and constants), each with its doc comment:
// its spec's, or its declaration's where that declares it alone.
func topLevel(f *ast.File) iter.Seq2[*ast.Ident, *ast.CommentGroup] {
	return func(yield func(*ast.Ident, *ast.CommentGroup) bool) {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && !yield(d.Name, d.Doc) {
					return
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					var doc *ast.CommentGroup
					var names []*ast.Ident
					switch s := s.(type) {
					case *ast.TypeSpec:
						doc, names = s.Doc, []*ast.Ident{s.Name}
					case *ast.ValueSpec:
						doc, names = s.Doc, s.Names
					}
					if doc == nil && len(d.Specs) == 1 {
						doc = d.Doc
					}
					for _, id := range names {
						if !yield(id, doc) {
							return
						}
					}
				}
			}
		}
	}
}

// pruneImports deletes the imports of f that nothing in it uses.
func pruneImports(fset *token.FileSet, f *ast.File) {
	for _, imp := range slices.Clone(f.Imports) {
		if path := strings.Trim(imp.Path.Value, `"`); !astutil.UsesImport(f, path) {
			astutil.DeleteImport(fset, f, path)
		}
	}
}
