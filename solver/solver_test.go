package solver_test

import (
	"context"
	"errors"
	"testing"

	"c4solve/board"
	"c4solve/internal/position"
	"c4solve/posfile"
	"c4solve/solver"
)

// testMiB keeps test tables small: the test positions need little room,
// and -race multiplies the cost of clearing.
const testMiB = 16

// readPositions reads testdata/positions.txt, every line with its score.
func readPositions(t testing.TB) []posfile.Line {
	t.Helper()
	lines, err := (posfile.Format{}).ReadFile("../testdata/positions.txt", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		if !l.HasScore {
			t.Fatalf("positions.txt line %d: no score", l.Num)
		}
	}
	return lines
}

func mustParse(t testing.TB, moves string) board.Board {
	t.Helper()
	b, err := std7x6.Parse(moves, false)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// std7x6 is the 7x6 board's grid.
var std7x6, _ = board.NewGrid(board.Standard)

// boardOf returns p as a Board of 7x6.
func boardOf(p position.Position) board.Board {
	b, err := std7x6.FromKey(board.Key{Lo: p.Key()})
	if err != nil {
		panic(err)
	}
	return b
}

// positionOf returns b, a Board of 7x6, as the 7x6 engine's position.
func positionOf(b board.Board) position.Position {
	p, err := position.FromKey(b.Key().Lo)
	if err != nil {
		panic(err)
	}
	return p
}

func TestKnownPositions(t *testing.T) {
	lines := readPositions(t)
	if len(lines) < 300 {
		t.Fatalf("positions.txt has %d positions; want at least 300", len(lines))
	}
	s := solver.NewStandard(testTable(t, testMiB), 1)
	ctx := context.Background()
	for _, l := range lines {
		s.Clear()
		r, err := s.Solve(ctx, l.Board)
		if err != nil {
			t.Fatalf("Solve(%q): %v", l.Moves, err)
		}
		if r.Score != l.Expected {
			t.Errorf("Solve(%q) = %d; want %d", l.Moves, r.Score, l.Expected)
		}
		if r.Lower != r.Score || r.Upper != r.Score || r.Nodes == 0 {
			t.Errorf("Solve(%q) = %+v; want Lower = Upper = Score and Nodes > 0", l.Moves, r)
		}
	}
}

// TestWarmTable solves the positions without clearing the table between
// them: bounds left by one search must never spoil another.
func TestWarmTable(t *testing.T) {
	lines := readPositions(t)
	s := solver.NewStandard(testTable(t, 1), 1) // small, so replacement happens a lot
	ctx := context.Background()
	for _, l := range lines {
		r, err := s.Solve(ctx, l.Board)
		if err != nil || r.Score != l.Expected {
			t.Errorf("Solve(%q) = %d, %v; want %d", l.Moves, r.Score, err, l.Expected)
		}
	}
}

// TestClear checks that Clear empties every table a solve uses, the
// workers' own as well as the shared one: a solve after Clear searches
// exactly as many nodes as the first, and a warm one fewer. The positions
// have fewer and more stones than go to the workers' own tables.
func TestClear(t *testing.T) {
	ctx := context.Background()
	for _, moves := range []string{"274552224131661", "5554224333234511764415115"} {
		s := solver.NewStandard(testTable(t, testMiB), 1)
		p := mustParse(t, moves)
		cold, err := s.Solve(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		warm, _ := s.Solve(ctx, p)
		s.Clear()
		again, _ := s.Solve(ctx, p)
		if warm.Nodes >= cold.Nodes || again.Nodes != cold.Nodes {
			t.Errorf("Solve(%q) nodes: %d cold, %d warm, %d after Clear; want warm < cold = after Clear",
				moves, cold.Nodes, warm.Nodes, again.Nodes)
		}
	}
}

func TestMirror(t *testing.T) {
	s := solver.NewStandard(testTable(t, testMiB), 1)
	ctx := context.Background()
	for _, l := range readPositions(t)[:150] {
		s.Clear()
		m := boardOf(positionOf(l.Board).Mirror())
		r, err := s.Solve(ctx, m)
		if err != nil || r.Score != l.Expected {
			t.Errorf("Solve(mirror of %q) = %d, %v; want %d", l.Moves, r.Score, err, l.Expected)
		}
	}
}

func TestWeak(t *testing.T) {
	s := solver.NewStandard(testTable(t, testMiB), 1)
	ctx := context.Background()
	for _, l := range readPositions(t) {
		s.Clear()
		r, err := s.SolveWeak(ctx, l.Board)
		want := min(max(l.Expected, -1), 1)
		if err != nil || r.Score != want {
			t.Errorf("SolveWeak(%q) = %d, %v; want %d", l.Moves, r.Score, err, want)
		}
	}
}

func TestGameOver(t *testing.T) {
	s := solver.NewStandard(testTable(t, testMiB), 1)
	for _, moves := range []string{"1212121", "4455667"} {
		_, err := s.Solve(context.Background(), mustParse(t, moves))
		if !errors.Is(err, solver.ErrGameOver) {
			t.Errorf("Solve(%q) error = %v; want ErrGameOver", moves, err)
		}
	}
}

// TestImmediate covers the positions settled before any search: a win at
// once, and a loss at once to two threats.
func TestImmediate(t *testing.T) {
	tests := []struct {
		moves string
		score int
	}{
		{"121212", 18}, // the first player completes four in column 1
		{"22334", -18}, // the second player cannot block both 1 and 5
	}
	s := solver.NewStandard(testTable(t, testMiB), 1)
	for _, tt := range tests {
		r, err := s.Solve(context.Background(), mustParse(t, tt.moves))
		if err != nil || r.Score != tt.score {
			t.Errorf("Solve(%q) = %d, %v; want %d", tt.moves, r.Score, err, tt.score)
		}
	}
}

func TestZeroAllocs(t *testing.T) {
	p := mustParse(t, "274552224131661")
	s := solver.NewStandard(testTable(t, testMiB), 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var nodes uint64
	allocs := testing.AllocsPerRun(20, func() {
		s.Clear()
		r, _ := s.Solve(ctx, p)
		nodes = r.Nodes
	})
	if allocs != 0 || nodes < 10 {
		t.Errorf("Solve: %v allocations over %d nodes; want 0 (over at least 10 nodes)", allocs, nodes)
	}
}

// TestSetAging: a Solver starts a new generation of its table at each
// solve unless SetAging(false), as solvers that share a table and solve at
// once do (book generation, the server).
func TestSetAging(t *testing.T) {
	tt := testTable(t, testMiB)
	p := mustParse(t, "2252576253462244111563365343671351441")
	for _, on := range []bool{true, false} {
		s := solver.NewStandard(tt, 2)
		s.SetAging(on)
		before := tt.Searches()
		for range 3 {
			if r, err := s.Solve(context.Background(), p); err != nil || r.Score != -1 {
				t.Fatalf("Solve(%v) = %+v, %v; want -1", p, r, err)
			}
		}
		want := before
		if on {
			want += 3
		}
		if got := tt.Searches(); got != want {
			t.Errorf("SetAging(%v), 3 solves: table searches %d -> %d; want %d", on, before, got, want)
		}
	}
}

// TestExpanded: of a solve's nodes, those that searched a child: fewer
// than all, the same from run to run at one thread, and none for a
// position settled at once; an analysis's are its moves'.
func TestExpanded(t *testing.T) {
	ctx := context.Background()
	s := solver.NewStandard(testTable(t, testMiB), 1)
	p := mustParse(t, "737534232264")
	r1, _ := s.Solve(ctx, p)
	s.Clear()
	r2, _ := s.Solve(ctx, p)
	if r1.Expanded == 0 || r1.Expanded >= r1.Nodes || r1.Expanded != r2.Expanded || r1.Nodes != r2.Nodes {
		t.Errorf("Solve(737534232264) twice, cleared: %d of %d nodes, then %d of %d; want some, fewer than all, the same", r1.Expanded, r1.Nodes, r2.Expanded, r2.Nodes)
	}
	if r, _ := s.Solve(ctx, mustParse(t, "4455")); r.Expanded != 0 {
		t.Errorf("Solve(4455), a win at once: %d expanded; want 0", r.Expanded)
	}
	s.Clear()
	an, _ := s.Analyze(ctx, p, false)
	var sum uint64
	for col := range position.Width {
		if !an.Legal[col] || p.IsWinningMove(col) {
			continue
		}
		c := p
		c.Play(col)
		s.Clear()
		r, _ := s.Solve(ctx, c)
		sum += r.Expanded
	}
	if an.Expanded == 0 || an.Expanded > an.Nodes {
		t.Errorf("Analyze(737534232264): %d of %d nodes expanded; want some, at most all (the moves alone: %d)", an.Expanded, an.Nodes, sum)
	}
}

// TestSolveAtLeast: each move of a known position, solved knowing that it
// scores at least minus the position's score, has its score from scratch;
// a best move takes fewer nodes than from scratch (its first probe
// settles it), at one and two threads. Positions of 14 stones or more
// (18 with -short) keep it quick.
func TestSolveAtLeast(t *testing.T) {
	lines := readPositions(t)
	step, fewest := 2, 14
	if testing.Short() {
		step, fewest = 7, 18
	}
	ctx := context.Background()
	for _, threads := range []int{1, 2} {
		s := solver.NewStandard(testTable(t, testMiB), threads)
		var bestMoves, fewer int
		for i := 0; i < len(lines); i += step {
			p := lines[i].Board
			if p.CanWinNext() || p.Stones() < fewest {
				continue
			}
			for col := range position.Width {
				if !p.CanPlay(col) || p.IsWinningMove(col) {
					continue
				}
				c := p
				c.Play(col)
				if c.Stones() == position.Cells {
					continue
				}
				s.Clear()
				want, err := s.Solve(ctx, c)
				if err != nil {
					t.Fatal(err)
				}
				s.Clear()
				got, err := s.SolveAtLeast(ctx, c, -lines[i].Expected)
				if err != nil || got.Score != want.Score || got.Lower != got.Score || got.Upper != got.Score {
					t.Fatalf("%d threads: SolveAtLeast(%q+%d, %d) = %+v, %v; want score %d", threads, lines[i].Moves, col+1, -lines[i].Expected, got, err, want.Score)
				}
				if want.Score == -lines[i].Expected && want.Nodes > 10 {
					bestMoves++
					if got.Nodes < want.Nodes {
						fewer++
					}
				}
			}
		}
		if bestMoves < 15 || fewer < bestMoves*3/4 {
			t.Errorf("%d threads: the bound saved nodes on %d of %d best moves; want 15 or more best moves and three quarters", threads, fewer, bestMoves)
		}
	}
	// No bound: Solve.
	s := solver.NewStandard(testTable(t, testMiB), 1)
	p := mustParse(t, "4453")
	if r, err := s.SolveAtLeast(ctx, p, position.MinScore); err != nil || r.Score != -2 {
		t.Errorf("SolveAtLeast(4453, MinScore) = %+v, %v; want -2", r, err)
	}
}
