package book

import (
	"cmp"
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
	"c4solve/internal/settings"
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
	// goroutine; all share a table of TableMiB (0: 64 MiB).
	Threads  int
	TableMiB int
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
	// (solver.Solver.SolveAtLeast): the parent's best moves cost one probe.
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
	g, err := board.NewGrid(opt.Size.OrStandard())
	if err != nil {
		return nil, err
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
	case opt.Shards < 0 || opt.Shards > 255 || opt.Shards > 0 && (opt.Shard < 1 || opt.Shard > opt.Shards):
		return nil, fmt.Errorf("shard %d/%d: want K/N with 1 <= K <= N <= 255", opt.Shard, opt.Shards)
	}
	levels, err := enumerate(g, canonicalKey(root), opt.Depth, opt.MemoryBytes)
	if err != nil {
		return nil, fmt.Errorf("depth %d from %q: %w", opt.Depth, opt.Root, err)
	}
	fams := families(g, levels)
	if opt.Shards > 0 {
		fams = slices.DeleteFunc(fams, func(f family) bool {
			return shardOf(g, f.parent, opt.Shards) != opt.Shard
		})
	}
	var todo []board.Key
	for _, f := range fams {
		todo = append(todo, f.members...)
	}
	slices.SortFunc(todo, board.Key.Compare)
	scores := make(map[board.Key]int8, len(todo))
	var ck *checkpoint
	if opt.Checkpoint != "" {
		ck, err = openCheckpoint(g, opt.Checkpoint, opt, todo, scores)
		if err != nil {
			return nil, err
		}
		defer ck.close()
	}
	if err := solveAll(ctx, g, opt, fams, len(todo), scores, ck); err != nil {
		return nil, err
	}
	if ck != nil {
		if err := ck.sync(); err != nil {
			return nil, err
		}
	}
	if opt.Shards > 0 {
		part := &Book{root: opt.Root, depth: opt.Depth, shard: opt.Shard, shards: opt.Shards}
		return fill(g, part, todo, scores), nil
	}
	return complete(g, opt.Root, opt.Depth, levels, scores), nil
}

// positionOf returns the position of g whose canonical key is k, a key
// the generator made.
func positionOf(g *board.Grid, k board.Key) board.Board {
	p, _ := g.FromKey(k) // a key enumerated
	return p
}

// moves calls f for each move of the position of g whose canonical key is
// k: the canonical key of the position after it, or win true (and no
// key) for a move that wins at once.
func moves(g *board.Grid, k board.Key, f func(child board.Key, win bool)) {
	p := positionOf(g, k)
	for col := range g.Width {
		switch {
		case !p.CanPlay(col):
		case p.IsWinningMove(col):
			f(board.Key{}, true)
		default:
			c := p
			c.Play(col)
			f(canonicalKey(c), false)
		}
	}
}

// shardOf returns the shard, 1 to n, of the family whose parent has the
// canonical key k (see families): by the go-farm hash of its bytes, as
// many words as the keys of g's books take (versionOf), low first.
func shardOf(g *board.Grid, k board.Key, n int) int {
	b := binary.LittleEndian.AppendUint64(nil, k.Lo)
	if versionOf(g.Size) == versionWide {
		b = binary.LittleEndian.AppendUint64(b, k.Hi)
	}
	return int(farm.Hash64(b)%uint64(n)) + 1
}

// projectFrom is the size of the level from which enumerate projects
// the levels still to make.
const projectFrom = 10000

// bytesPerPosition is what a position costs while the levels are made: its
// key of two words in the next level's set, and in the level's sorted
// slice, with the set's overhead.
const bytesPerPosition = 96

// enumerate returns, for each number of stones from root's to depth, the
// canonical keys, increasing, of the positions of g with that many stones
// that arise from root and whose game is not over. It refuses a book whose
// positions would take more than mem bytes (0: no bound, and no error)
// while they are enumerated, by an estimate made before each level from the
// growth of the last: at once when all the levels still to make, growing
// so, would take four times mem (the growth slows as the board fills, so
// the estimate is high; it waits for a level of projectFrom positions,
// where transpositions have slowed the first plies' sevenfold growth), and
// before any level that would itself take the positions past mem.
func enumerate(g *board.Grid, root board.Key, depth int, mem uint64) ([][]board.Key, error) {
	level := []board.Key{root}
	levels := [][]board.Key{level}
	total := 1
	for n := positionOf(g, root).Stones(); n < depth; n++ {
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
		next := make(map[board.Key]struct{})
		for _, k := range level {
			moves(g, k, func(c board.Key, win bool) {
				if !win {
					next[c] = struct{}{}
				}
			})
		}
		level = slices.SortedFunc(maps.Keys(next), board.Key.Compare)
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
	parent  board.Key
	members []board.Key
}

// families divides the deepest of levels (see enumerate) into families,
// the parents in key order, each family's members in key order.
func families(g *board.Grid, levels [][]board.Key) []family {
	deepest := levels[len(levels)-1]
	if len(levels) == 1 {
		return []family{{parent: deepest[0], members: deepest}}
	}
	claimed := make(map[board.Key]bool, len(deepest))
	var fams []family
	for _, k := range levels[len(levels)-2] {
		f := family{parent: k}
		moves(g, k, func(c board.Key, win bool) {
			if !win && !claimed[c] {
				claimed[c] = true
				f.members = append(f.members, c)
			}
		})
		if len(f.members) > 0 {
			slices.SortFunc(f.members, board.Key.Compare)
			fams = append(fams, f)
		}
	}
	return fams
}

// solveAll solves the positions of g of the families fams (total in all)
// missing from scores and adds them, a whole family a worker (see family);
// a member of a family whose parent the parents' book knows is solved
// knowing its least score.
func solveAll(ctx context.Context, g *board.Grid, opt Options, fams []family, total int, scores map[board.Key]int8, ck *checkpoint) error {
	var mu sync.Mutex // guards scores, ck and calls to Progress
	progress := func() {
		if opt.Progress != nil {
			opt.Progress(len(scores), total)
		}
	}
	resumed, copied := len(scores), 0
	var left []family // the families less the members in the checkpoint or the parents' book
	for _, f := range fams {
		var ks []board.Key
		for _, k := range f.members {
			if _, ok := scores[k]; ok {
				continue
			}
			// A position the parents' book holds (a shallower book made
			// from a deeper one) is copied, not solved.
			if sc, ok := known(opt.Parents, positionOf(g, k)); ok {
				scores[k] = int8(sc)
				copied++
				continue
			}
			ks = append(ks, k)
		}
		if len(ks) > 0 {
			left = append(left, family{parent: f.parent, members: ks})
		}
	}
	if opt.Known != nil {
		opt.Known(resumed, copied)
	}
	progress()
	tt, err := ttable.New(solver.TableConfig(g, cmp.Or(opt.TableMiB, settings.BookTableMiB)))
	if err != nil {
		return err
	}
	defer tt.Free()
	pool := solver.NewPool(g, tt, opt.Threads, 1, nil)
	eg, ctx := errgroup.WithContext(ctx)
	eg.SetLimit(max(opt.Threads, 1)) // the pool's solvers: Get never waits
	for _, f := range left {
		if err := ctx.Err(); err != nil {
			return cmp.Or(eg.Wait(), err) // a family's error, or ctx's
		}
		eg.Go(func() error {
			s, err := pool.Get(ctx)
			if err != nil {
				return err
			}
			defer pool.Put(s)
			lower := -g.MaxScore() // below every score, where the parents' book does not know the parent's
			if sc, ok := known(opt.Parents, positionOf(g, f.parent)); ok {
				lower = -sc
			}
			for _, k := range f.members {
				r, err := s.SolveAtLeast(ctx, positionOf(g, k), lower)
				if err != nil {
					return err
				}
				mu.Lock()
				scores[k] = int8(r.Score)
				progress()
				err = ck.add(k, r.Score)
				mu.Unlock()
				if err != nil {
					return err
				}
			}
			return nil
		})
	}
	return eg.Wait()
}

// known returns the score of p where parents, the parents' book (nil for
// none), holds it: generate copies it rather than solve it.
func known(parents solver.Book, p board.Board) (int, bool) {
	if parents == nil || p.Stones() > parents.Depth() {
		return 0, false
	}
	return parents.Lookup(p)
}

// fill sets the board of b to g's, and its keys and scores to keys (in
// any order, sorted here) and their scores, and returns b.
func fill(g *board.Grid, b *Book, keys []board.Key, scores map[board.Key]int8) *Book {
	slices.SortFunc(keys, board.Key.Compare)
	b.size, b.keys = g.Size, keys
	b.scores = make([]int8, len(keys))
	for i, k := range keys {
		b.scores[i] = scores[k]
	}
	return b
}

// complete returns the whole book of the given levels of g (see
// enumerate) whose deepest scores are known: each shallower position's
// score is the best over its moves of a win at once or minus the child's
// score.
func complete(g *board.Grid, root string, depth int, levels [][]board.Key, scores map[board.Key]int8) *Book {
	for i := len(levels) - 2; i >= 0; i-- {
		for _, k := range levels[i] {
			n := positionOf(g, k).Stones()
			best := g.LossNextScore(n)
			moves(g, k, func(c board.Key, win bool) {
				if win {
					best = max(best, g.WinNextScore(n))
				} else {
					best = max(best, -int(scores[c]))
				}
			})
			scores[k] = int8(best)
		}
	}
	return fill(g, &Book{root: root, depth: depth}, slices.Concat(levels...), scores)
}

// Merge joins the parts of a sharded run (see Options.Shard) into the whole
// book. The parts must be all the shards of one run, each once.
func Merge(parts ...*Book) (*Book, error) {
	if len(parts) == 0 {
		return nil, errors.New("no parts to merge")
	}
	first := parts[0]
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
	if k := slices.Index(seen[1:], false); k >= 0 {
		return nil, fmt.Errorf("shard %d/%d is missing", k+1, first.shards)
	}
	g, _ := board.NewGrid(first.Board())  // checked when the part was read
	root, _ := g.Parse(first.root, false) // checked when the part was read
	levels, _ := enumerate(g, canonicalKey(root), first.depth, 0)
	deepest := levels[len(levels)-1]
	shard := make(map[board.Key]int, len(deepest)) // of each deepest position
	for _, f := range families(g, levels) {
		for _, k := range f.members {
			shard[k] = shardOf(g, f.parent, first.shards)
		}
	}
	scores := make(map[board.Key]int8)
	for i, b := range parts {
		for j, k := range b.keys {
			switch sh, ok := shard[k]; {
			case !ok:
				return nil, fmt.Errorf("part %d (shard %d/%d) holds position %s, not one of %d stones of the run", i+1, b.shard, b.shards, formatKey(k), first.depth)
			case sh != b.shard:
				return nil, fmt.Errorf("part %d (shard %d/%d) holds a position of shard %d", i+1, b.shard, b.shards, sh)
			}
			scores[k] = b.scores[j]
		}
	}
	// Every key of scores is one of deepest (shard): as many are all of them.
	if len(scores) != len(deepest) {
		return nil, fmt.Errorf("the parts hold %d positions of %d stones; the run has %d", len(scores), first.depth, len(deepest))
	}
	return complete(g, first.root, first.depth, levels, scores), nil
}
