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
	s        *Sized
	free     []*Sized  // the single-threaded solvers not in use, made when first needed
	made     bool      // whether they were
	lends    int       // since the table's last new generation
	pending  []*job    // work started and not done, in order
	finished chan *job // work ended, in any order
}

// job is one item of a Batch.
type job struct {
	s     *Sized // a single-threaded one, nil for an item with no work
	done  func()
	ended bool
}

// NewBatch returns a Batch that solves with s, or with single-threaded
// solvers on s's table and book, one per thread of s, side by side.
func NewBatch(s *Sized) *Batch { return &Batch{s: s, finished: make(chan *job)} }

// Do runs work with a solver, then done, after the done of every item
// before it. more says whether another item is known to follow at once.
// With nothing pending and nothing to follow, or a solver of one thread,
// work runs at once with the Batch's solver; otherwise it runs beside the
// others with a single-threaded solver, once one is free (Do waits, and
// calls the done functions due meanwhile). A nil work is an item with no
// solve, such as a bad line to report in its turn.
func (b *Batch) Do(more bool, work func(*Sized), done func()) {
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
	if !b.made {
		// Single-threaded solvers on b.s's table, its book, keeping in its
		// table file too (its entries are in the table they share
		// already); they do not age the table each solve, the Batch does
		// (as Pool does).
		b.made = true
		for range b.s.Threads() {
			s := NewSizedOn(b.s.g, b.s.tt, 1)
			s.UseBook(b.s.bk)
			s.e.setAging(false)
			s.e.keepIn(b.s.e.tableFile())
			b.free = append(b.free, s)
		}
	}
	for len(b.free) == 0 {
		b.wait()
	}
	if len(b.pending) == 0 || b.lends >= agingLends {
		b.s.tt.NewSearch()
		b.lends = 0
	}
	b.lends++
	s := b.free[len(b.free)-1]
	b.free = b.free[:len(b.free)-1]
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
	b.free = append(b.free, j.s)
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
