package solver

import (
	"c4solve/internal/position"
	"c4solve/internal/settings"
)

// Analysis holds the score of each move of a position, from the point of
// view of the side that plays it, column 1 first, Legal false for a full
// column. When Analyze is stopped, Lower <= score
// <= Upper is what it established about the position's score.
type Analysis struct {
	Scores []int
	Legal  []bool
	// Lows and Highs bound each move's score: Lows[col] <= score <=
	// Highs[col], both the score where the move was solved. Where the
	// analysis was stopped, they are what it established.
	Lows, Highs     []int
	Lower, Upper    int
	Nodes, Expanded uint64
}

// Best returns, for an analysis that finished, the columns (0-based, in
// order) of the moves of the best score.
func (an Analysis) Best() []int {
	var cols []int
	for col, legal := range an.Legal {
		if legal && an.Scores[col] == an.Lower {
			cols = append(cols, col)
		}
	}
	return cols
}

// Columns returns, for an analysis that finished, the score of each move,
// nil for a full column, and the columns, numbered from 1, of the best
// moves: the analysis as the command and the server print it.
func (an Analysis) Columns() (scores []*int, best []int) {
	scores = make([]*int, len(an.Scores))
	for col := range an.Scores {
		if an.Legal[col] {
			scores[col] = &an.Scores[col]
		}
	}
	for _, col := range an.Best() {
		best = append(best, col+1)
	}
	return scores, best
}

// BestMove returns the column (0-based) of the best move of an analysis
// that finished: among the moves of the best score, the first in
// center-first order; -1 for none.
func (an Analysis) BestMove() int {
	for _, col := range position.CenterFirst(len(an.Scores)) {
		if an.Legal[col] && an.Scores[col] == an.Lower {
			return col
		}
	}
	return -1
}

// BestFound returns the column (0-based) of the best move an analysis
// established, stopped or not, and whether it is proved best: of the
// moves of the highest lower bound (Lows), the one of the highest upper
// bound, the first in center-first order among equals; proved where no
// other move's upper bound is above its lower bound. It is BestMove for
// an analysis that finished. It returns -1 for no legal move.
func (an Analysis) BestFound() (col int, proved bool) {
	col = -1
	for _, c := range position.CenterFirst(len(an.Scores)) {
		if an.Legal[c] && (col < 0 || an.Lows[c] > an.Lows[col] || an.Lows[c] == an.Lows[col] && an.Highs[c] > an.Highs[col]) {
			col = c
		}
	}
	if col < 0 {
		return -1, false
	}
	for c, legal := range an.Legal {
		if legal && c != col && an.Highs[c] > an.Lows[col] {
			return col, false
		}
	}
	return col, true
}

// spreadFirst is settings.SpreadFirst, a variable so that tests may
// spread an analysis's rounds from the start.
var spreadFirst = settings.SpreadFirst
