package board_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"c4solve/board"
	"c4solve/posfile"
)

// randomPositions collects what the 7x6 grid's RandomPositions yields.
func randomPositions(seed uint64, stones, n int) ([]string, error) {
	var out []string
	err := standard7x6.RandomPositions(seed, stones, n, func(moves string) bool {
		out = append(out, moves)
		return true
	})
	return out, err
}

// TestRandomPositions checks what RandomPositions promises of each
// position: its number of stones, a game not over and never won on the
// way, no win at once for the side to move, and no two positions the same
// or mirror images; and that a seed gives the same positions every time,
// another seed others.
func TestRandomPositions(t *testing.T) {
	std, _ := board.NewGrid(board.Standard)
	for _, stones := range []int{0, 1, 5, 7, 8, 20} {
		want := 50
		if stones < 2 {
			want = 1
		}
		got, err := randomPositions(9, stones, want)
		if err != nil {
			t.Fatalf("randomPositions(9, %d, %d): %v", stones, want, err)
		}
		if len(got) != want {
			t.Fatalf("randomPositions(9, %d, %d): %d positions", stones, want, len(got))
		}
		seen := map[board.Key]string{}
		for _, moves := range got {
			if len(moves) != stones {
				t.Errorf("%q: %d stones; want %d", moves, len(moves), stones)
			}
			p := std.Empty()
			for i, c := range moves {
				if p.Won() {
					t.Fatalf("%q: won before move %d", moves, i+1)
				}
				col := int(c - '1')
				if !p.CanPlay(col) {
					t.Fatalf("%q: move %d into a full column", moves, i+1)
				}
				p.Play(col)
			}
			if p.Over() || p.CanWinNext() {
				t.Errorf("%q: over %t, side to move wins at once %t; want neither", moves, p.Over(), p.CanWinNext())
			}
			key, _, _ := p.CanonicalKey()
			if other, ok := seen[key]; ok {
				t.Errorf("%q and %q are the same position or mirror images", other, moves)
			}
			seen[key] = moves
		}
		again, _ := randomPositions(9, stones, want)
		if !slices.Equal(got, again) {
			t.Errorf("randomPositions(9, %d, %d) differs from one call to the next", stones, want)
		}
		if other, _ := randomPositions(10, stones, want); stones >= 5 && slices.Equal(got, other) {
			t.Errorf("RandomPositions with seeds 9 and 10, %d stones: the same positions", stones)
		}
	}
}

// TestRandomPositionsOneStone: the errors of positions of 1 stone say
// "1 stone": more asked for than the 4 that exist on 7x6 (the 7 moves,
// mirror images once), and more than the 2 that 4x4's draws find (they
// are not counted beforehand).
func TestRandomPositionsOneStone(t *testing.T) {
	_, err := randomPositions(1, 1, 10)
	if want := "10 positions of 1 stone asked for: only 4 distinct positions exist"; err == nil || err.Error() != want {
		t.Errorf("randomPositions(1, 1, 10): %v; want %q", err, want)
	}
	g, err := board.NewGrid(board.Size{Width: 4, Height: 4})
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	err = g.RandomPositions(1, 1, 5, func(string) bool { calls++; return true })
	if want := "2 distinct positions of 1 stone found: 1000000 draws in a row found no other"; err == nil || err.Error() != want || calls != 2 {
		t.Errorf("4x4's RandomPositions(1, 1, 5): %v after %d positions; want %q after 2", err, calls, want)
	}
}

// TestRandomPositionsRunOut asks for more positions than exist: of 2
// stones there are 49 games, 25 with mirror images counted once.
func TestRandomPositionsRunOut(t *testing.T) {
	if got, err := randomPositions(1, 2, 25); err != nil || len(got) != 25 {
		t.Errorf("randomPositions(1, 2, 25) = %d positions, %v; want 25, nil", len(got), err)
	}
	_, err := randomPositions(1, 2, 26)
	if err == nil || !strings.Contains(err.Error(), "only 25 distinct positions exist") {
		t.Errorf("randomPositions(1, 2, 26): error %v; want one that says only 25 exist", err)
	}
	// More than exist, said at once, before any is drawn; more than any
	// run may ask; a stop asked by yield.
	calls := 0
	count := func(string) bool { calls++; return true }
	err = standard7x6.RandomPositions(1, 5, 3_000_000, count)
	if err == nil || !strings.Contains(err.Error(), "at most 1000000 a run") || calls != 0 {
		t.Errorf("RandomPositions(1, 5, 3000000): %v after %d positions; want an error at once", err, calls)
	}
	err = standard7x6.RandomPositions(1, 5, 3000, count)
	if exist := board.CountRandom(5); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("only %d distinct positions exist", exist)) || calls != 0 {
		t.Errorf("RandomPositions(1, 5, 3000): %v after %d positions; want an error at once saying %d exist", err, calls, exist)
	}
	err = standard7x6.RandomPositions(1, 20, 1000, func(string) bool { calls++; return calls < 3 })
	if err != nil || calls != 3 {
		t.Errorf("RandomPositions stopped by yield at its 3rd: %v, %d calls", err, calls)
	}
	for _, stones := range []int{-1, board.Standard.Cells()} {
		if _, err := randomPositions(1, stones, 1); err == nil {
			t.Errorf("randomPositions(1, %d, 1): no error", stones)
		}
	}
}

// TestRandomSets checks that testdata's random sets are the positions
// RandomPositions draws with seed 1, so that anyone can draw them again
// (their scores are checked by CI's verify and against the reference
// solvers).
func TestRandomSets(t *testing.T) {
	for _, stones := range []int{7, 8} {
		name := fmt.Sprintf("../testdata/random%d.txt", stones)
		lines, err := (posfile.Format{}).ReadFile(name, 0)
		if err != nil {
			t.Fatal(err)
		}
		var moves []string
		for _, l := range lines {
			moves = append(moves, l.Moves)
		}
		want, err := randomPositions(1, stones, len(lines))
		if err != nil {
			t.Fatal(err)
		}
		if len(lines) != 100 || !slices.Equal(moves, want) {
			t.Errorf("%s: %d lines, not the positions of randomPositions(1, %d, 100)", name, len(lines), stones)
		}
	}
}

// TestCountRandom: the counts of the positions RandomPositions draws from,
// checked against drawing them all.
func TestCountRandom(t *testing.T) {
	for stones, want := range []int{1, 4, 25, 121, 568} { // 0 to 2 by hand
		if got := board.CountRandom(stones); got != want {
			t.Errorf("CountRandom(%d) = %d; want %d", stones, got, want)
		}
		all, err := randomPositions(3, stones, want)
		if err != nil || len(all) != want {
			t.Errorf("RandomPositions of all %d of %d stones: %d, %v", want, stones, len(all), err)
		}
	}
}

// TestRandomGame: each game of random moves is legal, ends with a four
// or a full board and not before, and one seed gives the same games.
func TestRandomGame(t *testing.T) {
	for _, size := range []string{"7x6", "5x4", "9x7"} {
		g := mustGrid(t, size)
		a, b := rand.New(rand.NewPCG(4, 4)), rand.New(rand.NewPCG(4, 4))
		for range 200 {
			cols := g.RandomGame(a)
			if again := g.RandomGame(b); !slices.Equal(cols, again) {
				t.Fatalf("%s: one seed, games %v and %v", size, cols, again)
			}
			p, err := g.Parse(board.FormatColumns(cols, false), false)
			if err != nil || !p.Over() {
				t.Fatalf("%s: game %s: %v, over %t; want a legal game played to its end", size, board.FormatColumns(cols, false), err, p.Over())
			}
			if q, _ := g.Parse(board.FormatColumns(cols[:len(cols)-1], false), false); q.Over() {
				t.Fatalf("%s: game %s went on after it ended", size, board.FormatColumns(cols, false))
			}
		}
	}
}

// standard7x6 is the 7x6 board's grid.
var standard7x6, _ = board.NewGrid(board.Standard)
