package solver_test

import (
	"context"
	"testing"

	"c4solve/solver"
)

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
