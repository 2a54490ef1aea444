package board

// Scores follow Pascal Pons' convention ("Solving Connect 4: how to build a
// perfect AI", blog.gamesolver.org, part 2, and his benchmark files), from
// the point of view of the side to move: 0 is a draw; a win is 22 minus
// the number of stones the winner has played when the game ends (on the
// 7x6 board: (Cells+1)/2 + 1 minus them), so winning sooner scores more;
// a loss is the negative of the same value for the opponent. Every package
// that speaks of scores takes them from here.
const (
	// MaxScore is the best score: a win with the fourth stone.
	MaxScore = (Cells+1)/2 - 3
	// MinScore is the worst score: a loss to the opponent's fourth stone.
	MinScore = -MaxScore
)

// WinNextScore is the score of a position of the given number of stones
// whose side to move wins with its next stone: the best such a position
// can have.
func WinNextScore(stones int) int { return winNext(Cells, stones) }

// LossNextScore is the score of a position of the given number of stones
// whose opponent wins with its next stone: the worst such a position can
// have.
func LossNextScore(stones int) int { return lossNext(Cells, stones) }

// WeakScore is the sign of a score: 1 a win, 0 a draw, -1 a loss, the
// answer of a weak solve.
func WeakScore(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}
