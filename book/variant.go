package book

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"

	"c4solve/board"
	"c4solve/solver"
	"c4solve/ttable"
)

// A variant is what the generator needs of the engine of one board, on
// the canonical keys K of its positions: the 7x6 board's fast engine on
// keys of one word (standard), or the engine of any other board
// (solver.Solver) on keys of two words (sized). Generate, Merge and the
// checkpoint are written once over it; only the search of each position
// differs, and it is the engine's, untouched.
type variant[K comparable] interface {
	// size returns the board's size.
	size() board.Size
	// parse returns the canonical key of the position of moves, its
	// stones, and whether its game is won.
	parse(moves string) (k K, stones int, won bool, err error)
	// stones returns the stones of the position of k.
	stones(k K) int
	// moves calls f for each move of the position of k: the canonical
	// key of the position after it, or win true (and no key) for a move
	// that wins at once.
	moves(k K, f func(child K, win bool))
	// compare orders keys as numbers.
	compare(a, b K) int
	// key128 returns k as two words; fromKey128 is its inverse.
	key128(k K) board.Key128
	fromKey128(k board.Key128) K
	// lowerBound returns the least score a child of the position of k
	// can have, as the parents' book knows it: minus k's score, or a
	// score below every score where the parents do not know it.
	lowerBound(k K) int
	// known returns the score of the position of k where the parents'
	// book holds it: generate copies it rather than solve it.
	known(k K) (int, bool)
	// lender returns what lends the solvers of the positions of opt.
	lender(opt Options) (lendFunc[K], error)
	// checkpointHeader returns the first line of a checkpoint of the run
	// opt, and the size of its records (see checkpoint).
	checkpointHeader(opt Options) (header string, recordSize int)
	// appendRecord appends a checkpoint record's key and score (without
	// its checksum) to rec; record is its inverse.
	appendRecord(rec []byte, k K, score int) []byte
	record(rec []byte) (k K, score int)
}

// A lendFunc lends a solver to one worker for one family (see solveAll),
// waiting for one to be free, or returns ctx's error: solve solves the
// position of k, which scores at least lower, and put gives the solver
// back.
type lendFunc[K any] func(ctx context.Context) (solve func(ctx context.Context, k K, lower int) (int, error), put func(), err error)

// checksumSize is the size of a checkpoint record's checksum.
const checksumSize = 4

// standard is the variant of the 7x6 board, on board.Position's keys.
type standard struct {
	g       *board.Grid // 7x6's
	parents solver.Book // nil for none
}

func (standard) size() board.Size { return board.Standard }

func (standard) parse(moves string) (uint64, int, bool, error) {
	p, err := board.Parse(moves)
	return canonical(p), p.Stones(), p.Won(), err
}

func (standard) stones(k uint64) int {
	p, _ := board.FromKey(k) // a key enumerated
	return p.Stones()
}

func (standard) moves(k uint64, f func(child uint64, win bool)) {
	p, _ := board.FromKey(k) // a key enumerated
	for col := range board.Width {
		switch {
		case !p.CanPlay(col):
		case p.IsWinningMove(col):
			f(0, true)
		default:
			c := p
			c.Play(col)
			f(canonical(c), false)
		}
	}
}

func (standard) compare(a, b uint64) int          { return cmp.Compare(a, b) }
func (standard) key128(k uint64) board.Key128     { return board.Key128{Lo: k} }
func (standard) fromKey128(k board.Key128) uint64 { return k.Lo }
func (standard) appendRecord(rec []byte, k uint64, score int) []byte {
	return binary.LittleEndian.AppendUint64(rec, k|uint64(uint8(int8(score)))<<56)
}

func (standard) record(rec []byte) (uint64, int) {
	v := binary.LittleEndian.Uint64(rec)
	return v & (1<<56 - 1), int(int8(v >> 56))
}

// The checkpoint of 7x6 has the first line and the records of format 3,
// which older versions wrote: 8 bytes, the key (of 49 bits) with the
// score in the top byte.
func (standard) checkpointHeader(opt Options) (string, int) {
	return fmt.Sprintf("c4solve book checkpoint 3 depth=%d root=%q shard=%d/%d\n", opt.Depth, opt.Root, opt.Shard, opt.Shards), 8 + checksumSize
}

func (v standard) lowerBound(k uint64) int {
	if sc, ok := v.known(k); ok {
		return -sc
	}
	return board.MinScore
}

func (v standard) known(k uint64) (int, bool) {
	if v.parents == nil {
		return 0, false
	}
	p, err := board.FromKey(k)
	if err != nil || p.Stones() > v.parents.Depth() {
		return 0, false
	}
	return v.parents.Lookup(v.g.BoardOf(p))
}

// defaultTableMiB is the size of the table of a generation given none:
// small, for a library caller who did not size one.
const defaultTableMiB = 64

func (standard) lender(opt Options) (lendFunc[uint64], error) {
	tt := opt.Table
	if tt == nil {
		var err error
		if tt, err = ttable.Alloc(cmp.Or(opt.TableMiB, defaultTableMiB)); err != nil {
			return nil, err
		}
	}
	g, err := board.NewGrid(board.Standard)
	if err != nil {
		return nil, err
	}
	pool := solver.NewPool(g, tt, opt.Threads, 1, nil)
	return func(ctx context.Context) (func(context.Context, uint64, int) (int, error), func(), error) {
		s, err := pool.Get(ctx)
		if err != nil {
			return nil, nil, err
		}
		solve := func(ctx context.Context, k uint64, lower int) (int, error) {
			p, _ := board.FromKey(k) // a key enumerated
			r, err := s.SolveAtLeast(ctx, g.BoardOf(p), lower)
			return r.Score, err
		}
		return solve, func() { pool.Put(s) }, nil
	}, nil
}

// sized is the variant of a board of another size than 7x6, of at most
// 128 bits, on keys of two words (the high one 0 up to 64 bits).
type sized struct {
	g       *board.Grid
	parents solver.Book // nil for none
}

// newSized returns the variant of the board of opt.Size.
func newSized(opt Options) (sized, error) {
	g, err := board.NewGrid(opt.Size)
	if err != nil {
		return sized{}, err
	}
	return sized{g: g, parents: opt.Parents}, nil
}

func (v sized) size() board.Size { return v.g.Size }

func (v sized) parse(moves string) (board.Key128, int, bool, error) {
	p, err := v.g.Parse(moves, false)
	if err != nil {
		return board.Key128{}, 0, false, err
	}
	k, _, _ := p.CanonicalKey()
	return k, p.Stones(), p.Won(), nil
}

func (v sized) board(k board.Key128) board.Board {
	p, _ := v.g.FromKey(k) // a key enumerated
	return p
}

func (v sized) stones(k board.Key128) int { return v.board(k).Stones() }

func (v sized) moves(k board.Key128, f func(child board.Key128, win bool)) {
	p := v.board(k)
	for col := range v.g.Width {
		switch {
		case !p.CanPlay(col):
		case p.IsWinningMove(col):
			f(board.Key128{}, true)
		default:
			c := p
			c.Play(col)
			k, _, _ := c.CanonicalKey()
			f(k, false)
		}
	}
}

func (sized) compare(a, b board.Key128) int {
	return cmp.Or(cmp.Compare(a.Hi, b.Hi), cmp.Compare(a.Lo, b.Lo))
}
func (sized) key128(k board.Key128) board.Key128     { return k }
func (sized) fromKey128(k board.Key128) board.Key128 { return k }

// The checkpoint of another board has records of 16 bytes of key (low
// word first) and one of score.
func (v sized) checkpointHeader(opt Options) (string, int) {
	return fmt.Sprintf("c4solve book checkpoint 4 board=%v depth=%d root=%q shard=%d/%d\n", v.g.Size, opt.Depth, opt.Root, opt.Shard, opt.Shards), 17 + checksumSize
}

func (sized) appendRecord(rec []byte, k board.Key128, score int) []byte {
	rec = binary.LittleEndian.AppendUint64(rec, k.Lo)
	rec = binary.LittleEndian.AppendUint64(rec, k.Hi)
	return append(rec, byte(int8(score)))
}

func (sized) record(rec []byte) (board.Key128, int) {
	return board.Key128{Lo: binary.LittleEndian.Uint64(rec), Hi: binary.LittleEndian.Uint64(rec[8:])}, int(int8(rec[16]))
}

func (v sized) lowerBound(k board.Key128) int {
	if sc, ok := v.known(k); ok {
		return -sc
	}
	return -v.g.MaxScore()
}

func (v sized) known(k board.Key128) (int, bool) {
	if v.parents == nil {
		return 0, false
	}
	p := v.board(k)
	if p.Stones() > v.parents.Depth() {
		return 0, false
	}
	return v.parents.Lookup(p)
}

func (v sized) lender(opt Options) (lendFunc[board.Key128], error) {
	if opt.Table != nil {
		return nil, errors.New("Options.Table is a table of 7x6 positions: a book of another board takes TableMiB")
	}
	tt, err := solver.AllocTable(v.g, cmp.Or(opt.TableMiB, defaultTableMiB))
	if err != nil {
		return nil, err
	}
	free := make(chan *solver.Solver, max(opt.Threads, 1))
	for range cap(free) {
		free <- solver.NewOn(v.g, tt, 1)
	}
	return func(ctx context.Context) (func(context.Context, board.Key128, int) (int, error), func(), error) {
		var s *solver.Solver
		select {
		case s = <-free:
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		}
		solve := func(ctx context.Context, k board.Key128, lower int) (int, error) {
			r, err := s.SolveAtLeast(ctx, v.board(k), lower)
			return r.Score, err
		}
		return solve, func() { free <- s }, nil
	}, nil
}
