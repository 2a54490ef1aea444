package solver_test

import (
	"context"
	"testing"
	"time"

	"c4solve/solver"
)

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
