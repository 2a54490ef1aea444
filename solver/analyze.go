package solver

import (
	"context"

	"c4solve/board"
)

// Analysis holds the score of each move of a position, from the point of
// view of the side that plays it, column 1 first. Legal[c] is false for a
// full column, whose Scores[c] is 0.
type Analysis struct {
	Scores [board.Width]int
	Legal  [board.Width]bool
	Nodes  uint64
}

// Analyze solves every move of p, which must not be over.
func (s *Solver) Analyze(ctx context.Context, p board.Position) (Analysis, error) {
	return s.analyze(ctx, p, s.Solve)
}

// AnalyzeWeak solves every move of p, which must not be over, for the sign
// of its score only: 1 win, 0 draw, -1 loss for the side that plays it.
// It searches less than Analyze.
func (s *Solver) AnalyzeWeak(ctx context.Context, p board.Position) (Analysis, error) {
	an, err := s.analyze(ctx, p, s.SolveWeak)
	for col := range an.Scores {
		an.Scores[col] = sign(an.Scores[col])
	}
	return an, err
}

func (s *Solver) analyze(ctx context.Context, p board.Position,
	solve func(context.Context, board.Position) (Result, error)) (Analysis, error) {
	var an Analysis
	if p.Over() {
		return an, ErrGameOver
	}
	for col := 0; col < board.Width; col++ {
		if !p.CanPlay(col) {
			continue
		}
		an.Legal[col] = true
		if p.IsWinningMove(col) {
			an.Scores[col] = WinScore(p.Moves())
			continue
		}
		child := p
		child.Play(col)
		if child.Moves() == board.Cells {
			continue // the last cell, and no four: a draw
		}
		r, err := solve(ctx, child)
		an.Nodes += r.Nodes
		if err != nil {
			return an, err
		}
		an.Scores[col] = -r.Score
	}
	return an, nil
}
