package solver_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"c4solve/internal/position"
	"c4solve/solver"
)

// negamax is the plain exhaustive search the solver is checked against:
// every move, no table, no pruning, no ordering.
func negamax(p position.Position) int {
	if p.Stones() == position.Cells {
		return 0
	}
	best := -position.Cells
	for col := 0; col < position.Width; col++ {
		if !p.CanPlay(col) {
			continue
		}
		c := p
		c.Play(col)
		var sc int
		if c.Won() {
			sc = (position.Cells + 1 - p.Stones()) / 2
		} else {
			sc = -negamax(c)
		}
		best = max(best, sc)
	}
	return best
}

// TestAgainstNegamax compares the solver with plain negamax on random
// positions of 30 or more stones.
func TestAgainstNegamax(t *testing.T) {
	count := 1000
	if testing.Short() {
		count = 200
	}
	rng := rand.New(rand.NewPCG(1, 2))
	s := solver.NewStandard(testTable(t, testMiB), 1)
	for solved := 0; solved < count; {
		p, ok := randomPosition(rng, 30+rng.IntN(6))
		if !ok {
			continue
		}
		want := negamax(p)
		r, err := s.Solve(context.Background(), boardOf(p))
		if err != nil || r.Score != want {
			t.Errorf("Solve(%v) = %d, %v; want %d", p, r.Score, err, want)
		}
		w, _ := s.SolveWeak(context.Background(), boardOf(p))
		if w.Score != min(max(want, -1), 1) {
			t.Errorf("SolveWeak(%v) = %d; want sign of %d", p, w.Score, want)
		}
		solved++
	}
}

// randomPosition plays n random moves and reports whether the game is
// still on after them.
func randomPosition(rng *rand.Rand, n int) (position.Position, bool) {
	var p position.Position
	for p.Stones() < n {
		col := rng.IntN(position.Width)
		if !p.CanPlay(col) {
			continue
		}
		p.Play(col)
		if p.Won() {
			return p, false
		}
	}
	return p, true
}
