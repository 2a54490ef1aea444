package solver

import (
	"c4solve/board"
	"c4solve/ttable"
)

// New64 and New128 give the tests of package solver_test the engines of
// other boards, which the package reaches only through Sized, to run them
// on a 7x6 geometry beside the 7x6 Solver (TestEnginesAgree,
// BenchmarkEngines).
func New64(g *board.Geometry64, tt *ttable.Wide, threads int) *solver64 {
	return newSolver64(g, tt, threads)
}

// New128: see New64.
func New128(g *board.Geometry128, tt *ttable.Wide, threads int) *solver128 {
	return newSolver128(g, tt, threads)
}
