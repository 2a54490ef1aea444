package solver_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"c4solve/board"
	"c4solve/internal/position"
	"c4solve/solver"
)

// TestAnalysisBounds: a finished analysis's bounds are its scores, and
// BestFound is BestMove, proved; an analysis stopped part way bounds
// each move's score as the move's solve alone finds it, and BestFound
// returns a legal move, proved only where its bounds show it.
func TestAnalysisBounds(t *testing.T) {
	g := mustGrid(t, "6x5")
	s := testSolver(t, g, 16, 1)
	for _, moves := range []string{"", "34", "3344", "111"} {
		b, err := g.Parse(moves, false)
		if err != nil {
			t.Fatal(err)
		}
		an, err := s.Analyze(context.Background(), b, false)
		if err != nil {
			t.Fatal(err)
		}
		for col, legal := range an.Legal {
			if legal && (an.Lows[col] != an.Scores[col] || an.Highs[col] != an.Scores[col]) {
				t.Errorf("%q column %d: bounds [%d, %d]; want the score %d", moves, col+1, an.Lows[col], an.Highs[col], an.Scores[col])
			}
		}
		if col, proved := an.BestFound(); col != an.BestMove() || !proved {
			t.Errorf("%q: BestFound %d, %t; want BestMove %d, proved", moves, col, proved, an.BestMove())
		}
	}
	// 8x8's empty board, stopped at once: every move's bounds hold the
	// scores its children's solves give, which are wide.
	g8 := mustGrid(t, "8x8")
	s8 := testSolver(t, g8, 16, 2)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	an, err := s8.Analyze(ctx, g8.Empty(), false)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("8x8's empty board in 200 ms: %v; want stopped", err)
	}
	for col, legal := range an.Legal {
		if !legal || an.Lows[col] > an.Highs[col] || an.Lows[col] < -g8.MaxScore() || an.Highs[col] > g8.MaxScore() {
			t.Errorf("8x8 column %d: legal %t, bounds [%d, %d]", col+1, legal, an.Lows[col], an.Highs[col])
		}
	}
	col, proved := an.BestFound()
	if col < 0 || col >= g8.Width || proved {
		t.Errorf("8x8 stopped: BestFound %d, proved %t; want a column, not proved", col, proved)
	}
}

// TestAnalysisWithDeadlineSpreads: an analysis with a time limit spreads
// its search over every move, center first, in rounds (Engine.spread), so
// that one stopped early has narrowed each move's bounds, not the first
// move's alone. The analysis is stopped after a count of nodes, not of
// time, so that the test does not depend on the machine's speed: 8x8's
// 616617284683586836 (18 stones; columns 4 and 5 leave the opponent no
// move that does not lose at once, which needs no search) after 3 million
// nodes at one thread. Solved one move after another, column 1's solve had
// them all, and the 5 moves other than 1, 4 and 5 kept their whole ranges.
func TestAnalysisWithDeadlineSpreads(t *testing.T) {
	g := mustGrid(t, "8x8")
	b, err := g.Parse("616617284683586836", false)
	if err != nil {
		t.Fatal(err)
	}
	s := testSolver(t, g, 16, 1)
	defer solver.SpreadFromStart()()
	// The deadline, far off, marks the analysis as limited in time; the
	// cancel after 3 million nodes stops it.
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			if nodes, _, _ := s.Progress(); nodes >= 3_000_000 {
				cancel()
			}
			time.Sleep(time.Millisecond)
		}
	}()
	an, err := s.Analyze(ctx, b, false)
	cancel()
	<-done
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Analyze(8x8 616617284683586836), stopped after 3 million nodes: %v; want context.Canceled", err)
	}
	// A move whose solve has not begun keeps the bounds of its stone count.
	n := b.Stones() + 1
	least, most := -((g.Cells() - 1 - n) >> 1), (g.Cells()-2-n)>>1
	narrowed := 0
	for col, legal := range an.Legal {
		if legal && (an.Lows[col] > least || an.Highs[col] < most) {
			narrowed++
		}
	}
	if narrowed != g.Width {
		t.Errorf("8x8 616617284683586836 after 3 million nodes: %d of %d moves' bounds narrowed (lows %v, highs %v, each first [%d, %d]); want every move's",
			narrowed, g.Width, an.Lows, an.Highs, least, most)
	}
	// The best found is a move of the highest lower bound.
	col, _ := an.BestFound()
	for c, legal := range an.Legal {
		if legal && an.Lows[c] > an.Lows[col] {
			t.Errorf("BestFound %d, lower bound %d; column %d's is %d", col+1, an.Lows[col], c+1, an.Lows[c])
		}
	}
}

// TestAnalysisWithDeadlineAsWithout: an analysis with a time limit that
// finishes within the first spreadFirst of it searches just as one without
// a limit, node for node at one thread: rounds from the start searched 20%
// to 50% more nodes on such 7x6 positions, the server's everyday ones.
func TestAnalysisWithDeadlineAsWithout(t *testing.T) {
	g := mustGrid(t, "7x6")
	for _, pos := range []string{"72552673", "16245156", "35666474"} {
		b, err := g.Parse(pos, false)
		if err != nil {
			t.Fatal(err)
		}
		var nodes [2]uint64
		for i, limit := range []time.Duration{0, time.Hour} {
			s := testSolver(t, g, 16, 1)
			s.UseBook(nil)
			ctx, cancel := context.Background(), context.CancelFunc(func() {})
			if limit > 0 {
				ctx, cancel = context.WithTimeout(ctx, limit)
			}
			an, err := s.Analyze(ctx, b, false)
			cancel()
			if err != nil {
				t.Fatalf("Analyze(%s), limit %v: %v", pos, limit, err)
			}
			nodes[i] = an.Nodes
		}
		if nodes[0] != nodes[1] {
			t.Errorf("Analyze(%s) at one thread: %d nodes with an hour's limit; want %d, as with none", pos, nodes[1], nodes[0])
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
