package position

// The scores of 7x6, in the convention of board.WeakScore's package.
const (
	// MaxScore is the best score: a win with the fourth stone.
	MaxScore = (Cells+1)/2 - 3
	// MinScore is the worst score: a loss to the opponent's fourth stone.
	MinScore = -MaxScore
)
