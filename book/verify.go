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
	Position     board.Position
	Book, Solved int
}

// Verify re-solves n entries of b, a book of 7x6 (all of them if n >=
// b.Len()), drawn at random by rng, with s, cleared before each solve; s
// must use no book. It returns the entries whose score the solve
// contradicts and the number checked, which is less than asked only when
// ctx stopped it, with ctx's error. progress, if not nil, is called after
// each entry checked with the number checked so far, for a display of a
// verify that takes a while. VerifyBoard checks a book of any board.
func (b *Book) Verify(ctx context.Context, s *solver.Solver, n int, rng *rand.Rand, progress func(checked int)) ([]Mismatch, int, error) {
	var bad []Mismatch
	checked, err := verify(ctx, b, n, rng, b.Entry, s.Clear, s.Solve, func(p board.Position, book, solved int) {
		bad = append(bad, Mismatch{p, book, solved})
	}, progress)
	return bad, checked, err
}

// BoardMismatch is a book entry, of any board, whose score a fresh solve
// contradicts.
type BoardMismatch struct {
	Position     board.Board
	Book, Solved int
}

// VerifyBoard is Verify for a book of any board, s a solver of its board.
func (b *Book) VerifyBoard(ctx context.Context, s *solver.Sized, n int, rng *rand.Rand, progress func(checked int)) ([]BoardMismatch, int, error) {
	if s.Grid().Size != b.Board() {
		return nil, 0, fmt.Errorf("a solver of the %v board for a book of the %v board", s.Grid().Size, b.Board())
	}
	var bad []BoardMismatch
	entry := func(i int) (board.Board, int) { return b.EntryBoard(s.Grid(), i) }
	checked, err := verify(ctx, b, n, rng, entry, s.Clear, s.Solve, func(p board.Board, book, solved int) {
		bad = append(bad, BoardMismatch{p, book, solved})
	}, progress)
	return bad, checked, err
}

// verify re-solves n entries of b (all if n >= b.Len()) drawn by rng,
// each the position and score entry returns, by solve after clear, and
// passes each whose score the solve contradicts to bad, and the number
// checked so far to progress, if not nil, after each. It returns the
// number checked, and the error of a solve that failed.
func verify[P any](ctx context.Context, b *Book, n int, rng *rand.Rand, entry func(i int) (P, int), clear func(),
	solve func(context.Context, P) (solver.Result, error), bad func(p P, book, solved int), progress func(checked int)) (int, error) {
	n = min(n, b.Len())
	for i, e := range rng.Perm(b.Len())[:n] {
		p, want := entry(e)
		clear()
		r, err := solve(ctx, p)
		if err != nil {
			return i, err
		}
		if r.Score != want {
			bad(p, want, r.Score)
		}
		if progress != nil {
			progress(i + 1)
		}
	}
	return n, nil
}

// Sample returns n entries of b (all of them if fewer) of the given number
// of stones (any number if stones < 0), drawn at random by rng, in key
// order, each as moves (0-based columns) that reach it and its score: a
// sample to check against another solver. It fails for an entry that no
// game reaches, which only a faulty program can have written.
func (b *Book) Sample(n, stones int, rng *rand.Rand) (lines [][]int, scores []int, err error) {
	g, err := board.NewGrid(b.Board())
	if err != nil {
		return nil, nil, err // not reached: checked when the book was made
	}
	var idx []int
	for i := range b.Len() {
		if p, _ := b.EntryBoard(g, i); stones < 0 || p.Stones() == stones {
			idx = append(idx, i)
		}
	}
	rng.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
	idx = idx[:min(n, len(idx))]
	slices.Sort(idx)
	for _, i := range idx {
		p, score := b.EntryBoard(g, i)
		line, ok := p.Line()
		if !ok {
			return nil, nil, fmt.Errorf("entry %d, key %s: no game reaches the position", i+1, formatKey(b.key(i)))
		}
		lines, scores = append(lines, line), append(scores, score)
	}
	return lines, scores, nil
}
