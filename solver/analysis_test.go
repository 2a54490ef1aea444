package solver_test

import (
	"context"
	"errors"
	"testing"
	"time"

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
