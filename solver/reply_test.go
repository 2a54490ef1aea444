package solver

import (
	"testing"

	"c4solve/board"
	"c4solve/internal/position"
)

// TestWinsAfterReply checks generateMoves' early win against a search of
// every move: on random positions, wherever a move leaves the opponent one
// parry and afterReplyCandidates and winsAfterReply say that we then have
// a move that leaves it none, some move must do so; and both patterns
// must each be met.
func TestWinsAfterReply(t *testing.T) {
	var claimed, wins, stacked, zugzwang int
	for stones := 14; stones <= 36; stones += 2 {
		err := standard7x6.RandomPositions(uint64(stones), stones, 300, func(moves string) bool {
			p, err := position.Parse(moves)
			if err != nil {
				t.Fatal(err)
			}
			for ms := p.NonLosingMovesAgainst(p.OpponentWinningCells()); ms != 0; ms &= ms - 1 {
				m := ms & -ms
				child := p
				child.PlayMove(m)
				threats := p.ThreatsAfter(m)
				reply := child.NonLosingMovesAgainst(threats)
				if reply == 0 || !forced(reply) {
					continue
				}
				x := afterReplyCandidates(position.Geometry{}, child.Mask(), threats, reply)
				got := x != 0 && winsAfterReply(child, reply, x)
				want := winsAtOnceAfter(child, reply)
				if got && !want {
					t.Fatalf("%s, move %v: early win claimed (candidates %#x), but no move after the reply %v leaves no parry", moves, m, x, reply)
				}
				if want {
					wins++
				}
				if got {
					claimed++
					tt := threats &^ reply
					if x&(tt>>1)&(tt>>2) != 0 {
						stacked++
					} else {
						zugzwang++
					}
				}
			}
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d early wins claimed of %d (%d stacked, %d zugzwang)", claimed, wins, stacked, zugzwang)
	if stacked < 20 || zugzwang < 20 {
		t.Errorf("patterns met: %d stacked, %d zugzwang; want at least 20 each", stacked, zugzwang)
	}
}

// winsAtOnceAfter reports, by trying every move, whether after the
// opponent, to move in child, plays reply, we have a move that does not
// lose at once and leaves it no move that does not lose at once.
func winsAtOnceAfter(child position.Position, reply position.Bitboard) bool {
	gc := child
	gc.PlayMove(reply)
	for ys := gc.NonLosingMovesAgainst(child.ThreatsAfter(reply)); ys != 0; ys &= ys - 1 {
		y := ys & -ys
		after := gc
		after.PlayMove(y)
		if after.NonLosingMovesAgainst(gc.ThreatsAfter(y)) == 0 {
			return true
		}
	}
	return false
}

// standard7x6 is the 7x6 board's grid.
var standard7x6, _ = board.NewGrid(board.Standard)
