package solver

import (
	"context"
	"errors"

	"c4solve/board"
	"c4solve/ttable"
)

// Sized solves positions of a board of any size (board.Grid), for the
// boards other than 7x6, which Solver solves faster. Its search is
// Solver's in outline, on one goroutine: null-window probes that narrow
// the root's range (nextProbe), principal variation search, moves that
// lose at once left out, forced moves played through, a move that leaves
// no parry taken as a win, the table's move first and the others by
// Solver's orderScore, center first; bounds from the lines of four left
// open; enhanced transposition cutoffs above sizedETCEmpty empty cells;
// positions and their mirror images share an entry of a table that keeps
// whole keys (ttable.Keyed). Allis' rules, lazy SMP, the busy table and
// the workers' own tables are Solver's alone.
//
// A Sized is not safe for concurrent use. The zero value is not usable;
// call NewSized.
type Sized struct {
	g     *board.Grid
	tt    *ttable.Keyed
	order []board.Bitboard // the columns' cells, center first

	book      SizedBook // nil for none
	bookDepth int       // its depth, -1 for none

	nodes, expanded uint64
	done            <-chan struct{}
	stopped         bool
}

// NewSized returns a solver of positions of grid g with a table of mib
// MiB.
func NewSized(g *board.Grid, mib int) *Sized {
	s := &Sized{g: g, tt: ttable.NewKeyed(mib), bookDepth: -1}
	for _, col := range centerFirst(g.Width) {
		s.order = append(s.order, g.Column(col))
	}
	return s
}

// centerFirst returns the columns of a board of width w, center first,
// left before right among those as central.
func centerFirst(w int) []int {
	cols := make([]int, w)
	for i := range cols {
		// w odd: c, c-1, c+1, ...; w even: c-1, c, c-2, c+1, ...
		off := (i + 1) / 2
		if i%2 == 1 {
			off = -off
		}
		cols[i] = (w-1)/2 + off
		if w%2 == 0 {
			cols[i] = w/2 - 1 - off
		}
	}
	return cols
}

// SizedBook is an opening book of a board of another size
// (book.GenerateSized's): the exact scores of positions of at most
// Depth stones.
type SizedBook interface {
	LookupBoard(board.Board) (score int, ok bool)
	Depth() int
}

// UseBook makes the solver answer from bk (nil for none) the positions it
// holds, at the root and in the search.
func (s *Sized) UseBook(bk SizedBook) {
	s.book, s.bookDepth = bk, -1
	if bk != nil {
		s.bookDepth = bk.Depth()
	}
}

// Grid returns the solver's grid.
func (s *Sized) Grid() *board.Grid { return s.g }

// TableBytes returns the memory of the solver's table.
func (s *Sized) TableBytes() int { return s.tt.Bytes() }

// Clear empties the table, so that the next solve starts cold.
func (s *Sized) Clear() { s.tt.Clear() }

// ClearAll empties the table as Clear does, by zeroing all of its memory
// (ttable.Keyed.ClearAll): once before a benchmark's timed solves.
func (s *Sized) ClearAll() { s.tt.ClearAll() }

// Solve returns the exact score of b, which must not be over, as
// Solver.Solve does: when ctx is done, ctx's error and the bounds found.
func (s *Sized) Solve(ctx context.Context, b board.Board) (Result, error) {
	return s.solve(ctx, b, -s.g.MaxScore(), s.g.MaxScore())
}

// SolveWeak returns the sign of b's score (1, 0 or -1), as
// Solver.SolveWeak does.
func (s *Sized) SolveWeak(ctx context.Context, b board.Board) (Result, error) {
	r, err := s.solve(ctx, b, -1, 1)
	r.Score, r.Lower, r.Upper = board.WeakScore(r.Score), board.WeakScore(r.Lower), board.WeakScore(r.Upper)
	return r, err
}

// solve narrows b's range, clipped to [lower, upper], by null-window
// probes until it closes.
func (s *Sized) solve(ctx context.Context, b board.Board, lower, upper int) (Result, error) {
	if b.Over() {
		return Result{}, ErrGameOver
	}
	n := b.Stones()
	if b.CanWinNext() {
		sc := s.g.WinNextScore(n)
		return Result{Score: sc, Lower: sc, Upper: sc, Nodes: 1}, nil
	}
	if n <= s.bookDepth {
		if sc, ok := s.book.LookupBoard(b); ok {
			sc = min(max(sc, lower), upper) // a weak solve's sign
			return Result{Score: sc, Lower: sc, Upper: sc, Nodes: 1}, nil
		}
	}
	s.nodes, s.expanded, s.done, s.stopped = 0, 0, ctx.Done(), false
	lo, hi := max(s.g.LossNextScore(n), lower), min(s.g.WinNextScore(n+2), upper)
	for lo < hi {
		v := nextProbe(lo, hi)
		r := s.negamax(b, b.OpponentWinningCells(), v, v+1)
		if s.stopped {
			return Result{Lower: lo, Upper: hi, Nodes: s.nodes, Expanded: s.expanded}, context.Cause(ctx)
		}
		if r <= v {
			hi = r
		} else {
			lo = r
		}
	}
	sc := hi
	if hi < lo && hi >= lower { // a clipped range closed beyond its end
		sc = lo
	}
	return Result{Score: sc, Lower: sc, Upper: sc, Nodes: max(s.nodes, 1), Expanded: s.expanded}, nil
}

// negamax returns the score of b, whose side to move cannot win at once,
// or a bound on it, fail-soft, as Solver's negamax; oppThreats are b's
// OpponentWinningCells.
func (s *Sized) negamax(b board.Board, oppThreats board.Bitboard, alpha, beta int) int {
	s.nodes++
	if s.nodes%pollInterval == 0 {
		select {
		case <-s.done:
			s.stopped = true
		default:
		}
	}
	if s.stopped {
		return 0
	}
	g, n := s.g, b.Stones()
	if n <= s.bookDepth {
		if sc, ok := s.book.LookupBoard(b); ok {
			return sc
		}
	}
	next := b.NonLosingMovesAgainst(oppThreats)
	if next == 0 {
		return g.LossNextScore(n)
	}
	if n >= g.Cells()-2 {
		return 0 // both last stones can only be played, and neither wins
	}
	// We cannot win with our next stone, nor lose to the opponent's.
	lo, hi := -((g.Cells() - 2 - n) >> 1), (g.Cells()-1-n)>>1
	if next&(next-1) == 0 {
		// A forced move is played through, with no entry of its own.
		if lo >= beta || lo >= hi {
			return lo
		}
		if hi <= alpha {
			return hi
		}
		child := b
		child.PlayMove(next)
		return -s.negamax(child, b.ThreatsAfter(next), -min(beta, hi), -max(alpha, lo))
	}
	if hi > 0 && alpha >= 0 && !b.CanStillWin() {
		hi = 0 // no four left to make: at best a draw
	}
	if lo < 0 && beta <= 0 && !b.OpponentCanStillWin() {
		lo = 0
	}
	key, mirrored, symmetric := b.CanonicalKey()
	if symmetric {
		next &= g.LeftHalf() // a move and its mirror image score the same
	}
	ttMove := -1
	if e, ok := s.tt.Get(key); ok {
		lo, hi = max(lo, e.Lower), min(hi, e.Upper)
		if ttMove = e.Move; mirrored && ttMove >= 0 {
			ttMove = g.Width - 1 - ttMove
		}
	}
	if lo >= beta || lo >= hi {
		return lo
	}
	if hi <= alpha {
		return hi
	}
	alpha, beta = max(alpha, lo), min(beta, hi)

	// The moves, the table's first, then by the threats they leave (as
	// Solver's orderScore), center first among equals.
	var moves [board.MaxColumns]sizedMove
	count := 0
	for _, cells := range s.order {
		cell := next & cells
		if cell == 0 {
			continue
		}
		child := b
		child.PlayMove(cell)
		threats := b.ThreatsAfter(cell)
		if child.NonLosingMovesAgainst(threats) == 0 {
			return g.WinNextScore(n + 2) // no parry: we win with our next stone
		}
		t := threats &^ (oppThreats << 1)
		playable := child.Possible()
		score := 3*t.Count() + (t & (playable << 1)).Count()
		if g.ColumnOf(cell) == ttMove {
			score = 1 << 10
		}
		j := count
		for ; j > 0 && moves[j-1].score < score; j-- {
			moves[j] = moves[j-1]
		}
		moves[j] = sizedMove{cell, threats, score}
		count++
	}
	// No move wins with our next stone: at best the one after.
	if hi = min(hi, g.WinNextScore(n+4)); hi <= alpha {
		return hi
	}
	beta = min(beta, hi)
	start := s.nodes
	if g.Cells()-n > sizedETCEmpty {
		// Enhanced transposition cutoff, as Solver's enhancedCutoff: a
		// child's entry may prove a fail high, and all of them together
		// a fail low.
		upper := -g.MaxScore() - 1
		for i := range count {
			child := b
			child.PlayMove(moves[i].cell)
			ck, _, _ := child.CanonicalKey()
			e, ok := s.tt.Get(ck)
			if !ok {
				upper = hi
				continue
			}
			if -e.Upper >= beta {
				s.store(key, mirrored, -e.Upper, hi, g.ColumnOf(moves[i].cell), start)
				return -e.Upper
			}
			upper = max(upper, -e.Lower)
		}
		if upper < hi {
			if hi = upper; hi <= alpha {
				s.store(key, mirrored, lo, hi, -1, start)
				return hi
			}
			beta = min(beta, hi)
		}
	}
	s.expanded++
	best, bestCol := -g.MaxScore()-1, -1
	a := alpha
	for i := range count {
		m := &moves[i]
		child := b
		child.PlayMove(m.cell)
		var sc int
		if i == 0 {
			sc = -s.negamax(child, m.threats, -beta, -a)
		} else {
			sc = -s.negamax(child, m.threats, -a-1, -a)
			if !s.stopped && sc > a && sc < beta {
				sc = -s.negamax(child, m.threats, -beta, -(sc - 1))
			}
		}
		if s.stopped {
			return 0
		}
		if sc > best {
			best, bestCol = sc, g.ColumnOf(m.cell)
		}
		if sc >= beta {
			s.store(key, mirrored, sc, hi, bestCol, start)
			return sc
		}
		a = max(a, sc)
	}
	if best > alpha {
		s.store(key, mirrored, best, best, bestCol, start)
	} else {
		s.store(key, mirrored, lo, best, -1, start)
	}
	return best
}

// sizedETCEmpty: nodes with more empty cells than this try enhanced
// transposition cutoffs. Nearer the end the children's probes cost more
// than they save (as etcStones for 7x6: 14 empty cells there).
const sizedETCEmpty = 14

// sizedMove is a move of Sized's search: its cell, the threats it leaves
// its player, and its ordering score.
type sizedMove struct {
	cell, threats board.Bitboard
	score         int
}

// store records the bounds of the position of key (mirrored: the mirror
// image's key) and its best move, col.
func (s *Sized) store(key uint64, mirrored bool, lower, upper, col int, start uint64) {
	if mirrored && col >= 0 {
		col = s.g.Width - 1 - col
	}
	s.tt.Put(key, lower, upper, col, s.nodes-start)
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

// Analyze solves every move of b, which must not be over, one after the
// other; with weak, for the sign of each score only.
func (s *Sized) Analyze(ctx context.Context, b board.Board, weak bool) (SizedAnalysis, error) {
	g, n := s.g, b.Stones()
	an := SizedAnalysis{Scores: make([]int, g.Width), Legal: make([]bool, g.Width)}
	if b.Over() {
		return an, ErrGameOver
	}
	an.Lower, an.Upper = -g.MaxScore()-1, -g.MaxScore()-1
	var err error
	for col := range g.Width {
		if !b.CanPlay(col) {
			continue
		}
		an.Legal[col] = true
		child := b
		child.Play(col)
		lo, hi := 0, 0 // a draw in the last cell
		switch {
		case b.IsWinningMove(col):
			lo = g.WinNextScore(n)
			if weak {
				lo = 1
			}
			hi = lo
		case child.Stones() < g.Cells() && err == nil:
			var r Result
			if weak {
				r, err = s.SolveWeak(ctx, child)
			} else {
				r, err = s.Solve(ctx, child)
			}
			an.Nodes, an.Expanded = an.Nodes+r.Nodes, an.Expanded+r.Expanded
			lo, hi = -r.Upper, -r.Lower
		case child.Stones() < g.Cells(): // not searched: any score
			lo, hi = g.LossNextScore(n+1), g.WinNextScore(n+1)
		}
		an.Scores[col] = lo
		an.Lower, an.Upper = max(an.Lower, lo), max(an.Upper, hi)
	}
	return an, err
}

// PV returns a line of perfect play from b, whose score is score, to the
// end of the game, as Solver.PV: at each position the first move in
// center-first order that keeps the score. It also returns the nodes its
// searches took.
func (s *Sized) PV(ctx context.Context, b board.Board, score int) ([]int, uint64, error) {
	var line []int
	var nodes uint64
	cols := centerFirst(s.g.Width)
	for !b.Over() {
		found := false
		for _, col := range cols {
			if !b.CanPlay(col) {
				continue
			}
			child := b
			child.Play(col)
			ok := b.IsWinningMove(col) || child.Stones() == s.g.Cells() && score == 0
			if !ok && !child.Over() {
				// Every move scores at most score: is this one's child
				// at most -score, so exactly?
				r, err := s.solve(ctx, child, -score, -score+1)
				nodes += r.Nodes
				if err != nil {
					return line, nodes, err
				}
				ok = r.Score == -score
			}
			if ok {
				line = append(line, col)
				b, score, found = child, -score, true
				break
			}
		}
		if !found {
			return line, nodes, errors.New("no move keeps the score: it is not the position's")
		}
	}
	return line, nodes, nil
}

// BestMove returns the column (0-based) of the best move of an analysis
// that finished: among the moves of the best score, the first in
// center-first order, as Analysis.BestMove.
func (an SizedAnalysis) BestMove() int {
	for _, col := range centerFirst(len(an.Scores)) {
		if an.Legal[col] && an.Scores[col] == an.Lower {
			return col
		}
	}
	return -1
}

// Sized returns the analysis as a SizedAnalysis, for code that handles
// boards of every size.
func (an Analysis) Sized() SizedAnalysis {
	return SizedAnalysis{Scores: an.Scores[:], Legal: an.Legal[:], Lower: an.Lower, Upper: an.Upper, Nodes: an.Nodes, Expanded: an.Expanded}
}
