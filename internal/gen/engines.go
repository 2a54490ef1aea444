package main

import (
	"bytes"
	_ "embed"
	"fmt"
	"go/format"
	"go/parser"
	"go/token"
	"text/template"

	"c4solve/internal/settings"
)

// engine is one variant of the solver's engine, a row of engines: how
// its templates are rewritten (variant), the boards it solves, its table
// and keys, and its tuning constants. gen writes from the rows the glue
// each variant's code calls (solver/zvariants.go: positionOfKey64,
// tablePut49, ...) and the table of engines the package's constructors
// pick from (engineKinds), as sort's gen_sort_variants.go declares each
// of its variants once. The exported fields are Go source that the glue's
// template (zvariants.go.tmpl) writes as they are.
type engine struct {
	variant
	// Fits is a Go condition on g, a *board.Grid: the boards this engine
	// solves, of those the rows before it do not.
	Fits string
	// NewGeometry is the Go expression of the geometry of g's board;
	// Position the type of its positions, Key that of their keys.
	NewGeometry, Position, Key string
	// KeyKind says how a key is made of words: "word" (one), "two" (a
	// position.Bits128) or "packed" (a position.KeyPacked, whose table
	// file's records hold its Position128's key).
	KeyKind string
	// KeyBits is the Go expression of the bits of the keys of g's board
	// (ttable.Config.KeyBits), TableBits the same of the variant's
	// geometry g (compact: none).
	KeyBits, TableBits string
	// Grows: the shared table grows as entries are stored
	// (ttable.Config.Grow); ClampMove: a move beyond the columns a
	// tables.Compact entry holds (tables.MaxMoves) is stored as none,
	// which costs order, never a result.
	Grows, ClampMove bool
	// FileKeyFits is the Go condition on the words lo and hi of a table
	// file's record, and t the shared table, that they are a key of the
	// variant's.
	FileKeyFits string
	// MaxWidth and MaxCells are the most columns and cells of its boards,
	// Go constant expressions: the sizes of the search's arrays.
	MaxWidth, MaxCells string
}

// engines is every variant of the engine, in the order the constructors
// try them (each fits only the boards the ones before it do not).
var engines = []engine{
	{
		variant: v7x6, Fits: "g.Size == board.Standard",
		NewGeometry: "position.Geometry{}", Position: "position.Position", Key: "position.Key", KeyKind: "word",
		KeyBits: "g.Bits()", FileKeyFits: "hi == 0 && lo < 1<<(position.Width*(position.Height+1))",
		MaxWidth: "position.Width", MaxCells: "position.Cells",
	},
	{
		variant: v49, Fits: "g.Bits() <= tables.KeyBits",
		NewGeometry: "must(position.NewGeometry64(g.Width, g.Height))", Position: "position.Position64", Key: "position.Key64", KeyKind: "word",
		KeyBits: "g.Bits()", Grows: true, ClampMove: true, FileKeyFits: "hi == 0 && lo < 1<<tables.KeyBits",
		MaxWidth: "49 / (board.MinSide + 1) // 9x4", MaxCells: "44 // 4x11, the most cells in 49 bits",
	},
	{
		variant: v64, Fits: "g.Bits() <= 64",
		NewGeometry: "must(position.NewGeometry64(g.Width, g.Height))", Position: "position.Position64", Key: "position.Key64", KeyKind: "word",
		KeyBits: "g.Bits()", TableBits: "g.Width() * (g.Height() + 1)", Grows: true, FileKeyFits: "hi == 0",
		MaxWidth: "64 / (board.MinSide + 1) // 12x4", MaxCells: "60 // 4x15, the most cells in 64 bits",
	},
	{
		variant: v80, Fits: "position.Packs(g.Width, g.Height)",
		NewGeometry: "must(position.NewGeometryPacked(g.Width, g.Height))", Position: "position.PositionPacked", Key: "position.KeyPacked", KeyKind: "packed",
		KeyBits: "64 + g.Width", TableBits: "64 + g.Width()", Grows: true,
		MaxWidth: "64 / board.MinSide // 16x4", MaxCells: "64",
	},
	{
		variant: v128, Fits: "true",
		NewGeometry: "must(position.NewGeometry128(g.Width, g.Height))", Position: "position.Position128", Key: "position.Bits128", KeyKind: "two",
		KeyBits: "g.Bits()", TableBits: "g.Width() * (g.Height() + 1)", Grows: true, FileKeyFits: "bits.Len64(hi) <= t.KeyBits()-64",
		MaxWidth: "board.MaxWidth", MaxCells: "124 // 4x31",
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

// glueTemplate writes solver/zvariants.go from the rows of glue.
//
//go:embed zvariants.go.tmpl
var glueTemplate string

// glue returns solver/zvariants.go: for each of engines, its glue and
// constants, and the table engineKinds of them all.
func glue() ([]byte, error) {
	t, err := template.New("glue").Parse(glueTemplate)
	if err != nil {
		return nil, err
	}
	if len(settings.Engines) != len(engines) {
		return nil, fmt.Errorf("settings.Engines tunes %d engines; there are %d", len(settings.Engines), len(engines))
	}
	type row struct {
		engine
		settings.Engine
		// Geometry is the type of the geometry, Table tables.Compact or
		// tables.Wide, Gallop the name of the tuning's Gallop.
		Suffix, Geometry, Table, Gallop string
		Compact                         bool
	}
	gallops := map[settings.Gallop]string{settings.GallopNone: "settings.GallopNone", settings.GallopUp: "settings.GallopUp", settings.GallopBoth: "settings.GallopBoth"}
	var rows []row
	for _, e := range engines {
		tuning, ok := settings.Engines[e.suffix]
		if !ok {
			return nil, fmt.Errorf("settings.Engines has no engine%s", e.suffix)
		}
		r := row{engine: e, Engine: tuning, Suffix: e.suffix, Geometry: "*position.Geometry" + e.positionSuffix(), Table: "Wide", Gallop: gallops[tuning.Gallop], Compact: e.compact}
		if e.suffix == "" {
			r.Geometry = "position.Geometry"
		}
		if e.compact {
			r.Table = "Compact"
		}
		rows = append(rows, r)
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, rows); err != nil {
		return nil, err
	}
	// Drop the imports the rows did not use (math/bits, where no row
	// tests a key's high word so).
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "zvariants.go", buf.Bytes(), parser.ParseComments)
	if err != nil {
		return nil, fmt.Errorf("the glue: %v\n%s", err, buf.Bytes())
	}
	pruneImports(fset, f)
	var out bytes.Buffer
	if err := format.Node(&out, fset, f); err != nil {
		return nil, err
	}
	return format.Source(out.Bytes())
}
