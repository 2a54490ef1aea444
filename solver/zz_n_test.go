package solver

import (
	"context"
	"testing"

	"c4solve/board"
)

func TestZZNodes(t *testing.T) {
	var sum uint64
	for _, c := range []struct{ size, moves string }{{"7x5", ""}, {"9x5", "77003108130"}, {"9x5", "13846175"}, {"6x6", ""}, {"9x5", "440267712"}} {
		z, _ := board.ParseSize(c.size)
		g, _ := board.NewGrid(z)
		s := NewSized(g, 64)
		b, err := g.Parse(c.moves, true)
		if err != nil {
			t.Fatal(err)
		}
		r, _ := s.Solve(context.Background(), b)
		sum += r.Nodes
		t.Logf("%s %q score=%d nodes=%d expanded=%d", c.size, c.moves, r.Score, r.Nodes, r.Expanded)
	}
	t.Logf("sum %d", sum)
}
