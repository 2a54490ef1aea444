package main

import (
	"bytes"
	"fmt"
	"go/format"
	"go/parser"
	"go/token"
	"strings"
	"text/template"

	"golang.org/x/tools/go/ast/astutil"

	"c4solve/internal/settings"
)

// engine is one variant of the solver's engine, a row of engines: how
// its templates are rewritten (variant), the boards it solves, its table
// and keys, and its tuning constants. gen writes from the rows the glue
// each variant's code calls (solver/zvariants.go: positionOfKey64,
// tablePut49, ...) and the table of engines the package's constructors
// pick from (engineKinds), as sort's gen_sort_variants.go declares each
// of its variants once.
type engine struct {
	variant
	// fits is a Go condition on g, a *board.Grid: the boards this engine
	// solves, of those the rows before it do not.
	fits string
	// geometry is the Go expression of the geometry of g's board;
	// position the type of its positions, key that of their keys.
	geometry, position, key string
	// keyKind says how a key is made of words: "word" (one), "two" (a
	// position.Bits128) or "packed" (a position.KeyPacked, whose table
	// file's records hold its Position128's key).
	keyKind string
	// keyBits is the Go expression of the bits of the keys of g's board
	// (ttable.Config.KeyBits), tableBits the same of the variant's
	// geometry g (compact: none).
	keyBits, tableBits string
	// grows: the shared table grows as entries are stored
	// (ttable.Config.Grow); clampMove: a move beyond the columns a
	// tables.Compact entry holds (tables.MaxMoves) is stored as none,
	// which costs order, never a result.
	grows, clampMove bool
	// fileKeyFits is the Go condition on the words lo and hi of a table
	// file's record, and t the shared table, that they are a key of the
	// variant's.
	fileKeyFits string
	// maxWidth and maxCells are the most columns and cells of its boards,
	// Go constant expressions: the sizes of the search's arrays.
	maxWidth, maxCells string
}

// engines is every variant of the engine, in the order the constructors
// try them (each fits only the boards the ones before it do not).
var engines = []engine{
	{
		variant: v7x6, fits: "g.Size == board.Standard",
		geometry: "position.Geometry{}", position: "position.Position", key: "position.Key", keyKind: "word",
		keyBits: "g.Bits()", fileKeyFits: "hi == 0 && lo < 1<<(position.Width*(position.Height+1))",
		maxWidth: "position.Width", maxCells: "position.Cells",
	},
	{
		variant: v49, fits: "g.Bits() <= tables.KeyBits",
		geometry: "must(position.NewGeometry64(g.Width, g.Height))", position: "position.Position64", key: "position.Key64", keyKind: "word",
		keyBits: "g.Bits()", grows: true, clampMove: true, fileKeyFits: "hi == 0 && lo < 1<<tables.KeyBits",
		maxWidth: "49 / (board.MinSide + 1) // 9x4", maxCells: "44 // 4x11, the most cells in 49 bits",
	},
	{
		variant: v64, fits: "g.Bits() <= 64",
		geometry: "must(position.NewGeometry64(g.Width, g.Height))", position: "position.Position64", key: "position.Key64", keyKind: "word",
		keyBits: "g.Bits()", tableBits: "g.Width() * (g.Height() + 1)", grows: true, fileKeyFits: "hi == 0",
		maxWidth: "64 / (board.MinSide + 1) // 12x4", maxCells: "60 // 4x15, the most cells in 64 bits",
	},
	{
		variant: v80, fits: "position.Packs(g.Width, g.Height)",
		geometry: "must(position.NewGeometryPacked(g.Width, g.Height))", position: "position.PositionPacked", key: "position.KeyPacked", keyKind: "packed",
		keyBits: "64 + g.Width", tableBits: "64 + g.Width()", grows: true,
		maxWidth: "64 / board.MinSide // 16x4", maxCells: "64",
	},
	{
		variant: v128, fits: "true",
		geometry: "must(position.NewGeometry128(g.Width, g.Height))", position: "position.Position128", key: "position.Bits128", keyKind: "two",
		keyBits: "g.Bits()", tableBits: "g.Width() * (g.Height() + 1)", grows: true, fileKeyFits: "bits.Len64(hi) <= t.KeyBits()-64",
		maxWidth: "board.MaxWidth", maxCells: "124 // 4x31",
	},
}

// solverVariants are the variants of the solver's templates, engines' in
// their order.
func solverVariants() []variant {
	vs := make([]variant, len(engines))
	for i, e := range engines {
		vs[i] = e.variant
	}
	return vs
}

// glue returns solver/zvariants.go: for each of engines, its glue and
// constants, and the table engineKinds of them all.
func glue() ([]byte, error) {
	funcs := template.FuncMap{}
	t, err := template.New("glue").Funcs(funcs).Parse(glueTemplate)
	if err != nil {
		return nil, err
	}
	type row struct {
		Suffix, Fits, Geometry, Position, Key, KeyKind, KeyBits, TableBits, FileKeyFits string
		MaxWidth, MaxCells, Gallop, Table, Ref, Make                                    string
		Compact, Grows, ClampMove, HelpersSpread, DrawRule                              bool
	}
	gallops := map[settings.Gallop]string{settings.GallopNone: "settings.GallopNone", settings.GallopUp: "settings.GallopUp", settings.GallopBoth: "settings.GallopBoth"}
	var rows []row
	if len(settings.Engines) != len(engines) {
		return nil, fmt.Errorf("settings.Engines tunes %d engines; there are %d", len(settings.Engines), len(engines))
	}
	for _, e := range engines {
		tuning, ok := settings.Engines[e.suffix]
		if !ok {
			return nil, fmt.Errorf("settings.Engines has no engine%s", e.suffix)
		}
		geom := "*position.Geometry" + e.positionSuffix()
		if e.suffix == "" {
			geom = "position.Geometry"
		}
		tbl, ref := "*tables.Wide", "tables.WideRef"
		if e.compact {
			tbl, ref = "*tables.Compact", "tables.CompactRef"
		}
		rows = append(rows, row{Suffix: e.suffix, Make: e.geometry, Fits: e.fits, Geometry: geom, Position: e.position, Key: e.key,
			KeyKind: e.keyKind, KeyBits: e.keyBits, TableBits: e.tableBits, FileKeyFits: e.fileKeyFits,
			MaxWidth: e.maxWidth, MaxCells: e.maxCells, Gallop: gallops[tuning.Gallop], Table: tbl, Ref: ref,
			Compact: e.compact, Grows: e.grows, ClampMove: e.clampMove, HelpersSpread: tuning.HelpersSpread, DrawRule: tuning.DrawRule})
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, map[string]any{"Rows": rows}); err != nil {
		return nil, err
	}
	// Drop the imports the rows did not use (math/bits, where no row
	// tests a key's high word so).
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "zvariants.go", buf.Bytes(), parser.ParseComments)
	if err != nil {
		return nil, fmt.Errorf("the glue: %v\n%s", err, buf.Bytes())
	}
	for _, imp := range f.Imports {
		if path := strings.Trim(imp.Path.Value, `"`); !astutil.UsesImport(f, path) {
			astutil.DeleteImport(fset, f, path)
		}
	}
	var out bytes.Buffer
	if err := format.Node(&out, fset, f); err != nil {
		return nil, err
	}
	return format.Source(out.Bytes())
}

const glueTemplate = `// Code generated by internal/gen from its table of engines; DO NOT EDIT.

package solver

import (
	"math/bits"

	"c4solve/board"
	"c4solve/internal/position"
	"c4solve/internal/settings"
	"c4solve/internal/tables"
	"c4solve/ttable"
)

// engineKinds is every engine, in the order engineOf tries them: the
// first that fits a board is the one that solves it.
var engineKinds = []engineKind{ {{- range .Rows}}
	{
		fits: func(g *board.Grid) bool { return {{.Fits}} },
		keyBits: func(g *board.Grid) int { return {{.KeyBits}} },
		grows: {{.Grows}},
		solver: func(g *board.Grid, tt ttable.Table, threads int) variant {
			return newSolver{{.Suffix}}(g, {{.Make}}, tt.({{.Table}}), threads)
		},
	}, {{- end}}
}
{{range .Rows}}
// The glue of engine{{.Suffix}}{{if not .Suffix}} (7x6){{end}}.

// maxWidth{{.Suffix}} and maxCells{{.Suffix}} are the most columns and cells of a board of
// engine{{.Suffix}}: the sizes of the search's arrays.
const (
	maxWidth{{.Suffix}} = {{.MaxWidth}}
	maxCells{{.Suffix}} = {{.MaxCells}}
)

// The tuning of engine{{.Suffix}}, settings.Engines["{{.Suffix}}"].
const (
	helpersSpread{{.Suffix}} = {{.HelpersSpread}}
	gallop{{.Suffix}}        = {{.Gallop}}
	drawRule{{.Suffix}}      = {{.DrawRule}}
)

// positionOfKey{{.Suffix}} returns the position of a Board's key.
func positionOfKey{{.Suffix}}(g {{.Geometry}}, k board.Key) ({{.Position}}, error) {
{{- if eq .KeyKind "word"}}
	return g.FromKey(k.Lo)
{{- else if eq .KeyKind "two"}}
	return g.FromKey(position.Bits128(k))
{{- else}}
	kp, err := g.KeyOf128(position.Bits128(k))
	if err != nil {
		return {{.Position}}{}, err
	}
	return g.FromKey(kp)
{{- end}}
}

// keyOfPosition{{.Suffix}} returns the key of the Board of p.
func keyOfPosition{{.Suffix}}(g {{.Geometry}}, p {{.Position}}) board.Key {
{{- if eq .KeyKind "word"}}
	return board.Key{Lo: p.Key()}
{{- else if eq .KeyKind "two"}}
	return board.Key(p.Key())
{{- else}}
	return board.Key(g.Key128(p.Key()))
{{- end}}
}

// tableRef{{.Suffix}} returns where k's entry is in t.
func tableRef{{.Suffix}}(t {{.Table}}, k {{.Key}}) {{.Ref}} {
{{- if .Compact}}
	return t.Ref(k)
{{- else if eq .KeyKind "word"}}
	return t.Ref(k, 0)
{{- else}}
	return t.Ref(k.Lo, k.Hi)
{{- end}}
}

// tablePut{{.Suffix}} stores k's entry in t.{{if .ClampMove}} It stores no move beyond the
// columns an entry has room for (tables.MaxMoves): a move stored orders the
// moves, so its loss costs order, never a result.{{end}}
func tablePut{{.Suffix}}(t {{.Table}}, k {{.Key}}, lower, upper, move int, nodes uint64) {
{{- if .ClampMove}}
	if move >= tables.MaxMoves {
		move = -1
	}
{{- end}}
{{- if .Compact}}
	t.Put(k, lower, upper, move, nodes)
{{- else if eq .KeyKind "word"}}
	t.Put(k, 0, lower, upper, move, nodes)
{{- else}}
	t.Put(k.Lo, k.Hi, lower, upper, move, nodes)
{{- end}}
}

// newTable{{.Suffix}} returns a table of mib MiB of its own for a worker.
func newTable{{.Suffix}}(g {{.Geometry}}, mib int) {{.Table}} {
{{- if .Compact}}
	return must(tables.NewCompact(mib, false))
{{- else}}
	return must(tables.NewWide(mib, {{.TableBits}}, false))
{{- end}}
}

// keyHash{{.Suffix}} returns the word of k the busy table keeps{{if ne .KeyKind "word"}}: a fold of its
// words, whose collisions cost order, never a result{{end}}.
func keyHash{{.Suffix}}(k {{.Key}}) uint64 {
{{- if eq .KeyKind "word"}}
	return k
{{- else}}
	return k.Hash()
{{- end}}
}

// keyWords{{.Suffix}} returns k as the two words of a table file's records{{if eq .KeyKind "packed"}}: the
// key of its Position128, as the files of the other boards over 64 bits{{end}}.
func keyWords{{.Suffix}}(g {{.Geometry}}, k {{.Key}}) (lo, hi uint64) {
{{- if eq .KeyKind "word"}}
	return k, 0
{{- else if eq .KeyKind "two"}}
	return k.Lo, k.Hi
{{- else}}
	k128 := g.Key128(k)
	return k128.Lo, k128.Hi
{{- end}}
}

// tablePutWords{{.Suffix}} stores the entry of the key of the words of a table file's
// record, and reports false where they are no key of engine{{.Suffix}}'s.
func tablePutWords{{.Suffix}}(g {{.Geometry}}, t {{.Table}}, lo, hi uint64, lower, upper, move int, nodes uint64) bool {
{{- if eq .KeyKind "packed"}}
	k, err := g.KeyOf128(position.Bits128{Lo: lo, Hi: hi})
	if err != nil {
		return false
	}
	tablePut{{.Suffix}}(t, k, lower, upper, move, nodes)
{{- else}}
	if !({{.FileKeyFits}}) {
		return false
	}
{{- if eq .KeyKind "word"}}
	tablePut{{.Suffix}}(t, lo, lower, upper, move, nodes)
{{- else}}
	tablePut{{.Suffix}}(t, position.Bits128{Lo: lo, Hi: hi}, lower, upper, move, nodes)
{{- end}}
{{- end}}
	return true
}

// growTable{{.Suffix}} lets the shared table of a search that has stored so many entries
// in it use more of its memory{{if not .Grows}}: it has its size from the start{{end}}.
func growTable{{.Suffix}}(t {{.Table}}, stores uint64) { {{- if .Grows}} t.Grow(stores) {{- end}} }
{{end}}`
