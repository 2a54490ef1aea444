package solver

// Batch schedules the solves of a stream of positions, such as the lines
// of a file, on a Solver's threads, and hands their results back in the
// order the positions came. A position that arrives while none is being
// solved and none is known to follow (a caller asking one question at a
// time, or the last of a stream) gets the Solver and every thread of it,
// as one solve (lazy SMP). Positions that come one after another are
// solved side by side instead, one thread each, by single-threaded Solvers
// of a Pool on the same table: a solve of a few milliseconds gains little
// from a second thread (the helpers join after thousands of nodes and
// search much the same tree), so a stream of them goes nearly twice as
// fast two at a time.
//
// A Batch is used from one goroutine: the work of a position solved side
// by side runs in a goroutine of its own, and every done function runs in
// the goroutine that calls Do or Flush. The zero value is not usable; call
// NewBatch.
type Batch struct {
	s        *Solver
	pool     *Pool     // made when first needed
	pending  []*job    // work started and not done, in order
	finished chan *job // work ended, in any order
}

// job is one item of a Batch.
type job struct {
	s     *Solver // the pool's, nil for an item with no work
	done  func()
	ended bool
}

// NewBatch returns a Batch that solves with s, or with single-threaded
// solvers on s's table and book, one per thread of s, side by side.
func NewBatch(s *Solver) *Batch { return &Batch{s: s, finished: make(chan *job)} }

// Do runs work with a solver, then done, after the done of every item
// before it. more says whether another item is known to follow at once.
// With nothing pending and nothing to follow, or a solver of one thread,
// work runs at once with the Batch's solver; otherwise it runs beside the
// others with a single-threaded solver, once one is free (Do waits, and
// calls the done functions due meanwhile). A nil work is an item with no
// solve, such as a bad line to report in its turn.
func (b *Batch) Do(more bool, work func(*Solver), done func()) {
	switch {
	case work == nil && len(b.pending) == 0:
		done()
		return
	case work == nil:
		b.pending = append(b.pending, &job{done: done, ended: true})
		return
	case b.s.Threads() == 1 || !more && len(b.pending) == 0:
		work(b.s)
		done()
		return
	}
	if b.pool == nil {
		b.pool = NewPool(b.s.g, b.s.tt, b.s.Threads(), 1, b.s.bk)
		// The pool's solvers keep in b.s's table file too: its entries
		// are in the table they share already.
		for _, ps := range b.pool.free {
			ps.e.keepIn(b.s.e.tableFile())
		}
	}
	s, ok := b.pool.TryGet()
	for !ok {
		b.wait()
		s, ok = b.pool.TryGet()
	}
	j := &job{s: s, done: done}
	b.pending = append(b.pending, j)
	go func() {
		work(s)
		b.finished <- j
	}()
}

// wait waits for one work to end, gives back its solver and calls every
// done function now due.
func (b *Batch) wait() {
	j := <-b.finished
	j.ended = true
	b.pool.Put(j.s)
	for len(b.pending) > 0 && b.pending[0].ended {
		j := b.pending[0]
		b.pending = b.pending[1:]
		j.done()
	}
}

// Flush waits for every item and calls their done functions.
func (b *Batch) Flush() {
	for len(b.pending) > 0 {
		b.wait()
	}
}
