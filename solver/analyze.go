package solver

import (
	"context"

	"c4solve/board"
)

// Analysis holds the score of each move of a position, from the point of
// view of the side that plays it, column 1 first. Legal[c] is false for a
// full column, whose Scores[c] is 0.
//
// When Analyze is stopped, Scores are not all known, and Lower <= score
// <= Upper is what it established about the position's score (the best
// move's); when it finishes, both are that score.
type Analysis struct {
	Scores       [board.Width]int
	Legal        [board.Width]bool
	Lower, Upper int
	Nodes        uint64
}

// Best returns the columns (0-based, in order) of the moves whose score is
// the best, Lower, of an analysis that finished.
func (an Analysis) Best() []int {
	var cols []int
	for col, sc := range an.Scores {
		if an.Legal[col] && sc == an.Lower {
			cols = append(cols, col)
		}
	}
	return cols
}

// Analyze solves every move of p, which must not be over.
func (s *Solver) Analyze(ctx context.Context, p board.Position) (Analysis, error) {
	return s.analyze(ctx, p, func(ctx context.Context, p board.Position) (Result, error) {
		return s.search(ctx, p, MinScore, MaxScore)
	})
}

// AnalyzeWeak solves every move of p, which must not be over, for the sign
// of its score only: 1 win, 0 draw, -1 loss for the side that plays it.
// It searches less than Analyze.
func (s *Solver) AnalyzeWeak(ctx context.Context, p board.Position) (Analysis, error) {
	an, err := s.analyze(ctx, p, func(ctx context.Context, p board.Position) (Result, error) {
		r, err := s.search(ctx, p, -1, 1)
		return r.signs(), err
	})
	for col := range an.Scores {
		an.Scores[col] = sign(an.Scores[col])
	}
	an.Lower, an.Upper = sign(an.Lower), sign(an.Upper)
	return an, err
}

func (s *Solver) analyze(ctx context.Context, p board.Position,
	solve func(context.Context, board.Position) (Result, error)) (Analysis, error) {
	var an Analysis
	if p.Over() {
		return an, ErrGameOver
	}
	s.newSearch() // one for the seven solves
	n := p.Moves()
	// The bounds of the moves not solved yet: any score a child can have.
	an.Lower, an.Upper = MinScore-1, MinScore-1
	lo, hi := max(-WinScore(n+1), MinScore), min(-LossScore(n+1), MaxScore)
	var err error
	for col := 0; col < board.Width; col++ {
		if !p.CanPlay(col) {
			continue
		}
		an.Legal[col] = true
		if err != nil {
			an.Lower, an.Upper = max(an.Lower, lo), max(an.Upper, hi)
			continue
		}
		child := p
		child.Play(col)
		if p.IsWinningMove(col) {
			an.Scores[col] = WinScore(n)
		} else if child.Moves() < board.Cells {
			var r Result
			r, err = solve(ctx, child)
			an.Nodes += r.Nodes
			if err != nil {
				an.Lower, an.Upper = max(an.Lower, -r.Upper), max(an.Upper, -r.Lower)
				continue
			}
			an.Scores[col] = -r.Score
		} // else the last cell, and no four: a draw, 0
		an.Lower, an.Upper = max(an.Lower, an.Scores[col]), max(an.Upper, an.Scores[col])
	}
	return an, err
}
