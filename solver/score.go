package solver

import "c4solve/board"

// Static bounds of a position of n stones whose side to move cannot win
// at once and has a move that does not lose at once: it wins with its
// second stone from now at best, and loses to the opponent's second stone
// from now at worst. (As n <= board.Cells, the halvings are of numbers >=
// 0, and shifts: a signed division by 2 costs a sign correction.)
func winLaterScore(n int) int  { return (board.Cells - 1 - n) >> 1 }
func lossLaterScore(n int) int { return -((board.Cells - 2 - n) >> 1) }
