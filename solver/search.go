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
	tt        *ttable.Table // shared by all workers
	leaf      *ttable.Table // this worker's own, for positions of leafStones stones or more
	book      Book          // nil for none
	bookDepth int           // the book's depth, -1 for none
	rootMoves int           // stones on the board at the root of the solve
	nodes     uint64        // nodes of the current solve
	published atomic.Uint64 // nodes, as last published for progress readers
	limit     uint64        // once nodes reaches it, call join; 0 for none
	join      func()        // starts the other workers (Solver.startHelpers)

	done    <-chan struct{} // the current search's context's Done channel
	stopped bool            // set once done is closed or the probe is moot; unwinds the search

	rb    *rootBounds // the range the workers narrow together
	busy  *busyTable  // the subtrees workers are searching; nil for one worker
	probe int         // the value of the probe under way
	index int         // the worker's number, 0 for the first

	// Workers are allocated side by side, and nodes changes at every
	// node: without the padding two workers' counters shared a cache line
	// (or its adjacent-line prefetch pair), and 2 threads ran at 6.4 M
	// nodes/s where 1 runs at 4.3 M (with it: 8.6 M).
	_ [128]byte
}

// search runs null-window probes at the root p until the shared range
// closes or the search is stopped.
func (w *worker) search(ctx context.Context, p board.Position, rb *rootBounds) {
	w.rootMoves = p.Moves()
	w.done = ctx.Done()
	w.rb = rb
	for {
		lo, hi := rb.get()
		if lo >= hi || ctx.Err() != nil {
			return
		}
		w.probe = speculativeProbe(lo, hi, w.index)
		w.stopped = false
		r := w.negamax(p, p.OpponentWinningCells(), w.probe, w.probe+1)
		if !w.stopped {
			rb.update(w.probe, r)
		}
	}
}

// poll looks, every pollInterval nodes, whether the search must stop: the
// context is done, or other workers have settled the question of the probe
// under way, so that its answer no longer matters. It also starts the
// other workers once the first has searched its share alone.
func (w *worker) poll() {
	w.published.Store(w.nodes)
	if w.limit != 0 && w.nodes >= w.limit {
		w.limit = 0
		w.join()
	}
	select {
	case <-w.done:
		w.stopped = true
		return
	default:
	}
	if lo, hi := w.rb.get(); w.probe < lo || w.probe >= hi {
		w.stopped = true
	}
}

// busyDepth is how many plies below the root workers avoid each other's
// subtrees: deeper, subtrees are too small to be worth the bookkeeping.
// Measured mean time on Test_L1_R2's first 100 lines, 2 threads: about
// 95 ms at 6 or 10 plies, against 127 ms with no exclusion (1 thread: 111
// ms); 16 plies were no better. On all of Test_L1_R2, 2 threads take 72 ms
// against 138 ms for one.
const busyDepth = 10

// etcStones: nodes with fewer stones try enhanced transposition cutoffs
// (see negamax).
const etcStones = 26

// busyTable is a set of the keys of positions some worker is searching,
// approximate: keys that share a slot overwrite each other, which only
// changes the order in which moves are searched. It is safe for
// concurrent use.
type busyTable struct {
	slots [1 << 12]atomic.Uint64
}

func (b *busyTable) slot(key uint64) *atomic.Uint64 {
	return &b.slots[(key*0x9e3779b97f4a7c15)>>52]
}

func (b *busyTable) has(key uint64) bool { return b.slot(key).Load() == key }
func (b *busyTable) add(key uint64)      { b.slot(key).Store(key) }
func (b *busyTable) remove(key uint64)   { b.slot(key).CompareAndSwap(key, 0) }

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

// speculativeProbe is the probe worker k runs in the range [lo, hi): the
// one nextProbe would pick after k probes had each moved the range toward
// zero, the likely answer of a probe away from the true score. Workers
// thus answer different questions at once, and the first worker's table
// entries serve the others. Measured with 2 threads on the two longest of
// Test_L1_R3's first 100 lines: 25.6 s mean against 29.4 s with every
// worker on the same probe.
func speculativeProbe(lo, hi, k int) int {
	v := nextProbe(lo, hi)
	for ; k > 0; k-- {
		if v >= 0 {
			hi = v
		} else {
			lo = v + 1
		}
		if lo >= hi {
			break
		}
		v = nextProbe(lo, hi)
	}
	return v
}

// WinScore is the score of a position with n stones whose side to move
// wins with its next stone: the best score such a position can have.
func WinScore(n int) int { return (board.Cells + 1 - n) / 2 }

// LossScore is the score of a position with n stones whose opponent wins
// with its next stone: the worst score such a position can have.
func LossScore(n int) int { return -(board.Cells - n) / 2 }

// Static bounds of a position with n stones whose side to move cannot win
// at once and has a move that does not lose at once: it wins with its
// second stone from now at best and loses to the opponent's second at
// worst.
func maxScore(n int) int { return (board.Cells - 1 - n) / 2 }
func minScore(n int) int { return -(board.Cells - 2 - n) / 2 }

// move is a candidate move: the cell the stone lands on, the threats it
// leaves its player, its column, and its ordering score.
type move struct {
	cell, threats board.Bitboard
	col, score    int
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
// is exact (fail-soft alpha-beta). oppThreats must be
// p.OpponentWinningCells(), which the caller has at hand.
func (w *worker) negamax(p board.Position, oppThreats board.Bitboard, alpha, beta int) int {
	w.nodes++
	if w.nodes%pollInterval == 0 {
		if w.poll(); w.stopped {
			return 0
		}
	}
	n := p.Moves()
	if n <= w.bookDepth {
		if sc, ok := w.book.Lookup(p); ok {
			return sc
		}
	}
	next := p.NonLosingMovesAgainst(oppThreats)
	if next == 0 {
		return LossScore(n)
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
	// Allis' claimeven rule bounds the first player from above; applied one
	// move ahead, it bounds the second player from below. Measured mean
	// nodes, Test_L2_R2 / Test_L1_R2 first 200 / Test_L1_R3 30 lines of 11+
	// stones: 18,620 / 480,634 / 649,847 with claimeven on even columns
	// only; 17,865 / 469,401 / 620,743 with the reply rule to one odd
	// column; 16,221 / 444,978 / 570,231 with two odd columns paired and
	// the reply rule to three (see ClaimevenBound).
	if b, ok := p.ClaimevenBound(); ok {
		hi = min(hi, b)
	} else if b, ok := p.ClaimevenReplyBound(); ok {
		lo = max(lo, b)
	}
	// A forced move (one move does not lose at once) is played through:
	// the node's score is its child's, and the node takes no table slot,
	// leaving the room to positions with a choice. A third of the nodes are
	// forced. Measured side by side, 1 thread, 64 MiB: five of Test_L1_R3's
	// hardest lines, 4.70-4.81 s -> 4.11-4.16 s (nodes 20.5 -> 23.9 million,
	// as both forced nodes and their children count); Test_L1_R3 30 lines of
	// 11+ stones, 130-131 -> 115-125 ms; Test_L2_R2, 3.6-3.9 -> 3.2-3.6 ms.
	if next&(next-1) == 0 {
		if lo >= beta || lo >= hi {
			return lo
		}
		if hi <= alpha {
			return hi
		}
		child := p
		child.PlayMove(next)
		return -w.negamax(child, p.ThreatsAfter(next), -min(beta, hi), -max(alpha, lo))
	}
	k, m := p.Key(), p.MirrorKey()
	key, mirrored := min(k, m), m < k
	ttMove := -1
	if e, ok := w.table(n).Get(key); ok {
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
	symmetric := k == m

	start := w.nodes
	best, bestCol := MinScore-1, -1
	a := alpha
	searched := 0
	// The move the table remembers as best is searched before the other
	// moves are generated: where it fails high again, as it mostly does,
	// their threats, ordering and table probes are never computed.
	// Measured with cachegrind against putting it first in the ordered
	// list, BenchmarkSolve/L2_R2 / L1_R2 / L1_R3: instructions 107 / 393 /
	// 1,779 M -> 103 / 376 / 1,755 M, cache misses unchanged, nodes +1.2 /
	// +1.6 / +0.8% (the other moves' immediate wins are found later).
	if ttMove >= 0 && !(symmetric && ttMove > board.Width/2) {
		if cell := next & board.Column(ttMove); cell != 0 {
			child := p
			child.PlayMove(cell)
			threats := p.ThreatsAfter(cell)
			if child.NonLosingMovesAgainst(threats) == 0 {
				return maxScore(n) // as below
			}
			sc := -w.negamax(child, threats, -beta, -alpha)
			if w.stopped {
				return 0
			}
			searched = 1
			best, bestCol = sc, ttMove
			if sc >= beta {
				w.store(n, key, mirrored, sc, hi, bestCol, start)
				return sc
			}
			a = max(a, sc)
		}
	}

	var moves [board.Width]move
	count := 0
	for _, col := range columnOrder {
		cell := next & board.Column(col)
		if cell == 0 || symmetric && col > board.Width/2 || col == bestCol { // bestCol: searched above
			continue
		}
		child := p
		child.PlayMove(cell)
		// Our threats after the move are the child's opponent's.
		threats := p.ThreatsAfter(cell)
		if child.NonLosingMovesAgainst(threats) == 0 {
			// The opponent cannot parry: we win with our next stone, the
			// best any move can do (see maxScore).
			return maxScore(n)
		}
		sc := orderScore(p, cell, threats, oppThreats)
		// Insertion sort, stable: equal scores keep center-first order.
		i := count
		for ; i > 0 && moves[i-1].score < sc; i-- {
			moves[i] = moves[i-1]
		}
		moves[i] = move{cell: cell, threats: threats, col: col, score: sc}
		count++
	}

	// No move wins with our next stone: at best the one after.
	hi = min(hi, maxScore(n+2))
	if hi <= alpha {
		return hi
	}
	beta = min(beta, hi)

	// Enhanced transposition cutoff: a child whose stored upper bound
	// already proves a fail high saves searching any move. When every child
	// has an entry, their lower bounds also bound our score from above,
	// which may prove a fail low. Measured mean nodes, Test_L2_R2 / Test_L1_R2
	// first 200 / Test_L1_R3 30 lines of 11+ stones: 18,893 / 486,763 /
	// 661,271 with the fail-high test alone, 18,620 / 480,634 / 649,847 with
	// both.
	//
	// Each child's bucket is a likely cache miss, and near the leaves the
	// subtrees it may save are smaller than the misses cost, so only nodes
	// with fewer than etcStones stones try it. Measured with cachegrind
	// (instructions, and read misses of a 32 MiB last-level cache) on
	// BenchmarkSolve/L1_R3 and on 15674, a 5-stone position of 11 million
	// nodes: at every node 1,868 M / 942 k and 12,967 M / 7,145 k; below
	// 26 stones 1,734 M / 535 k (nodes +20%) and 11,657 M / 3,993 k (nodes
	// +15%); with no ETC at all 1,875 M / 518 k on the first (nodes +36%).
	exclusive := w.busy != nil && n-w.rootMoves < busyDepth
	etc := n < etcStones
	var childKeys [board.Width]uint64
	if etc || exclusive {
		for i := 0; i < count; i++ {
			child := p
			child.PlayMove(moves[i].cell)
			childKeys[i], _ = ttKey(child)
			if etc {
				// Load the buckets all at once: their memory latencies
				// overlap, and the children's own probes find them cached.
				w.table(n + 1).Prefetch(childKeys[i])
			}
		}
	}
	if etc {
		upper := best // the table's move's score if searched above, else below any
		for i := 0; i < count; i++ {
			e, ok := w.table(n + 1).Get(childKeys[i])
			if !ok {
				upper = hi
				continue
			}
			if -e.Upper >= beta {
				w.store(n, key, mirrored, -e.Upper, hi, moves[i].col, w.nodes)
				return -e.Upper
			}
			upper = max(upper, -e.Lower)
		}
		if upper < hi {
			hi = upper
			if hi <= alpha {
				w.store(n, key, mirrored, lo, hi, -1, w.nodes)
				return hi
			}
			beta = min(beta, hi)
		}
	}

	// Near the root (exclusive), with other workers about, a move whose
	// subtree another worker is searching waits for a second pass, by which
	// time its result is likely in the table (Weill's ABDADA, 1996). The
	// first move is always searched, so that no worker waits on another.
	var deferred [board.Width]bool
	before := searched // the table's move, if searched above
	for pass := 0; pass < 2; pass++ {
		for i := 0; i < count; i++ {
			if pass == 1 && !deferred[i] {
				continue
			}
			if pass == 0 && exclusive && i > 0 && w.busy.has(childKeys[i]) {
				deferred[i] = true
				continue
			}
			child := p
			child.PlayMove(moves[i].cell)
			if exclusive {
				w.busy.add(childKeys[i])
			}
			var sc int
			if searched == 0 {
				sc = -w.negamax(child, moves[i].threats, -beta, -a)
			} else {
				sc = -w.negamax(child, moves[i].threats, -a-1, -a)
				if !w.stopped && sc > a && sc < beta {
					// Failed high inside the window: the scout's bound sc is
					// a lower bound; find the exact value above it.
					sc = -w.negamax(child, moves[i].threats, -beta, -(sc - 1))
				}
			}
			searched++
			if exclusive {
				w.busy.remove(childKeys[i])
			}
			if w.stopped {
				return 0
			}
			if sc > best {
				best, bestCol = sc, moves[i].col
			}
			if sc >= beta {
				w.store(n, key, mirrored, sc, hi, bestCol, start)
				return sc
			}
			a = max(a, sc)
		}
		if searched-before == count {
			break
		}
	}
	if best > alpha {
		w.store(n, key, mirrored, best, best, bestCol, start)
	} else {
		// Every move failed low: no move is known to be best.
		w.store(n, key, mirrored, lo, best, -1, start)
	}
	return best
}

func (w *worker) store(n int, key uint64, mirrored bool, lower, upper, col int, start uint64) {
	if mirrored && col >= 0 {
		col = board.Width - 1 - col
	}
	w.table(n).Put(key, lower, upper, col, w.nodes-start)
}

// table returns the table that holds positions of n stones.
func (w *worker) table(n int) *ttable.Table {
	if n >= leafStones {
		return w.leaf
	}
	return w.tt
}

// orderScore rates a move for ordering: the threats it leaves its player
// (cells that would complete four, p.ThreatsAfter(cell), passed in as
// threats; oppThreats are the opponent's), three points each, plus one point for
// each threat directly above a column's next free cell, which the opponent
// can then not play under. Threats directly above an opponent's threat do
// not count: the opponent's comes first. Idea from Christophe Steininger's
// solver; the weights are this package's, measured on the published sets
// (mean nodes against counting all threats alike, Test_L2_R2 / Test_L1_R2
// first 200 / Test_L1_R3 30 lines of 11+ stones: 29,883 / 829,822 /
// 1,062,276 before, 25,362 / 713,108 / 826,727 after; Test_L1_R1, whose
// wins are quick, rises from 2,939 to 3,430).
func orderScore(p board.Position, cell, threats, oppThreats board.Bitboard) int {
	t := threats &^ (oppThreats << 1)
	next := ((p.Mask() | cell) + board.BottomRow) & board.Playable
	return 3*t.Count() + (t & (next << 1)).Count()
}
