package solver

import (
	"context"
	"errors"

	"c4solve/board"
)

// PV returns one line of perfect play from p, which must not be over: the
// columns (0-based) played until the game ends, each side playing a move
// of optimal score, so that the winner wins as early as it can and the
// loser holds out as long as it can. The line ends in a four for the side
// the score favours, at the stone count the score implies, or, when the
// score is 0, in a full board. score must be p's exact score (from Solve).
//
// Among moves of optimal score the line takes the first in center-first
// order, so that it is the same at any number of threads, with or without
// a book, and from run to run: each move is checked with one null-window
// probe, "does this move keep the score?", whose answer is exact, and
// after the solve of p the table holds most of the answers.
func (s *Solver) PV(ctx context.Context, p board.Position, score int) ([]int, uint64, error) {
	var line []int
	var nodes uint64
	s.newSearch() // one for all the probes
	for !p.Over() {
		col, n, err := s.bestMove(ctx, p, score)
		nodes += n
		if err != nil {
			return line, nodes, err
		}
		line = append(line, col)
		p.Play(col)
		score = -score
	}
	return line, nodes, nil
}

// bestMove returns a move of p that keeps p's exact score.
func (s *Solver) bestMove(ctx context.Context, p board.Position, score int) (int, uint64, error) {
	n := p.Stones()
	var nodes uint64
	for _, col := range columnOrder {
		if !p.CanPlay(col) {
			continue
		}
		if p.IsWinningMove(col) {
			if board.WinNextScore(n) == score {
				return col, nodes, nil
			}
			continue
		}
		child := p
		child.Play(col)
		if child.Stones() == board.Cells {
			if score == 0 {
				return col, nodes, nil
			}
			continue
		}
		// The move keeps the score if the child's score is at most
		// -score: the probe of the range [-score, -score+1].
		r, err := s.search(ctx, child, -score, -score+1, noFirst)
		nodes += r.Nodes
		if err != nil {
			return 0, nodes, err
		}
		if r.Score <= -score {
			return col, nodes, nil
		}
	}
	return 0, nodes, errWrongScore
}

// errWrongScore is returned by PV when no move keeps the score it was given.
var errWrongScore = errors.New("solver: no move keeps the score given to PV: it is not the position's score")
