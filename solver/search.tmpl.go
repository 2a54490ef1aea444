//go:build ignore

// The search of one worker, written once for every board (engine.tmpl.go
// names the variants): negamax, its static bounds, its move generation
// and ordering, its table probes and stores. internal/gen writes it as
// zsearch.go, zsearch49.go, zsearch64.go, zsearch80.go and
// zsearch128.go.
// Edit this file, then run go generate ./... ; CI fails when the
// generated files differ from it (internal/gen).

package solver

import (
	"c4solve/internal/position"
	"c4solve/internal/settings"
	"c4solve/internal/tables"
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

	key       position.Key      // the table key: p's or its mirror's, the smaller
	ref       tables.CompactRef // where key's entry is in its table
	mirrored  bool              // whether key is the mirror's; stored moves are mirrored
	symmetric bool              // p is its own mirror image: search half the moves
	ttMove    int               // the table's best move, -1 for none

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
	refs [maxWidth]tables.CompactRef

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
	if w.nodes%settings.PollInterval == 0 {
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
	etc := g.Cells()-n > settings.EtcEmpty
	ml.exclusive = w.busy != nil && n-w.rootStones < settings.BusyDepth
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
// one move ahead bounds the other from below (Position.ClaimevenBound,
// Position.ClaimevenReplyBound), and the first side's odd threats, which
// bound it from below (Position.OddThreatBound).
//
// Each rule gives a bound of -3 to 3 on 7x6 (-Height/2 to Height/2 on
// other boards), so it is tried only where that bound
// can decide the node in the window (alpha, beta): with the null windows
// of the root's probes, most nodes' windows lie far from zero. The reply
// rule, the costliest, is tried only where a bound of 2 or less can
// (settings.ReplyRuleBeta). Where a rule is skipped, the bounds returned are only
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
	} else if beta <= settings.ReplyRuleBeta {
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
func (w *worker) table(n int) *tables.Compact {
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

// Static bounds of a position of n stones whose side to move cannot win
// at once and has a move that does not lose at once: it wins with its
// second stone from now at best, and loses to the opponent's second stone
// from now at worst. (As n <= g.Cells(), the halvings are of numbers >=
// 0, and shifts: a signed division by 2 costs a sign correction.)
func winLaterScore(g position.Geometry, n int) int  { return (g.Cells() - 1 - n) >> 1 }
func lossLaterScore(g position.Geometry, n int) int { return -((g.Cells() - 2 - n) >> 1) }
