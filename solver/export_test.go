package solver

import (
	"c4solve/board"
	"c4solve/internal/position"
	"c4solve/internal/tables"
)

// The engines behind Solver, for the tests of package solver_test that
// run them directly: 7x6's (Standard, NewStandard), and those of other
// boards on a 7x6 geometry beside it (TestEnginesAgree, BenchmarkEngines).
type Standard = engine

// NewStandard returns the engine of 7x6 with threads workers (at least 1)
// sharing tt, and a table of settings.LeafTableMiB for each.
func NewStandard(tt *tables.Compact, threads int) *engine {
	return newSolver(gridOf(position.Geometry{}), position.Geometry{}, tt, threads)
}

// New64 returns the engine of boards of at most 64 bits on g.
func New64(g *position.Geometry64, tt *tables.Wide, threads int) *engine64 {
	return newSolver64(gridOf(g), g, tt, threads)
}

// New128 returns the engine of boards of at most 128 bits on g.
func New128(g *position.Geometry128, tt *tables.Wide, threads int) *engine128 {
	return newSolver128(gridOf(g), g, tt, threads)
}

// gridOf returns the grid of g's board.
func gridOf(g interface {
	Width() int
	Height() int
}) *board.Grid {
	return must(board.NewGrid(board.Size{Width: g.Width(), Height: g.Height()}))
}

// SpreadFromStart makes analyses with a time limit search their moves in
// rounds from the start (spreadFirst 0), until the returned func restores
// it.
func SpreadFromStart() (restore func()) {
	was := spreadFirst
	spreadFirst = 0
	return func() { spreadFirst = was }
}

// New49 returns the engine of boards of at most 49 bits on g.
func New49(g *position.Geometry64, tt *tables.Compact, threads int) *engine49 {
	return newSolver49(gridOf(g), g, tt, threads)
}
