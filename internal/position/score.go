package position

// The scores of 7x6, in the convention of board.WeakScore's package.
const (
	// MaxScore is the best score: a win with the fourth stone.
	MaxScore = (Cells+1)/2 - 3
	// MinScore is the worst score: a loss to the opponent's fourth stone.
	MinScore = -MaxScore
)

// WinNextScore is the score of a position of the given number of stones
// whose side to move wins with its next stone: the best such a position
// can have.
func WinNextScore(stones int) int { return WinNext(Cells, stones) }

// LossNextScore is the score of a position of the given number of stones
// whose opponent wins with its next stone: the worst such a position can
// have.
func LossNextScore(stones int) int { return LossNext(Cells, stones) }
