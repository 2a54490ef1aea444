package solver_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

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

func TestAnalyze(t *testing.T) {
	s := solver.NewStandard(testTable(t, testMiB), 1)
	ctx := context.Background()
	if !testing.Short() { // seven solves of 5-stone positions: seconds
		// Published: the seven moves of 4453 score -5 -5 -2 -3 -4 -2 -2.
		an, err := s.Analyze(ctx, mustParse(t, "4453"), false)
		want := [position.Width]int{-5, -5, -2, -3, -4, -2, -2}
		if err != nil || !slices.Equal(an.Scores, want[:]) || !slices.Equal(an.Legal, []bool{true, true, true, true, true, true, true}) {
			t.Errorf("Analyze(4453) = %v %v, %v; want %v, all legal", an.Scores, an.Legal, err, want)
		}
		if got := an.Best(); !slices.Equal(got, []int{2, 5, 6}) || an.Lower != -2 || an.Upper != -2 {
			t.Errorf("Analyze(4453): Best() = %v, bounds [%d, %d]; want [2 5 6] (columns 3, 6, 7), both -2", got, an.Lower, an.Upper)
		}
		if got := an.BestMove(); got != 2 {
			t.Errorf("Analyze(4453).BestMove() = %d; want 2 (column 3), the best nearest the center", got)
		}
	}
	// Stopped: bounds around the best score, -2.
	s.Clear()
	tctx, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	an, err := s.Analyze(tctx, mustParse(t, "4453"), false)
	if !errors.Is(err, context.DeadlineExceeded) || an.Lower > -2 || an.Upper < -2 || an.Lower == an.Upper {
		t.Errorf("Analyze(4453), stopped after 20ms: %v, bounds [%d, %d]; want DeadlineExceeded and bounds around -2",
			err, an.Lower, an.Upper)
	}
	// Late random positions, many with full columns, against negamax.
	rng := rand.New(rand.NewPCG(3, 4))
	full := 0
	for checked := 0; checked < 40; {
		p, ok := randomPosition(rng, 32+rng.IntN(4))
		if !ok || p.CanWinNext() {
			continue
		}
		an, err := s.Analyze(ctx, boardOf(p), false)
		if err != nil {
			t.Fatalf("Analyze(%v): %v", p, err)
		}
		s.Clear()
		weak, err := s.Analyze(ctx, boardOf(p), true)
		if an.Lower != an.Upper || an.Lower != slices.Max(legalScores(an)) {
			t.Errorf("Analyze(%v): bounds [%d, %d]; want both the best score, %d", p, an.Lower, an.Upper, slices.Max(legalScores(an)))
		}
		if err != nil || !slices.Equal(weak.Legal, an.Legal) {
			t.Fatalf("Analyze(%v, weak): %v, Legal %v; want Analyze's %v", p, err, weak.Legal, an.Legal)
		}
		for col := 0; col < position.Width; col++ {
			if w := min(max(an.Scores[col], -1), 1); weak.Scores[col] != w {
				t.Errorf("Analyze(%v, weak).Scores[%d] = %d; want %d, the sign of %d", p, col, weak.Scores[col], w, an.Scores[col])
			}
			if an.Legal[col] != p.CanPlay(col) {
				t.Errorf("Analyze(%v).Legal[%d] = %v; want %v", p, col, an.Legal[col], p.CanPlay(col))
			}
		}
		for col := 0; col < position.Width; col++ {
			if !p.CanPlay(col) {
				full++
				continue
			}
			c := p
			c.Play(col)
			want := 0
			if c.Won() {
				want = (position.Cells + 1 - p.Stones()) / 2
			} else if c.Stones() < position.Cells {
				want = -negamax(c)
			}
			if an.Scores[col] != want {
				t.Errorf("Analyze(%v).Scores[%d] = %d; want %d", p, col, an.Scores[col], want)
			}
		}
		checked++
	}
	if full == 0 {
		t.Error("no position with a full column was analyzed")
	}
}

// legalScores returns the scores of an's legal moves.
func legalScores(an solver.Analysis) []int {
	var s []int
	for col, sc := range an.Scores {
		if an.Legal[col] {
			s = append(s, sc)
		}
	}
	return s
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

// TestClaimevenBounds checks the claimeven rules the search prunes with
// against plain alpha-beta, on random positions of 26 or more stones:
// ClaimevenBound bounds the score from above, ClaimevenReplyBound from
// below. Each bound they can give (0, and a loss or a win by the 21st,
// 20th or 19th stone) must be met, and each of the graded ones must be the
// exact score of some position. Each way a rule applies must be met too:
// with four or more columns of odd height (after the reply, for
// ClaimevenReplyBound), and where the first player's claimeven cells hold
// a line of four that the second player's line precedes.
func TestClaimevenBounds(t *testing.T) {
	want := 40 // applications of each bound by each rule
	if testing.Short() {
		want = 10
	}
	rng := rand.New(rand.NewPCG(3, 4))
	// applied[r][v]: bound v (0 to 3, a loss or a win) given by rule r
	// (0: ClaimevenBound, 1: ClaimevenReplyBound); tight: those exact.
	var applied, tight [2][4]int
	// ways[r]: applications of rule r with many odd columns, and (rule 0)
	// with a line of four the first player's cells hold (claimevenWays).
	var ways [2][2]int
	done := func() bool {
		for r := range applied {
			if slices.Min(applied[r][:]) < want || ways[r][0] < want {
				return false
			}
		}
		return ways[0][1] >= want
	}
	for tries := 0; !done(); tries++ {
		if tries == 100000*want {
			t.Fatalf("after %d positions, the rules gave bounds 0, 1, 2, 3 %v times, in the rarer ways %v; want %d each",
				tries, applied, ways, want)
		}
		p, ok := randomPosition(rng, 26+rng.IntN(10))
		if !ok || p.CanWinNext() {
			continue
		}
		rule := p.Stones() % 2
		var b int
		if rule == 1 {
			b, ok, _ = p.ClaimevenReplyBound(position.ClaimevenWinScore)
		} else {
			b, ok = p.ClaimevenBound(-position.ClaimevenWinScore)
		}
		if !ok {
			continue
		}
		// Tried whatever the bound, until each way is met often enough.
		manyOdd, firstLine := claimevenWays(p)
		if (!manyOdd || ways[rule][0] >= want) && (!firstLine || rule == 1 || ways[rule][1] >= want) &&
			applied[rule][abs(b)] >= want {
			continue
		}
		applied[rule][abs(b)]++
		if manyOdd {
			ways[rule][0]++
		}
		if firstLine && rule == 0 {
			ways[rule][1]++
		}
		// The null-window questions "score > b?" and "score >= b?".
		above, atLeast := alphaBeta(p, b, b+1) > b, alphaBeta(p, b-1, b) >= b
		switch {
		case rule == 1 && !atLeast:
			t.Errorf("%v: score below ClaimevenReplyBound %d", p, b)
		case rule == 0 && above:
			t.Errorf("%v: score above ClaimevenBound %d", p, b)
		case atLeast && !above:
			tight[rule][abs(b)]++
		}
	}
	for r := range tight {
		for v := 1; v < 4; v++ {
			if tight[r][v] == 0 {
				t.Errorf("rule %d: no bound of %d among %d was the exact score", r, v, want)
			}
		}
	}
	t.Logf("bounds 0, 1, 2, 3 exact: ClaimevenBound %v, ClaimevenReplyBound %v of %d each", tight[0], tight[1], want)
}

// TestOddThreatBound checks the first player's odd-threat rule against
// plain alpha-beta, on random positions of 26 or more stones with the
// first player to move: each lower bound it gives (a win by the 21st or the
// 20th stone) must be met, and must be the exact score of some position.
func TestOddThreatBound(t *testing.T) {
	want := 40 // applications of each bound
	if testing.Short() {
		want = 10
	}
	rng := rand.New(rand.NewPCG(5, 6))
	var applied, tight [3]int
	for tries := 0; min(applied[1], applied[2]) < want; tries++ {
		if tries == 100000*want {
			t.Fatalf("after %d positions, the rule gave bounds 1, 2 %v times; want %d each", tries, applied[1:], want)
		}
		p, ok := randomPosition(rng, 26+2*rng.IntN(5))
		if !ok || p.CanWinNext() {
			continue
		}
		b, ok := p.OddThreatBound(position.ClaimevenWinScore)
		if !ok || applied[b] >= want {
			continue
		}
		applied[b]++
		above, atLeast := alphaBeta(p, b, b+1) > b, alphaBeta(p, b-1, b) >= b
		switch {
		case !atLeast:
			t.Errorf("%v: score below OddThreatBound %d", p, b)
		case !above:
			tight[b]++
		}
	}
	for b := 1; b <= 2; b++ {
		if tight[b] == 0 {
			t.Errorf("no bound of %d among %d was the exact score", b, want)
		}
	}
	t.Logf("bounds 1, 2 exact: %v of %d each", tight[1:], want)
}

// claimevenWays tells how the claimeven rules meet p, counted from its
// cells one by one: manyOdd, whether four or more columns have odd height
// (five or more, with the second player to move: four after its reply);
// firstLine, whether the first player's stones, the free cells of the 1st,
// 3rd and 5th rows and the next cells of the columns of odd height hold a
// line of four.
func claimevenWays(p position.Position) (manyOdd, firstLine bool) {
	var cells [position.Width][position.Height]bool // the first player's claims
	odd := 0
	for col := range position.Width {
		h := p.Height(col)
		odd += h % 2
		for row := range position.Height {
			who := p.Cell(col, row)
			cells[col][row] = who == 1 || who == 0 && (row%2 == 0 || row == h)
		}
	}
	for col := range position.Width {
		for row := range position.Height {
			for _, d := range [][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}} {
				k := 0
				for ; k < 4; k++ {
					c, r := col+k*d[0], row+k*d[1]
					if c >= position.Width || r < 0 || r >= position.Height || !cells[c][r] {
						break
					}
				}
				firstLine = firstLine || k == 4
			}
		}
	}
	return odd >= 4+p.Stones()%2, firstLine
}

// alphaBeta returns the score of p, which must not be over, within the
// window (alpha, beta), as fail-hard alpha-beta with no table: a value of
// alpha or below means score <= alpha, beta or above score >= beta.
func alphaBeta(p position.Position, alpha, beta int) int {
	n := p.Stones()
	if n == position.Cells {
		return 0
	}
	if p.CanWinNext() {
		return (position.Cells + 1 - n) / 2
	}
	for _, col := range [position.Width]int{3, 2, 4, 1, 5, 0, 6} {
		if !p.CanPlay(col) {
			continue
		}
		c := p
		c.Play(col)
		alpha = max(alpha, -alphaBeta(c, -beta, -alpha))
		if alpha >= beta {
			return beta
		}
	}
	return alpha
}

func abs(x int) int { return max(x, -x) }

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

// TestCancel: a solve past its deadline stops with DeadlineExceeded and
// bounds that hold the score. (One that ignored the deadline would run
// for minutes, into go test's -timeout.)
func TestCancel(t *testing.T) {
	p := mustParse(t, "") // takes minutes: surely still running at the deadline
	s := solver.NewStandard(testTable(t, testMiB), 1)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	r, err := s.Solve(ctx, p)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Solve with deadline: error %v; want DeadlineExceeded", err)
	}
	// The empty board scores 1.
	if r.Lower > 1 || r.Upper < 1 || r.Lower > r.Upper {
		t.Errorf("interrupted bounds [%d, %d] exclude the score 1", r.Lower, r.Upper)
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

// TestThreads solves the known positions with 1, 2, 3 and 8 workers
// sharing one table: the scores must not depend on the number.
func TestThreads(t *testing.T) {
	lines := readPositions(t)
	if testing.Short() {
		lines = lines[:len(lines)/3]
	}
	ctx := context.Background()
	for _, threads := range []int{1, 2, 3, 8} {
		s := solver.NewStandard(testTable(t, testMiB), threads)
		for _, l := range lines {
			s.Clear()
			r, err := s.Solve(ctx, l.Board)
			if err != nil || r.Score != l.Expected {
				t.Errorf("%d threads: Solve(%q) = %d, %v; want %d", threads, l.Moves, r.Score, err, l.Expected)
			}
			w, err := s.SolveWeak(ctx, l.Board)
			if want := min(max(l.Expected, -1), 1); err != nil || w.Score != want {
				t.Errorf("%d threads: SolveWeak(%q) = %d, %v; want %d", threads, l.Moves, w.Score, err, want)
			}
		}
	}
}

// TestHelpersJoinLate checks that a solve of fewer nodes than helpers
// wait for runs on the first worker alone: no goroutine is started (a
// started goroutine allocates), and it searches exactly the nodes of a
// one-thread solve. (A longer solve is searched by both workers, but how
// soon the helper runs is the scheduler's: its node count is not checked.)
func TestHelpersJoinLate(t *testing.T) {
	ctx := context.Background()
	one, two := solver.NewStandard(testTable(t, testMiB), 1), solver.NewStandard(testTable(t, testMiB), 2)
	for _, tc := range []struct {
		moves string
		alone bool
	}{
		{"2252576253462244111563365343671351441", true}, // Test_L3_R1, tens of nodes
		{"5554224333234511764415115", true},             // Test_L2_R1, hundreds
		{"32751571231557", false},                       // Test_L1_R2, hundreds of thousands
	} {
		p := mustParse(t, tc.moves)
		one.Clear()
		two.Clear()
		r1, err1 := one.Solve(ctx, p)
		r2, err2 := two.Solve(ctx, p)
		if err1 != nil || err2 != nil || r1.Score != r2.Score {
			t.Fatalf("Solve(%q) = %d, %v with 1 thread, %d, %v with 2", tc.moves, r1.Score, err1, r2.Score, err2)
		}
		if !tc.alone {
			continue
		}
		if r1.Nodes != r2.Nodes {
			t.Errorf("Solve(%q): %d nodes with 1 thread, %d with 2; want equal, the helper never started", tc.moves, r1.Nodes, r2.Nodes)
		}
		allocs := testing.AllocsPerRun(10, func() {
			two.Clear()
			two.Solve(ctx, p)
		})
		if allocs != 0 {
			t.Errorf("Solve(%q) with 2 threads: %v allocations; want 0 (no helper started)", tc.moves, allocs)
		}
	}
}

// TestCancelThreads stops a 4-worker solve once it has searched (its
// Progress shows nodes) and checks that no goroutine outlives it: the
// stacks are taken the moment Solve returns, so a worker still unwinding
// would show.
func TestCancelThreads(t *testing.T) {
	s := solver.NewStandard(testTable(t, testMiB), 4)
	ctx, cancel := context.WithCancel(context.Background())
	var canceller sync.WaitGroup
	canceller.Add(1)
	go func() {
		defer canceller.Done()
		defer cancel()
		// A guard only: the empty board takes minutes, and nodes show
		// in milliseconds.
		tick, deadline := time.NewTicker(time.Millisecond), time.After(time.Minute)
		defer tick.Stop()
		for nodes, _, _ := s.Progress(); nodes == 0; nodes, _, _ = s.Progress() {
			select {
			case <-tick.C:
			case <-deadline:
				return
			}
		}
	}()
	r, err := s.Solve(ctx, mustParse(t, ""))
	buf := make([]byte, 1<<20)
	stacks := string(buf[:runtime.Stack(buf, true)])
	canceller.Wait()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Solve, canceled: error %v; want Canceled", err)
	}
	if strings.Contains(stacks, "solver.(*worker)") {
		t.Errorf("a worker outlived the solve:\n%s", stacks)
	}
	if r.Lower > 1 || r.Upper < 1 {
		t.Errorf("interrupted bounds [%d, %d] exclude the score 1", r.Lower, r.Upper)
	}
	nodes, _, _ := s.Progress()
	if nodes == 0 || r.Nodes < nodes {
		t.Errorf("Progress() nodes = %d, Result.Nodes = %d; want 0 < progress <= result", nodes, r.Nodes)
	}
}

// TestProgress reads the progress of a running solve from another
// goroutine (run it with -race), until it has seen the nodes grow five
// times (the empty board takes minutes), then stops the solve.
func TestProgress(t *testing.T) {
	s := solver.NewStandard(testTable(t, testMiB), 2)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a guard only
	defer cancel()
	done := make(chan struct{})
	p := mustParse(t, "") // here: t.Fatal must not run in another goroutine
	go func() {
		defer close(done)
		s.Solve(ctx, p)
	}()
	var last uint64
	grew := 0
	for seen := false; !seen; {
		select {
		case <-done:
			seen = true
		case <-time.After(10 * time.Millisecond):
		}
		nodes, lo, hi := s.Progress()
		if nodes < last || nodes > 0 && (lo > 1 || hi < 1) {
			cancel()
			<-done
			t.Fatalf("Progress() = %d, [%d, %d]; nodes before %d, score 1", nodes, lo, hi, last)
		}
		if nodes > last {
			if grew++; grew == 5 {
				cancel()
			}
		}
		last = nodes
	}
	if grew < 5 {
		t.Errorf("Progress() grew %d times in the solve, to %d nodes; want 5", grew, last)
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

// TestAnalyzeThreads: with several threads, Analyze solves the moves side
// by side; its scores are those of one thread, weak ones too, and a
// stopped analysis keeps bounds around the best score.
func TestAnalyzeThreads(t *testing.T) {
	lines := readPositions(t)
	step := 7
	if testing.Short() {
		step = 21
	}
	ctx := context.Background()
	one := solver.NewStandard(testTable(t, testMiB), 1)
	for _, threads := range []int{2, 3} {
		s := solver.NewStandard(testTable(t, testMiB), threads)
		for i := 0; i < len(lines); i += step {
			p := lines[i].Board
			if p.CanWinNext() {
				continue
			}
			one.Clear()
			want, err := one.Analyze(ctx, p, false)
			if err != nil {
				t.Fatalf("Analyze(%q), 1 thread: %v", lines[i].Moves, err)
			}
			s.Clear()
			got, err := s.Analyze(ctx, p, false)
			if err != nil || !slices.Equal(got.Scores, want.Scores) || !slices.Equal(got.Legal, want.Legal) || got.Lower != want.Lower || got.Upper != want.Upper {
				t.Errorf("%d threads: Analyze(%q) = %v [%d, %d], %v; want %v [%d, %d]", threads, lines[i].Moves,
					got.Scores, got.Lower, got.Upper, err, want.Scores, want.Lower, want.Upper)
			}
			if got.Lower != lines[i].Expected {
				t.Errorf("%d threads: Analyze(%q) best %d; want the position's score %d", threads, lines[i].Moves, got.Lower, lines[i].Expected)
			}
			weak, err := s.Analyze(ctx, p, true)
			for col := range weak.Scores {
				if w := min(max(want.Scores[col], -1), 1); err != nil || weak.Scores[col] != w {
					t.Errorf("%d threads: Analyze(%q, weak) = %v, %v; want the signs of %v", threads, lines[i].Moves, weak.Scores, err, want.Scores)
					break
				}
			}
		}
		// Stopped: bounds around the best score, -2.
		s.Clear()
		tctx, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
		an, err := s.Analyze(tctx, mustParse(t, "4453"), false)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) || an.Lower > -2 || an.Upper < -2 || an.Lower == an.Upper {
			t.Errorf("%d threads: Analyze(4453), stopped after 20ms: %v, bounds [%d, %d]; want DeadlineExceeded and bounds around -2",
				threads, err, an.Lower, an.Upper)
		}
		// The Solver still solves alone afterwards.
		s.Clear()
		if r, err := s.Solve(ctx, lines[len(lines)-1].Board); err != nil || r.Score != lines[len(lines)-1].Expected {
			t.Errorf("%d threads: Solve after Analyze = %d, %v; want %d", threads, r.Score, err, lines[len(lines)-1].Expected)
		}
	}
}

// rootBook knows the score of one position: a book of the root's depth,
// whose children it does not know.
type rootBook struct {
	p     board.Board
	score int
}

func (b rootBook) Depth() int { return b.p.Stones() }
func (b rootBook) Lookup(p board.Board) (int, bool) {
	k, _, _ := p.CanonicalKey()
	rk, _, _ := b.p.CanonicalKey()
	return b.score, k == rk
}

// TestAnalyzeRootInBook: Analyze of a position the book knows, but not
// its children, bounds each child by the book's score: the same scores,
// exact and weak, at one and two threads.
func TestAnalyzeRootInBook(t *testing.T) {
	lines := readPositions(t)
	step := map[bool]int{false: 9, true: 27}[testing.Short()]
	for _, threads := range []int{1, 2} {
		s := solver.NewStandard(testTable(t, testMiB), threads)
		ctx := context.Background()
		for i := 0; i < len(lines); i += step {
			p := lines[i].Board
			if p.CanWinNext() {
				continue
			}
			s.UseBook(nil)
			s.Clear()
			want, err := s.Analyze(ctx, p, false)
			if err != nil {
				t.Fatalf("Analyze(%q): %v", lines[i].Moves, err)
			}
			s.UseBook(rootBook{p, lines[i].Expected})
			s.Clear()
			got, err := s.Analyze(ctx, p, false)
			if err != nil || !slices.Equal(got.Scores, want.Scores) || got.Lower != want.Lower || got.Upper != want.Upper {
				t.Errorf("%d threads: Analyze(%q) with its score known = %v [%d, %d], %v; want %v [%d, %d]", threads, lines[i].Moves,
					got.Scores, got.Lower, got.Upper, err, want.Scores, want.Lower, want.Upper)
			}
			s.Clear()
			weak, err := s.Analyze(ctx, p, true)
			for col := range weak.Scores {
				if w := min(max(want.Scores[col], -1), 1); err != nil || weak.Scores[col] != w {
					t.Errorf("%d threads: Analyze(%q, weak) with its score known = %v, %v; want the signs of %v", threads, lines[i].Moves, weak.Scores, err, want.Scores)
					break
				}
			}
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

// TestAnalyzeProgress reads the progress of a running analysis, and of a
// line of perfect play, from another goroutine: the bounds are those of
// the position analyzed, never those of the move being searched nor a
// range not begun (0 <= score <= 0), and the nodes never go back (run it
// with -race).
func TestAnalyzeProgress(t *testing.T) {
	p := mustParse(t, "4") // score -1: the first player's best move, played
	for _, threads := range []int{1, 2} {
		s := solver.NewStandard(testTable(t, testMiB), threads)
		watch := func(what string, want func(lo, hi int) bool, run func()) {
			done := make(chan struct{})
			go func() {
				defer close(done)
				run()
			}()
			var last uint64
			for seen := false; !seen; {
				select {
				case <-done:
					seen = true
				case <-time.After(5 * time.Millisecond):
				}
				if seen {
					break
				}
				nodes, lo, hi := s.Progress()
				if nodes < last || nodes > 0 && !want(lo, hi) {
					t.Fatalf("%d threads, %s: Progress() = %d, [%d, %d]; nodes before %d", threads, what, nodes, lo, hi, last)
				}
				last = nodes
			}
			if last == 0 {
				t.Errorf("%d threads, %s: Progress() never reported a node", threads, what)
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 400*time.Millisecond)
		var an solver.Analysis
		watch("Analyze(\"4\")", func(lo, hi int) bool { return lo <= -1 && -1 <= hi }, func() { an, _ = s.Analyze(ctx, p, false) })
		cancel()
		if an.Lower > -1 || an.Upper < -1 {
			t.Errorf("%d threads: Analyze(\"4\") stopped: [%d, %d]; want -1 inside", threads, an.Lower, an.Upper)
		}
		ctx, cancel = context.WithTimeout(context.Background(), 300*time.Millisecond)
		watch("PV(\"4\", -1)", func(lo, hi int) bool { return lo == -1 && hi == -1 }, func() { s.PV(ctx, p, -1) })
		cancel()
	}
}
