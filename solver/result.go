package solver

import (
	"errors"

	"c4solve/board"
)

// ErrGameOver is returned for a position whose game has already ended.
var ErrGameOver = errors.New("the game is already over")

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
	// FromBook says that the score is the opening book's: nothing was
	// searched.
	FromBook bool
}

// Weak returns r as a weak solve's result: its score and bounds replaced
// by their signs.
func (r Result) Weak() Result {
	r.Score, r.Lower, r.Upper = board.WeakScore(r.Score), board.WeakScore(r.Lower), board.WeakScore(r.Upper)
	return r
}

// Known returns the result of the position p, of any board, that needs
// no search, with ok, if it has one, as Solve would return it: a win at
// once, or a position of the book b (nil for none); or ErrGameOver for a
// game that is over. A command whose positions all have one needs no
// table.
func Known(p board.Board, b Book) (r Result, ok bool, err error) {
	g, n := p.Grid(), p.Stones()
	var lookup func() (int, bool)
	if b != nil && n <= b.Depth() {
		lookup = func() (int, bool) { return b.Lookup(p) }
	}
	return knownOf(p.Won() || n == g.Cells(), p.CanWinNext(), g.WinNextScore(n), lookup)
}

// knownOf is Known, and the engines' own check of a root, of the facts
// of a position: the game is over, its side to move wins at once (for
// winScore), and lookup (nil for none) asks its book.
func knownOf(over, winsNext bool, winScore int, lookup func() (int, bool)) (r Result, ok bool, err error) {
	switch {
	case over:
		return Result{}, false, ErrGameOver
	case winsNext:
		return Result{Score: winScore, Lower: winScore, Upper: winScore, Nodes: 1}, true, nil
	case lookup != nil:
		if sc, ok := lookup(); ok {
			return Result{Score: sc, Lower: sc, Upper: sc, Nodes: 1, FromBook: true}, true, nil
		}
	}
	return Result{}, false, nil
}

// errWrongScore is returned by PV when no move keeps the score it was given.
var errWrongScore = errors.New("solver: no move keeps the score given to PV: it is not the position's score")
