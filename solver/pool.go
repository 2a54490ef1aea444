package solver

import (
	"context"
	"sync"

	"c4solve/board"
	"c4solve/internal/settings"
	"c4solve/ttable"
)

// Pool is a set of solvers of one board that share one table and solve
// at once: the server's solvers, book generation's, the command's batch.
// It makes n solvers of the same number of threads and lends them out one
// at a time (Get, TryGet, Put). Its solvers do not age the table at each
// solve (see SetAging): one solver's new generation would make the entries
// the others are storing look old, the first to be replaced. The pool
// starts a new generation instead when a solver is lent while none is in
// use, or once 256 solvers were lent since the last one, so that a pool
// that is never idle ages its table too. A Pool is safe for concurrent
// use. The zero value is not usable; call NewPool.
type Pool struct {
	tt    ttable.Table
	slots chan struct{} // one per solver lent

	mu    sync.Mutex // guards what follows
	free  []*Solver
	inUse int
	lends int // since the last new generation
}

// NewPool returns a pool of n solvers (at least 1) of the positions of g,
// of threads workers each, sharing tt (of TableConfig's for g),
// answering from b (nil: no book).
func NewPool(g *board.Grid, tt ttable.Table, n, threads int, b Book) *Pool {
	p := &Pool{tt: tt, slots: make(chan struct{}, max(n, 1))}
	for range cap(p.slots) {
		s := NewOn(g, tt, threads)
		s.UseBook(b)
		s.e.SetAging(false)
		p.free = append(p.free, s)
	}
	return p
}

// Get lends a solver, waiting for one to be free, or returns ctx's error
// if ctx is done first. Give it back with Put.
func (p *Pool) Get(ctx context.Context) (*Solver, error) {
	select {
	case p.slots <- struct{}{}:
		return p.lend(), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// TryGet lends a solver if one is free, without waiting.
func (p *Pool) TryGet() (*Solver, bool) {
	select {
	case p.slots <- struct{}{}:
		return p.lend(), true
	default:
		return nil, false
	}
}

// lend takes a free solver for a slot just taken.
func (p *Pool) lend() *Solver {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.inUse == 0 || p.lends >= settings.AgingLends {
		p.tt.NewSearch()
		p.lends = 0
	}
	p.inUse++
	p.lends++
	s := p.free[len(p.free)-1] // a slot was free, so a solver is
	p.free = p.free[:len(p.free)-1]
	return s
}

// Put gives back a solver that Get or TryGet lent.
func (p *Pool) Put(s *Solver) {
	p.mu.Lock()
	p.free = append(p.free, s)
	p.inUse--
	p.mu.Unlock()
	<-p.slots
}

// Table returns the table the pool's solvers share.
func (p *Pool) Table() ttable.Table { return p.tt }
