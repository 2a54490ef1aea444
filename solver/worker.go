package solver

import (
	"context"
	"sync/atomic"

	"c4solve/board"
	"c4solve/ttable"
)

// worker is one search thread: its counters, its own table for positions
// near the leaves, and its view of the stop signal. The workers of one
// Solver share the transposition table, the root's score range (rb), the
// busy table, the book, and the context that stops them.
type worker struct {
	tt         *ttable.Table // shared by all workers
	leaf       *ttable.Table // this worker's own, for positions of leafFrom stones or more
	leafFrom   int           // see leafStones and sharedPlies
	leafStale  int           // parts of leaf (ttable.ClearParts) still to clear before it is used
	book       Book          // nil for none
	bookDepth  int           // the book's depth, -1 for none
	id         int           // 0 for the first worker, 1 and up for the helpers
	helper     bool          // the worker helps another with its root: it asks other probes (helperProbe)
	rootStones int           // stones on the board at the root of the solve
	nodes      uint64        // nodes of the current solve
	expanded   uint64        // of them, those that searched a child (not played through or settled without one)
	published  atomic.Uint64 // nodes, as last published for progress readers
	limit      uint64        // once nodes reaches it, call join; 0 for none
	join       func()        // starts the other workers (Solver.startHelpers)

	done    <-chan struct{} // the current search's context's Done channel
	stopped bool            // set once done is closed or the probe is moot; unwinds the search

	path  [board.Cells]node     // the node of each number of stones on the search path
	lists [board.Cells]moveList // its moves

	rb    *rootBounds // the range the workers narrow together
	busy  *busyTable  // the subtrees workers are searching; nil for one worker
	probe int         // the value of the probe under way

	// Workers are allocated side by side, and nodes changes at every
	// node: the padding keeps two workers' counters out of one cache line
	// and its adjacent-line prefetch pair (docs/performance.md).
	_ [128]byte
}

// begin sets the worker up for a search, every part of its state that a
// search sets: its counters zeroed; the busy table of the subtrees other
// workers search (nil when it searches alone); whether it is a helper,
// asking the probes beside the first worker's (helperProbe); and the
// node count at which it calls join (0: never).
func (w *worker) begin(busy *busyTable, helper bool, limit uint64) {
	w.nodes, w.expanded, w.limit = 0, 0, limit
	w.published.Store(0)
	w.busy, w.helper = busy, helper
}

// clearLeaf clears what is left to clear of the worker's own table (see
// Solver.Clear), a part at a time, and reports whether it got to the end:
// it stops early when ctx is done or the solve's range rb, if not nil, has
// closed, so that a solve that ends while a helper clears does not wait
// for the whole of it.
func (w *worker) clearLeaf(ctx context.Context, rb *rootBounds) bool {
	for ; w.leafStale > 0; w.leafStale-- {
		if ctx.Err() != nil {
			return false
		}
		if rb != nil {
			if lo, hi := rb.get(); lo >= hi {
				return false
			}
		}
		w.leaf.ClearPart(ttable.ClearParts - w.leafStale)
	}
	return true
}

// probeRoot runs null-window probes at the root p until the shared range
// closes or the search is stopped.
func (w *worker) probeRoot(ctx context.Context, p board.Position, rb *rootBounds) {
	w.rootStones = p.Stones()
	w.leafFrom = max(leafStones, w.rootStones+sharedPlies)
	w.done = ctx.Done()
	w.rb = rb
	for {
		lo, hi := rb.get()
		if lo >= hi || ctx.Err() != nil {
			return
		}
		w.probe = rb.probe(lo, hi)
		if w.helper {
			w.probe = helperProbe(lo, hi, w.probe, max(w.id, 1))
		}
		w.stopped = false
		r := w.negamax(p, p.OpponentWinningCells(), w.probe, w.probe+1, false)
		if !w.stopped {
			rb.update(w.probe, r)
		}
	}
}

// poll looks, every pollInterval nodes, whether the search must stop: the
// context is done, or other workers have settled the question of the probe
// under way, so that its answer no longer matters. It also starts the
// other workers once the first has searched its share alone.
func (w *worker) poll() {
	w.published.Store(w.nodes)
	if w.limit != 0 && w.nodes >= w.limit {
		w.limit = 0
		w.join()
	}
	select {
	case <-w.done:
		w.stopped = true
		return
	default:
	}
	if lo, hi := w.rb.get(); w.probe < lo || w.probe >= hi {
		w.stopped = true
	}
}

// helperProbe is the probe of helper id (1 and up) where the first worker
// asks "score > v?" in the range [lo, hi): the question next to v that the
// first worker would ask next, so that the helper answers it meanwhile.
// Once v is an end of the range beside mtdCenter, probes walk away from
// the center (nextProbe), and the helper asks the one beyond v; while the
// range holds the center on both sides of v, odd helpers ask above v and
// even ones below. A helper with no question left beside v asks v too.
func helperProbe(lo, hi, v, id int) int {
	up := lo >= mtdCenter || hi-1 > mtdCenter && id%2 == 1
	if up && v+1 < hi {
		return v + 1
	}
	if v-1 >= lo {
		return v - 1
	}
	if v+1 < hi {
		return v + 1
	}
	return v
}

// busyTable is a set of the keys of positions some worker is searching,
// approximate: keys that share a slot overwrite each other, which only
// changes the order in which moves are searched. It is safe for
// concurrent use.
type busyTable struct {
	slots [1 << 12]atomic.Uint64
}

func (b *busyTable) slot(key uint64) *atomic.Uint64 {
	return &b.slots[(key*0x9e3779b97f4a7c15)>>52]
}

func (b *busyTable) has(key uint64) bool { return b.slot(key).Load() == key }
func (b *busyTable) add(key uint64)      { b.slot(key).Store(key) }
func (b *busyTable) remove(key uint64)   { b.slot(key).CompareAndSwap(key, 0) }

// nextProbe picks the value v of the next null-window probe "score > v?"
// in the range [lo, hi), lo < hi. As in Pons' solver, it is the middle of
// the range, moved halfway out to the range's end on its side of zero: a
// probe far from zero is cheap (a quick win or loss is refuted by a shallow
// search), and scores are near zero more often than not. The other orders
// measured (docs/performance.md) gain on one set what
// they lose on another.
//
// Once the range is at most mtdWidth wide, the cheap probes are done, and
// every probe left is near the score: the probe is then the value of the
// range nearest mtdCenter, so that a score near it, the most common, is
// closed in on from both sides by two probes, and another walks to it one
// step at a time (as MTD(f) does from a first guess: Plaat, Schaeffer,
// Pijls and de Bruin, "Best-first fixed-depth minimax algorithms", 1996),
// where bisection would probe around it.
func nextProbe(lo, hi int) int {
	if hi-lo <= mtdWidth {
		return min(max(mtdCenter, lo), hi-1)
	}
	med := lo + (hi-lo)/2
	if med <= 0 && lo/2 < med {
		med = lo / 2
	} else if med >= 0 && hi/2 > med {
		med = hi / 2
	}
	return med
}
