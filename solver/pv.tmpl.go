//go:build ignore

// The line of perfect play, written once for every board (engine.tmpl.go
// names the variants). internal/gen writes it as zpv.go, zpv49.go,
// zpv64.go, zpv80.go and zpv128.go.
// Edit this file, then run go generate ./... ; CI fails when the
// generated files differ from it (internal/gen).

package solver

import (
	"context"

	"c4solve/board"
	"c4solve/internal/position"
)

// PV returns one line of perfect play from p, which must not be over: the
// columns (0-based) played until the game ends, each side playing a move
// of optimal score, so that the winner wins as early as it can and the
// loser holds out as long as it can. The line ends in a four for the side
// the score favours, at the stone count the score implies, or, when the
// score is 0, in a full board. score must be p's exact score (from Solve).
// The Result is score and the nodes the searches of the line took.
//
// Among moves of optimal score the line takes the first in center-first
// order, so that it is the same at any number of threads, with or without
// a book, and from run to run: each move is checked with one null-window
// probe, "does this move keep the score?", whose answer is exact, and
// after the solve of p the table holds most of the answers.
func (s *Engine) PV(ctx context.Context, b board.Board, score int) ([]int, Result, error) {
	p := s.position(b)
	var line []int
	r := Result{Score: score, Lower: score, Upper: score}
	if err := s.tt.Acquire(); err != nil {
		return nil, r, err
	}
	defer s.tt.Release()
	view := &rootView{known: score, lower: score, upper: score}
	s.view.Store(view)
	defer s.view.Store(nil)
	s.newSearch() // one for all the probes
	for !p.Over() {
		col, err := s.bestMove(ctx, p, score, view, &r)
		if err != nil {
			return line, r, err
		}
		line = append(line, col)
		p.Play(col)
		score = -score
	}
	return line, r, nil
}

// bestMove returns a move of p that keeps p's exact score, adding the
// nodes of its probes to r's and v's.
func (s *Engine) bestMove(ctx context.Context, p position.Position, score int, v *rootView, r *Result) (int, error) {
	g := s.g
	n := p.Stones()
	for i := range g.Width() {
		col := g.ColumnOrder(i)
		if !p.CanPlay(col) {
			continue
		}
		if p.IsWinningMove(col) {
			if g.WinNextScore(n) == score {
				return col, nil
			}
			continue
		}
		child := p
		child.Play(col)
		if child.Stones() == g.Cells() {
			if score == 0 {
				return col, nil
			}
			continue
		}
		// The move keeps the score if the child's score is at most
		// -score: the probe of the range [-score, -score+1].
		cr, err := s.search(ctx, child, -score, -score+1, noFirst)
		r.Nodes, r.Expanded = r.Nodes+cr.Nodes, r.Expanded+cr.Expanded
		s.bank(v, cr.Nodes)
		if err != nil {
			return 0, err
		}
		if cr.Score <= -score {
			return col, nil
		}
	}
	return 0, errWrongScore
}
