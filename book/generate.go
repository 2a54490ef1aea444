package book

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"unsafe"

	farm "github.com/dgryski/go-farm"
	"golang.org/x/sync/errgroup"

	"c4solve/board"
	"c4solve/solver"
	"c4solve/ttable"
)

// Options say what Generate computes and how. The zero value asks for the
// book of depth 0, the empty board alone, solved on one goroutine.
type Options struct {
	// Size is the board, of at most 128 bits; the zero Size is 7x6.
	Size board.Size
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
	// goroutine; all share a table of TableMiB (0: 64 MiB), or on 7x6
	// Table if it is not nil.
	Threads  int
	TableMiB int
	Table    *ttable.Table
	// Checkpoint, if not "", is the file where solved positions are
	// recorded as they finish, and from which an interrupted run resumes.
	Checkpoint string
	// MemoryBytes, if not 0, is the most memory the positions of the book
	// may take while they are enumerated: a book whose levels would take
	// more is refused before they are made, with the estimate.
	MemoryBytes uint64
	// Progress, if not nil, is called with the positions that have their
	// score and the positions in all, before the first solve and after
	// each one, from one goroutine at a time.
	Progress func(done, total int)
	// Known, if not nil, is called once, before Progress is first, with
	// the positions whose score is known before any solve: resumed, read
	// from the checkpoint, and copied from Parents, which holds them (a
	// book made from a deeper one). They count in Progress's done.
	Known func(resumed, copied int)
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
// Every board is generated the same way, with solver.Solver (7x6's keys
// of one word in a format of their own: variant.go).
func Generate(ctx context.Context, opt Options) (*Book, error) {
	if isStandard(opt.Size) {
		g, err := board.NewGrid(board.Standard)
		if err != nil {
			return nil, err
		}
		return generateOn(ctx, standard{g, opt.Parents}, opt)
	}
	v, err := newSized(opt)
	if err != nil {
		return nil, err
	}
	return generateOn(ctx, v, opt)
}

// isStandard reports whether z is the 7x6 board, which the zero Size
// means too.
func isStandard(z board.Size) bool { return z.OrStandard() == board.Standard }

func generateOn[K comparable](ctx context.Context, v variant[K], opt Options) (*Book, error) {
	root, stones, won, err := v.parse(opt.Root)
	if err != nil {
		return nil, fmt.Errorf("root %q: %w", opt.Root, err)
	}
	if err := checkRange(v.size(), stones, won, opt); err != nil {
		return nil, err
	}
	levels, err := enumerateWithin(v, root, opt.Depth, opt.MemoryBytes)
	if err != nil {
		return nil, fmt.Errorf("depth %d from %q: %w", opt.Depth, opt.Root, err)
	}
	fams := families(v, levels)
	if opt.Shards > 0 {
		fams = slices.DeleteFunc(fams, func(f family[K]) bool {
			return shardOf(v, f.parent, opt.Shards) != opt.Shard
		})
	}
	var todo []K
	for _, f := range fams {
		todo = append(todo, f.members...)
	}
	slices.SortFunc(todo, v.compare)
	scores := make(map[K]int8, len(todo))
	var ck *checkpoint[K]
	if opt.Checkpoint != "" {
		ck, err = openCheckpoint(v, opt.Checkpoint, opt, todo, scores)
		if err != nil {
			return nil, err
		}
		defer ck.close()
	}
	if err := solveAll(ctx, v, opt, fams, len(todo), scores, ck); err != nil {
		return nil, err
	}
	if ck != nil {
		if err := ck.sync(); err != nil {
			return nil, err
		}
	}
	if opt.Shards > 0 {
		part := &Book{root: opt.Root, depth: opt.Depth, shard: opt.Shard, shards: opt.Shards}
		return fill(v, part, todo, scores), nil
	}
	return complete(v, opt.Root, opt.Depth, levels, scores), nil
}

func checkRange(z board.Size, stones int, won bool, opt Options) error {
	switch {
	case opt.Depth < stones || opt.Depth >= z.Cells():
		return fmt.Errorf("depth %d: must be from the root's %d stones to %d", opt.Depth, stones, z.Cells()-1)
	case won:
		return fmt.Errorf("root %q: %w", opt.Root, solver.ErrGameOver)
	case opt.Shards < 0 || opt.Shards > 255 || opt.Shards > 0 && (opt.Shard < 1 || opt.Shard > opt.Shards):
		return fmt.Errorf("shard %d/%d: want K/N with 1 <= K <= N <= 255", opt.Shard, opt.Shards)
	}
	return nil
}

// shardOf returns the shard, 1 to n, of the family whose parent has the
// canonical key k (see families): by the go-farm hash of its bytes, 8 of
// a board of at most 64 bits, 16 above.
func shardOf[K comparable](v variant[K], k K, n int) int {
	w := v.key128(k)
	b := binary.LittleEndian.AppendUint64(nil, w.Lo)
	if v.size().Bits() > 64 {
		b = binary.LittleEndian.AppendUint64(b, w.Hi)
	}
	return int(farm.Hash64(b)%uint64(n)) + 1
}

// enumerate returns, for each number of stones from root's to depth, the
// canonical keys, increasing, of the positions with that many stones that
// arise from root and whose game is not over.
func enumerate[K comparable](v variant[K], root K, depth int) [][]K {
	levels, _ := enumerateWithin(v, root, depth, 0)
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
//
// A key of two words costs twice a key of one.
func enumerateWithin[K comparable](v variant[K], root K, depth int, mem uint64) ([][]K, error) {
	level := []K{root}
	levels := [][]K{level}
	total := 1
	bytesPerPosition := bytesPerPosition * float64(unsafe.Sizeof(root)) / 8
	for n := v.stones(root); n < depth; n++ {
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
		next := make(map[K]struct{})
		for _, k := range level {
			v.moves(k, func(c K, win bool) {
				if !win {
					next[c] = struct{}{}
				}
			})
		}
		level = slices.SortedFunc(maps.Keys(next), v.compare)
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
type family[K comparable] struct {
	parent  K
	members []K
}

// families divides the deepest of levels (see enumerate) into families,
// the parents in key order, each family's members in key order.
func families[K comparable](v variant[K], levels [][]K) []family[K] {
	deepest := levels[len(levels)-1]
	if len(levels) == 1 {
		return []family[K]{{parent: deepest[0], members: deepest}}
	}
	claimed := make(map[K]bool, len(deepest))
	var fams []family[K]
	for _, k := range levels[len(levels)-2] {
		f := family[K]{parent: k}
		v.moves(k, func(c K, win bool) {
			if !win && !claimed[c] {
				claimed[c] = true
				f.members = append(f.members, c)
			}
		})
		if len(f.members) > 0 {
			slices.SortFunc(f.members, v.compare)
			fams = append(fams, f)
		}
	}
	return fams
}

// solveAll solves the positions of the families fams (total in all)
// missing from scores and adds them. Each worker takes a whole family and
// solves its members one after the other, on a table warm from the ones
// before; a member of a family whose parent the parents' book knows is
// solved knowing its least score.
func solveAll[K comparable](ctx context.Context, v variant[K], opt Options, fams []family[K], total int, scores map[K]int8, ck *checkpoint[K]) error {
	var (
		mu      sync.Mutex // guards scores, ck and calls to Progress
		pending = make(chan family[K])
	)
	progress := func() {
		if opt.Progress != nil {
			opt.Progress(len(scores), total)
		}
	}
	resumed, copied := len(scores), 0
	var left []family[K] // the families less the members in the checkpoint or the parents' book
	for _, f := range fams {
		var ks []K
		for _, k := range f.members {
			if _, ok := scores[k]; ok {
				continue
			}
			// A position the parents' book holds (a shallower book made
			// from a deeper one) is copied, not solved.
			if sc, ok := v.known(k); ok {
				scores[k] = int8(sc)
				copied++
				continue
			}
			ks = append(ks, k)
		}
		if len(ks) > 0 {
			left = append(left, family[K]{parent: f.parent, members: ks})
		}
	}
	if opt.Known != nil {
		opt.Known(resumed, copied)
	}
	progress()
	lend, err := v.lender(opt)
	if err != nil {
		return err
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
	for range max(opt.Threads, 1) {
		g.Go(func() error {
			for f := range pending {
				solve, put, err := lend(gctx)
				if err != nil {
					return err
				}
				err = solveFamily(gctx, solve, f, v.lowerBound(f.parent), func(k K, score int) error {
					mu.Lock()
					defer mu.Unlock()
					scores[k] = int8(score)
					progress()
					return ck.add(k, score)
				})
				put()
				if err != nil {
					return err
				}
			}
			return nil
		})
	}
	return g.Wait()
}

// solveFamily solves the members of f, which score at least lower, one
// after the other with solve, and passes each score to done.
func solveFamily[K comparable](ctx context.Context, solve func(context.Context, K, int) (int, error), f family[K], lower int, done func(k K, score int) error) error {
	for _, k := range f.members {
		score, err := solve(ctx, k, lower)
		if err != nil {
			return err
		}
		if err := done(k, score); err != nil {
			return err
		}
	}
	return nil
}

// fill sets the board of b to v's, and its keys and scores to keys (in
// any order, sorted here) and their scores, and returns b.
func fill[K comparable](v variant[K], b *Book, keys []K, scores map[K]int8) *Book {
	slices.SortFunc(keys, v.compare)
	if z := v.size(); !isStandard(z) {
		b.size = z
	}
	wide := v.size().Bits() > 64
	if wide {
		b.wide = make([]board.Key128, len(keys))
	} else {
		b.keys = make([]uint64, len(keys))
	}
	b.scores = make([]int8, len(keys))
	for i, k := range keys {
		if wide {
			b.wide[i] = v.key128(k)
		} else {
			b.keys[i] = v.key128(k).Lo
		}
		b.scores[i] = scores[k]
	}
	return b
}

// complete returns the whole book of the given levels (see enumerate)
// whose deepest scores are known: each shallower position's score is the
// best over its moves of a win at once or minus the child's score.
func complete[K comparable](v variant[K], root string, depth int, levels [][]K, scores map[K]int8) *Book {
	z := v.size()
	for i := len(levels) - 2; i >= 0; i-- {
		for _, k := range levels[i] {
			n := v.stones(k)
			best := z.LossNextScore(n)
			v.moves(k, func(c K, win bool) {
				if win {
					best = max(best, z.WinNextScore(n))
				} else {
					best = max(best, -int(scores[c]))
				}
			})
			scores[k] = int8(best)
		}
	}
	var keys []K
	for _, level := range levels {
		keys = append(keys, level...)
	}
	return fill(v, &Book{root: root, depth: depth}, keys, scores)
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
	for i, b := range parts {
		switch {
		case b.shards == 0:
			return nil, fmt.Errorf("part %d is a whole book, not a part", i+1)
		case b.shards != first.shards || b.depth != first.depth || b.root != first.root || b.Board() != first.Board():
			return nil, fmt.Errorf("part %d (%v, shard %d/%d, depth %d, root %q) is not of the same run as part 1 (%v, shard %d/%d, depth %d, root %q)",
				i+1, b.Board(), b.shard, b.shards, b.depth, b.root, first.Board(), first.shard, first.shards, first.depth, first.root)
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
	if first.standard() {
		return merge(standard{}, parts)
	}
	v, err := newSized(Options{Size: first.Board()})
	if err != nil {
		return nil, err // not reached: parts are checked when read
	}
	return merge(v, parts)
}

// merge is Merge of parts of one run, all present, on the board of v.
func merge[K comparable](v variant[K], parts []*Book) (*Book, error) {
	first := parts[0]
	root, _, _, err := v.parse(first.root)
	if err != nil {
		return nil, err // not reached: parts are checked when read
	}
	levels := enumerate(v, root, first.depth)
	deepest := levels[len(levels)-1]
	shard := make(map[K]int, len(deepest)) // of each deepest position
	for _, f := range families(v, levels) {
		for _, k := range f.members {
			shard[k] = shardOf(v, f.parent, first.shards)
		}
	}
	scores := make(map[K]int8)
	for i, b := range parts {
		for j := range b.Len() {
			switch sh, ok := shard[v.fromKey128(b.key(j))]; {
			case !ok:
				return nil, fmt.Errorf("part %d (shard %d/%d) holds position %s, not one of %d stones of the run", i+1, b.shard, b.shards, formatKey(b.key(j)), first.depth)
			case sh != b.shard:
				return nil, fmt.Errorf("part %d (shard %d/%d) holds a position of shard %d", i+1, b.shard, b.shards, sh)
			}
			scores[v.fromKey128(b.key(j))] = b.scores[j]
		}
	}
	if len(scores) != len(deepest) {
		return nil, fmt.Errorf("the parts hold %d positions of %d stones; the run has %d", len(scores), first.depth, len(deepest))
	}
	for _, k := range deepest {
		if _, ok := scores[k]; !ok {
			return nil, fmt.Errorf("position with key %s is in no part", formatKey(v.key128(k)))
		}
	}
	return complete(v, first.root, first.depth, levels, scores), nil
}
