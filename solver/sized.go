package solver

import (
	"context"

	"c4solve/board"
	"c4solve/ttable"
)

// Sized solves the positions of a board of any size (board.Grid) with
// the engine whose bitboards hold it: Solver64 up to 64 bits, Solver128
// above, the same search as Solver's for 7x6 (it is generated from the
// same source, engine.tmpl.go), lazy SMP and every rule included. It is
// the one door the command, the server and the books of other boards go
// through, so that none of them branches on the size.
//
// A Sized is not safe for concurrent use, except for Progress. The zero
// value is not usable; call NewSized.
type Sized struct {
	g    *board.Grid
	tt   *ttable.Wide
	s64  *Solver64  // nil for a board over 64 bits
	s128 *Solver128 // nil for one of at most 64
}

// NewSized returns a solver of the positions of grid g with a table of
// mib MiB shared by threads worker goroutines (at least 1). It panics if
// the table's memory cannot be had, as ttable.New does; AllocSized
// returns that as an error.
func NewSized(g *board.Grid, mib, threads int) *Sized {
	s, err := AllocSized(g, mib, threads)
	if err != nil {
		panic(err)
	}
	return s
}

// AllocSized is NewSized, but returns an error where the table's memory
// cannot be had.
func AllocSized(g *board.Grid, mib, threads int) (*Sized, error) {
	tt, err := AllocSizedTable(g, mib)
	if err != nil {
		return nil, err
	}
	return NewSizedOn(g, tt, threads), nil
}

// AllocSizedTable returns a table of mib MiB for the solvers of the
// positions of g (NewSizedOn): of keys of one word for a board of at
// most 64 bits, of two above.
func AllocSizedTable(g *board.Grid, mib int) (*ttable.Wide, error) {
	words := 1
	if g.Wide() {
		words = 2
	}
	return ttable.AllocWide(mib, words)
}

// NewSizedOn returns a solver of the positions of g with threads worker
// goroutines (at least 1) that uses tt, a table of AllocSizedTable's for
// g, which other Sized solvers may share and use at the same time (book
// generation's, one a goroutine).
func NewSizedOn(g *board.Grid, tt *ttable.Wide, threads int) *Sized {
	s := &Sized{g: g, tt: tt}
	if g.Wide() {
		s.s128 = New128(g.Geometry128(), tt, threads)
	} else {
		s.s64 = New64(g.Geometry64(), tt, threads)
	}
	return s
}

// SizedBook is an opening book of a board of another size (package
// book's): the exact scores of positions of at most Depth stones.
type SizedBook interface {
	LookupBoard(board.Board) (score int, ok bool)
	Depth() int
}

// sizedBook is a SizedBook as the Book of the engine of positions P
// (Book64, Book128): board turns P into the grid's Board.
type sizedBook[P any] struct {
	bk    SizedBook
	board func(P) board.Board
}

func (b sizedBook[P]) Depth() int             { return b.bk.Depth() }
func (b sizedBook[P]) Lookup(p P) (int, bool) { return b.bk.LookupBoard(b.board(p)) }

// UseBook makes the solver answer from bk (nil for none) the positions it
// holds, at the root and in the search.
func (s *Sized) UseBook(bk SizedBook) {
	switch {
	case s.s128 != nil && bk == nil:
		s.s128.UseBook(nil)
	case s.s128 != nil:
		s.s128.UseBook(sizedBook[board.Position128]{bk, s.g.BoardOf128})
	case bk == nil:
		s.s64.UseBook(nil)
	default:
		s.s64.UseBook(sizedBook[board.Position64]{bk, s.g.BoardOf64})
	}
}

// UseTableFile loads the entries of tf into the table and keeps there the
// entries of large subtrees from now on (Solver.UseTableFile).
func (s *Sized) UseTableFile(tf *TableFile) error {
	if s.s128 != nil {
		return s.s128.UseTableFile(tf)
	}
	return s.s64.UseTableFile(tf)
}

// Grid returns the solver's grid.
func (s *Sized) Grid() *board.Grid { return s.g }

// Threads returns the number of worker goroutines.
func (s *Sized) Threads() int {
	if s.s128 != nil {
		return len(s.s128.workers)
	}
	return len(s.s64.workers)
}

// Table returns the solver's shared table.
func (s *Sized) Table() *ttable.Wide { return s.tt }

// TableBytes returns the memory of the solver's shared table.
func (s *Sized) TableBytes() int { return s.tt.Bytes() }

// Clear empties the tables, so that the next solve starts cold.
func (s *Sized) Clear() {
	if s.s128 != nil {
		s.s128.Clear()
		return
	}
	s.s64.Clear()
}

// ClearAll empties the tables as Clear does, and zeroes all of the shared
// table's memory (ttable.Wide.ClearAll): once before a benchmark's timed
// solves, so that none pays for the first touch of a page.
func (s *Sized) ClearAll() {
	s.Clear()
	s.tt.ClearAll()
}

// Solve returns the exact score of b, which must not be over, as
// Solver.Solve does: when ctx is done, ctx's error and the bounds found.
func (s *Sized) Solve(ctx context.Context, b board.Board) (Result, error) {
	if s.s128 != nil {
		return s.s128.Solve(ctx, b.Position128())
	}
	return s.s64.Solve(ctx, b.Position64())
}

// SolveAtLeast returns the exact score of b, given that it is at least
// lower, as Solver.SolveAtLeast does.
func (s *Sized) SolveAtLeast(ctx context.Context, b board.Board, lower int) (Result, error) {
	if s.s128 != nil {
		return s.s128.SolveAtLeast(ctx, b.Position128(), lower)
	}
	return s.s64.SolveAtLeast(ctx, b.Position64(), lower)
}

// SolveWeak returns the sign of b's score (1, 0 or -1), as
// Solver.SolveWeak does.
func (s *Sized) SolveWeak(ctx context.Context, b board.Board) (Result, error) {
	if s.s128 != nil {
		return s.s128.SolveWeak(ctx, b.Position128())
	}
	return s.s64.SolveWeak(ctx, b.Position64())
}

// Progress returns the nodes searched so far by the solve under way and
// the bounds on its score established so far, as Solver.Progress does. It
// is safe to call from any goroutine while Solve runs.
func (s *Sized) Progress() (nodes uint64, lower, upper int) {
	if s.s128 != nil {
		return s.s128.Progress()
	}
	return s.s64.Progress()
}

// SizedAnalysis is Analysis for a board of any size: the score of each
// move from the point of view of the side that plays it, column 1 first,
// Legal false for a full column. When Analyze is stopped, Lower <= score
// <= Upper is what it established about the position's score.
type SizedAnalysis struct {
	Scores          []int
	Legal           []bool
	Lower, Upper    int
	Nodes, Expanded uint64
}

// Columns returns an analysis that finished as Analysis.Columns does: the
// score of each move, nil for a full column, and the columns, numbered
// from 1, of the best moves.
func (an SizedAnalysis) Columns() (scores []*int, best []int) {
	scores = make([]*int, len(an.Scores))
	for col := range an.Scores {
		if an.Legal[col] {
			scores[col] = &an.Scores[col]
			if an.Scores[col] == an.Lower {
				best = append(best, col+1)
			}
		}
	}
	return scores, best
}

// BestMove returns the column (0-based) of the best move of an analysis
// that finished: among the moves of the best score, the first in
// center-first order, as Analysis.BestMove.
func (an SizedAnalysis) BestMove() int {
	for _, col := range board.CenterFirst(len(an.Scores)) {
		if an.Legal[col] && an.Scores[col] == an.Lower {
			return col
		}
	}
	return -1
}

// sized returns the first width columns of an analysis's arrays as a
// SizedAnalysis.
func sized(width int, scores []int, legal []bool, lower, upper int, nodes, expanded uint64) SizedAnalysis {
	return SizedAnalysis{Scores: scores[:width], Legal: legal[:width], Lower: lower, Upper: upper, Nodes: nodes, Expanded: expanded}
}

// Sized returns the analysis as a SizedAnalysis, for code that handles
// boards of every size.
func (an Analysis) Sized() SizedAnalysis {
	return sized(board.Width, an.Scores[:], an.Legal[:], an.Lower, an.Upper, an.Nodes, an.Expanded)
}

// Analyze solves every move of b, which must not be over, as
// Solver.Analyze does; with weak, for the sign of each score only.
func (s *Sized) Analyze(ctx context.Context, b board.Board, weak bool) (SizedAnalysis, error) {
	w := s.g.Width
	if s.s128 != nil {
		analyze := s.s128.Analyze
		if weak {
			analyze = s.s128.AnalyzeWeak
		}
		an, err := analyze(ctx, b.Position128())
		return sized(w, an.Scores[:], an.Legal[:], an.Lower, an.Upper, an.Nodes, an.Expanded), err
	}
	analyze := s.s64.Analyze
	if weak {
		analyze = s.s64.AnalyzeWeak
	}
	an, err := analyze(ctx, b.Position64())
	return sized(w, an.Scores[:], an.Legal[:], an.Lower, an.Upper, an.Nodes, an.Expanded), err
}

// PV returns a line of perfect play from b, whose score is score, to the
// end of the game, as Solver.PV does, and the nodes its searches took.
func (s *Sized) PV(ctx context.Context, b board.Board, score int) ([]int, uint64, error) {
	if s.s128 != nil {
		return s.s128.PV(ctx, b.Position128(), score)
	}
	return s.s64.PV(ctx, b.Position64(), score)
}
