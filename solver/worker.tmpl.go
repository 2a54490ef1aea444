//go:build ignore

// The workers of lazy SMP, written once for every board (engine.tmpl.go
// names the variants): a worker's state, its root probes and polls, and
// how an engine runs its workers on one root. internal/gen writes it as
// zworker.go, zworker49.go, zworker64.go, zworker80.go and
// zworker128.go.
// Edit this file, then run go generate ./... ; CI fails when the
// generated files differ from it (internal/gen).

package solver

import (
	"context"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"c4solve/internal/position"
	"c4solve/internal/settings"
	"c4solve/internal/tables"
)

// worker is one search thread: its counters, its own table for positions
// near the leaves, and its view of the stop signal. The workers of one
// Solver share the transposition table, the root's score range (rb), the
// busy table, the book, and the context that stops them.
type worker struct {
	g          position.Geometry
	tt         *tables.Compact // shared by all workers
	leaf       *tables.Compact // this worker's own, for positions of leafFrom stones or more
	leafFrom   int             // see settings.LeafEmptyOf and settings.SharedPlies
	leafStale  int             // parts of leaf (settings.ClearParts) still to clear before it is used
	journal    *TableFile      // where the entries of large subtrees are kept, nil for none
	workers    int             // of the Solver, this one included
	book       EngineBook      // its Book nil for none
	bookDepth  int             // the book's depth, -1 for none
	id         int             // 0 for the first worker, 1 and up for the helpers
	helper     bool            // the worker helps another with its root: it asks other probes (helperProbe) where helpersSpread
	rootStones int             // stones on the board at the root of the solve
	// mirrorKeys: the table's keys are CanonicalKey's, one for a position
	// and its mirror image, where the root's tree may hold both (see
	// probeRoot); else each position's own Key, no reflection at all.
	mirrorKeys bool
	nodes      uint64        // nodes of the current solve
	expanded   uint64        // of them, those that searched a child (not played through or settled without one)
	stores     uint64        // of them, those stored in the shared table tt (see growTable)
	published  atomic.Uint64 // nodes, as last published for progress readers
	limit      uint64        // once nodes reaches it, call join; 0 for none
	join       func()        // starts the other workers (Engine.startHelpers)
	budget     uint64        // once nodes reaches it, the search stops as when the context is done (Engine.spread); 0 for none

	done    <-chan struct{} // the current search's context's Done channel
	stopped bool            // set once done is closed or the probe is moot; unwinds the search

	path  [maxCells]node     // the node of each number of stones on the search path
	lists [maxCells]moveList // its moves

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
// asking the probes beside the first worker's (helperProbe) where
// helpersSpread; the node count at which it calls join (0: never); and
// the node count at which it stops, its budget (0: none).
func (w *worker) begin(busy *busyTable, helper bool, limit, budget uint64) {
	w.nodes, w.expanded, w.stores, w.limit, w.budget = 0, 0, 0, limit, budget
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
		w.leaf.ClearPart(settings.ClearParts - w.leafStale)
	}
	return true
}

// probeRoot runs null-window probes at the root p until the shared range
// closes, the search is stopped or the worker has spent its budget.
func (w *worker) probeRoot(ctx context.Context, p position.Position, rb *rootBounds) {
	w.rootStones = p.Stones()
	// Every position of the root's tree holds the root's stones, and its
	// mirror image their reflections: where a stone of the root faces
	// one of the other side's across the middle, no position of the tree
	// holds both, and no mirror image of one is in the tree (nor is one
	// its own). Keys that stand for a position and its mirror image
	// would then share nothing, and cost a reflection at every node and
	// child: 8x8's positions of 18-22 stones spent 17% of their search
	// in CanonicalKey. A table holds both kinds of key alike: an entry
	// under key k is of the position whose own key is k, and its move in
	// that position's columns.
	w.mirrorKeys = p.MayMeetMirror()
	w.leafFrom = max(w.g.Cells()-settings.LeafEmptyOf(w.g.Width()), w.rootStones+settings.SharedPlies)
	w.done = ctx.Done()
	w.rb = rb
	for {
		lo, hi := rb.get()
		if lo >= hi || ctx.Err() != nil || w.spent() {
			return
		}
		w.probe = rb.probe(lo, hi, gallop)
		if w.helper && helpersSpread {
			w.probe = helperProbe(lo, hi, w.probe, max(w.id, 1))
		}
		w.stopped = false
		r := w.negamax(p, p.OpponentWinningCells(), w.probe, w.probe+1, false)
		if !w.stopped {
			rb.update(w.probe, r)
		}
	}
}

// poll looks, every settings.PollInterval nodes, whether the search must stop: the
// context is done, the worker has spent its budget, or other workers have
// settled the question of the probe under way, so that its answer no
// longer matters. It also starts the other workers once the first has
// searched its share alone. Where goroutines take turns on one thread
// (WebAssembly) it lets the others run, timers among them (see yieldCPU).
func (w *worker) poll() {
	yieldCPU()
	w.published.Store(w.nodes)
	growTable(w.tt, w.stores*uint64(w.workers))
	if w.journal != nil {
		w.journal.tick()
	}
	if w.limit != 0 && w.nodes >= w.limit {
		w.limit = 0
		w.join()
	}
	if w.spent() {
		w.stopped = true
		return
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

// spent says whether the worker has searched its budget of nodes.
func (w *worker) spent() bool { return w.budget != 0 && w.nodes >= w.budget }

// runWorkers searches p with the workers until the range rb closes, ctx
// is done or each worker has searched budget nodes (0: no budget). The first worker searches alone, in the calling goroutine, until
// it has searched settings.HelperNodes nodes; only then do the others join it, in
// goroutines of their own. Most solves are over long before (Test_L3_R1's
// take tens of nodes), and starting helpers, waking their threads and
// waiting for them costs more than such a solve. A worker that finds the
// range closed, by itself or by another, returns at its next poll, so no
// worker needs to cancel the others.
func (s *Engine) runWorkers(ctx context.Context, p position.Position, rb *rootBounds, budget uint64) {
	first := s.workers[0]
	if len(s.workers) == 1 {
		first.begin(nil, false, 0, budget)
		first.probeRoot(ctx, p, rb)
		return
	}
	for _, w := range s.workers[1:] {
		w.begin(s.busy, true, 0, budget)
	}
	s.helpers = helpers{ctx: ctx, p: p, rb: rb}
	// Alone, the first worker has no one to keep out of its subtrees;
	// startHelpers gives it the busy table when the others join.
	first.begin(nil, false, settings.HelperNodes, budget)
	first.probeRoot(ctx, p, rb)
	s.helpers.g.Wait()
}

// helpers is what a solve's helper workers need to start.
type helpers struct {
	g   errgroup.Group
	ctx context.Context
	p   position.Position
	rb  *rootBounds
}

// startHelpers starts every worker but the first on the solve under way.
// The first worker calls it once it has searched settings.HelperNodes nodes.
func (s *Engine) startHelpers() {
	h := &s.helpers
	s.workers[0].busy = s.busy
	for _, w := range s.workers[1:] {
		h.g.Go(func() error {
			if w.clearLeaf(h.ctx, h.rb) {
				w.probeRoot(h.ctx, h.p, h.rb)
			}
			return nil
		})
	}
}
