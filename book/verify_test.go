package book

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestVerify(t *testing.T) {
	b := testBook(t)
	g := standardGrid(t)
	s := testSolver(t, g, 16, 1)
	n := 50
	bad, checked, err := b.Verify(context.Background(), s, n, rand.New(rand.NewPCG(1, 2)), nil)
	if err != nil || checked != n || len(bad) != 0 {
		t.Fatalf("Verify(%d) = %v, %d, %v; want no mismatch among %d", n, bad, checked, err, n)
	}
	// One score changed: Verify of every entry finds it, and only it.
	wrong := *b
	wrong.scores = slices.Clone(b.scores)
	wrong.scores[7]++
	p, _ := wrong.Entry(g, 7)
	bad, checked, err = wrong.Verify(context.Background(), s, wrong.Len()+10, rand.New(rand.NewPCG(1, 2)), nil)
	if err != nil || checked != wrong.Len() || len(bad) != 1 || bad[0].Position != p || bad[0].Book != bad[0].Solved+1 {
		t.Errorf("Verify of a book with entry 7 one too high: %+v, %d checked, %v; want that entry alone, all %d checked",
			bad, checked, err, wrong.Len())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, checked, err := b.Verify(ctx, s, n, rand.New(rand.NewPCG(1, 2)), nil); !errors.Is(err, context.Canceled) || checked >= n {
		t.Errorf("Verify, cancelled: %d checked, %v; want fewer than %d and context.Canceled", checked, err, n)
	}
}
