package solver_test

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"c4solve/solver"
)

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
