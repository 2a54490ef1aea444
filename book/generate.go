package book

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"

	farm "github.com/dgryski/go-farm"
	"golang.org/x/sync/errgroup"

	"c4solve/board"
	"c4solve/solver"
	"c4solve/ttable"
)

// Options say what Generate computes and how. The zero value asks for the
// book of depth 0, the empty board alone, solved on one goroutine.
type Options struct {
	// Depth is the most stones of a position in the book.
	Depth int
	// Root is the moves of the position the book extends: "" for the empty
	// board, every position.
	Root string
	// Shard and Shards, when Shards > 0, restrict the run to part Shard
	// (1 to Shards) of the positions of exactly Depth stones. Merge joins
	// the parts into the book a whole run makes.
	Shard, Shards int
	// Threads is the number of positions solved at once, each by one
	// goroutine; all share Table, or, if it is nil, a new table of
	// defaultTableMiB.
	Threads int
	Table   *ttable.Table
	// SizedMiB is the table size of GenerateSized's solver (0: 64 MiB).
	SizedMiB int
	// Checkpoint, if not "", is the file where solved positions are
	// recorded as they finish, and from which an interrupted run resumes.
	Checkpoint string
	// MemoryBytes, if not 0, is the most memory the positions of the book
	// may take while they are enumerated: a book whose levels would take
	// more is refused before they are made, with the estimate.
	MemoryBytes uint64
	// Progress, if not nil, is called with the positions solved and the
	// positions to solve before the first solve and after each one, from
	// one goroutine at a time.
	Progress func(done, total int)
	// Parents, if not nil, is a book that knows the scores of positions
	// of Depth-1 stones, such as the built-in book for a book one stone
	// deeper. A position whose family's parent it knows is then solved
	// knowing that it scores at least minus the parent's score
	// (solver.SolveAtLeast): the parent's best moves cost one probe.
	Parents solver.Book
}

// Generate solves every position of exactly Depth stones that arises from
// Root (or Options' shard of them) and returns the book: a whole book, its
// shallower positions' scores backed up from the deepest ones, or a part.
//
// Only the deepest positions are searched; each shallower score is the best
// of its children's, already in the book. When ctx is done, Generate
// returns ctx's error, and the checkpoint holds every position finished.
func Generate(ctx context.Context, opt Options) (*Book, error) {
	root, err := board.Parse(opt.Root)
	if err != nil {
		return nil, fmt.Errorf("root %q: %w", opt.Root, err)
	}
	if err := checkRange(root, opt); err != nil {
		return nil, err
	}
	levels, err := enumerateWithin(root, opt.Depth, opt.MemoryBytes)
	if err != nil {
		return nil, fmt.Errorf("depth %d from %q: %w", opt.Depth, opt.Root, err)
	}
	fams := families(levels)
	if opt.Shards > 0 {
		fams = slices.DeleteFunc(fams, func(f family) bool {
			return shardOf(f.parent, opt.Shards) != opt.Shard
		})
	}
	var todo []uint64
	for _, f := range fams {
		todo = append(todo, f.members...)
	}
	slices.Sort(todo)
	scores := make(map[uint64]int8, len(todo))
	var ck *checkpoint
	if opt.Checkpoint != "" {
		ck, err = openCheckpoint(opt.Checkpoint, opt, todo, scores)
		if err != nil {
			return nil, err
		}
		defer ck.close()
	}
	if err := solveAll(ctx, opt, fams, len(todo), scores, ck); err != nil {
		return nil, err
	}
	if ck != nil {
		if err := ck.sync(); err != nil {
			return nil, err
		}
	}
	if opt.Shards > 0 {
		return &Book{
			root: opt.Root, depth: opt.Depth, shard: opt.Shard, shards: opt.Shards,
			keys: todo, scores: scoresOf(todo, scores),
		}, nil
	}
	return complete(opt.Root, opt.Depth, levels, scores), nil
}

func checkRange(root board.Position, opt Options) error {
	switch {
	case opt.Depth < root.Stones() || opt.Depth >= board.Cells:
		return fmt.Errorf("depth %d: must be from the root's %d stones to %d", opt.Depth, root.Stones(), board.Cells-1)
	case root.Won():
		return fmt.Errorf("root %q: %w", opt.Root, solver.ErrGameOver)
	case opt.Shards < 0 || opt.Shards > 255 || opt.Shards > 0 && (opt.Shard < 1 || opt.Shard > opt.Shards):
		return fmt.Errorf("shard %d/%d: want K/N with 1 <= K <= N <= 255", opt.Shard, opt.Shards)
	}
	return nil
}

// shardOf returns the shard, 1 to n, of the family whose parent has the
// canonical key k (see families).
func shardOf(k uint64, n int) int {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], k)
	return int(farm.Hash64(b[:])%uint64(n)) + 1
}

// enumerate returns, for each number of stones from root's to depth, the
// canonical keys, increasing, of the positions with that many stones that
// arise from root and whose game is not over.
func enumerate(root board.Position, depth int) [][]uint64 {
	levels, _ := enumerateWithin(root, depth, 0)
	return levels
}

// projectFrom is the size of the level from which enumerateWithin projects
// the levels still to make.
const projectFrom = 10000

// bytesPerPosition is what a position costs while the levels are made: its
// key in the next level's set, and in the level's sorted slice, with the
// set's overhead.
const bytesPerPosition = 48

// enumerateWithin is enumerate, but refuses a book whose positions would
// take more than mem bytes (0: no bound) while they are enumerated, by an
// estimate made before each level from the growth of the last: at once
// when all the levels still to make, growing so, would take four times
// mem (the growth slows as the board fills, so the estimate is high; it
// waits for a level of projectFrom positions, where transpositions have
// slowed the first plies' sevenfold growth), and before any level that
// would itself take the positions past mem.
func enumerateWithin(root board.Position, depth int, mem uint64) ([][]uint64, error) {
	level := []uint64{canonical(root)}
	levels := [][]uint64{level}
	total := 1
	for n := root.Stones(); n < depth; n++ {
		if k := len(levels); mem > 0 && k >= 3 {
			growth := max(float64(len(level))/float64(max(len(levels[k-2]), 1)), 1)
			next, rest := float64(len(level))*growth, 0.0
			for i, size := n, float64(len(level)); i < depth && rest < 1e18; i++ {
				size *= growth
				rest += size
			}
			refuse := func(what string, positions, need float64) error {
				return fmt.Errorf("%s about %.2g positions (%d of %d stones, growing %.1f times a stone), which take about %.0f MiB while they are enumerated, more than the %d MiB this process may use: ask for a smaller depth",
					what, positions, len(level), n, growth, need/(1<<20), mem>>20)
			}
			if need := (float64(total) + rest) * bytesPerPosition; len(level) >= projectFrom && need > 4*float64(mem) {
				return nil, refuse(fmt.Sprintf("the levels of %d to %d stones would hold", n+1, depth), rest, need)
			}
			if need := (float64(total) + 2*next) * bytesPerPosition; need > float64(mem) {
				return nil, refuse(fmt.Sprintf("the level of %d stones would hold", n+1), next, need)
			}
		}
		next := make(map[uint64]struct{})
		for _, k := range level {
			p, _ := board.FromKey(k)
			for col := range board.Width {
				if !p.CanPlay(col) || p.IsWinningMove(col) {
					continue
				}
				c := p
				c.Play(col)
				next[canonical(c)] = struct{}{}
			}
		}
		level = slices.Sorted(maps.Keys(next))
		levels = append(levels, level)
		total += len(level)
	}
	return levels, nil
}

// A family is the positions of the deepest level that one position of the
// level above, parent, is the first parent of (in key order): siblings,
// which share most of their subtrees, so that one worker solving them one
// after the other finds much of each in the table from the ones before.
// The root's family, when the root is the deepest level, is the root alone.
type family struct {
	parent  uint64
	members []uint64
}

// lowerBound returns the least score a member of f can have: minus its
// parent's score where parents knows it, else board.MinScore.
func (f family) lowerBound(parents solver.Book) int {
	if parents == nil {
		return board.MinScore
	}
	p, err := board.FromKey(f.parent)
	if err != nil || p.Stones() > parents.Depth() {
		return board.MinScore
	}
	if sc, ok := parents.Lookup(p); ok {
		return -sc
	}
	return board.MinScore
}

// families divides the deepest of levels (see enumerate) into families,
// the parents in key order, each family's members in key order.
func families(levels [][]uint64) []family {
	deepest := levels[len(levels)-1]
	if len(levels) == 1 {
		return []family{{parent: deepest[0], members: deepest}}
	}
	claimed := make(map[uint64]bool, len(deepest))
	var fams []family
	for _, k := range levels[len(levels)-2] {
		p, _ := board.FromKey(k)
		f := family{parent: k}
		for col := range board.Width {
			if !p.CanPlay(col) || p.IsWinningMove(col) {
				continue
			}
			c := p
			c.Play(col)
			if ck := canonical(c); !claimed[ck] {
				claimed[ck] = true
				f.members = append(f.members, ck)
			}
		}
		if len(f.members) > 0 {
			slices.Sort(f.members)
			fams = append(fams, f)
		}
	}
	return fams
}

// defaultTableMiB is the size of the table of a generation given none:
// small, for a library caller who did not size one.
const defaultTableMiB = 64

// solveAll solves the positions of the families fams (total in all)
// missing from scores and adds them. Each worker takes a whole family and
// solves its members one after the other, on a table warm from the ones
// before.
func solveAll(ctx context.Context, opt Options, fams []family, total int, scores map[uint64]int8, ck *checkpoint) error {
	var (
		mu      sync.Mutex // guards scores, ck and calls to Progress
		pending = make(chan family)
	)
	progress := func() {
		if opt.Progress != nil {
			opt.Progress(len(scores), total)
		}
	}
	progress()
	var left []family // the families less the members in the checkpoint
	for _, f := range fams {
		var ks []uint64
		for _, k := range f.members {
			if _, ok := scores[k]; !ok {
				ks = append(ks, k)
			}
		}
		if len(ks) > 0 {
			left = append(left, family{parent: f.parent, members: ks})
		}
	}
	tt := opt.Table
	if tt == nil {
		var err error
		if tt, err = ttable.Alloc(defaultTableMiB); err != nil {
			return err
		}
	}
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		defer close(pending)
		for _, f := range left {
			select {
			case pending <- f:
			case <-gctx.Done():
				return gctx.Err()
			}
		}
		return nil
	})
	pool := solver.NewPool(tt, opt.Threads, 1, nil)
	for range max(opt.Threads, 1) {
		g.Go(func() error {
			for f := range pending {
				s, err := pool.Get(gctx)
				if err != nil {
					return err
				}
				err = solveFamily(gctx, s, f.members, f.lowerBound(opt.Parents), func(k uint64, score int) error {
					mu.Lock()
					defer mu.Unlock()
					scores[k] = int8(score)
					progress()
					return ck.add(k, score)
				})
				pool.Put(s)
				if err != nil {
					return err
				}
			}
			return nil
		})
	}
	return g.Wait()
}

// solveFamily solves the positions ks, which score at least lower, one
// after the other with s, and passes each score to done.
func solveFamily(ctx context.Context, s *solver.Solver, ks []uint64, lower int, done func(k uint64, score int) error) error {
	for _, k := range ks {
		p, _ := board.FromKey(k)
		r, err := s.SolveAtLeast(ctx, p, lower)
		if err != nil {
			return err
		}
		if err := done(k, r.Score); err != nil {
			return err
		}
	}
	return nil
}

func scoresOf(keys []uint64, scores map[uint64]int8) []int8 {
	s := make([]int8, len(keys))
	for i, k := range keys {
		s[i] = scores[k]
	}
	return s
}

// complete returns the whole book of the given levels (see enumerate)
// whose deepest scores are known: each shallower position's score is the
// best over its moves of a win at once or minus the child's score.
func complete(root string, depth int, levels [][]uint64, scores map[uint64]int8) *Book {
	b := &Book{root: root, depth: depth}
	for i := len(levels) - 2; i >= 0; i-- {
		for _, k := range levels[i] {
			p, _ := board.FromKey(k)
			best := board.LossNextScore(p.Stones())
			for col := range board.Width {
				if !p.CanPlay(col) {
					continue
				}
				if p.IsWinningMove(col) {
					best = board.WinNextScore(p.Stones())
					break
				}
				c := p
				c.Play(col)
				best = max(best, -int(scores[canonical(c)]))
			}
			scores[k] = int8(best)
		}
	}
	for _, level := range levels {
		b.keys = append(b.keys, level...)
	}
	slices.Sort(b.keys)
	b.scores = scoresOf(b.keys, scores)
	return b
}

// Merge joins the parts of a sharded run (see Options.Shard) into the whole
// book. The parts must be all the shards of one run, each once.
func Merge(parts ...*Book) (*Book, error) {
	if len(parts) == 0 {
		return nil, errors.New("no parts to merge")
	}
	first := parts[0]
	if first.shards == 0 {
		return nil, errors.New("part 1 is a whole book, not a part")
	}
	seen := make([]bool, first.shards+1)
	scores := make(map[uint64]int8)
	for i, b := range parts {
		switch {
		case b.shards == 0:
			return nil, fmt.Errorf("part %d is a whole book, not a part", i+1)
		case b.shards != first.shards || b.depth != first.depth || b.root != first.root:
			return nil, fmt.Errorf("part %d (shard %d/%d, depth %d, root %q) is not of the same run as part 1 (shard %d/%d, depth %d, root %q)",
				i+1, b.shard, b.shards, b.depth, b.root, first.shard, first.shards, first.depth, first.root)
		case seen[b.shard]:
			return nil, fmt.Errorf("shard %d/%d is given twice", b.shard, b.shards)
		}
		seen[b.shard] = true
	}
	for k := 1; k <= first.shards; k++ {
		if !seen[k] {
			return nil, fmt.Errorf("shard %d/%d is missing", k, first.shards)
		}
	}
	root, err := board.Parse(first.root)
	if err != nil {
		return nil, err // not reached: parts are checked when read
	}
	levels := enumerate(root, first.depth)
	deepest := levels[len(levels)-1]
	shard := make(map[uint64]int, len(deepest)) // of each deepest position
	for _, f := range families(levels) {
		for _, k := range f.members {
			shard[k] = shardOf(f.parent, first.shards)
		}
	}
	for i, b := range parts {
		for j, k := range b.keys {
			switch sh, ok := shard[k]; {
			case !ok:
				return nil, fmt.Errorf("part %d (shard %d/%d) holds position %#x, not one of %d stones of the run", i+1, b.shard, b.shards, k, first.depth)
			case sh != b.shard:
				return nil, fmt.Errorf("part %d (shard %d/%d) holds a position of shard %d", i+1, b.shard, b.shards, sh)
			}
			scores[k] = b.scores[j]
		}
	}
	if len(scores) != len(deepest) {
		return nil, fmt.Errorf("the parts hold %d positions of %d stones; the run has %d", len(scores), first.depth, len(deepest))
	}
	for _, k := range deepest {
		if _, ok := scores[k]; !ok {
			return nil, fmt.Errorf("position with key %#x is in no part", k)
		}
	}
	return complete(first.root, first.depth, levels, scores), nil
}
