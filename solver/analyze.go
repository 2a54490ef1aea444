package solver

import (
	"context"
	"sync"

	"golang.org/x/sync/errgroup"

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
	Expanded     uint64 // of Nodes, those that searched a child (Result.Expanded)
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

// Columns returns an analysis that finished as programs and people read
// it, the one view of the command's output and the server's answers: the
// score of each move, column 1 first, nil for a full column, and the
// columns, numbered from 1, of the best moves.
func (an Analysis) Columns() (scores [board.Width]*int, best []int) {
	for col := range an.Scores {
		if an.Legal[col] {
			scores[col] = &an.Scores[col]
		}
	}
	for _, col := range an.Best() {
		best = append(best, col+1)
	}
	return scores, best
}

// BestMove returns the column (0-based) of the best move of an analysis
// that finished: among the moves of the best score, the first in
// center-first order, as PV chooses.
func (an Analysis) BestMove() int {
	for _, col := range columnOrder {
		if an.Legal[col] && an.Scores[col] == an.Lower {
			return col
		}
	}
	return -1 // no legal move: not an analysis of a position that is not over
}

// Analyze solves every move of p, which must not be over. With more than
// one thread, the moves are solved side by side (see solveChildren).
func (s *Solver) Analyze(ctx context.Context, p board.Position) (Analysis, error) {
	return s.analyze(ctx, p, board.MinScore, board.MaxScore)
}

// AnalyzeWeak solves every move of p, which must not be over, for the sign
// of its score only: 1 win, 0 draw, -1 loss for the side that plays it.
// It searches less than Analyze.
func (s *Solver) AnalyzeWeak(ctx context.Context, p board.Position) (Analysis, error) {
	an, err := s.analyze(ctx, p, -1, 1)
	for col := range an.Scores {
		an.Scores[col] = board.WeakScore(an.Scores[col])
	}
	an.Lower, an.Upper = board.WeakScore(an.Lower), board.WeakScore(an.Upper)
	return an, err
}

// childSolve is the solve of one move of a position being analyzed.
type childSolve struct {
	p      board.Position // the position after the move
	col    int            // the move's column
	r      Result
	err    error
	solved bool // r and err are final

	// For solveChildren, guarded by its mutex but rb, which is safe for
	// concurrent use.
	rb        rootBounds
	started   bool   // a worker has begun its search
	searching int    // workers searching it now
	nodes     uint64 // nodes its searches took
	expanded  uint64 // of them, those that searched a child
}

// analyze solves every move of p for a score clipped to [lower, upper].
func (s *Solver) analyze(ctx context.Context, p board.Position, lower, upper int) (Analysis, error) {
	var an Analysis
	if p.Over() {
		return an, ErrGameOver
	}
	s.newSearch() // one for the seven solves
	n := p.Stones()
	var children []*childSolve
	var childOf [board.Width]*childSolve
	for col := 0; col < board.Width; col++ {
		if !p.CanPlay(col) || p.IsWinningMove(col) {
			continue
		}
		child := p
		child.Play(col)
		if child.Stones() < board.Cells { // else the last cell, and no four: a draw
			childOf[col] = &childSolve{p: child, col: col}
			children = append(children, childOf[col])
		}
	}
	// A position of the book whose children are not in it (it has the
	// book's depth in stones) has a known score sc, the best of its
	// moves': every child scores at least -sc, and the best exactly -sc,
	// which the first probe, "above -sc?", then proves.
	childLower, first := lower, noFirst
	if s.book != nil && n <= s.book.Depth() {
		if sc, ok := s.book.Lookup(p); ok {
			childLower, first = max(lower, -sc), -sc
		}
	}
	if len(s.workers) > 1 && len(children) > 1 {
		s.solveChildren(ctx, children, childLower, upper, first)
	} else {
		for _, c := range children {
			if ctx.Err() != nil {
				break
			}
			c.r, c.err = s.search(ctx, c.p, childLower, upper, first)
			c.solved = true
		}
	}

	// The bounds of the moves not solved: any score a child can have.
	lo, hi := max(-board.WinNextScore(n+1), board.MinScore), min(-board.LossNextScore(n+1), board.MaxScore)
	an.Lower, an.Upper = board.MinScore-1, board.MinScore-1
	var err error
	for col := 0; col < board.Width; col++ {
		if !p.CanPlay(col) {
			continue
		}
		an.Legal[col] = true
		c := childOf[col]
		switch {
		case p.IsWinningMove(col):
			an.Scores[col] = board.WinNextScore(n)
		case c == nil: // a draw in the last cell
		case !c.solved:
			an.Lower, an.Upper = max(an.Lower, lo), max(an.Upper, hi)
			continue
		case c.err != nil:
			an.Nodes, an.Expanded = an.Nodes+c.r.Nodes, an.Expanded+c.r.Expanded
			if err == nil {
				err = c.err
			}
			an.Lower, an.Upper = max(an.Lower, -c.r.Upper), max(an.Upper, -c.r.Lower)
			continue
		default:
			an.Nodes, an.Expanded = an.Nodes+c.r.Nodes, an.Expanded+c.r.Expanded
			an.Scores[col] = -c.r.Score
		}
		an.Lower, an.Upper = max(an.Lower, an.Scores[col]), max(an.Upper, an.Scores[col])
	}
	if err == nil {
		err = ctx.Err()
	}
	return an, err
}

// solveChildren solves the children side by side, one worker each, center
// first; a worker with no child left to start joins the one being searched
// by the fewest workers, as a helper of lazy SMP (Solver's doc). Solving
// positions side by side gains more from the cores than lazy SMP does on
// each in turn, and the helpers keep the cores busy at the end, when one
// hard child is left. When ctx is done, the children not finished keep
// the bounds found, with ctx's error.
func (s *Solver) solveChildren(ctx context.Context, children []*childSolve, lower, upper, first int) {
	open := 0
	for _, c := range children {
		r, lo, hi, err := s.prepare(c.p, lower, upper)
		if err != nil || lo >= hi {
			c.r, c.err, c.solved = r, err, true
			continue
		}
		c.rb.set(lo, hi, first)
		open++
	}
	if open == 0 {
		return
	}
	// Center first: the central moves are the likely best, and their
	// entries help the others.
	order := make([]*childSolve, 0, len(children))
	for _, col := range columnOrder {
		for _, c := range children {
			if !c.solved && c.col == col {
				order = append(order, c)
			}
		}
	}
	var mu sync.Mutex
	pick := func() (c *childSolve, helper bool) {
		mu.Lock()
		defer mu.Unlock()
		for _, c := range order {
			if !c.started {
				c.started = true
				c.searching++
				return c, false
			}
		}
		var least *childSolve
		for _, c := range order {
			if lo, hi := c.rb.get(); lo < hi && (least == nil || c.searching < least.searching) {
				least = c
			}
		}
		if least != nil {
			least.searching++
		}
		return least, true
	}
	var g errgroup.Group
	for _, w := range s.workers {
		w.begin(s.busy, false, 0)
		g.Go(func() error {
			if !w.clearLeaf(ctx, nil) {
				return nil
			}
			for ctx.Err() == nil {
				c, helper := pick()
				if c == nil {
					break
				}
				w.helper = helper
				before, beforeExpanded := w.nodes, w.expanded
				w.probeRoot(ctx, c.p, &c.rb)
				mu.Lock()
				c.nodes += w.nodes - before
				c.expanded += w.expanded - beforeExpanded
				c.searching--
				mu.Unlock()
			}
			return nil
		})
	}
	g.Wait()
	for _, c := range order {
		var closed bool
		c.r, closed = c.rb.result(c.p.Stones(), lower, c.nodes)
		c.r.Expanded = c.expanded
		if !closed {
			c.err = ctx.Err()
		}
		c.solved = true
	}
}
