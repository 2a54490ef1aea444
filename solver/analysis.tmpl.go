//go:build ignore

// The analysis of every move of a position, written once for every board
// (engine.tmpl.go names the variants). internal/gen writes it as
// zanalysis.go, zanalysis49.go, zanalysis64.go, zanalysis80.go and
// zanalysis128.go.
// Edit this file, then run go generate ./... ; CI fails when the
// generated files differ from it (internal/gen).

package solver

import (
	"context"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"c4solve/board"
	"c4solve/internal/position"
	"c4solve/internal/settings"
)

// EngineAnalysis holds the score of each move of a position, from the point of
// view of the side that plays it, column 1 first. Legal[c] is false for a
// full column, whose Scores[c] is 0.
//
// When Analyze is stopped, Scores are not all known, and Lower <= score
// <= Upper is what it established about the position's score (the best
// move's); when it finishes, both are that score.
type EngineAnalysis struct {
	g            position.Geometry
	Scores       [maxWidth]int
	Legal        [maxWidth]bool
	Lows, Highs  [maxWidth]int // each move's score lies in [Lows, Highs]: Scores where solved
	Lower, Upper int
	Nodes        uint64
	Expanded     uint64 // of Nodes, those that searched a child (Result.Expanded)
}

// public returns the analysis as an Analysis, for code that handles
// boards of every size.
func (an EngineAnalysis) public() Analysis {
	w := an.g.Width()
	return Analysis{Scores: an.Scores[:w], Legal: an.Legal[:w], Lows: an.Lows[:w], Highs: an.Highs[:w],
		Lower: an.Lower, Upper: an.Upper, Nodes: an.Nodes, Expanded: an.Expanded}
}

// Analyze solves every move of b, which must not be over; with weak, for
// the sign of its score only: 1 win, 0 draw, -1 loss for the side that
// plays it, which searches less. With more than one thread, the moves are
// solved side by side (see solveChildren); with a time limit (ctx's
// deadline), those still open after the first spreadFirst of the time are
// searched in rounds for the rest of it (see spread).
func (s *Engine) Analyze(ctx context.Context, b board.Board, weak bool) (Analysis, error) {
	g := s.g
	if !weak {
		an, err := s.analyze(ctx, s.position(b), g.MinScore(), g.MaxScore())
		return an.public(), err
	}
	an, err := s.analyze(ctx, s.position(b), -1, 1)
	for col := range an.Scores {
		an.Scores[col] = board.WeakScore(an.Scores[col])
		an.Lows[col], an.Highs[col] = board.WeakScore(an.Lows[col]), board.WeakScore(an.Highs[col])
	}
	an.Lower, an.Upper = board.WeakScore(an.Lower), board.WeakScore(an.Upper)
	return an.public(), err
}

// childSolve is the solve of one move of a position being analyzed.
type childSolve struct {
	p      position.Position // the position after the move
	col    int               // the move's column
	r      Result
	err    error
	solved bool // r and err are final

	// rb is the range of the child's score, set before any search (see
	// Engine.analyze) and safe for concurrent use: Progress reads it.
	// The rest is guarded by solveChildren's mutex.
	rb        rootBounds
	started   bool   // a worker has begun its search
	searching int    // workers searching it now
	nodes     uint64 // nodes its searches took
	expanded  uint64 // of them, those that searched a child
}

// analyze solves every move of p for a score clipped to [lower, upper].
func (s *Engine) analyze(ctx context.Context, p position.Position, lower, upper int) (EngineAnalysis, error) {
	g := s.g
	an := EngineAnalysis{g: g}
	if p.Over() {
		return an, ErrGameOver
	}
	if err := s.tt.Acquire(); err != nil {
		return an, err
	}
	defer s.tt.Release()
	s.newSearch() // one for the seven solves
	n := p.Stones()
	// known is the best score of the moves that need no search: a win at
	// once, or a draw in the last cell.
	known := g.MinScore() - 1
	var children []*childSolve
	var childOf [maxWidth]*childSolve
	for col := 0; col < g.Width(); col++ {
		if !p.CanPlay(col) {
			continue
		}
		if p.IsWinningMove(col) {
			known = max(known, g.WinNextScore(n))
			continue
		}
		child := p
		child.Play(col)
		if child.Stones() == g.Cells() { // the last cell, and no four: a draw
			known = max(known, 0)
			continue
		}
		childOf[col] = &childSolve{p: child, col: col}
		children = append(children, childOf[col])
	}
	// A position of the book whose children are not in it (it has the
	// book's depth in stones) has a known score sc, the best of its
	// moves': every child scores at least -sc, and the best exactly -sc,
	// which the first probe, "above -sc?", then proves.
	childLower, first := lower, noFirst
	if s.book.Book != nil && n <= s.book.Depth() {
		if sc, ok := s.book.Lookup(p); ok {
			childLower, first = max(lower, -sc), -sc
		}
	}
	// Every child's range is set before any search, so that Progress
	// reads the bounds of the position from those of all its moves.
	view := &rootView{known: known, lower: lower, upper: upper}
	for _, c := range children {
		r, lo, hi, err := s.prepare(c.p, childLower, upper)
		if err != nil || lo >= hi {
			c.r, c.err, c.solved = r, err, true
			lo, hi = r.Lower, r.Upper
		}
		c.rb.set(lo, hi, first)
		view.moves = append(view.moves, moveRange{rb: &c.rb, least: lossLaterScore(g, n+1), most: winLaterScore(g, n+1), lower: childLower})
	}
	s.view.Store(view)
	defer s.view.Store(nil)
	if deadline, limited := ctx.Deadline(); limited && len(children) > 1 {
		// As without a time limit for the first spreadFirst of the time,
		// then, if the moves are not all solved, in rounds for the rest.
		first, cancel := context.WithDeadline(ctx, time.Now().Add(time.Duration(spreadFirst*float64(time.Until(deadline)))))
		s.solveMoves(first, children, view)
		cancel()
		s.spread(ctx, children, view)
	} else {
		s.solveMoves(ctx, children, view)
	}
	for _, c := range children {
		if !c.solved {
			s.settle(ctx, c, childLower)
		}
	}

	an.Lower, an.Upper = g.MinScore()-1, g.MinScore()-1
	var err error
	for col := 0; col < g.Width(); col++ {
		if !p.CanPlay(col) {
			continue
		}
		an.Legal[col] = true
		c := childOf[col]
		switch {
		case p.IsWinningMove(col):
			an.Scores[col] = g.WinNextScore(n)
		case c == nil: // a draw in the last cell
		case c.err != nil:
			an.Nodes, an.Expanded = an.Nodes+c.r.Nodes, an.Expanded+c.r.Expanded
			if err == nil {
				err = c.err
			}
			an.Lows[col], an.Highs[col] = -c.r.Upper, -c.r.Lower
			an.Lower, an.Upper = max(an.Lower, -c.r.Upper), max(an.Upper, -c.r.Lower)
			continue
		default:
			an.Nodes, an.Expanded = an.Nodes+c.r.Nodes, an.Expanded+c.r.Expanded
			an.Scores[col] = -c.r.Score
		}
		an.Lows[col], an.Highs[col] = an.Scores[col], an.Scores[col]
		an.Lower, an.Upper = max(an.Lower, an.Scores[col]), max(an.Upper, an.Scores[col])
	}
	if err == nil {
		err = ctx.Err()
	}
	return an, err
}

// settle makes the result of c, whose searches have stopped, what its
// range rb, clipped below at lower, says: the score if it closed, else the
// bounds found, with ctx's error.
func (s *Engine) settle(ctx context.Context, c *childSolve, lower int) {
	var closed bool
	c.r, closed = c.rb.result(lossLaterScore(s.g, c.p.Stones()), winLaterScore(s.g, c.p.Stones()), lower, c.nodes)
	c.r.Expanded = c.expanded
	if !closed {
		c.err = ctx.Err()
	}
	c.solved = true
}

// solveMoves solves the children not solved yet, whose ranges are set:
// with more than one worker side by side (solveChildren), else one after
// another, in column order, until ctx is done; the children not begun
// then keep their whole ranges.
func (s *Engine) solveMoves(ctx context.Context, children []*childSolve, v *rootView) {
	if len(s.workers) > 1 && len(children) > 1 {
		s.solveChildren(ctx, children)
		// Banked, as each search below is, so that Progress's count
		// does not go back when spread's searches begin.
		var nodes uint64
		for _, w := range s.workers {
			nodes += w.nodes
		}
		s.bank(v, nodes)
		return
	}
	for _, c := range children {
		if c.solved || ctx.Err() != nil {
			continue
		}
		s.runWorkers(ctx, c.p, &c.rb, 0)
		for _, w := range s.workers {
			c.nodes, c.expanded = c.nodes+w.nodes, c.expanded+w.expanded
		}
		s.bank(v, c.nodes)
	}
}

// centerFirst returns the children not solved yet, center first: the
// central moves are the likely best, and their entries help the others.
func (s *Engine) centerFirst(children []*childSolve) []*childSolve {
	order := make([]*childSolve, 0, len(children))
	for i := range s.g.Width() {
		col := s.g.ColumnOrder(i)
		for _, c := range children {
			if !c.solved && c.col == col {
				order = append(order, c)
			}
		}
	}
	return order
}

// spread solves the children not solved yet, whose ranges are set, for an
// analysis with a time limit (ctx's deadline), in rounds: each round
// searches every child whose range is open, center first, for at most
// budget nodes a worker, and the next round doubles the budget, from
// settings.SpreadNodes; a round with one child open searches it to the end. Each
// child's probes are a solve's: the first, far from 0, are cheap and
// narrow its range the most. A search cut by its budget leaves its
// entries in the table, where the next round finds them. Solved one
// after another, the first child took the whole of the time on 8x8, and
// the others kept their whole ranges; in rounds, however soon the time
// ends, every move has had its share of it. When ctx is done, the
// children keep the ranges found.
func (s *Engine) spread(ctx context.Context, children []*childSolve, v *rootView) {
	order := s.centerFirst(children)
	defer s.flushJournal()
	for budget := uint64(settings.SpreadNodes); ; budget = min(2*budget, 1<<62) {
		var open []*childSolve
		for _, c := range order {
			if lo, hi := c.rb.get(); lo < hi {
				open = append(open, c)
			}
		}
		if len(open) == 1 {
			budget = 0
		}
		for _, c := range open {
			if ctx.Err() != nil {
				return
			}
			s.runWorkers(ctx, c.p, &c.rb, budget)
			var nodes uint64
			for _, w := range s.workers {
				nodes, c.expanded = nodes+w.nodes, c.expanded+w.expanded
			}
			c.nodes += nodes
			s.bank(v, nodes)
		}
		if len(open) <= 1 {
			return
		}
	}
}

// solveChildren solves the children not solved yet, whose ranges are set,
// side by side, one worker each, center first; a worker with no child left
// to start joins the one being searched by the fewest workers, as a helper
// of lazy SMP (Solver's doc). Solving positions side by side gains more
// from the cores than lazy SMP does on each in turn, and the helpers keep
// the cores busy at the end, when one hard child is left. When ctx is
// done, the children not finished keep the ranges found.
func (s *Engine) solveChildren(ctx context.Context, children []*childSolve) {
	order := s.centerFirst(children)
	if len(order) == 0 {
		return
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
	var eg errgroup.Group
	for _, w := range s.workers {
		w.begin(s.busy, false, 0, 0)
		eg.Go(func() error {
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
	eg.Wait()
	s.flushJournal()
}
