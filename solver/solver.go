package solver

import (
	"context"

	"c4solve/board"
	"c4solve/ttable"
)

// Solver solves the positions of a board of any size (board.Grid) with
// the engine whose bitboards and table hold it, each generated from the
// same templates (see "Every board" in the package doc): the one door the
// command, the server, books and bench go through, 7x6 as every other
// board, so that none of them branches on the size.
//
// A Solver is not safe for concurrent use, except for Progress. The zero
// value is not usable; call New.
type Solver struct {
	g  *board.Grid
	tt ttable.Table
	e  variant
	bk Book // the book it uses, nil for none
}

// New returns a solver of the positions of grid g with a table of
// mib MiB shared by threads worker goroutines (at least 1), or an error
// where the table's memory cannot be had.
func New(g *board.Grid, mib, threads int) (*Solver, error) {
	tt, err := ttable.New(TableConfig(g, mib))
	if err != nil {
		return nil, err
	}
	return NewOn(g, tt, threads), nil
}

// TableConfig returns the configuration of a table of mib MiB for the
// solvers of the positions of g (NewOn): keys of g's bits (of 64 bits
// and one for each column on the boards of at most 64 cells over 64
// bits, whose keys are of one word and the heights), growing on every
// board but 7x6, whose table is made once for many solves.
func TableConfig(g *board.Grid, mib int) ttable.Config {
	e := engineOf(g)
	return ttable.Config{MiB: mib, KeyBits: e.keyBits(g), Grow: e.grows}
}

// NewOn returns a solver of the positions of g with threads worker
// goroutines (at least 1) that uses tt, a table of TableConfig's for
// g, which other Solver solvers may share and use at the same time (book
// generation's, one a goroutine).
func NewOn(g *board.Grid, tt ttable.Table, threads int) *Solver {
	return &Solver{g: g, tt: tt, e: engineOf(g).solver(g, tt, threads)}
}

// engineKind is one of the engines, a row of engineKinds (generated from
// internal/gen's table of engines): the boards it solves, the shared
// table it keeps their positions in, and its constructor.
type engineKind struct {
	fits    func(g *board.Grid) bool
	keyBits func(g *board.Grid) int // of its shared table's keys (ttable.Config)
	grows   bool                    // its shared table grows (ttable.Config)
	solver  func(g *board.Grid, tt ttable.Table, threads int) variant
}

// engineOf returns the engine of g's board: the first of engineKinds that
// fits it. The choice is made here alone.
func engineOf(g *board.Grid) *engineKind {
	for i := range engineKinds {
		if engineKinds[i].fits(g) {
			return &engineKinds[i]
		}
	}
	panic("solver: no engine fits " + g.Size.String())
}

// must returns v, and panics for an error: the geometry of a grid's
// board, which NewGrid checked, and a worker's own table of settings.LeafTableMiB
// (newTable), whose memory a process that has its shared table has.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// variant is what Solver asks of the engine of its board (engine,
// engine49, engine64, engine80, engine128): its methods on positions
// as Boards.
type variant interface {
	Solve(ctx context.Context, b board.Board) (Result, error)
	SolveAtLeast(ctx context.Context, b board.Board, lower int) (Result, error)
	SolveWeak(ctx context.Context, b board.Board) (Result, error)
	Analyze(ctx context.Context, b board.Board, weak bool) (Analysis, error)
	PV(ctx context.Context, b board.Board, score int) ([]int, Result, error)
	Progress() (nodes uint64, lower, upper int)
	UseBook(bk Book) // nil for none
	UseTableFile(tf *TableFile) error
	Threads() int
	Clear()
	SetAging(on bool)
	keepIn(tf *TableFile)
	tableFile() *TableFile
}

// Book is an opening book of one board (package book's): the exact scores
// of positions of at most Depth stones.
type Book interface {
	Lookup(board.Board) (score int, ok bool)
	Depth() int
}

// UseBook makes the solver answer from bk (nil for none) the positions it
// holds, at the root and in the search.
func (s *Solver) UseBook(bk Book) {
	s.bk = bk
	s.e.UseBook(bk)
}

// UseTableFile loads the entries of the table file tf (see TableFile)
// into the shared table, and makes the workers keep there the entries of
// large subtrees they store from now on (nil: none). The file must be of
// the Solver's board. A Clear drops the entries loaded: use it after.
func (s *Solver) UseTableFile(tf *TableFile) error { return s.e.UseTableFile(tf) }

// Grid returns the solver's grid.
func (s *Solver) Grid() *board.Grid { return s.g }

// Threads returns the number of worker goroutines.
func (s *Solver) Threads() int { return s.e.Threads() }

// Table returns the solver's shared table.
func (s *Solver) Table() ttable.Table { return s.tt }

// Clear empties the tables, so that the next solve starts cold.
func (s *Solver) Clear() { s.e.Clear() }

// ClearAll empties the tables as Clear does, and zeroes all of the shared
// table's memory (ttable.Table.ClearAll): once before a benchmark's timed
// solves, so that none pays for the first touch of a page.
func (s *Solver) ClearAll() {
	s.Clear()
	s.tt.ClearAll()
}

// Solve returns the exact score of b, which must not be over. It stops
// early when ctx is done, returning ctx's error and the bounds found so
// far. The score does not depend on the number of threads.
func (s *Solver) Solve(ctx context.Context, b board.Board) (Result, error) { return s.e.Solve(ctx, b) }

// SolveAtLeast returns the exact score of b, as Solve, given that it is at
// least lower: minus the score of a parent of b, as an opening book of one
// stone less knows it. It asks first whether the score is exactly lower,
// which one probe answers where b is the parent's best move, and searches
// nothing below lower. A lower bound that does not hold gives a wrong
// score; one of the board's MinScore or less is no bound.
func (s *Solver) SolveAtLeast(ctx context.Context, b board.Board, lower int) (Result, error) {
	return s.e.SolveAtLeast(ctx, b, lower)
}

// SolveWeak returns the sign of the score of b: 1 if the side to move
// wins, 0 for a draw, -1 if it loses. It searches less than Solve.
func (s *Solver) SolveWeak(ctx context.Context, b board.Board) (Result, error) {
	return s.e.SolveWeak(ctx, b)
}

// Progress returns the nodes searched so far by the solve, analysis or
// line of perfect play under way (as of the workers' last report, every
// few thousand nodes) and the bounds established so far on the score of
// the position it was asked about: during Analyze, the bounds that its
// moves' bounds give the best move's score; during PV, the score it was
// given. It is safe to call from any goroutine while Solve, Analyze or PV
// runs.
func (s *Solver) Progress() (nodes uint64, lower, upper int) { return s.e.Progress() }

// Analyze solves every move of b, which must not be over; with weak, for
// the sign of each score only. With more than one thread, the moves are
// solved side by side. With a time limit (ctx's deadline), the moves still
// open after the first third of it are searched in rounds of a growing
// budget of nodes each, center first, so that an analysis stopped by the
// limit has narrowed every move's bounds (Lows, Highs), not the first
// move's alone, and BestFound has bounds to tell the moves apart.
func (s *Solver) Analyze(ctx context.Context, b board.Board, weak bool) (Analysis, error) {
	return s.e.Analyze(ctx, b, weak)
}

// PV returns one line of perfect play from b, which must not be over: the
// columns (0-based) played until the game ends, each side playing a move
// of optimal score, the first such in center-first order, so that the line
// is the same at any number of threads. score must be b's exact score
// (from Solve). The Result is score and the nodes the searches of the line
// took.
func (s *Solver) PV(ctx context.Context, b board.Board, score int) ([]int, Result, error) {
	return s.e.PV(ctx, b, score)
}
