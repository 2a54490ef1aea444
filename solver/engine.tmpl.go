//go:build ignore

// The search, written once for every board: internal/gen instantiates it
// as engine (7x6, the board's dimensions constants: zengine.go), engine49
// (any board of at most 49 bits, on Position64: zengine49.go), engine64
// (at most 64 bits: zengine64.go), enginePacked (at most 64 cells in one
// word: zenginePacked.go) and engine128 (at most 128 bits:
// zengine128.go), each with its engineAnalysis and engineBook; Solver
// (solver.go) is the one door to them. Edit this file, then run go generate ./... ; CI
// fails when the generated files differ from it. What the variants do
// differently (their tables, keys, bounds on sizes) is in variants.go.

package solver

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"c4solve/board"
	"c4solve/internal/position"
	"c4solve/ttable"
)

// move is a candidate move: the cell the stone lands on, the threats it
// leaves its player, its column, and its ordering score. Its fields fit
// in 32 bytes, two vector moves.
type move struct {
	cell, threats position.Bitboard
	replies       position.Bitboard // the child's moves that do not lose at once
	col, score    int32
}

// node is the state of one interior node of the search, shared by the
// steps of negamax: the position, its window, what the table and the
// moves searched so far have established, and the moves to search.
type node struct {
	p          position.Position
	oppThreats position.Bitboard // p.OpponentWinningCells()
	next       position.Bitboard // the moves that do not lose at once
	n          int               // p.Stones()

	alpha, beta int // the window, narrowed to [lo, hi]
	lo, hi      int // the score is known to lie in [lo, hi]

	// The moves after which ClaimevenBound gives no bound (found by the
	// reply rule: see staticBounds), so that the children need not try it.
	claimevenFails position.Bitboard

	key       position.Key // the table key: p's or its mirror's, the smaller
	ref       ttable.Ref   // where key's entry is in its table
	mirrored  bool         // whether key is the mirror's; stored moves are mirrored
	symmetric bool         // p is its own mirror image: search half the moves
	ttMove    int          // the table's best move, -1 for none

	best, bestCol int    // the best score and its move, once the moves are searched
	start         uint64 // w.nodes when the node began, for the work it took
}

// moveList is the moves of a node still to search. Each worker keeps one
// per number of stones (worker.lists), reused from node to node, rather
// than one on the stack of each node, which Go would clear every time.
type moveList struct {
	moves [maxWidth]move         // best first
	count int                    // len(moves) in use
	keys  [maxWidth]position.Key // the moves' table keys, if etc or exclusive
	// The places of the moves' table entries, or for a move with a forced
	// reply the entry after the reply's, if etc (see enhancedCutoff).
	refs [maxWidth]ttable.Ref

	// exclusive: the node is near the root and other workers search
	// beside this one, so moves use the busy table (see searchMoves).
	exclusive bool
}

// negamax returns the score of p, which must not be over and whose side to
// move must not be able to win at once, or a bound on it: a value v <=
// alpha means score <= v, v >= beta means score >= v, and anything between
// is exact (fail-soft alpha-beta). oppThreats must be
// p.OpponentWinningCells(), which the caller has at hand; claimevenFails
// says that p.ClaimevenBound is known to give no bound, as the parent's
// reply rule may have found.
//
// Its steps: the checks that need no search (staticBounds, a forced move
// played through), the table probe (probeTable), the moves generated and
// ordered, the table's move first (generateMoves), the children's keys and
// table entries (childKeys, enhancedCutoff), the scout search of the moves
// (searchMoves), and the store of what was found.
func (w *worker) negamax(p position.Position, oppThreats position.Bitboard, alpha, beta int, claimevenFails bool) int {
	g := w.g
	w.nodes++
	if w.nodes%pollInterval == 0 {
		if w.poll(); w.stopped {
			return 0
		}
	}
	n := p.Stones()
	if n <= w.bookDepth {
		if sc, ok := w.book.Lookup(p); ok {
			return sc
		}
	}
	next := p.NonLosingMovesAgainst(oppThreats)
	if next == 0 {
		return g.LossNextScore(n)
	}
	if n >= g.Cells()-2 {
		return 0 // both last stones can only be played, and neither wins
	}
	if forced(next) {
		// A forced move (one move does not lose at once) is played
		// through: the node's score is its child's, and the node takes no
		// table slot, leaving the room to positions with a choice. Only
		// the range's bounds are applied here; the static rules are left
		// to the child, whose bounds are the node's one move later.
		lo, hi := lossLaterScore(g, n), winLaterScore(g, n)
		if lo >= beta || lo >= hi {
			return lo
		}
		if hi <= alpha {
			return hi
		}
		child := p
		child.PlayMove(next)
		return -w.negamax(child, p.ThreatsAfter(next), -min(beta, hi), -max(alpha, lo), false)
	}

	// The node's table bucket is on its way from memory while the static
	// bounds are worked out.
	var key position.Key
	var mirrored, symmetric bool
	if w.mirrorKeys {
		key, mirrored, symmetric = p.CanonicalKey()
	} else {
		key = p.Key()
	}
	ref := tableRef(w.table(n), key)
	ref.Prefetch()
	lo, hi, fails := staticBounds(p, n, alpha, beta, claimevenFails)
	// Field by field into the worker's node for n stones: a composite
	// literal is built on the stack and copied, and the copy's wide loads
	// stall on the narrow stores that built it.
	nd := &w.path[n]
	nd.p, nd.oppThreats, nd.next, nd.n = p, oppThreats, next, n
	nd.alpha, nd.beta, nd.lo, nd.hi, nd.claimevenFails = alpha, beta, lo, hi, fails
	nd.key, nd.ref, nd.mirrored, nd.symmetric = key, ref, mirrored, symmetric
	if sc, done := w.probeTable(nd); done {
		return sc
	}
	nd.start = w.nodes
	ml := &w.lists[n]
	ml.count = 0
	switch w.generateMoves(nd, ml) {
	case winNext:
		// The opponent cannot parry one of our moves: we win with our
		// next stone, the best any move can do (see maxScore).
		return winLaterScore(g, n)
	case winAfter:
		// None wins with our next stone, and one wins with the one after:
		// the best that is left.
		return winLaterScore(g, n+2)
	case drawAtLeast:
		// A move leaves the opponent no line of four: we score at least
		// 0, and the window asks no more (beta <= 0).
		return 0
	}
	// No move wins with our next stone: at best the one after.
	nd.hi = min(nd.hi, winLaterScore(g, n+2))
	if nd.hi <= nd.alpha {
		return nd.hi
	}
	nd.beta = min(nd.beta, nd.hi)
	etc := g.Cells()-n > etcEmpty
	ml.exclusive = w.busy != nil && n-w.rootStones < busyDepth
	if etc || ml.exclusive {
		w.childKeys(nd, ml, etc)
	}
	if etc {
		if sc, done := w.enhancedCutoff(nd, ml); done {
			return sc
		}
	}
	if sc, done := w.searchMoves(nd, ml); done {
		return sc
	}
	if nd.best > nd.alpha {
		w.store(nd, nd.best, nd.best, nd.bestCol, nd.start)
	} else {
		// Every move failed low: no move is known to be best.
		w.store(nd, nd.lo, nd.best, -1, nd.start)
	}
	return nd.best
}

// staticBounds returns bounds on the score of p, a position of n stones
// whose side to move cannot win at once and has a move that does not lose
// at once, from the board alone: how soon either side can still win,
// whether either has a line of four left open, Allis' claimeven rule,
// which bounds one side from above (on 7x6 the first player), and applied
// one move ahead bounds the other from below (position.ClaimevenBound,
// position.ClaimevenReplyBound), and the first side's odd threats, which
// bound it from below (position.OddThreatBound).
//
// Each rule gives a bound of -3 to 3 on 7x6 (-Height/2 to Height/2 on
// other boards), so it is tried only where that bound
// can decide the node in the window (alpha, beta): with the null windows
// of the root's probes, most nodes' windows lie far from zero. The reply
// rule, the costliest, is tried only where a bound of 2 or less can
// (replyRuleBeta). Where a rule is skipped, the bounds returned are only
// looser. Claimeven is not tried where claimevenFails says it gives no
// bound.
//
// It also returns the moves after which claimeven gives no bound, as the
// reply rule found them (0 where it was not tried), which the children
// then need not try: the reply rule has tried claimeven after every move.
func staticBounds(p position.Position, n, alpha, beta int, claimevenFails bool) (lo, hi int, fails position.Bitboard) {
	g := p.Geometry()
	lo, hi = lossLaterScore(g, n), winLaterScore(g, n)
	// Claimeven bounds the side to move where the stones have the
	// parity of ClaimParity (on 7x6 the first player), the reply rule the
	// other; each bound is 0 or beyond, which makes the open-line test on
	// its side moot.
	if n%2 == g.ClaimParity() {
		if alpha >= -g.ClaimevenWinScore() && !claimevenFails {
			if b, ok := p.ClaimevenBound(alpha); ok {
				hi = b
			}
		}
		if beta <= g.OddThreatMax() && hi > 0 {
			if b, ok := p.OddThreatBound(beta); ok {
				lo = b
			}
		}
	} else if beta <= replyRuleBeta {
		b, ok, applies := p.ClaimevenReplyBound(beta)
		if ok {
			lo = b
		}
		fails = ^applies
	}
	if hi > 0 && alpha >= 0 && !p.CanStillWin() {
		hi = 0
	}
	if lo < 0 && beta <= 0 && !p.OpponentCanStillWin() {
		lo = 0
	}
	return lo, hi, fails
}

// probeTable narrows nd's bounds and window with its table entry, keyed by the
// position or its mirror image (which has the same score: nd.key), and notes the
// entry's best move. It reports whether the bounds already decide the
// node, and then its value.
func (w *worker) probeTable(nd *node) (int, bool) {
	g := w.g
	nd.ttMove = -1
	if e, ok := nd.ref.Get(); ok {
		nd.lo, nd.hi = max(nd.lo, e.Lower), min(nd.hi, e.Upper)
		nd.ttMove = e.Move
		if nd.mirrored && nd.ttMove >= 0 {
			nd.ttMove = g.Width() - 1 - nd.ttMove
		}
	}
	if nd.lo >= nd.beta || nd.lo >= nd.hi {
		return nd.lo, true
	}
	if nd.hi <= nd.alpha {
		return nd.hi, true
	}
	nd.alpha, nd.beta = max(nd.alpha, nd.lo), min(nd.beta, nd.hi)
	return 0, false
}

// generateMoves fills ml with the moves that do not lose at once, but the
// mirror images of others in a symmetric position: the table's move first,
// then the others best first by orderScore, center first among equals. It
// reports how soon a move is known to win: winNext where one leaves the
// opponent no parry; winAfter where none does, but one leaves it a single
// parry after which we have a move that leaves none (by the patterns of
// afterReplyCandidates), a win the search of that move would find, seen
// here before any move is searched (docs/performance.md); drawAtLeast
// (where drawRule) where nd's window asks for no more than a draw (beta
// <= 0) and a move leaves the opponent no line of four without our
// stones, so that it can never win (Position.CanStillWin, the test
// staticBounds makes of the child, made here before any move is
// searched, as Steininger's solver tests every child statically first);
// noWin otherwise.
//
// The table's move is generated with the others, not searched before them
// (which would spare generating them where it fails high again): a move
// that wins at once and the children's table entries (enhancedCutoff) then
// decide some nodes before any search (docs/performance.md).
func (w *worker) generateMoves(nd *node, ml *moveList) winTime {
	g := w.g
	p := nd.p
	found := noWin
	rest := nd.next // the moves not generated yet
	if nd.symmetric {
		rest &= g.LeftHalf()
	}
	// Where the root's opponent is to move, equal threat scores are
	// ordered by the lines of four through the move's cell, and then
	// center first; where the root's side is, center first alone: by
	// the lines for both sides helps positions of one parity and hurts
	// the other (docs/performance.md).
	tiebreak := (nd.n-w.rootStones)&1 == 1
	draw := false // a move after which the opponent has no line of four left
	for i := 0; rest != 0; i++ {
		cell := rest & g.OrderCells(i)
		if cell == 0 {
			continue
		}
		rest &^= cell
		col := g.ColumnOrder(i)
		child := p
		child.PlayMove(cell)
		// Our threats after the move are the child's opponent's.
		threats := p.ThreatsAfter(cell)
		replies := child.NonLosingMovesAgainst(threats)
		if replies == 0 {
			return winNext
		}
		if found == noWin && forced(replies) {
			if x := afterReplyCandidates(g, child.Mask(), threats, replies); x != 0 && winsAfterReply(child, replies, x) {
				found = winAfter
			}
		}
		if drawRule && !draw && nd.beta <= 0 && !child.CanStillWin() {
			draw = true
		}
		sc := int32(orderScore(p, cell, threats, nd.oppThreats)) << tieBits
		if tiebreak {
			sc += g.CellLines(cell)
		}
		if col == nd.ttMove {
			sc = tableMoveScore
		}
		// Insertion sort, stable: equal scores keep center-first order.
		i := ml.count
		for ; i > 0 && ml.moves[i-1].score < sc; i-- {
			ml.moves[i] = ml.moves[i-1]
		}
		// Field by field: a composite literal is built on the stack first.
		m := &ml.moves[i]
		m.cell, m.threats, m.replies, m.col, m.score = cell, threats, replies, int32(col), sc
		ml.count++
	}
	if found == noWin && draw {
		return drawAtLeast
	}
	return found
}

// winTime is how soon a node's side to move is known to win (see
// generateMoves).
type winTime int

const (
	noWin       winTime = iota
	winNext             // with its next stone
	winAfter            // with the one after
	drawAtLeast         // no win seen, and a move leaves the opponent no line of four: a draw at least, all the window asks
)

// afterReplyCandidates returns our moves that leave the opponent no parry
// once it has played reply, its one move that does not lose at once after
// our move; mask is the board before reply, threats ours (p.ThreatsAfter
// of our move). It looks for two patterns that need nothing of the
// candidate's own threats, which can only add to ours, and so misses the
// wins that do; with P the cells playable after reply, none of them a
// threat of ours (reply parried the one there was), a move x wins:
//
//   - stacked: where the two cells above x are threats of ours: the
//     opponent must take the one right above x, and we take the next;
//   - zugzwang: where x is the one cell of P not right below a threat of
//     ours, and the cell above x is right below one or off the board:
//     wherever the opponent then plays, we complete four on top of it.
//
// A candidate must also not lose at once itself (winsAfterReply). Small
// enough to be inlined: it runs for every move with a forced reply.
func afterReplyCandidates(g position.Geometry, mask, threats, reply position.Bitboard) position.Bitboard {
	t := threats &^ reply
	playable := g.NextCells(mask | reply)
	below := g.Below(t)
	x := playable & below & g.Below(below)
	if z := playable &^ below; z&(z-1) == 0 && (g.Above(g.Above(z))&t != 0 || g.Above(z)&g.Playable() == 0) {
		x |= z // z 0 adds nothing
	}
	return x
}

// winsAfterReply reports whether one of the candidates x (see
// afterReplyCandidates) does not lose at once once the opponent, to move
// in child, has played reply: then it wins.
func winsAfterReply(child position.Position, reply, x position.Bitboard) bool {
	oppThreats := child.ThreatsAfter(reply)
	child.PlayMove(reply)
	return x&child.NonLosingMovesAgainst(oppThreats) != 0
}

// childKeys fills ml.keys with the keys of nd's children, which the busy
// table needs where ml.exclusive, and if etc, ml.refs with the places of
// their entries for enhancedCutoff, whose buckets it prefetches. A child
// with a forced reply has no entry of its own (negamax plays the reply
// through), so the place is the grandchild's after that reply, whose score
// the move has.
func (w *worker) childKeys(nd *node, ml *moveList, etc bool) {
	for i := 0; i < ml.count; i++ {
		m := &ml.moves[i]
		child := nd.p
		child.PlayMove(m.cell)
		// The keys as negamax makes them (see mirrorKeys), written out
		// here: a method of the worker for them is not inlined.
		if w.mirrorKeys {
			ml.keys[i], _, _ = child.CanonicalKey()
		} else {
			ml.keys[i] = child.Key()
		}
		if !etc {
			continue
		}
		if forced(m.replies) {
			child.PlayMove(m.replies)
			var key position.Key
			if w.mirrorKeys {
				key, _, _ = child.CanonicalKey()
			} else {
				key = child.Key()
			}
			ml.refs[i] = tableRef(w.table(nd.n+2), key)
		} else {
			ml.refs[i] = tableRef(w.table(nd.n+1), ml.keys[i])
		}
		// Load the buckets all at once: their memory latencies overlap,
		// and the children's own probes find them cached.
		ml.refs[i].Prefetch()
	}
}

// enhancedCutoff tries the children's table entries, found by childKeys,
// before searching any of them (enhanced transposition cutoff): one
// child's upper bound may prove a fail high, and when every child has an
// entry, their lower bounds together bound the node from above, which may
// prove a fail low. It reports whether the entries decide the node, and
// then its value.
func (w *worker) enhancedCutoff(nd *node, ml *moveList) (int, bool) {
	g := w.g
	upper := g.MinScore() - 1 // below any score
	for i := 0; i < ml.count; i++ {
		e, ok := ml.refs[i].Get()
		if !ok {
			upper = nd.hi
			continue
		}
		// The move's score lies in [lower, upper].
		lower, up := -e.Upper, -e.Lower
		if forced(ml.moves[i].replies) {
			lower, up = e.Lower, e.Upper
		}
		if lower >= nd.beta {
			w.store(nd, lower, nd.hi, int(ml.moves[i].col), w.nodes)
			return lower, true
		}
		upper = max(upper, up)
	}
	if upper < nd.hi {
		nd.hi = upper
		if nd.hi <= nd.alpha {
			w.store(nd, nd.lo, nd.hi, -1, w.nodes)
			return nd.hi, true
		}
		nd.beta = min(nd.beta, nd.hi)
	}
	return 0, false
}

// forced reports whether a set of moves holds at most one move (callers
// have ruled out none).
func forced(moves position.Bitboard) bool { return moves&(moves-1) == 0 }

// searchMoves searches nd's moves in order, principal variation search:
// the first move searched gets the full window, the others a null window
// at a, and one that fails high inside the window is searched again with
// the window above its bound. Near the root, with other workers about, a
// move whose subtree another worker is searching waits for a second pass,
// by which time its result is likely in the table (Weill's ABDADA, 1996);
// the first move is always searched, so that no worker waits on another.
// It reports whether a move failed high or the search stopped, and then
// the node's value.
func (w *worker) searchMoves(nd *node, ml *moveList) (int, bool) {
	g := w.g
	w.expanded++ // a child is searched: the first is never deferred
	exclusive := ml.exclusive
	a, beta := nd.alpha, nd.beta
	best, bestCol := g.MinScore()-1, -1
	var deferred [maxWidth]bool
	for pass := 0; pass < 2; pass++ {
		for i := 0; i < ml.count; i++ {
			if pass == 1 && !deferred[i] {
				continue
			}
			if pass == 0 && exclusive && i > 0 && w.busy.has(keyHash(ml.keys[i])) {
				deferred[i] = true
				continue
			}
			m := &ml.moves[i]
			child := nd.p
			child.PlayMove(m.cell)
			if exclusive {
				w.busy.add(keyHash(ml.keys[i]))
			}
			var sc int
			fails := nd.claimevenFails&m.cell != 0
			if pass == 0 && i == 0 { // the first move, never deferred
				sc = -w.negamax(child, m.threats, -beta, -a, fails)
			} else {
				sc = -w.negamax(child, m.threats, -a-1, -a, fails)
				if !w.stopped && sc > a && sc < beta {
					// The scout's bound sc is a lower bound; find the
					// exact value above it.
					sc = -w.negamax(child, m.threats, -beta, -(sc - 1), fails)
				}
			}
			if exclusive {
				w.busy.remove(keyHash(ml.keys[i]))
			}
			if w.stopped {
				return 0, true
			}
			if sc > best {
				best, bestCol = sc, int(m.col)
			}
			if sc >= beta {
				w.store(nd, sc, nd.hi, bestCol, nd.start)
				return sc, true
			}
			a = max(a, sc)
		}
		if !exclusive {
			break // nothing was deferred
		}
	}
	nd.best, nd.bestCol = best, bestCol
	return 0, false
}

// store records in the table that nd's score lies in [lower, upper], that
// col (-1 for none) was best, and that the search of nd took the nodes
// since start.
func (w *worker) store(nd *node, lower, upper, col int, start uint64) {
	g := w.g
	if nd.mirrored && col >= 0 {
		col = g.Width() - 1 - col
	}
	t := w.table(nd.n)
	if t == w.tt {
		w.stores++
	}
	tablePut(t, nd.key, lower, upper, col, w.nodes-start)
	if w.journal != nil && w.nodes-start >= w.journal.Nodes {
		lo, hi := keyWords(g, nd.key)
		w.journal.add(lo, hi, lower, upper, col)
	}
}

// table returns the table that holds positions of n stones.
func (w *worker) table(n int) *ttable.Table {
	if n >= w.leafFrom {
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
// against other weights (docs/performance.md).
func orderScore(p position.Position, cell, threats, oppThreats position.Bitboard) int {
	g := p.Geometry()
	t := threats &^ g.Above(oppThreats)
	next := g.NextCells(p.Mask() | cell)
	return 3*t.Count() + (t & g.Above(next)).Count()
}

// worker is one search thread: its counters, its own table for positions
// near the leaves, and its view of the stop signal. The workers of one
// Solver share the transposition table, the root's score range (rb), the
// busy table, the book, and the context that stops them.
type worker struct {
	g          position.Geometry
	tt         *ttable.Table // shared by all workers
	leaf       *ttable.Table // this worker's own, for positions of leafFrom stones or more
	leafFrom   int           // see leafEmpty and sharedPlies
	leafStale  int           // parts of leaf (ttable.ClearParts) still to clear before it is used
	journal    *TableFile    // where the entries of large subtrees are kept, nil for none
	workers    int           // of the Solver, this one included
	book       EngineBook    // its Book nil for none
	bookDepth  int           // the book's depth, -1 for none
	id         int           // 0 for the first worker, 1 and up for the helpers
	helper     bool          // the worker helps another with its root: it asks other probes (helperProbe) where helpersSpread
	rootStones int           // stones on the board at the root of the solve
	// mirrorKeys: the table's keys are CanonicalKey's, one for a position
	// and its mirror image, where the root's tree may hold both (see
	// probeRoot); else each position's own Key, no reflection at all.
	mirrorKeys bool
	nodes      uint64        // nodes of the current solve
	expanded   uint64        // of them, those that searched a child (not played through or settled without one)
	stores     uint64        // of them, those stored in the shared table tt (see growTable)
	published  atomic.Uint64 // nodes, as last published for progress readers
	limit      uint64        // once nodes reaches it, call join; 0 for none
	join       func()        // starts the other workers (Solver.startHelpers)
	budget     uint64        // once nodes reaches it, the search stops as when the context is done (Engine.spread); 0 for none

	done    <-chan struct{} // the current search's context's Done channel
	stopped bool            // set once done is closed or the probe is moot; unwinds the search

	path  [maxCells]node     // the node of each number of stones on the search path
	lists [maxCells]moveList // its moves

	rb    *rootBounds // the range the workers narrow together
	busy  *busyTable  // the subtrees workers are searching; nil for one worker
	probe int         // the value of the probe under way

	// Workers are allocated side by side, and nodes changes at every
	// node: the padding keeps two workers' counters out of one cache line
	// and its adjacent-line prefetch pair (docs/performance.md).
	_ [128]byte
}

// begin sets the worker up for a search, every part of its state that a
// search sets: its counters zeroed; the busy table of the subtrees other
// workers search (nil when it searches alone); whether it is a helper,
// asking the probes beside the first worker's (helperProbe) where
// helpersSpread; the node count at which it calls join (0: never); and
// the node count at which it stops, its budget (0: none).
func (w *worker) begin(busy *busyTable, helper bool, limit, budget uint64) {
	w.nodes, w.expanded, w.stores, w.limit, w.budget = 0, 0, 0, limit, budget
	w.published.Store(0)
	w.busy, w.helper = busy, helper
}

// clearLeaf clears what is left to clear of the worker's own table (see
// Solver.Clear), a part at a time, and reports whether it got to the end:
// it stops early when ctx is done or the solve's range rb, if not nil, has
// closed, so that a solve that ends while a helper clears does not wait
// for the whole of it.
func (w *worker) clearLeaf(ctx context.Context, rb *rootBounds) bool {
	for ; w.leafStale > 0; w.leafStale-- {
		if ctx.Err() != nil {
			return false
		}
		if rb != nil {
			if lo, hi := rb.get(); lo >= hi {
				return false
			}
		}
		w.leaf.ClearPart(ttable.ClearParts - w.leafStale)
	}
	return true
}

// probeRoot runs null-window probes at the root p until the shared range
// closes, the search is stopped or the worker has spent its budget.
func (w *worker) probeRoot(ctx context.Context, p position.Position, rb *rootBounds) {
	w.rootStones = p.Stones()
	// Every position of the root's tree holds the root's stones, and its
	// mirror image their reflections: where a stone of the root faces
	// one of the other side's across the middle, no position of the tree
	// holds both, and no mirror image of one is in the tree (nor is one
	// its own). Keys that stand for a position and its mirror image
	// would then share nothing, and cost a reflection at every node and
	// child: 8x8's positions of 18-22 stones spent 17% of their search
	// in CanonicalKey. A table holds both kinds of key alike: an entry
	// under key k is of the position whose own key is k, and its move in
	// that position's columns.
	w.mirrorKeys = p.MayMeetMirror()
	w.leafFrom = max(w.g.Cells()-leafEmpty, w.rootStones+sharedPlies)
	w.done = ctx.Done()
	w.rb = rb
	for {
		lo, hi := rb.get()
		if lo >= hi || ctx.Err() != nil || w.spent() {
			return
		}
		w.probe = rb.probe(lo, hi, gallop)
		if w.helper && helpersSpread {
			w.probe = helperProbe(lo, hi, w.probe, max(w.id, 1))
		}
		w.stopped = false
		r := w.negamax(p, p.OpponentWinningCells(), w.probe, w.probe+1, false)
		if !w.stopped {
			rb.update(w.probe, r)
		}
	}
}

// poll looks, every pollInterval nodes, whether the search must stop: the
// context is done, the worker has spent its budget, or other workers have
// settled the question of the probe under way, so that its answer no
// longer matters. It also starts the other workers once the first has
// searched its share alone.
func (w *worker) poll() {
	w.published.Store(w.nodes)
	growTable(w.tt, w.stores*uint64(w.workers))
	if w.journal != nil {
		w.journal.tick()
	}
	if w.limit != 0 && w.nodes >= w.limit {
		w.limit = 0
		w.join()
	}
	if w.spent() {
		w.stopped = true
		return
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

// spent says whether the worker has searched its budget of nodes.
func (w *worker) spent() bool { return w.budget != 0 && w.nodes >= w.budget }

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
	tt      *ttable.Table
	workers []*worker
	bounds  rootBounds               // of the solve under way
	view    atomic.Pointer[rootView] // of the analysis or line of perfect play under way, for Progress; nil for none
	helpers helpers                  // of the solve under way
	busy    *busyTable               // shared by the workers; nil for one
	noAging bool                     // see SetAging
}

// newSolver returns a Solver of the Boards of grid, positions of the
// geometry g, with the given number of worker goroutines (at least 1) that
// uses the table tt, shared by the workers, and a table of LeafTableMiB for
// each worker.
func newSolver(grid *board.Grid, g position.Geometry, tt *ttable.Table, threads int) *Engine {
	s := &Engine{grid: grid, g: g, tt: tt}
	if threads > 1 {
		s.busy = new(busyTable)
	}
	for id := range max(threads, 1) {
		s.workers = append(s.workers, &worker{g: g, id: id, workers: max(threads, 1), tt: tt, leaf: newTable(g, LeafTableMiB), bookDepth: -1})
	}
	s.workers[0].join = s.startHelpers
	return s
}

// Clear empties the shared table and the workers' own tables, so that the
// next solve starts cold. It must not run concurrently with a solve. It
// does nothing to a table freed (ttable.Table.Free).
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
		w.leafStale = ttable.ClearParts
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
func (s *Engine) Table() *ttable.Table { return s.tt }

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
// Every solve holds the shared table (ttable.Table.Acquire) from its first
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
// table (ttable.Table.NewSearch), which makes what earlier solves stored
// the first to be replaced: on, the default, for a table that one Solver
// uses at a time. Solvers that share a table and solve at once should turn
// it off: each new generation of one makes the entries that the others are
// storing for their solves under way look old, the first to go, and a long
// solve beside a stream of short ones then keeps almost nothing. Their
// owner calls NewSearch itself, when no solve is under way or now and then.
// The workers' own tables age with each solve either way.
func (s *Engine) SetAging(on bool) { s.noAging = !on }

// newSearch starts a new generation in the tables (ttable.NewSearch): what
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

// known returns the result of p that needs no search, with ok, if it has
// one: a win at once, or a position of the book b (nil for none); or
// ErrGameOver for a game that is over.
func known(g position.Geometry, p position.Position, b EngineBook) (r Result, ok bool, err error) {
	n := p.Stones()
	if p.Won() || n == g.Cells() {
		return Result{}, false, ErrGameOver
	}
	if p.CanWinNext() {
		sc := g.WinNextScore(n)
		return Result{Score: sc, Lower: sc, Upper: sc, Nodes: 1}, true, nil
	}
	if b.Book != nil && n <= b.Depth() {
		if sc, ok := b.Lookup(p); ok {
			return Result{Score: sc, Lower: sc, Upper: sc, Nodes: 1, FromBook: true}, true, nil
		}
	}
	return Result{}, false, nil
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

// runWorkers searches p with the workers until the range rb closes, ctx
// is done or each worker has searched budget nodes (0: no budget). The first worker searches alone, in the calling goroutine, until
// it has searched helperNodes nodes; only then do the others join it, in
// goroutines of their own. Most solves are over long before (Test_L3_R1's
// take tens of nodes), and starting helpers, waking their threads and
// waiting for them costs more than such a solve. A worker that finds the
// range closed, by itself or by another, returns at its next poll, so no
// worker needs to cancel the others.
func (s *Engine) runWorkers(ctx context.Context, p position.Position, rb *rootBounds, budget uint64) {
	first := s.workers[0]
	if len(s.workers) == 1 {
		first.begin(nil, false, 0, budget)
		first.probeRoot(ctx, p, rb)
		return
	}
	for _, w := range s.workers[1:] {
		w.begin(s.busy, true, 0, budget)
	}
	s.helpers = helpers{ctx: ctx, p: p, rb: rb}
	// Alone, the first worker has no one to keep out of its subtrees;
	// startHelpers gives it the busy table when the others join.
	first.begin(nil, false, helperNodes, budget)
	first.probeRoot(ctx, p, rb)
	s.helpers.g.Wait()
}

// helpers is what a solve's helper workers need to start.
type helpers struct {
	g   errgroup.Group
	ctx context.Context
	p   position.Position
	rb  *rootBounds
}

// startHelpers starts every worker but the first on the solve under way.
// The first worker calls it once it has searched helperNodes nodes.
func (s *Engine) startHelpers() {
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
	// Solver.analyze) and safe for concurrent use: Progress reads it.
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

// spread solves the children not solved yet, whose ranges are set, for an
// analysis with a time limit (ctx's deadline), in rounds: each round
// searches every child whose range is open, center first, for at most
// budget nodes a worker, and the next round doubles the budget, from
// spreadNodes; a round with one child open searches it to the end. Each
// child's probes are a solve's: the first, far from 0, are cheap and
// narrow its range the most. A search cut by its budget leaves its
// entries in the table, where the next round finds them. Solved one
// after another, the first child took the whole of the time on 8x8, and
// the others kept their whole ranges; in rounds, however soon the time
// ends, every move has had its share of it. When ctx is done, the
// children keep the ranges found.
func (s *Engine) spread(ctx context.Context, children []*childSolve, v *rootView) {
	g := s.g
	var order []*childSolve
	for i := range g.Width() {
		for _, c := range children {
			if !c.solved && c.col == g.ColumnOrder(i) {
				order = append(order, c)
			}
		}
	}
	defer s.flushJournal()
	for budget := uint64(spreadNodes); ; budget = min(2*budget, 1<<62) {
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
	g := s.g
	// Center first: the central moves are the likely best, and their
	// entries help the others.
	order := make([]*childSolve, 0, len(children))
	for i := range g.Width() {
		col := g.ColumnOrder(i)
		for _, c := range children {
			if !c.solved && c.col == col {
				order = append(order, c)
			}
		}
	}
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

// Static bounds of a position of n stones whose side to move cannot win
// at once and has a move that does not lose at once: it wins with its
// second stone from now at best, and loses to the opponent's second stone
// from now at worst. (As n <= g.Cells(), the halvings are of numbers >=
// 0, and shifts: a signed division by 2 costs a sign correction.)
func winLaterScore(g position.Geometry, n int) int  { return (g.Cells() - 1 - n) >> 1 }
func lossLaterScore(g position.Geometry, n int) int { return -((g.Cells() - 2 - n) >> 1) }
