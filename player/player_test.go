package player_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"

	"c4solve/board"
	"c4solve/book"
	"c4solve/player"
	"c4solve/solver"
)

// analysis returns an analysis of scores, nil for a full column.
func analysis(scores ...*int) solver.Analysis {
	n := len(scores)
	an := solver.Analysis{Scores: make([]int, n), Legal: make([]bool, n), Lows: make([]int, n), Highs: make([]int, n), Lower: -1 << 20}
	for col, sc := range scores {
		if sc != nil {
			an.Scores[col], an.Lows[col], an.Highs[col], an.Legal[col] = *sc, *sc, *sc, true
			an.Lower = max(an.Lower, *sc)
		}
	}
	an.Upper = an.Lower
	return an
}

func score(x int) *int { return &x }

// TestChoose: the perfect player plays the best move, the first in
// center-first order among equals; a full column is never played; the
// frequencies of the other levels follow the rule; a seed gives the same
// moves; a stopped analysis gives its best move established.
func TestChoose(t *testing.T) {
	an := analysis(score(-3), nil, score(2), score(2), score(1), score(-1), score(0))
	r := rand.New(rand.NewPCG(1, 2))
	seen := map[int]int{}
	for range 1000 {
		seen[player.Choose(an, player.MaxLevel, r)]++
	}
	if len(seen) != 1 || seen[3] != 1000 {
		t.Fatalf("level 10 played %v; want column 3 (0-based), the center's, every time", seen)
	}
	for level := player.MinLevel; level < player.MaxLevel; level++ {
		const n = 20000
		counts := make([]int, 7)
		for range n {
			counts[player.Choose(an, level, r)]++
		}
		if counts[1] != 0 {
			t.Fatalf("level %d played the full column", level)
		}
		p := player.Optimal(level)
		for col, legal := range an.Legal {
			if !legal {
				continue
			}
			want := n * (1 - p) / 6
			if col == 3 {
				want += n * p
			}
			if d := float64(counts[col]) - want; d*d > 25*max(want, 1) { // five standard deviations
				t.Errorf("level %d: column %d played %d times of %d; want about %.0f", level, col, counts[col], n, want)
			}
		}
	}
	if player.Optimal(1) != 0 || player.Optimal(10) != 1 || player.Optimal(4) != 1.0/3 {
		t.Errorf("Optimal(1, 4, 10) = %v, %v, %v; want 0, 1/3, 1", player.Optimal(1), player.Optimal(4), player.Optimal(10))
	}
	a, b := rand.New(rand.NewPCG(7, 7)), rand.New(rand.NewPCG(7, 7))
	for range 100 {
		if x, y := player.Choose(an, 4, a), player.Choose(an, 4, b); x != y {
			t.Fatalf("one seed, two choices: %d and %d", x, y)
		}
	}
	if got := player.Choose(analysis(nil, nil), 5, r); got != -1 {
		t.Errorf("Choose with no legal move = %d; want -1", got)
	}
	stopped := analysis(score(0), score(0), score(0), score(0))
	stopped.Lows, stopped.Highs = []int{-5, -2, -1, -9}, []int{5, 3, 4, 9}
	if got := player.Choose(stopped, 10, r); got != 2 {
		t.Errorf("level 10 on a stopped analysis played %d; want 2, the highest lower bound", got)
	}
}

// TestLevelTable plays each level against the next one up and prints the
// table of docs/levels.md: C4_LEVEL_GAMES games a pair (200 for the
// table; the test is skipped without it), each level first in half of
// them, on C4_LEVEL_SIZE (7x6 if unset). It checks that the perfect
// player never loses a won position, and that every level scores more
// than the one below it.
func TestLevelTable(t *testing.T) {
	games, _ := strconv.Atoi(os.Getenv("C4_LEVEL_GAMES"))
	if games == 0 {
		t.Skip("C4_LEVEL_GAMES unset: the table takes hours (docs/levels.md)")
	}
	z, err := board.ParseSize(cmpOr(os.Getenv("C4_LEVEL_SIZE"), "7x6"))
	if err != nil {
		t.Fatal(err)
	}
	g, err := board.NewGrid(z)
	if err != nil {
		t.Fatal(err)
	}
	s := testSolver(t, g, 1024, 2)
	if bk, err := book.Default(); err == nil && bk.Board() == z {
		s.UseBook(bk)
	}
	m := player.NewMatch(s)
	fmt.Printf("| levels | games | wins of the lower | draws | wins of the higher | points of the higher |\n|---|---|---|---|---|---|\n")
	for lo := player.MinLevel; lo < player.MaxLevel; lo++ {
		res, err := m.Play(context.Background(), lo, lo+1, games, uint64(lo))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("| %d-%d | %d | %d | %d | %d | %.1f%% |\n", lo, lo+1, games, res.Wins[0], res.Draws, res.Wins[1], res.Points(1))
		if res.Points(1) <= 50 {
			t.Errorf("level %d scored %.1f%% against level %d; want more than half", lo+1, res.Points(1), lo)
		}
		if res.PerfectLost > 0 {
			t.Errorf("level 10 lost %d won positions", res.PerfectLost)
		}
	}
	// The perfect player against every level: it never leaves a won
	// position unwon.
	fmt.Printf("\n| levels | games | wins of the lower | draws | wins of level 10 | won positions level 10 left unwon |\n|---|---|---|---|---|---|\n")
	for lo := player.MinLevel; lo < player.MaxLevel-1; lo++ {
		res, err := m.Play(context.Background(), lo, player.MaxLevel, games/10, uint64(100+lo))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("| %d-10 | %d | %d | %d | %d | %d |\n", lo, games/10, res.Wins[0], res.Draws, res.Wins[1], res.PerfectLost)
		if res.PerfectLost > 0 {
			t.Errorf("level 10 against level %d left %d won positions unwon", lo, res.PerfectLost)
		}
	}
}

// TestMatchSeed: two matches of one seed play the same games, on 5x4;
// the perfect player never leaves a won position unwon.
func TestMatchSeed(t *testing.T) {
	g, err := board.NewGrid(board.Size{Width: 5, Height: 4})
	if err != nil {
		t.Fatal(err)
	}
	var outcomes [2]player.Outcome
	for i := range outcomes {
		if outcomes[i], err = player.NewMatch(testSolver(t, g, 4, 1)).Play(context.Background(), 3, 10, 20, 7); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(outcomes[0].Games, outcomes[1].Games) || len(outcomes[0].Games) != 20 || outcomes[0].PerfectLost != 0 {
		t.Errorf("two matches of seed 7: %+v and %+v; want the same, and no won position lost", outcomes[0], outcomes[1])
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// testSolver returns solver.New's solver of g, and fails t where the
// table's memory cannot be had.
func testSolver(t testing.TB, g *board.Grid, mib, threads int) *solver.Solver {
	t.Helper()
	s, err := solver.New(g, mib, threads)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
