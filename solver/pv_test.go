package solver_test

import (
	"context"
	"slices"
	"testing"

	"c4solve/board"
	"c4solve/solver"
)

// checkLine plays line from p and reports how it differs from a line of
// perfect play for score: it must end the game, in a four for the side the
// score favours with the winner's stone count it implies, or in a full
// board for 0; and every move along it must keep the score, which the
// independent solve of each position on it checks.
func checkLine(t *testing.T, s *solver.Standard, moves string, p board.Board, score int, line []int) {
	t.Helper()
	ctx := context.Background()
	q, sc := p, score
	for i, col := range line {
		if q.Over() {
			t.Errorf("PV(%q): the game is over after %d moves, but the line goes on: %v", moves, i, line)
			return
		}
		if !q.CanPlay(col) {
			t.Errorf("PV(%q): move %d, column %d, is full: %v", moves, i+1, col+1, line)
			return
		}
		if q.IsWinningMove(col) {
			if got := board.Standard.WinNextScore(q.Stones()); got != sc {
				t.Errorf("PV(%q): move %d wins for %d, but the score there is %d", moves, i+1, got, sc)
			}
		} else {
			child := q
			child.Play(col)
			if child.Stones() < board.Standard.Cells() {
				s.Clear()
				r, err := s.Solve(ctx, child)
				if err != nil {
					t.Fatal(err)
				}
				if -r.Score != sc {
					t.Errorf("PV(%q): move %d (column %d) scores %d; the position scores %d", moves, i+1, col+1, -r.Score, sc)
				}
			}
		}
		q.Play(col)
		sc = -sc
	}
	if !q.Over() {
		t.Errorf("PV(%q) = %v: the game is not over at its end", moves, line)
		return
	}
	n := q.Stones()
	switch {
	case score == 0:
		if q.Won() || n != board.Standard.Cells() {
			t.Errorf("PV(%q) = %v: a draw must end in a full board without four", moves, line)
		}
	case !q.Won():
		t.Errorf("PV(%q) = %v: score %d, but the line ends without four", moves, line, score)
	default:
		// The winner played the last stone, its (n+1)/2nd; the side to
		// move at p did if the line has an odd number of moves.
		want := 22 - (n+1)/2
		if len(line)%2 == 0 {
			want = -want
		}
		if want != score {
			t.Errorf("PV(%q) = %v: ends with %d stones, which scores %d; want %d", moves, line, n, want, score)
		}
	}
}

func TestPV(t *testing.T) {
	lines := readPositions(t)
	s := solver.NewStandard(testTable(t, testMiB), 1)
	check := solver.NewStandard(testTable(t, testMiB), 1)
	ctx := context.Background()
	for i, l := range lines {
		if i%10 != 0 {
			continue
		}
		s.Clear()
		r, err := s.Solve(ctx, l.Board)
		if err != nil {
			t.Fatal(err)
		}
		line, _, err := s.PV(ctx, l.Board, r.Score)
		if err != nil {
			t.Fatalf("PV(%q, %d): %v", l.Moves, r.Score, err)
		}
		checkLine(t, check, l.Moves, l.Board, r.Score, line)
	}
	if _, _, err := s.PV(ctx, mustParse(t, "4453"), 0); err == nil {
		t.Errorf("PV(4453, 0): no error; want one, the score is -2")
	}
}

// TestPVSameLine: the line of perfect play is the same at any number of
// threads and from a warm table as from a cold one: among the best moves
// it takes the first in center-first order.
func TestPVSameLine(t *testing.T) {
	lines := readPositions(t)
	ctx := context.Background()
	one := solver.NewStandard(testTable(t, testMiB), 1)
	three := solver.NewStandard(testTable(t, testMiB), 3)
	for i, l := range lines {
		if i%15 != 0 {
			continue
		}
		var got [2][]int
		for k, s := range []*solver.Standard{one, three} {
			if k == 0 {
				s.Clear() // the other keeps its table warm from line to line
			}
			r, err := s.Solve(ctx, l.Board)
			if err != nil || r.Score != l.Expected {
				t.Fatalf("Solve(%q) = %d, %v; want %d", l.Moves, r.Score, err, l.Expected)
			}
			if got[k], _, err = s.PV(ctx, l.Board, r.Score); err != nil {
				t.Fatalf("PV(%q): %v", l.Moves, err)
			}
		}
		if !slices.Equal(got[0], got[1]) {
			t.Errorf("PV(%q): %v at 1 thread, cold, %v at 3, warm; want one line", l.Moves, got[0], got[1])
		}
	}
}
