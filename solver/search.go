package solver

import (
	"context"
	"sync/atomic"

	"c4solve/board"
	"c4solve/ttable"
)

// worker is one search thread: its counters and its view of the stop
// signal. Workers of one Solver share the table and nothing else.
type worker struct {
	tt        *ttable.Table
	id        int           // 0 for the first worker; others diversify
	rootMoves int           // stones on the board at the root of the solve
	nodes     uint64        // nodes of the current solve
	published atomic.Uint64 // nodes, as last published for progress readers

	done    <-chan struct{} // the current search's context's Done channel
	stopped bool            // set once done is closed; unwinds the search
}

// search runs null-window probes at the root p until the shared range
// closes or the search is stopped.
func (w *worker) search(ctx context.Context, p board.Position, rb *rootBounds) {
	w.nodes = 0
	w.rootMoves = p.Moves()
	w.published.Store(0)
	w.done = ctx.Done()
	w.stopped = false
	for {
		lo, hi := rb.get()
		if lo >= hi || ctx.Err() != nil {
			return
		}
		probe := w.probe(lo, hi)
		r := w.negamax(p, probe, probe+1)
		if w.stopped {
			return
		}
		rb.update(probe, r)
	}
}

// diversifyDepth is how many plies below the root helper workers reorder
// moves.
var diversifyDepth = 2

// probe returns the value of the worker's next probe in [lo, hi): the
// first worker asks nextProbe's question, the others nearby ones, first
// above, then below, so that two workers rarely search the same tree.
func (w *worker) probe(lo, hi int) int {
	v := nextProbe(lo, hi)
	if w.id == 0 || hi-lo < 2 {
		return v
	}
	off := (w.id + 1) / 2
	if w.id%2 == 0 {
		off = -off
	}
	return min(max(v+off, lo), hi-1)
}

// nextProbe picks the value v of the next null-window probe "score > v?"
// in the range [lo, hi), lo < hi. As in Pons' solver, it is the middle of
// the range, moved halfway out to the range's end on its side of zero: a
// probe far from zero is cheap (a quick win or loss is refuted by a shallow
// search), and scores are near zero more often than not. Measured mean
// nodes on Test_L1_R1 / Test_L2_R2 / Test_L1_R3 (30 lines of 11+ stones):
// 2,954 / 34,797 / 1,266,187 with this rule; asking for the sign first (the
// plain weak-then-exact order): 23,330 / 37,615 / -; moving 3/4 of the way
// out: 1,723 / 37,389 / 1,360,445.
func nextProbe(lo, hi int) int {
	med := lo + (hi-lo)/2
	if med <= 0 && lo/2 < med {
		med = lo / 2
	} else if med >= 0 && hi/2 > med {
		med = hi / 2
	}
	return med
}

// Score of a position whose side to move wins with its next stone, n
// stones played.
func winScore(n int) int { return (board.Cells + 1 - n) / 2 }

// lossScore is the score when the opponent wins with its next stone.
func lossScore(n int) int { return -(board.Cells - n) / 2 }

// Static bounds of a position with n stones whose side to move cannot win
// at once and has a move that does not lose at once: it wins with its
// second stone from now at best and loses to the opponent's second at
// worst.
func maxScore(n int) int { return (board.Cells - 1 - n) / 2 }
func minScore(n int) int { return -(board.Cells - 2 - n) / 2 }

// move is a candidate move: the cell the stone lands on, its column, and
// its ordering score.
type move struct {
	cell  board.Bitboard
	col   int
	score int
}

// ttKey returns the table key of p: its key or its mirror's, whichever is
// smaller, and whether the mirror's was taken (stored moves are then
// mirrored too). Mirror images have the same score.
func ttKey(p board.Position) (key uint64, mirrored bool) {
	k, m := p.Key(), p.MirrorKey()
	return min(k, m), m < k
}

// negamax returns the score of p, which must not be over and whose side to
// move must not be able to win at once, or a bound on it: a value v <=
// alpha means score <= v, v >= beta means score >= v, and anything between
// is exact (fail-soft alpha-beta).
func (w *worker) negamax(p board.Position, alpha, beta int) int {
	w.nodes++
	if w.nodes%pollInterval == 0 {
		w.published.Store(w.nodes)
		select {
		case <-w.done:
			w.stopped = true
			return 0
		default:
		}
	}
	n := p.Moves()
	next := p.NonLosingMoves()
	if next == 0 {
		return lossScore(n)
	}
	if n >= board.Cells-2 {
		return 0 // both last stones can only be played, and neither wins
	}
	lo, hi := minScore(n), maxScore(n)
	// A side with no line of four left open cannot win.
	if !p.CanStillWin() {
		hi = min(hi, 0)
	}
	if !p.OpponentCanStillWin() {
		lo = max(lo, 0)
	}
	if b, ok := p.ClaimevenBound(); ok {
		hi = min(hi, b)
	}
	key, mirrored := ttKey(p)
	ttMove := -1
	if e, ok := w.tt.Get(key); ok {
		lo, hi = max(lo, e.Lower), min(hi, e.Upper)
		ttMove = e.Move
		if mirrored && ttMove >= 0 {
			ttMove = board.Width - 1 - ttMove
		}
	}
	if lo >= beta || lo >= hi {
		return lo
	}
	if hi <= alpha {
		return hi
	}
	alpha, beta = max(alpha, lo), min(beta, hi)

	// A symmetric position needs only one of each mirrored pair of moves.
	symmetric := p.Key() == p.MirrorKey()

	oppThreats := p.OpponentWinningCells()
	var moves [board.Width]move
	count := 0
	for _, col := range columnOrder {
		cell := next & board.Column(col)
		if cell == 0 || symmetric && col > board.Width/2 {
			continue
		}
		child := p
		child.PlayMove(cell)
		if child.NonLosingMoves() == 0 {
			// The opponent cannot parry: we win with our next stone, the
			// best any move can do (see maxScore).
			return maxScore(n)
		}
		sc := orderScore(p, cell, oppThreats)
		if col == ttMove {
			sc = 1 << 16
		}
		// Insertion sort, stable: equal scores keep center-first order.
		i := count
		for ; i > 0 && moves[i-1].score < sc; i-- {
			moves[i] = moves[i-1]
		}
		moves[i] = move{cell: cell, col: col, score: sc}
		count++
	}

	// Helper workers take the moves near the root in other orders, so that
	// they fill the table with subtrees the first worker reaches later
	// instead of racing it down the same path.
	if w.id > 0 && n-w.rootMoves < diversifyDepth && count > 1 {
		r := (w.id + n) % count
		rotated := moves
		for i := 0; i < count; i++ {
			moves[i] = rotated[(i+r)%count]
		}
	}

	// No move wins with our next stone: at best the one after.
	hi = min(hi, maxScore(n+2))
	if hi <= alpha {
		return hi
	}
	beta = min(beta, hi)

	// Load the children's table buckets all at once: their memory
	// latencies overlap, and the children's own probes find them cached.
	var childKeys [board.Width]uint64
	for i := 0; i < count; i++ {
		child := p
		child.PlayMove(moves[i].cell)
		childKeys[i], _ = ttKey(child)
		w.tt.Prefetch(childKeys[i])
	}
	// Enhanced transposition cutoff: a child whose stored upper bound
	// already proves a fail high saves searching any move.
	for i := 0; i < count; i++ {
		if e, ok := w.tt.Get(childKeys[i]); ok && -e.Upper >= beta {
			w.store(key, mirrored, -e.Upper, hi, moves[i].col, w.nodes)
			return -e.Upper
		}
	}

	start := w.nodes
	best, bestCol := MinScore-1, -1
	a := alpha
	for i := 0; i < count; i++ {
		child := p
		child.PlayMove(moves[i].cell)
		var sc int
		if i == 0 {
			sc = -w.negamax(child, -beta, -a)
		} else {
			sc = -w.negamax(child, -a-1, -a)
			if !w.stopped && sc > a && sc < beta {
				// Failed high inside the window: the scout's bound sc is a
				// lower bound; find the exact value above it.
				sc = -w.negamax(child, -beta, -(sc - 1))
			}
		}
		if w.stopped {
			return 0
		}
		if sc > best {
			best, bestCol = sc, moves[i].col
		}
		if sc >= beta {
			w.store(key, mirrored, sc, hi, bestCol, start)
			return sc
		}
		a = max(a, sc)
	}
	if best > alpha {
		w.store(key, mirrored, best, best, bestCol, start)
	} else {
		// Every move failed low: no move is known to be best.
		w.store(key, mirrored, lo, best, -1, start)
	}
	return best
}

func (w *worker) store(key uint64, mirrored bool, lower, upper, col int, start uint64) {
	if mirrored && col >= 0 {
		col = board.Width - 1 - col
	}
	w.tt.Put(key, lower, upper, col, w.nodes-start)
}

// orderScore rates a move for ordering: the threats it leaves its player
// (cells that would complete four), three points each, plus one point for
// each threat directly above a column's next free cell, which the opponent
// can then not play under. Threats directly above an opponent's threat do
// not count: the opponent's comes first. Idea from Christophe Steininger's
// solver; the weights are this package's, measured on the published sets
// (mean nodes against counting all threats alike, Test_L2_R2 / Test_L1_R2
// first 200 / Test_L1_R3 30 lines of 11+ stones: 29,883 / 829,822 /
// 1,062,276 before, 25,362 / 713,108 / 826,727 after; Test_L1_R1, whose
// wins are quick, rises from 2,939 to 3,430).
func orderScore(p board.Position, cell, oppThreats board.Bitboard) int {
	t := p.ThreatsAfter(cell) &^ (oppThreats << 1)
	next := ((p.Mask() | cell) + board.BottomRow) & board.Playable
	return 3*t.Count() + (t & (next << 1)).Count()
}
