// Package player chooses moves for players of graded strength, from the
// exact scores of a position's moves (solver.Analysis): level 10 is the
// perfect player, and each level below it errs more, down to level 1,
// which plays at random. It is the rule behind c4solve play -level, the
// page's level and the server's /move.
//
// # The rule
//
// Level L plays the best move with probability (L-1)/9, and otherwise a
// move drawn uniformly among the legal ones (which may be the best one
// too): level 1 is the random player, level 10 the perfect one, and each
// level between plays the perfect move one time in nine more than the
// level below, as SPIN-Bench's p_optimal mixes a perfect player with a
// random one. The best move is the first of the best score in
// center-first order (solver.Analysis.BestFound): where the analysis was
// stopped by a time limit, the best move it established. The choice
// depends only on the analysis and the random source: a source of the
// same seed plays the same moves.
package player

import (
	"context"
	"math/rand/v2"

	"c4solve/board"
	"c4solve/solver"
)

// MinLevel and MaxLevel are the random player's level and the perfect
// player's.
const (
	MinLevel = 1
	MaxLevel = 10
)

// Optimal returns the probability that a player of level plays the best
// move rather than a random one: (level-1)/9.
func Optimal(level int) float64 {
	return float64(min(max(level, MinLevel), MaxLevel)-MinLevel) / (MaxLevel - MinLevel)
}

// Choose returns the column (0-based) that a player of level (MinLevel
// to MaxLevel) plays in the position of an, an analysis of the solver's,
// finished or stopped, drawing from r: see the package's doc. It returns
// -1 for a position with no legal move.
func Choose(an solver.Analysis, level int, r *rand.Rand) int {
	best, _ := an.BestFound()
	if best < 0 || level >= MaxLevel || r.Float64() < Optimal(level) {
		return best
	}
	var legal []int
	for col, ok := range an.Legal {
		if ok {
			legal = append(legal, col)
		}
	}
	return legal[r.IntN(len(legal))]
}

// Match plays games between two levels on one board, with one solver,
// which answers the positions of its book at once and keeps its table
// from game to game; the analyses of positions seen before are kept too.
// It measures the levels against each other (docs/levels.md). It is not
// safe for concurrent use. The zero value is not usable; call NewMatch.
type Match struct {
	s        *solver.Solver
	analyses map[board.Key]solver.Analysis
}

// NewMatch returns a Match whose games s solves.
func NewMatch(s *solver.Solver) *Match {
	return &Match{s: s, analyses: make(map[board.Key]solver.Analysis)}
}

// Outcome is the outcome of a match between two levels.
type Outcome struct {
	Wins  [2]int // the games won by the first level, and by the second
	Draws int
	// PerfectLost counts the moves of the perfect player (MaxLevel) that
	// left a won position unwon: none, by the rule.
	PerfectLost int
	Games       []string // the moves of each game, as move strings
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
		var cols []int
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
			cols = append(cols, col)
			if p.Won() {
				o.Wins[i]++
			}
		}
		if !p.Won() {
			o.Draws++
		}
		o.Games = append(o.Games, board.FormatColumns(cols, false))
	}
	return o, nil
}
