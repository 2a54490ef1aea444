package book

import (
	"context"
	"math/rand/v2"

	"c4solve/board"
	"c4solve/solver"
)

// Mismatch is a book entry whose score a fresh solve contradicts.
type Mismatch struct {
	Position     board.Position
	Book, Solved int
}

// Verify re-solves n entries of b (all of them if n >= b.Len()), drawn at
// random by rng, with s, cleared before each solve; s must use no book.
// It returns the entries whose score the solve contradicts and the number
// checked, which is less than asked only when ctx stopped it, with ctx's
// error.
func (b *Book) Verify(ctx context.Context, s *solver.Solver, n int, rng *rand.Rand) ([]Mismatch, int, error) {
	var bad []Mismatch
	n = min(n, b.Len())
	for i, e := range rng.Perm(b.Len())[:n] {
		p, want := b.Entry(e)
		s.Clear()
		r, err := s.Solve(ctx, p)
		if err != nil {
			return bad, i, err
		}
		if r.Score != want {
			bad = append(bad, Mismatch{p, want, r.Score})
		}
	}
	return bad, n, nil
}
