//go:build ignore

// The engine, written once for every board: internal/gen instantiates it
// as engine (7x6, the board's dimensions constants), engine49 (any board
// of at most 49 bits, on Position64), engine64 (at most 64 bits),
// engine80 (at most 64 cells in one word) and engine128 (at most 128
// bits), each in five files, one a template: this one (zengine*.go), the
// engine's API and its solves of a root; search.tmpl.go (zsearch*.go),
// the search of one worker; worker.tmpl.go (zworker*.go), the workers of
// lazy SMP; analysis.tmpl.go (zanalysis*.go), the analysis of every move;
// pv.tmpl.go (zpv*.go), the line of perfect play. Solver (solver.go) is
// the one door to them. What the variants do differently (their tables,
// keys, bounds on sizes) is a row each of internal/gen's table of
// engines, their tuning a row of settings.Engines; gen writes their glue
// to zvariants.go.
// Edit this file, then run go generate ./... ; CI fails when the
// generated files differ from it (internal/gen).

package solver

import (
	"context"
	"fmt"
	"sync/atomic"

	"c4solve/board"
	"c4solve/internal/position"
	"c4solve/internal/settings"
	"c4solve/internal/tables"
)

// Engine solves the positions of one engine's boards, one at a time,
// with one or more worker goroutines that share its transposition table
// (lazy SMP: every worker searches the same root, and what one stores the
// others find). The table may also be shared with other engines running
// concurrently. An Engine itself is not safe for concurrent use, except
// for Progress. The zero value is not usable; Solver makes one
// (newSolver).
type Engine struct {
	grid    *board.Grid // the Boards of its positions
	g       position.Geometry
	book    EngineBook
	tt      *tables.Compact
	workers []*worker
	bounds  rootBounds               // of the solve under way
	view    atomic.Pointer[rootView] // of the analysis or line of perfect play under way, for Progress; nil for none
	helpers helpers                  // of the solve under way
	busy    *busyTable               // shared by the workers; nil for one
	noAging bool                     // see SetAging
}

// newSolver returns a Solver of the Boards of grid, positions of the
// geometry g, with the given number of worker goroutines (at least 1) that
// uses the table tt, shared by the workers, and a table of settings.LeafTableMiB for
// each worker.
func newSolver(grid *board.Grid, g position.Geometry, tt *tables.Compact, threads int) *Engine {
	s := &Engine{grid: grid, g: g, tt: tt}
	if threads > 1 {
		s.busy = new(busyTable)
	}
	for id := range max(threads, 1) {
		s.workers = append(s.workers, &worker{g: g, id: id, workers: max(threads, 1), tt: tt, leaf: newTable(g, settings.LeafTableMiB), bookDepth: -1})
	}
	s.workers[0].join = s.startHelpers
	return s
}

// Clear empties the shared table and the workers' own tables, so that the
// next solve starts cold. It must not run concurrently with a solve. It
// does nothing to a table freed (tables.Compact.Free).
func (s *Engine) Clear() {
	if s.tt.Acquire() != nil {
		return
	}
	defer s.tt.Release()
	s.tt.Clear()
	s.workers[0].leaf.Clear()
	// A helper clears its own table when it next starts, on its own core
	// while the first worker searches: most solves end before helpers
	// start, and clearing their tables here, untouched, made Test_L3_R1's
	// solves of a few microseconds about one slower.
	for _, w := range s.workers[1:] {
		w.leafStale = settings.ClearParts
	}
}

// position returns b, a Board of the engine's grid, as its position.
func (s *Engine) position(b board.Board) position.Position {
	p, err := positionOfKey(s.g, b.Key())
	if err != nil {
		panic(err) // not a Board of the grid
	}
	return p
}

// EngineBook is a Book that looks up the engine's positions, each as a
// Board of the engine's grid. Its Book is nil for none. It is safe for
// concurrent use where its Book is, as Book requires.
type EngineBook struct {
	Book
	s *Engine
}

// Lookup returns the score of p, if its Book knows it (not nil).
func (b EngineBook) Lookup(p position.Position) (score int, ok bool) {
	bd, err := b.s.grid.FromKey(keyOfPosition(b.s.g, p))
	if err != nil {
		panic(err) // a position of the engine is one of the grid
	}
	return b.Book.Lookup(bd)
}

// UseBook makes the Solver answer from b (nil: no book) whatever positions
// b knows, at the root and wherever a search reaches one.
func (s *Engine) UseBook(b Book) {
	s.book = EngineBook{b, s}
	for _, w := range s.workers {
		w.book, w.bookDepth = s.book, -1
		if b != nil {
			w.bookDepth = b.Depth()
		}
	}
}

// UseTableFile loads the entries of the table file tf (see TableFile)
// into the shared table, and makes the workers keep there the entries of
// large subtrees they store from now on (nil: none). The file must be of
// the Solver's board. A Clear drops the entries loaded: use it after.
func (s *Engine) UseTableFile(tf *TableFile) error {
	if tf != nil {
		if err := tf.check(board.Size{Width: s.g.Width(), Height: s.g.Height()}); err != nil {
			return err
		}
		if err := s.tt.Acquire(); err != nil {
			return err
		}
		defer s.tt.Release()
		for _, e := range tf.entries {
			// The work of the subtrees kept, so that the table keeps
			// the entries before those of small ones.
			if !tablePutWords(s.g, s.tt, e.lo, e.hi, int(e.lower), int(e.upper), int(e.move), tf.Nodes) {
				return fmt.Errorf("%w: a key of more bits than the board's", errTableFileSize)
			}
		}
	}
	s.keepIn(tf)
	return nil
}

// flushJournal writes out what the table file, if any, kept of the
// search just ended: the next may be long in coming. An error is the
// table file's OnError's and Close's to report.
func (s *Engine) flushJournal() {
	if tf := s.workers[0].journal; tf != nil {
		_ = tf.Flush()
	}
}

// keepIn makes the workers keep in tf the entries of large subtrees they
// store (nil: none), without loading its entries: those of a Solver on
// the table of another that loaded them (Batch's).
func (s *Engine) keepIn(tf *TableFile) {
	for _, w := range s.workers {
		w.journal = tf
	}
}

// tableFile returns the table file the Solver keeps entries in, nil for
// none.
func (s *Engine) tableFile() *TableFile { return s.workers[0].journal }

// Table returns the Solver's shared transposition table.
func (s *Engine) Table() *tables.Compact { return s.tt }

// Threads returns the number of worker goroutines.
func (s *Engine) Threads() int { return len(s.workers) }

// Solve returns the exact score of b, which must not be over. It stops
// early when ctx is done, returning ctx's error and the bounds found so
// far. The score does not depend on the number of threads.
func (s *Engine) Solve(ctx context.Context, b board.Board) (Result, error) {
	g := s.g
	return s.solve(ctx, s.position(b), g.MinScore(), g.MaxScore())
}

// SolveAtLeast returns the exact score of p, as Solve, given that it is at
// least lower: minus the score of a parent of p, as an opening book of one
// stone less knows it. It asks first whether the score is exactly lower,
// which one probe answers where p is the parent's best move, and searches
// nothing below lower. A lower bound that does not hold gives a wrong
// score. Analyze bounds the moves of a position of the book the same way.
// A lower of g.MinScore() or less is no bound: SolveAtLeast is Solve.
func (s *Engine) SolveAtLeast(ctx context.Context, b board.Board, lower int) (Result, error) {
	g := s.g
	if lower <= g.MinScore() {
		return s.Solve(ctx, b)
	}
	if err := s.tt.Acquire(); err != nil {
		return Result{}, err
	}
	defer s.tt.Release()
	s.newSearch()
	return s.search(ctx, s.position(b), lower, g.MaxScore(), lower)
}

// SolveWeak returns the sign of the score of p: 1 if the side to move wins,
// 0 for a draw, -1 if it loses. It searches less than Solve.
func (s *Engine) SolveWeak(ctx context.Context, b board.Board) (Result, error) {
	r, err := s.solve(ctx, s.position(b), -1, 1)
	return r.Weak(), err
}

// Progress returns the nodes searched so far by the solve, analysis or
// line of perfect play under way (as of the workers' last report, every
// few thousand nodes) and the bounds established so far on the score of
// the position it was asked about: during Analyze, the bounds that its
// moves' bounds give the best move's score, not those of the move being
// searched; during PV, the score it was given. It is safe to call from any
// goroutine while Solve, Analyze or PV runs.
func (s *Engine) Progress() (nodes uint64, lower, upper int) {
	v := s.view.Load()
	if v != nil {
		v.mu.Lock() // no search's nodes are banked while they are read
		defer v.mu.Unlock()
		nodes = v.nodes
	}
	for _, w := range s.workers {
		nodes += w.published.Load()
	}
	if v != nil {
		lower, upper = v.bounds()
		return nodes, lower, upper
	}
	lower, upper = s.bounds.get()
	return nodes, lower, upper
}

// bank adds the nodes of a search that has ended, one of those of the
// analysis or line of perfect play v, to v's, and zeroes the counts the
// workers published, as the next search's begin would: Progress counts
// each node once.
func (s *Engine) bank(v *rootView, nodes uint64) {
	v.mu.Lock()
	defer v.mu.Unlock()
	for _, w := range s.workers {
		w.published.Store(0)
	}
	v.nodes += nodes
}

// solve narrows [lower, upper] by null-window probes until it closes or
// until the score is known to lie outside it (weak solves use [-1, 1]).
//
// Every solve holds the shared table (tables.Compact.Acquire) from its first
// use to its last, so that a table freed meanwhile (by a server making
// room for the solvers of another board, say) is given back only after
// the solve, and a solve on a table freed before gets ttable.ErrFreed.
func (s *Engine) solve(ctx context.Context, p position.Position, lower, upper int) (Result, error) {
	if err := s.tt.Acquire(); err != nil {
		return Result{}, err
	}
	defer s.tt.Release()
	s.newSearch()
	return s.search(ctx, p, lower, upper, noFirst)
}

// SetAging says whether each solve starts a new generation of the shared
// table (tables.Compact.NewSearch), which makes what earlier solves stored
// the first to be replaced: on, the default, for a table that one Solver
// uses at a time. Solvers that share a table and solve at once should turn
// it off: each new generation of one makes the entries that the others are
// storing for their solves under way look old, the first to go, and a long
// solve beside a stream of short ones then keeps almost nothing. Their
// owner calls NewSearch itself, when no solve is under way or now and then.
// The workers' own tables age with each solve either way.
func (s *Engine) SetAging(on bool) { s.noAging = !on }

// newSearch starts a new generation in the tables (tables.Compact.NewSearch): what
// earlier searches stored is the first to be replaced. Analyze and PV
// start one for all the solves they make, which are one search.
func (s *Engine) newSearch() {
	// Until the search sets its range, Progress reads the widest: not the
	// range of the solve before, nor a zero range (0 <= score <= 0 shown
	// at the start of an analysis, before its moves' ranges are set).
	g := s.g
	s.bounds.set(g.MinScore(), g.MaxScore(), noFirst)
	if !s.noAging {
		s.tt.NewSearch()
	}
	for _, w := range s.workers {
		// A table still to be cleared (see Clear) needs no new
		// generation: NewSearch would age a part of it for nothing.
		if w.leafStale == 0 {
			w.leaf.NewSearch()
		}
	}
}

// search is solve within the current generation of the tables. Its first
// probe is first, if the range holds it (noFirst: none; see rootBounds.set).
func (s *Engine) search(ctx context.Context, p position.Position, lower, upper, first int) (Result, error) {
	r, lo, hi, err := s.prepare(p, lower, upper)
	if err != nil || lo >= hi {
		return r, err
	}
	rb := &s.bounds
	rb.set(lo, hi, first)
	s.runWorkers(ctx, p, rb, 0)
	s.flushJournal()
	var nodes, expanded uint64
	for _, w := range s.workers {
		nodes, expanded = nodes+w.nodes, expanded+w.expanded
	}
	r, closed := rb.result(lossLaterScore(s.g, p.Stones()), winLaterScore(s.g, p.Stones()), lower, nodes)
	r.Expanded = expanded
	if !closed {
		return r, ctx.Err()
	}
	return r, nil
}

// known is Known of the engine's position p, with the book b.
func known(g position.Geometry, p position.Position, b EngineBook) (r Result, ok bool, err error) {
	n := p.Stones()
	var lookup func() (int, bool)
	if b.Book != nil && n <= b.Depth() {
		lookup = func() (int, bool) { return b.Lookup(p) }
	}
	return knownOf(p.Won() || n == g.Cells(), p.CanWinNext(), g.WinNextScore(n), lookup)
}

// prepare checks p, the root of a solve of the range [lower, upper], and
// answers what needs no search: a game over (an error), a win at once, a
// position of the book (then lo >= hi, and r is the answer). Otherwise it
// returns the range [lo, hi) the probes start from.
func (s *Engine) prepare(p position.Position, lower, upper int) (r Result, lo, hi int, err error) {
	g := s.g
	if r, ok, err := known(g, p, s.book); ok || err != nil {
		return r, 0, 0, err
	}
	n := p.Stones()
	// The probe sequence starts from the range of any position, not the
	// tighter static bounds: it measured fewer nodes.
	lo, hi = g.LossNextScore(n), g.WinNextScore(n)
	if p.NonLosingMoves() == 0 {
		lo, hi = g.LossNextScore(n), g.LossNextScore(n)
	}
	lo, hi = max(lo, lower), min(hi, upper)
	if lo >= hi {
		// Closed before any probe (a loss at once, or a clipped range):
		// a closed range reads as a result.
		r, _ = (&rootBounds{lo: lo, hi: hi}).result(lossLaterScore(s.g, n), winLaterScore(s.g, n), lower, 1)
		return r, lo, hi, nil
	}
	return Result{}, lo, hi, nil
}
