package solver

import (
	"context"
	"errors"

	"c4solve/board"
	"c4solve/ttable"
)

// Score range on the 7x6 board.
const (
	// MaxScore is the best score: a win with the fourth stone.
	MaxScore = (board.Cells+1)/2 - 3
	// MinScore is the worst score: a loss to the opponent's fourth stone.
	MinScore = -MaxScore
)

// ErrGameOver is returned for a position whose game has already ended.
var ErrGameOver = errors.New("the game is already over")

// pollInterval is how many nodes pass between two looks at the context:
// often enough to stop within a millisecond, rarely enough to cost nothing.
const pollInterval = 1 << 12

// columnOrder is the center-first order in which moves are tried before
// threats reorder them: central cells lie on more lines of four.
var columnOrder = [board.Width]int{3, 2, 4, 1, 5, 0, 6}

// Solver searches positions, one at a time. It keeps per-search counters
// and shares its transposition table, which may be shared with other
// Solvers running concurrently. A Solver itself is not safe for concurrent
// use. The zero value is not usable; call New.
type Solver struct {
	tt    *ttable.Table
	nodes uint64

	done    <-chan struct{} // the current search's context's Done channel
	stopped bool            // set once done is closed; unwinds the search
}

// New returns a Solver that uses the table tt.
func New(tt *ttable.Table) *Solver { return &Solver{tt: tt} }

// Table returns the Solver's transposition table.
func (s *Solver) Table() *ttable.Table { return s.tt }

// Result is the outcome of a solve. When the search was interrupted, Score
// is not known and Lower <= score <= Upper is all that was established.
type Result struct {
	Score        int
	Lower, Upper int
	Nodes        uint64
}

// Solve returns the exact score of p, which must not be over. It stops
// early when ctx is done, returning ctx's error and the bounds found so far.
func (s *Solver) Solve(ctx context.Context, p board.Position) (Result, error) {
	return s.solve(ctx, p, MinScore, MaxScore)
}

// SolveWeak returns the sign of the score of p: 1 if the side to move wins,
// 0 for a draw, -1 if it loses. It searches less than Solve.
func (s *Solver) SolveWeak(ctx context.Context, p board.Position) (Result, error) {
	r, err := s.solve(ctx, p, -1, 1)
	r.Score, r.Lower, r.Upper = sign(r.Score), sign(r.Lower), sign(r.Upper)
	return r, err
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// solve narrows [lower, upper] by null-window probes until it closes or
// until the score is known to lie outside it (weak solves use [-1, 1]).
func (s *Solver) solve(ctx context.Context, p board.Position, lower, upper int) (Result, error) {
	s.nodes = 0
	s.done = ctx.Done()
	s.stopped = false
	s.tt.NewSearch()
	if p.Won() {
		return Result{}, ErrGameOver
	}
	n := p.Moves()
	if n == board.Cells {
		return Result{}, ErrGameOver
	}
	if p.CanWinNext() {
		sc := winScore(n)
		return Result{Score: sc, Lower: sc, Upper: sc, Nodes: 1}, nil
	}
	// The probe sequence starts from the range of any position, not the
	// tighter static bounds below: it measured fewer nodes (Test_L1_R1:
	// 2,954 against 3,886).
	lo, hi := lossScore(n), winScore(n)
	if p.NonLosingMoves() == 0 {
		lo, hi = lossScore(n), lossScore(n)
	}
	lo, hi = max(lo, lower), min(hi, upper)
	for lo < hi {
		if err := ctx.Err(); err != nil {
			return Result{Lower: lo, Upper: hi, Nodes: s.nodes}, err
		}
		probe := nextProbe(lo, hi)
		r := s.negamax(p, probe, probe+1)
		if s.stopped {
			return Result{Lower: lo, Upper: hi, Nodes: s.nodes}, ctx.Err()
		}
		if r <= probe {
			hi = r
		} else {
			lo = r
		}
	}
	// With a clipped range (weak solves) the loop may end with hi < lo:
	// the score lies beyond the range, on the side of the last answer.
	sc := hi
	if hi < lo && hi >= lower {
		sc = lo
	}
	return Result{Score: sc, Lower: sc, Upper: sc, Nodes: max(s.nodes, 1)}, nil
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
func (s *Solver) negamax(p board.Position, alpha, beta int) int {
	s.nodes++
	if s.nodes%pollInterval == 0 && s.done != nil {
		select {
		case <-s.done:
			s.stopped = true
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
	if e, ok := s.tt.Get(key); ok {
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
		s.tt.Prefetch(childKeys[i])
	}
	// Enhanced transposition cutoff: a child whose stored upper bound
	// already proves a fail high saves searching any move.
	for i := 0; i < count; i++ {
		if e, ok := s.tt.Get(childKeys[i]); ok && -e.Upper >= beta {
			s.store(key, mirrored, -e.Upper, hi, moves[i].col, s.nodes)
			return -e.Upper
		}
	}

	start := s.nodes
	best, bestCol := MinScore-1, -1
	a := alpha
	for i := 0; i < count; i++ {
		child := p
		child.PlayMove(moves[i].cell)
		var sc int
		if i == 0 {
			sc = -s.negamax(child, -beta, -a)
		} else {
			sc = -s.negamax(child, -a-1, -a)
			if !s.stopped && sc > a && sc < beta {
				// Failed high inside the window: the scout's bound sc is a
				// lower bound; find the exact value above it.
				sc = -s.negamax(child, -beta, -(sc - 1))
			}
		}
		if s.stopped {
			return 0
		}
		if sc > best {
			best, bestCol = sc, moves[i].col
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
		// Every move failed low: no move is known to be best.
		s.store(key, mirrored, lo, best, -1, start)
	}
	return best
}

func (s *Solver) store(key uint64, mirrored bool, lower, upper, col int, start uint64) {
	if mirrored && col >= 0 {
		col = board.Width - 1 - col
	}
	s.tt.Put(key, lower, upper, col, s.nodes-start)
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
