package solver

import (
	"context"
	"errors"
	"math/bits"
	"sync"

	"golang.org/x/sync/errgroup"

	"c4solve/board"
	"c4solve/ttable"
)

// ErrGameOver is returned for a position whose game has already ended.
var ErrGameOver = errors.New("the game is already over")

// columnOrder is the center-first order in which moves are tried before
// threats reorder them: central cells lie on more lines of four.
var columnOrder = [board.Width]int{3, 2, 4, 1, 5, 0, 6}

// columnCells[i] is the cells of column columnOrder[i].
var columnCells = func() (cells [board.Width]board.Bitboard) {
	for i, col := range columnOrder {
		cells[i] = board.Column(col)
	}
	return cells
}()

// cellLines[i] is the number of lines of four through the cell of bit i:
// 3 in a corner to 13 in the center's middle rows.
var cellLines = func() (lines [64]int32) {
	inside := func(c, r int) bool { return c >= 0 && c < board.Width && r >= 0 && r < board.Height }
	for c := range board.Width {
		for r := range board.Height {
			cell := board.Column(c) & -board.Column(c) << r // bit r of column c
			for _, d := range [4][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}} {
				for back := range 4 { // the cell is the line's back-th
					c0, r0 := c-back*d[0], r-back*d[1]
					if inside(c0, r0) && inside(c0+3*d[0], r0+3*d[1]) {
						lines[bits.TrailingZeros64(uint64(cell))]++
					}
				}
			}
		}
	}
	return lines
}()

// leftHalf is the cells of the columns left of the center, and the
// center's: the moves of a symmetric position that are not the mirror
// images of others.
var leftHalf = board.Column(0) | board.Column(1) | board.Column(2) | board.Column(board.Width/2)

// Solver solves positions, one at a time, with one or more worker
// goroutines that share its transposition table (lazy SMP: every worker
// searches the same root, and what one stores the others find). The table
// may also be shared with other Solvers running concurrently. A Solver
// itself is not safe for concurrent use, except for Progress. The zero
// value is not usable; call New.
type Solver struct {
	book    Book
	tt      *ttable.Table
	workers []*worker
	bounds  rootBounds // of the solve under way
	helpers helpers    // of the solve under way
	busy    *busyTable // shared by the workers; nil for one
	noAging bool       // see SetAging
}

// New returns a Solver with the given number of worker goroutines (at
// least 1) that uses the table tt, shared by the workers, and a table of
// LeafTableMiB for each worker.
func New(tt *ttable.Table, threads int) *Solver {
	s := &Solver{tt: tt}
	if threads > 1 {
		s.busy = new(busyTable)
	}
	for id := range max(threads, 1) {
		s.workers = append(s.workers, &worker{id: id, tt: tt, leaf: ttable.New(LeafTableMiB), bookDepth: -1})
	}
	s.workers[0].join = s.startHelpers
	return s
}

// Clear empties the shared table and the workers' own tables, so that the
// next solve starts cold. It must not run concurrently with a solve.
func (s *Solver) Clear() {
	s.tt.Clear()
	s.workers[0].leaf.Clear()
	// A helper clears its own table when it next starts, on its own core
	// while the first worker searches: most solves end before helpers
	// start, and clearing their tables here, untouched, made Test_L3_R1's
	// solves of a few microseconds about one slower.
	for _, w := range s.workers[1:] {
		w.leafStale = ttable.ClearParts
	}
}

// Book is a source of exact scores, such as an opening book (package
// book): Lookup returns the score of p, if known. It must be safe for
// concurrent use, and know no position of more than Depth stones.
type Book interface {
	Depth() int
	Lookup(p board.Position) (score int, ok bool)
}

// UseBook makes the Solver answer from b (nil: no book) whatever positions
// b knows, at the root and wherever a search reaches one.
func (s *Solver) UseBook(b Book) {
	s.book = b
	for _, w := range s.workers {
		w.book, w.bookDepth = b, -1
		if b != nil {
			w.bookDepth = b.Depth()
		}
	}
}

// Table returns the Solver's shared transposition table.
func (s *Solver) Table() *ttable.Table { return s.tt }

// Result is the outcome of a solve, a plain value. When the search was
// interrupted, Score is not known and Lower <= score <= Upper is all that
// was established.
type Result struct {
	Score        int
	Lower, Upper int
	Nodes        uint64 // every call of the search: forced moves played through, positions settled at once
	// Expanded counts, of Nodes, those that searched a child: the count
	// to compare with solvers that check children statically in their
	// parent's loop and count only positions they expand (Steininger's).
	Expanded uint64
}

// Solve returns the exact score of p, which must not be over. It stops
// early when ctx is done, returning ctx's error and the bounds found so
// far. The score does not depend on the number of threads.
func (s *Solver) Solve(ctx context.Context, p board.Position) (Result, error) {
	return s.solve(ctx, p, board.MinScore, board.MaxScore)
}

// SolveAtLeast returns the exact score of p, as Solve, given that it is at
// least lower: minus the score of a parent of p, as an opening book of one
// stone less knows it. It asks first whether the score is exactly lower,
// which one probe answers where p is the parent's best move, and searches
// nothing below lower. A lower bound that does not hold gives a wrong
// score. Analyze bounds the moves of a position of the book the same way.
// A lower of board.MinScore or less is no bound: SolveAtLeast is Solve.
func (s *Solver) SolveAtLeast(ctx context.Context, p board.Position, lower int) (Result, error) {
	if lower <= board.MinScore {
		return s.Solve(ctx, p)
	}
	s.newSearch()
	return s.search(ctx, p, lower, board.MaxScore, lower)
}

// SolveWeak returns the sign of the score of p: 1 if the side to move wins,
// 0 for a draw, -1 if it loses. It searches less than Solve.
func (s *Solver) SolveWeak(ctx context.Context, p board.Position) (Result, error) {
	r, err := s.solve(ctx, p, -1, 1)
	return r.signs(), err
}

// signs returns r with its score and bounds replaced by their signs.
func (r Result) signs() Result {
	r.Score, r.Lower, r.Upper = board.WeakScore(r.Score), board.WeakScore(r.Lower), board.WeakScore(r.Upper)
	return r
}

// Progress returns the nodes searched so far by the solve under way (as
// of the workers' last report, every few thousand nodes) and the bounds on
// its score established so far. It is safe to call from any goroutine
// while Solve runs.
func (s *Solver) Progress() (nodes uint64, lower, upper int) {
	for _, w := range s.workers {
		nodes += w.published.Load()
	}
	lower, upper = s.bounds.get()
	return nodes, lower, upper
}

// solve narrows [lower, upper] by null-window probes until it closes or
// until the score is known to lie outside it (weak solves use [-1, 1]).
func (s *Solver) solve(ctx context.Context, p board.Position, lower, upper int) (Result, error) {
	s.newSearch()
	return s.search(ctx, p, lower, upper, noFirst)
}

// SetAging says whether each solve starts a new generation of the shared
// table (ttable.Table.NewSearch), which makes what earlier solves stored
// the first to be replaced: on, the default, for a table that one Solver
// uses at a time. Solvers that share a table and solve at once should turn
// it off: each new generation of one makes the entries that the others are
// storing for their solves under way look old, the first to go, and a long
// solve beside a stream of short ones then keeps almost nothing. Their
// owner calls NewSearch itself, when no solve is under way or now and then.
// The workers' own tables age with each solve either way.
func (s *Solver) SetAging(on bool) { s.noAging = !on }

// newSearch starts a new generation in the tables (ttable.NewSearch): what
// earlier searches stored is the first to be replaced. Analyze and PV
// start one for all the solves they make, which are one search.
func (s *Solver) newSearch() {
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
func (s *Solver) search(ctx context.Context, p board.Position, lower, upper, first int) (Result, error) {
	r, lo, hi, err := s.prepare(p, lower, upper)
	if err != nil || lo >= hi {
		return r, err
	}
	rb := &s.bounds
	rb.set(lo, hi, first)
	s.runWorkers(ctx, p, rb)
	var nodes, expanded uint64
	for _, w := range s.workers {
		nodes, expanded = nodes+w.nodes, expanded+w.expanded
	}
	r, closed := rb.result(p.Stones(), lower, nodes)
	r.Expanded = expanded
	if !closed {
		return r, ctx.Err()
	}
	return r, nil
}

// prepare checks p, the root of a solve of the range [lower, upper], and
// answers what needs no search: a game over (an error), a win at once, a
// position of the book (then lo >= hi, and r is the answer). Otherwise it
// returns the range [lo, hi) the probes start from.
func (s *Solver) prepare(p board.Position, lower, upper int) (r Result, lo, hi int, err error) {
	if p.Won() {
		return Result{}, 0, 0, ErrGameOver
	}
	n := p.Stones()
	if n == board.Cells {
		return Result{}, 0, 0, ErrGameOver
	}
	if p.CanWinNext() {
		sc := board.WinNextScore(n)
		return Result{Score: sc, Lower: sc, Upper: sc, Nodes: 1}, 0, 0, nil
	}
	if s.book != nil && n <= s.book.Depth() {
		if sc, ok := s.book.Lookup(p); ok {
			return Result{Score: sc, Lower: sc, Upper: sc, Nodes: 1}, 0, 0, nil
		}
	}
	// The probe sequence starts from the range of any position, not the
	// tighter static bounds: it measured fewer nodes.
	lo, hi = board.LossNextScore(n), board.WinNextScore(n)
	if p.NonLosingMoves() == 0 {
		lo, hi = board.LossNextScore(n), board.LossNextScore(n)
	}
	lo, hi = max(lo, lower), min(hi, upper)
	if lo >= hi {
		// Closed before any probe (a loss at once, or a clipped range):
		// a closed range reads as a result.
		r, _ = (&rootBounds{lo: lo, hi: hi}).result(n, lower, 1)
		return r, lo, hi, nil
	}
	return Result{}, lo, hi, nil
}

// runWorkers searches p with the workers until the range rb closes or ctx
// is done. The first worker searches alone, in the calling goroutine, until
// it has searched helperNodes nodes; only then do the others join it, in
// goroutines of their own. Most solves are over long before (Test_L3_R1's
// take tens of nodes), and starting helpers, waking their threads and
// waiting for them costs more than such a solve. A worker that finds the
// range closed, by itself or by another, returns at its next poll, so no
// worker needs to cancel the others.
func (s *Solver) runWorkers(ctx context.Context, p board.Position, rb *rootBounds) {
	first := s.workers[0]
	if len(s.workers) == 1 {
		first.begin(nil, false, 0)
		first.probeRoot(ctx, p, rb)
		return
	}
	for _, w := range s.workers[1:] {
		w.begin(s.busy, true, 0)
	}
	s.helpers = helpers{ctx: ctx, p: p, rb: rb}
	// Alone, the first worker has no one to keep out of its subtrees;
	// startHelpers gives it the busy table when the others join.
	first.begin(nil, false, helperNodes)
	first.probeRoot(ctx, p, rb)
	s.helpers.g.Wait()
}

// helpers is what a solve's helper workers need to start.
type helpers struct {
	g   errgroup.Group
	ctx context.Context
	p   board.Position
	rb  *rootBounds
}

// startHelpers starts every worker but the first on the solve under way.
// The first worker calls it once it has searched helperNodes nodes.
func (s *Solver) startHelpers() {
	h := &s.helpers
	s.workers[0].busy = s.busy
	for _, w := range s.workers[1:] {
		h.g.Go(func() error {
			if w.clearLeaf(h.ctx, h.rb) {
				w.probeRoot(h.ctx, h.p, h.rb)
			}
			return nil
		})
	}
}

// rootBounds is the range of the root score that the workers of a solve
// narrow together. It is safe for concurrent use.
type rootBounds struct {
	mu     sync.Mutex
	lo, hi int
	first  int // the probe to ask first (see set); written before the workers start
}

// noFirst is set's first when the solve has no probe to ask first: no
// range holds it.
const noFirst = board.MinScore - 1

// set starts the range at [lo, hi], with first, when the range holds it,
// the probe asked before the others (see probe): the score when it is
// likely lo, which one probe then proves.
func (rb *rootBounds) set(lo, hi, first int) {
	rb.mu.Lock()
	defer rb.mu.Unlock()
	rb.lo, rb.hi, rb.first = lo, hi, first
}

// probe returns the probe to ask in the range [lo, hi): the solve's first
// while the range holds it, then nextProbe's.
func (rb *rootBounds) probe(lo, hi int) int {
	if lo <= rb.first && rb.first < hi {
		return rb.first
	}
	return nextProbe(lo, hi)
}

func (rb *rootBounds) get() (lo, hi int) {
	rb.mu.Lock()
	defer rb.mu.Unlock()
	return rb.lo, rb.hi
}

// result is the Result of a solve of a position of n stones whose range,
// clipped below at lower, rb is once the workers stop, and whether the
// range closed: the score if it did, else the bounds found (the solve was
// interrupted), within the static ones.
func (rb *rootBounds) result(n, lower int, nodes uint64) (Result, bool) {
	lo, hi := rb.get()
	if lo < hi {
		return Result{Lower: max(lo, lossLaterScore(n)), Upper: min(hi, winLaterScore(n)), Nodes: nodes}, false
	}
	// With a clipped range (weak solves) the range may close with hi < lo:
	// the score lies beyond the clipped end, on the side of the bound that
	// is a proven fact.
	sc := hi
	if hi < lo && hi >= lower {
		sc = lo
	}
	return Result{Score: sc, Lower: sc, Upper: sc, Nodes: max(nodes, 1)}, true
}

// update records the answer r of the probe "score > probe?": r <= probe
// means score <= r, anything else score >= r.
func (rb *rootBounds) update(probe, r int) {
	rb.mu.Lock()
	defer rb.mu.Unlock()
	if r <= probe {
		rb.hi = min(rb.hi, r)
	} else {
		rb.lo = max(rb.lo, r)
	}
}
