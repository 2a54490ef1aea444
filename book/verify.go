package book

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	"c4solve/board"
	"c4solve/solver"
)

// Mismatch is a book entry whose score a fresh solve contradicts.
type Mismatch struct {
	Position     board.Board
	Book, Solved int
}

// Verify re-solves n entries of b (all of them if n >= b.Len()), drawn at
// random by rng, with s, a solver of the book's board, cleared before
// each solve; s must use no book. It returns the entries whose score the
// solve contradicts and the number checked, which is less than asked
// only when ctx stopped it, with ctx's error. progress, if not nil, is
// called after each entry checked with the number checked so far, for a
// display of a verify that takes a while.
func (b *Book) Verify(ctx context.Context, s *solver.Solver, n int, rng *rand.Rand, progress func(checked int)) ([]Mismatch, int, error) {
	g := s.Grid()
	if g.Size != b.Board() {
		return nil, 0, fmt.Errorf("a solver of the %v board for a book of the %v board", g.Size, b.Board())
	}
	var bad []Mismatch
	n = min(n, b.Len())
	for i, e := range rng.Perm(b.Len())[:n] {
		p, want := b.Entry(g, e)
		s.Clear()
		r, err := s.Solve(ctx, p)
		if err != nil {
			return bad, i, err
		}
		if r.Score != want {
			bad = append(bad, Mismatch{p, want, r.Score})
		}
		if progress != nil {
			progress(i + 1)
		}
	}
	return bad, n, nil
}

// Sample returns n entries of b (all of them if fewer) of the given number
// of stones (any number if stones < 0), drawn at random by rng, in key
// order, each as moves (0-based columns) that reach it and its score: a
// sample to check against another solver. It fails for an entry that no
// game reaches, which only a faulty program can have written.
func (b *Book) Sample(n, stones int, rng *rand.Rand) (lines [][]int, scores []int, err error) {
	g, _ := board.NewGrid(b.Board()) // checked when the book was made
	var idx []int
	for i := range b.Len() {
		if p, _ := b.Entry(g, i); stones < 0 || p.Stones() == stones {
			idx = append(idx, i)
		}
	}
	rng.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
	idx = idx[:min(n, len(idx))]
	slices.Sort(idx)
	for _, i := range idx {
		p, score := b.Entry(g, i)
		line, ok := p.Line()
		if !ok {
			return nil, nil, fmt.Errorf("entry %d, key %s: no game reaches the position", i+1, formatKey(b.keys[i]))
		}
		lines, scores = append(lines, line), append(scores, score)
	}
	return lines, scores, nil
}
