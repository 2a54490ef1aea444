package board

// Scores follow Pascal Pons' convention ("Solving Connect 4: how to build a
// perfect AI", blog.gamesolver.org, part 2, and his benchmark files), from
// the point of view of the side to move: 0 is a draw; a win is 22 minus
// the number of stones the winner has played when the game ends (on 7x6;
// Size.MaxScore + 4 on every board), so winning sooner scores more; a loss
// is the negative of the same value for the opponent.

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
