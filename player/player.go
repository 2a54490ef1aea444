// Package player chooses moves for players of graded strength, from the
// exact scores of a position's moves (solver.Analysis): level 10 is the
// perfect player, and each level below it errs more, down to level 1,
// which plays almost at random. It is the rule behind c4solve play
// -level, the page's level and the server's /move.
//
// # The rule
//
// Level 10 plays a move of the best score, the first in center-first
// order where several have it (solver.Analysis.BestFound): the same move
// every time. Level L below 10 plays move m with probability
// proportional to exp((score(m) - best) / T), where T is Temperature(L):
// 2^(6-L), so 32 at level 1 (scores 10 apart: weights 1 and 0.73, nearly
// a random player), 1 at level 5 (a move one stone slower: 0.37 of the
// best's weight; a win thrown to a loss, about 2 and more apart: 0.14 and
// less), 1/8 at level 9 (a move one stone slower: 0.0003). Scores are
// Pons' (package board): from the mover's point of view, so a level
// prefers wins, and sooner ones, at every level but with a sharpness that
// grows with the level. The choice depends only on the scores and the
// random source: a source of the same seed plays the same moves.
package player

import (
	"context"
	"math"
	"math/rand/v2"

	"c4solve/board"
	"c4solve/solver"
)

// MinLevel and MaxLevel are the weakest level and the perfect player's.
const (
	MinLevel = 1
	MaxLevel = 10
)

// Temperature returns the temperature of level, from MinLevel to
// MaxLevel-1: 2^(6-level). The perfect player's, MaxLevel's, is 0.
func Temperature(level int) float64 {
	if level >= MaxLevel {
		return 0
	}
	return math.Ldexp(1, 6-level)
}

// Choose returns the column (0-based) that a player of level (MinLevel
// to MaxLevel) plays in the position of an, an analysis of the solver's,
// drawing from r: see the package's doc. Where the analysis was stopped,
// the perfect player plays the best move it established
// (solver.Analysis.BestFound), and the others weigh each move by the
// lower bound found on its score (Lows). It returns -1 for a position
// with no legal move.
func Choose(an solver.Analysis, level int, r *rand.Rand) int {
	if level >= MaxLevel {
		col, _ := an.BestFound()
		return col
	}
	best := math.MinInt
	for col, legal := range an.Legal {
		if legal {
			best = max(best, an.Lows[col])
		}
	}
	t := Temperature(level)
	var cols []int
	var weights []float64
	total := 0.0
	for col, legal := range an.Legal {
		if !legal {
			continue
		}
		w := 0.0
		switch d := float64(an.Lows[col] - best); {
		case d == 0:
			w = 1
		case t > 0:
			w = math.Exp(d / t)
		}
		if w > 0 {
			cols, weights, total = append(cols, col), append(weights, w), total+w
		}
	}
	if len(cols) == 0 {
		return -1
	}
	x := r.Float64() * total
	for i, w := range weights {
		if x < w {
			return cols[i]
		}
		x -= w
	}
	return cols[len(cols)-1] // rounding
}

// Match plays games between two levels on one board, with one solver,
// which answers the positions of its book at once and keeps its table
// from game to game; the analyses of positions seen before are kept too.
// It measures the levels against each other (docs/levels.md). It is not
// safe for concurrent use. The zero value is not usable; call NewMatch.
type Match struct {
	s        *solver.Solver
	analyses map[board.Key128]solver.Analysis
}

// NewMatch returns a Match whose games s solves.
func NewMatch(s *solver.Solver) *Match {
	return &Match{s: s, analyses: make(map[board.Key128]solver.Analysis)}
}

// Outcome is the outcome of a match between two levels.
type Outcome struct {
	Wins  [2]int // the games won by the first level, and by the second
	Draws int
	// PerfectLost counts the moves of the perfect player (MaxLevel) that
	// left a won position unwon: none, by the rule.
	PerfectLost int
}

// Points returns the share of the points that level i (0 the first, 1
// the second) took, in percent: a win is one point, a draw half of one.
func (o Outcome) Points(i int) float64 {
	games := o.Wins[0] + o.Wins[1] + o.Draws
	if games == 0 {
		return 0
	}
	return 100 * (float64(o.Wins[i]) + float64(o.Draws)/2) / float64(games)
}

// analyze returns the analysis of p, made once.
func (m *Match) analyze(ctx context.Context, p board.Board) (solver.Analysis, error) {
	k := p.Key()
	if an, ok := m.analyses[k]; ok {
		return an, nil
	}
	an, err := m.s.Analyze(ctx, p, false)
	if err == nil {
		m.analyses[k] = an
	}
	return an, err
}

// Play plays games games between levels a and b from the empty board, a
// moving first in the even-numbered games and b in the others, each
// drawing its moves from a source seeded with seed and the game's number.
func (m *Match) Play(ctx context.Context, a, b, games int, seed uint64) (Outcome, error) {
	var o Outcome
	levels := [2]int{a, b}
	for game := range games {
		r := rand.New(rand.NewPCG(seed, uint64(game)))
		first := game % 2 // the index in levels of who moves first
		p := m.s.Grid().Empty()
		for !p.Over() {
			i := (first + p.Stones()) % 2
			an, err := m.analyze(ctx, p)
			if err != nil {
				return o, err
			}
			col := Choose(an, levels[i], r)
			if levels[i] == MaxLevel && an.Lower > 0 && an.Scores[col] <= 0 {
				o.PerfectLost++
			}
			p.Play(col)
			if p.Won() {
				o.Wins[i]++
			}
		}
		if !p.Won() {
			o.Draws++
		}
	}
	return o, nil
}
