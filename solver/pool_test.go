package solver_test

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"c4solve/solver"
)

// A pool lends its n solvers, one at a time each; they share its table,
// which ages when a solver is lent while none is in use.
func TestPool(t *testing.T) {
	tt := testTable(t, 4)
	g := mustGrid(t, "7x6")
	pool := solver.NewPool(g, tt, 2, 1, nil)
	ctx := context.Background()
	before := tt.Searches()
	a, err := pool.Get(ctx)
	if err != nil || tt.Searches() != before+1 {
		t.Fatalf("Get of an idle pool: %v, %d new generations; want a solver and one", err, tt.Searches()-before)
	}
	b, ok := pool.TryGet()
	if !ok || b == a || tt.Searches() != before+1 {
		t.Fatalf("TryGet with one solver lent: %v (the same: %v), %d new generations; want the other solver and no new generation", ok, b == a, tt.Searches()-before)
	}
	if a.Table() != tt || b.Table() != tt || pool.Table() != tt {
		t.Error("the pool's solvers do not share its table")
	}
	if _, ok := pool.TryGet(); ok {
		t.Fatal("TryGet with both solvers lent: got a third")
	}
	tctx, cancel := context.WithTimeout(ctx, 10*time.Millisecond)
	defer cancel()
	if _, err := pool.Get(tctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Get with both solvers lent, until a deadline: %v; want DeadlineExceeded", err)
	}
	got := make(chan *solver.Solver)
	go func() {
		s, _ := pool.Get(ctx)
		got <- s
	}()
	pool.Put(b)
	if s := <-got; s != b {
		t.Error("Get waiting for a solver: not the one put back")
	}
	// Solves on the pool's solvers are right (the book of none, no aging
	// of their own).
	p, _ := g.Parse("4455", false)
	r, err := a.Solve(ctx, p)
	if err != nil || r.Score != 18 {
		t.Errorf("Solve(4455) on a pool's solver = %d, %v; want 18", r.Score, err)
	}
}

// A Batch hands results back in the order of Do: a position alone is
// solved by the Batch's Solver, positions in a stream side by side by
// single-threaded ones, and an item without work waits for its turn.
func TestBatch(t *testing.T) {
	lines := readPositions(t)[:40]
	g := mustGrid(t, "7x6")
	s := testSolver(t, g, 16, 2)
	b := solver.NewBatch(s)
	var order []int
	scores := make([]int, len(lines))
	var sideBySide atomic.Int32
	ctx := context.Background()
	for i, l := range lines {
		if i == 10 {
			b.Do(true, nil, func() { order = append(order, -1) })
		}
		p, err := g.Parse(l.Moves, false)
		if err != nil {
			t.Fatal(err)
		}
		b.Do(i < len(lines)-1, func(sv *solver.Solver) {
			if sv != s {
				sideBySide.Add(1)
			}
			r, err := sv.Solve(ctx, p)
			if err != nil {
				t.Error(err)
			}
			scores[i] = r.Score
		}, func() { order = append(order, i) })
	}
	b.Flush()
	want := []int{}
	for i := range lines {
		if i == 10 {
			want = append(want, -1)
		}
		want = append(want, i)
	}
	if !slices.Equal(order, want) {
		t.Errorf("done in the order %v; want %v", order, want)
	}
	for i, l := range lines {
		if scores[i] != l.Expected {
			t.Errorf("%q: %d; want %d", l.Moves, scores[i], l.Expected)
		}
	}
	if sideBySide.Load() == 0 {
		t.Error("no position of the stream was solved side by side")
	}
	// Alone: the Batch's own Solver, at once.
	var got *solver.Solver
	b.Do(false, func(sv *solver.Solver) { got = sv }, func() {})
	if got != s {
		t.Error("a position alone was not solved by the Batch's Solver")
	}
}
