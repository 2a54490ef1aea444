package solver

import "c4solve/board"

// Score range on the 7x6 board.
const (
	// MaxScore is the best score: a win with the fourth stone.
	MaxScore = (board.Cells+1)/2 - 3
	// MinScore is the worst score: a loss to the opponent's fourth stone.
	MinScore = -MaxScore
)

// WinScore is the score of a position with n stones whose side to move
// wins with its next stone: the best score such a position can have.
func WinScore(n int) int { return (board.Cells + 1 - n) >> 1 }

// LossScore is the score of a position with n stones whose opponent wins
// with its next stone: the worst score such a position can have.
func LossScore(n int) int { return -((board.Cells - n) >> 1) }

// Static bounds of a position with n stones whose side to move cannot win
// at once and has a move that does not lose at once: it wins with its
// second stone from now at best and loses to the opponent's second at
// worst. (As n <= board.Cells, the halvings are of numbers >= 0, and
// shifts: a signed division by 2 costs a sign correction.)
func maxScore(n int) int { return (board.Cells - 1 - n) >> 1 }
func minScore(n int) int { return -((board.Cells - 2 - n) >> 1) }

// WeakScore is what SolveWeak and AnalyzeWeak answer for a position of
// the given score: its sign.
func WeakScore(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}
