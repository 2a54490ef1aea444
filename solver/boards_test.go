package solver_test

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"c4solve/board"
	"c4solve/internal/position"
	"c4solve/internal/tables"
	"c4solve/solver"
	"c4solve/ttable"
)

var slowSizes = flag.Bool("slow", false, "TestSizes: solve every board with width + height <= 12 from scratch (about a minute)")

func mustGrid(t testing.TB, size string) *board.Grid {
	t.Helper()
	z, err := board.ParseSize(size)
	if err != nil {
		t.Fatal(err)
	}
	g, err := board.NewGrid(z)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// publishedResults reads testdata/sizes/results.txt: the empty board's
// score, first player's view, by "WxH" (sizes with no known score left
// out).
func publishedResults(t *testing.T) map[string]int {
	t.Helper()
	f, err := os.Open("../testdata/sizes/results.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	scores := make(map[string]int)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 4 || strings.HasPrefix(fields[0], "#") || fields[3] == "?" {
			continue
		}
		n, err := strconv.Atoi(fields[3])
		if err != nil {
			t.Fatalf("results.txt: %q: %v", sc.Text(), err)
		}
		scores[fields[0]] = n
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return scores
}

// TestSizes solves the empty board of sizes from scratch and compares the
// score with the published one (Tromp's and Steininger's results): the
// small boards always, with -slow every size of width + height <= 12.
func TestSizes(t *testing.T) {
	want := publishedResults(t)
	sizes := []string{"4x4", "5x4", "4x5", "6x4", "4x6", "5x5"}
	if *slowSizes {
		sizes = nil
		for w := board.MinSide; w <= 12-board.MinSide; w++ {
			for h := board.MinSide; w+h <= 12; h++ {
				sizes = append(sizes, board.Size{Width: w, Height: h}.String())
			}
		}
	}
	for _, size := range sizes {
		w, ok := want[size]
		if !ok {
			t.Fatalf("results.txt has no score for %s", size)
		}
		g := mustGrid(t, size)
		s := testSolver(t, g, 64, 1)
		start := time.Now()
		r, err := s.Solve(context.Background(), g.Empty())
		if err != nil || r.Score != w {
			t.Errorf("%s: Solve(empty board) = %d, %v; want %d", size, r.Score, err, w)
		}
		t.Logf("%s: %+d, %d nodes, %v", size, r.Score, r.Nodes, time.Since(start).Round(time.Millisecond))
	}
}

// TestSizedStandard: on the 7x6 grid, Solver gives the published scores
// of positions.txt, as Solver does.
func TestSizedStandard(t *testing.T) {
	g := mustGrid(t, "7x6")
	s := testSolver(t, g, testMiB, 1)
	lines := readPositions(t)
	if testing.Short() {
		lines = lines[:50]
	}
	for _, l := range lines {
		if l.Board.Stones() < 12 {
			continue // seconds each for this search
		}
		b, err := g.Parse(l.Moves, false)
		if err != nil {
			t.Fatal(err)
		}
		r, err := s.Solve(context.Background(), b)
		if err != nil || r.Score != l.Expected {
			t.Errorf("Solve(%q) = %d, %v; want %d", l.Moves, r.Score, err, l.Expected)
		}
	}
}

// TestSizedStandardEngine: on the 7x6 grid Solver searches with the 7x6
// Solver, its dimensions constants: the same nodes as a Solver of the same
// table, where engine49 (the draw rule, galloping probes) would differ.
func TestSizedStandardEngine(t *testing.T) {
	g := mustGrid(t, "7x6")
	ctx := context.Background()
	sized := testSolver(t, g, 16, 1)
	s := solver.NewStandard(testTable(t, 16), 1)
	for _, moves := range []string{"2416615552", "445365", "37313333717124171162542"} {
		b, err := g.Parse(moves, false)
		if err != nil {
			t.Fatal(err)
		}
		sized.Clear()
		s.Clear()
		got, err1 := sized.Solve(ctx, b)
		want, err2 := s.Solve(ctx, b)
		if err1 != nil || err2 != nil || got != want {
			t.Errorf("%s: Solver %+v, %v; Standard %+v, %v; want the same", moves, got, err1, want, err2)
		}
	}
}

// sizedNegamax is plain negamax on a board of any size, the reference of
// TestSizedAgainstNegamax.
func sizedNegamax(b board.Board) int {
	g := b.Grid()
	if b.Stones() == g.Cells() {
		return 0
	}
	for col := range g.Width {
		if b.CanPlay(col) && b.IsWinningMove(col) {
			return g.WinNextScore(b.Stones())
		}
	}
	best := -g.MaxScore() - 1
	for col := range g.Width {
		if b.CanPlay(col) {
			c := b
			c.Play(col)
			best = max(best, -sizedNegamax(c))
		}
	}
	return best
}

// TestSizedAgainstNegamax compares Solver with plain negamax on random
// positions with at most 11 empty cells, on boards of several shapes, of
// one word and of two, at 1 and 2 threads; and its weak solve with the
// sign, and Analyze with each move's negamax.
func TestSizedAgainstNegamax(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 3))
	ctx := context.Background()
	sizes := []string{"4x4", "5x4", "4x6", "8x5", "7x6", "5x9", "9x5", "12x4", "6x8", "7x8", "8x7",
		"5x12", "13x4", "8x8", "10x6", "9x7", "6x10", "7x9", "11x5", "14x8", "16x7", "8x15", "25x4", "4x31"}
	games := 30
	if testing.Short() {
		games = 8
	}
	for _, size := range sizes {
		g := mustGrid(t, size)
		for _, threads := range []int{1, 2} {
			s := testSolver(t, g, 4, threads)
			for solved := 0; solved < games; {
				b, moves, ok := lateGame(rng, g, g.Cells()-9-rng.IntN(3))
				if !ok {
					continue
				}
				want := sizedNegamax(b)
				r, err := s.Solve(ctx, b)
				if err != nil || r.Score != want {
					t.Errorf("%s, %d threads: Solve(%q) = %d, %v; want %d", size, threads, moves, r.Score, err, want)
				}
				w, _ := s.SolveWeak(ctx, b)
				if w.Score != board.WeakScore(want) {
					t.Errorf("%s: SolveWeak(%q) = %d; want the sign of %d", size, moves, w.Score, want)
				}
				an, err := s.Analyze(ctx, b, false)
				if err != nil || an.Lower != want {
					t.Errorf("%s: Analyze(%q) best %d, %v; want %d", size, moves, an.Lower, err, want)
				}
				for col := range g.Width {
					if !b.CanPlay(col) {
						continue
					}
					c := b
					c.Play(col)
					sc := g.WinNextScore(b.Stones())
					if !b.IsWinningMove(col) {
						sc = -sizedNegamax(c)
					}
					if an.Scores[col] != sc {
						t.Errorf("%s: Analyze(%q) column %d = %d; want %d", size, moves, col+1, an.Scores[col], sc)
					}
				}
				solved++
			}
		}
	}
}

// lateGame returns a position of the given number of stones of grid g and
// its moves: on a board of more than 64 cells its columns first filled two
// rows at a time in a pattern that holds no four (patternMoves), as deep
// as leaves 24 cells or more, then random moves that neither win nor let
// the opponent win at once; false where the game ends before.
func lateGame(rng *rand.Rand, g *board.Grid, stones int) (board.Board, string, bool) {
	b := g.Empty()
	var cols []int
	if g.Cells() > 64 {
		fill := min(max((stones-24)/g.Width, 0)&^1, g.Height-2)
		cols = patternMoves(g.Width, fill)
		for _, c := range cols {
			b.Play(c)
		}
	}
	for b.Stones() < stones {
		var ok []int
		for col := range g.Width {
			if !b.CanPlay(col) || b.IsWinningMove(col) {
				continue
			}
			c := b
			c.Play(col)
			if !c.CanWinNext() {
				ok = append(ok, col)
			}
		}
		if len(ok) == 0 {
			return b, "", false
		}
		col := ok[rng.IntN(len(ok))]
		b.Play(col)
		cols = append(cols, col)
	}
	return b, board.FormatColumns(cols, false), !b.Over()
}

// patternMoves returns moves that fill every column of a board of the
// given width to height fill (even), the first player's stone on the cell
// of column c and row r where c/2 + r is even: no four anywhere (in a row
// the owners go in pairs, in a column they alternate, along a diagonal
// they go in pairs). Two rows at a time, a column whose lower cell is the
// first player's (A) is played with one whose lower cell is the second's
// (B): A below, B below, B above, A above; the As left over (there are as
// many As as Bs or more) each below, above.
func patternMoves(width, fill int) []int {
	var moves []int
	for r := 0; r < fill; r += 2 {
		var a, b []int
		for c := range width {
			if (c/2+r)%2 == 0 {
				a = append(a, c)
			} else {
				b = append(b, c)
			}
		}
		for i, c := range a {
			if i < len(b) {
				moves = append(moves, c, b[i], b[i], c)
			} else {
				moves = append(moves, c, c)
			}
		}
	}
	return moves
}

// TestEnginesAgree solves positions of the 7x6 board with its own engine
// (engine) and with those of other boards on a 7x6 geometry (engine64,
// engine128): all give the published scores.
func TestEnginesAgree(t *testing.T) {
	g64, _ := position.NewGeometry64(position.Width, position.Height)
	g128, _ := position.NewGeometry128(position.Width, position.Height)
	ctx := context.Background()
	s64 := solver.New64(g64, testWide(t, testMiB, g64.Width()*(g64.Height()+1)), 2)
	s128 := solver.New128(g128, testWide(t, testMiB, g128.Width()*(g128.Height()+1)), 2)
	lines := readPositions(t)
	if testing.Short() {
		lines = lines[:40]
	}
	for _, l := range lines {
		if l.Board.Stones() < 14 {
			continue
		}
		r64, err64 := s64.Solve(ctx, l.Board)
		r128, err128 := s128.Solve(ctx, l.Board)
		if err64 != nil || err128 != nil || r64.Score != l.Expected || r128.Score != l.Expected {
			t.Errorf("%q: engine64 %d (%v), engine128 %d (%v); want %d", l.Moves, r64.Score, err64, r128.Score, err128, l.Expected)
		}
	}
}

// TestSizedPV: the line of perfect play of a position ends the game with
// the position's score: the winner's last stone gives it, or the board
// fills. Empty boards of three small sizes, and random positions with 16
// to 20 empty cells of 9x5 and 8x5.
func TestSizedPV(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(32, 4))
	var tests []board.Board
	for _, size := range []string{"4x4", "5x4", "6x4"} {
		tests = append(tests, mustGrid(t, size).Empty())
	}
	for _, size := range []string{"9x5", "8x5"} {
		g := mustGrid(t, size)
		for added := 0; added < 5; {
			b := g.Empty()
			for b.Stones() < g.Cells()-16-rng.IntN(5) && !b.Over() {
				if col := rng.IntN(g.Width); b.CanPlay(col) {
					b.Play(col)
				}
			}
			if !b.Over() {
				tests = append(tests, b)
				added++
			}
		}
	}
	for _, b := range tests {
		g := b.Grid()
		s := testSolver(t, g, 16, 1)
		r, err := s.Solve(ctx, b)
		if err != nil {
			t.Fatal(err)
		}
		line, _, err := s.PV(ctx, b, r.Score)
		if err != nil {
			t.Fatalf("%v %x: PV: %v", g.Size, b.Key(), err)
		}
		end := b
		for _, col := range line {
			end.Play(col)
		}
		got := 0
		if end.Won() {
			got = g.WinNextScore(end.Stones() - 1) // the last mover's
			if len(line)%2 == 0 {
				got = -got // the side to move's opponent won
			}
		}
		if !end.Over() || got != r.Score {
			t.Errorf("%v %x: PV %s ends (over %t) with score %d; want %d", g.Size, b.Key(),
				board.FormatColumns(line, false), end.Over(), got, r.Score)
		}
	}
}

// TestSizedGameOver: a finished position is an error, not a score.
func TestSizedGameOver(t *testing.T) {
	g := mustGrid(t, "5x4")
	b, err := g.Parse("1212121", false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := testSolver(t, g, 1, 1).Solve(context.Background(), b); err != solver.ErrGameOver {
		t.Errorf("Solve(won position) error = %v; want ErrGameOver", err)
	}
}

// TestSizedZeroAllocs: the engines of other boards allocate nothing a
// solve either: engine49 (5x5), engine64 (9x5), engine80 (10x6, 11x5) and
// engine128 (6x11).
func TestSizedZeroAllocs(t *testing.T) {
	for _, tt := range []struct{ size, moves string }{{"5x5", ""}, {"9x5", "595457455781236317733419"}, {"10x6", "232238a5129a3481"}, {"11x5", "a169318821455884"}, {"6x11", "6123561514514656146226641421121622"}} {
		g := mustGrid(t, tt.size)
		s := testSolver(t, g, 4, 1)
		b, err := g.Parse(tt.moves, false)
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		var nodes uint64
		allocs := testing.AllocsPerRun(5, func() {
			s.Clear()
			r, _ := s.Solve(ctx, b)
			nodes = r.Nodes
		})
		if allocs != 0 || nodes < 1000 {
			t.Errorf("%s: Solve: %v allocations over %d nodes; want 0 (over at least 1000 nodes)", tt.size, allocs, nodes)
		}
	}
}

// TestFreedTable: a table freed while a solve on it runs (a server making
// room for the solvers of another board) keeps its memory until the solve
// ends, which gives the exact score; a solve after that gets
// ttable.ErrFreed, not a crash. On each engine: engine49 (6x5), engine64
// (8x7), engine80 (10x6, 11x5), engine128 (6x11), and 7x6's Solver.
func TestFreedTable(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		size, moves string
		score       int
	}{
		{"6x5", "", 0},
		{"8x7", "3847484333328874868156", 7},
		{"10x6", "71a1887934aa75a7411372", 13},
		{"11x5", "a169318821455884", -9},                   // Steininger's solver compiled for 11x5
		{"6x11", "6123561514514656146226641421121622", -5}, // and for 6x11
		{"7x6", "2416615552", 4},                           // Test_L1_R2 line 3
	}
	for _, tc := range tests {
		t.Run(tc.size, func(t *testing.T) {
			g := mustGrid(t, tc.size)
			b, err := g.Parse(tc.moves, false)
			if err != nil {
				t.Fatal(err)
			}
			var solve func() (solver.Result, error)
			var progress func() uint64
			var free func()
			if tc.size == "7x6" {
				s := solver.NewStandard(testTable(t, 8), 2)
				p, err := g.Parse(tc.moves, false)
				if err != nil {
					t.Fatal(err)
				}
				solve = func() (solver.Result, error) { return s.Solve(ctx, p) }
				progress = func() uint64 { n, _, _ := s.Progress(); return n }
				free = s.Table().Free
			} else {
				s := testSolver(t, g, 8, 2)
				solve = func() (solver.Result, error) { return s.Solve(ctx, b) }
				progress = func() uint64 { n, _, _ := s.Progress(); return n }
				free = s.Table().Free
			}
			done := make(chan struct{})
			var r solver.Result
			go func() {
				defer close(done)
				r, err = solve()
			}()
			// Free as soon as the search has begun, or it has ended.
			for progress() == 0 {
				select {
				case <-done:
				default:
					time.Sleep(50 * time.Microsecond)
					continue
				}
				break
			}
			free()
			<-done
			if err != nil || r.Score != tc.score {
				t.Errorf("Solve(%q), its table freed meanwhile = %d, %v; want %d", tc.moves, r.Score, err, tc.score)
			}
			if r, err := solve(); !errors.Is(err, ttable.ErrFreed) {
				t.Errorf("Solve(%q) on a table freed = %d, %v; want ttable.ErrFreed", tc.moves, r.Score, err)
			}
		})
	}
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

// testTable returns a table of one-word entries (tables.NewCompact), and
// fails t where its memory cannot be had.
func testTable(t testing.TB, mib int) *tables.Compact {
	t.Helper()
	tt, err := tables.NewCompact(mib, false)
	if err != nil {
		t.Fatal(err)
	}
	return tt
}

// testWide returns a growing table of keys of keyBits bits
// (tables.NewWide), and fails t where its memory cannot be had.
func testWide(t testing.TB, mib, keyBits int) *tables.Wide {
	t.Helper()
	tt, err := tables.NewWide(mib, keyBits, true)
	if err != nil {
		t.Fatal(err)
	}
	return tt
}
