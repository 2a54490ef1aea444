package book

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"c4solve/board"
	"c4solve/solver"
)

// GenerateSized is Generate for a board of another size than 7x6, grid:
// every position of at most opt.Depth stones from opt.Root, its deepest
// level solved by solver.Sized with opt.Threads goroutines and a table of opt's
// SizedMiB (defaultTableMiB if 0), the shallower levels backed up from
// it. Shards and checkpoints are Generate's alone: opt.Shards and
// opt.Checkpoint must be unset.
func GenerateSized(ctx context.Context, g *board.Grid, opt Options) (*Book, error) {
	if g.Wide() {
		return nil, fmt.Errorf("a book of the %v board: books hold boards of at most 64 bits, and it needs %d", g.Size, g.Bits())
	}
	if opt.Shards != 0 || opt.Checkpoint != "" {
		return nil, errors.New("a book of another board than 7x6 is made whole, in one run: no shards, no checkpoint")
	}
	root, err := g.Parse(opt.Root, false)
	if err != nil {
		return nil, fmt.Errorf("root %q: %w", opt.Root, err)
	}
	switch {
	case opt.Depth < root.Stones() || opt.Depth >= g.Cells():
		return nil, fmt.Errorf("depth %d: must be from the root's %d stones to %d", opt.Depth, root.Stones(), g.Cells()-1)
	case root.Won():
		return nil, fmt.Errorf("root %q: %w", opt.Root, solver.ErrGameOver)
	}
	levels := sizedLevels(root, opt.Depth)
	deepest := levels[len(levels)-1]
	s := solver.NewSized(g, max(opt.SizedMiB, defaultTableMiB), max(opt.Threads, 1))
	scores := make(map[uint64]int8, len(deepest))
	for i, k := range deepest {
		if opt.Progress != nil {
			opt.Progress(i, len(deepest))
		}
		p, _ := g.FromKey(k) // a key enumerated
		r, err := s.Solve(ctx, p)
		if err != nil {
			return nil, err
		}
		scores[k] = int8(r.Score)
	}
	if opt.Progress != nil {
		opt.Progress(len(deepest), len(deepest))
	}
	// Each shallower score is the best over its moves of a win at once or
	// minus the child's score, as complete does for 7x6.
	for i := len(levels) - 2; i >= 0; i-- {
		for _, k := range levels[i] {
			p, _ := g.FromKey(k)
			best := g.LossNextScore(p.Stones())
			forEachMove(p, func(c board.Board, win bool) {
				if win {
					best = max(best, g.WinNextScore(p.Stones()))
				} else {
					ck, _, _ := c.CanonicalKey()
					best = max(best, -int(scores[ck]))
				}
			})
			scores[k] = int8(best)
		}
	}
	b := &Book{root: opt.Root, depth: opt.Depth, size: g.Size}
	for _, level := range levels {
		b.keys = append(b.keys, level...)
	}
	slices.Sort(b.keys)
	b.scores = scoresOf(b.keys, scores)
	return b, nil
}

// sizedLevels returns, for each number of stones from root's to depth,
// the canonical keys, increasing, of the positions that arise from root
// and whose game is not over: enumerate on another board.
func sizedLevels(root board.Board, depth int) [][]uint64 {
	rk, _, _ := root.CanonicalKey()
	levels := [][]uint64{{rk}}
	for n := root.Stones(); n < depth; n++ {
		next := make(map[uint64]struct{})
		for _, k := range levels[len(levels)-1] {
			p, _ := root.Grid().FromKey(k)
			forEachMove(p, func(c board.Board, win bool) {
				if !win {
					ck, _, _ := c.CanonicalKey()
					next[ck] = struct{}{}
				}
			})
		}
		levels = append(levels, slices.Sorted(maps.Keys(next)))
	}
	return levels
}

// forEachMove calls f with the position after each move of p, and
// whether the move wins at once.
func forEachMove(p board.Board, f func(c board.Board, win bool)) {
	for col := range p.Grid().Width {
		if p.CanPlay(col) {
			c := p
			c.Play(col)
			f(c, p.IsWinningMove(col))
		}
	}
}

// LookupBoard returns the score of p, a position of the book's board,
// and whether the book holds p.
func (b *Book) LookupBoard(p board.Board) (score int, ok bool) {
	if p.Stones() > b.depth || p.Grid().Size != b.Board() {
		return 0, false
	}
	k, _, _ := p.CanonicalKey()
	i, ok := slices.BinarySearch(b.keys, k)
	if !ok {
		return 0, false
	}
	return int(b.scores[i]), true
}
