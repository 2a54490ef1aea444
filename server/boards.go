package server

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"sync"

	"c4solve/board"
	"c4solve/solver"
	"c4solve/ttable"
)

// boardSize returns the board a request's query names: size=WxH, or
// width=W&height=H, or def when it names none. Each is given once at
// most, and the two ways are not mixed; the size must be one the solver
// takes (board.Size.Check), and its errors say why not.
func boardSize(vals url.Values, def board.Size) (board.Size, error) {
	size, width, height := vals["size"], vals["width"], vals["height"]
	switch {
	case len(size) > 1 || len(width) > 1 || len(height) > 1:
		return board.Size{}, fmt.Errorf("size, width and height: give each once at most")
	case len(size) == 1 && len(width)+len(height) > 0:
		return board.Size{}, fmt.Errorf("give size=WxH or width=W&height=H, not both")
	case len(size) == 1:
		return board.ParseSize(size[0])
	case len(width)+len(height) == 0:
		return def, nil
	case len(width) == 0 || len(height) == 0:
		return board.Size{}, fmt.Errorf("width= and height= go together: give both, or size=WxH")
	}
	w, errW := strconv.Atoi(width[0])
	h, errH := strconv.Atoi(height[0])
	if errW != nil || errH != nil {
		return board.Size{}, fmt.Errorf("width %q, height %q: want whole numbers, as width=8&height=5", clip(width[0]), clip(height[0]))
	}
	z := board.Size{Width: w, Height: h}
	return z, z.Check()
}

// boards keeps a solver.Pool for each board that requests ask for, whose
// solvers share one table of Config.TableMiB (solver.TableConfig,
// ttable.New), so that a retry or the next request of the board continues
// from the work stored. A pool has Config.Solvers solvers, the most the
// server solves at once (Server.solving), so that its Get never waits. At
// most Config.Boards boards are kept: a request of another board releases the one used least recently
// with no solver lent (its table freed), or, where each has one lent,
// waits until one has none: they are lent to requests solving, which end
// without waiting for boards.
//
// # Why no table is freed while a solve uses it
//
// A board's solvers are counted lent from the get that picks the board
// to the put that gives the solver back, both under mu, and put is
// called only after the request's work has returned, which is after
// every worker goroutine of its solves has ended (the solver waits for
// them). The one get that releases a board does so under mu, with none
// lent, and takes it out of kept before it frees its table, so that no
// other get can lend from it. Were that ever wrong, the table's own count
// of users (Acquire in internal/tables, held by every solve from its first use
// to its last) keeps its memory until the last solve ends, and a solve
// of a table freed gets ttable.ErrFreed: an error, never a crash.
//
// It is safe for concurrent use. The zero value is not usable.
type boards struct {
	cfg Config // TableMiB, Solvers, Threads, Boards and Books

	mu    sync.Mutex // guards what follows
	grids map[board.Size]*board.Grid
	kept  []*pool       // least recently used first
	idle  chan struct{} // closed, and made anew, when a board's last solver lent comes back
}

// pool is the pool of a kept board and the number of its solvers lent.
type pool struct {
	*solver.Pool
	grid *board.Grid
	lent int
}

// grid returns the grid of the board of size z, made once.
func (p *boards) grid(z board.Size) (*board.Grid, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if g, ok := p.grids[z]; ok {
		return g, nil
	}
	g, err := board.NewGrid(z)
	if err == nil {
		p.grids[z] = g
	}
	return g, err
}

// get lends a solver of grid g's board, and put gives it back. It waits
// while Config.Boards boards are kept, none of them g's, each with a solver lent,
// or returns ctx's error if ctx is done first.
func (p *boards) get(ctx context.Context, g *board.Grid) (sv *solver.Solver, put func(), err error) {
	for {
		p.mu.Lock()
		b, err := p.lend(g)
		idle := p.idle
		p.mu.Unlock()
		if err != nil {
			return nil, nil, err
		}
		if b != nil {
			if sv, err = b.Get(ctx); err != nil {
				p.give(b)
				return nil, nil, err
			}
			return sv, func() { b.Put(sv); p.give(b) }, nil
		}
		select {
		case <-idle:
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		}
	}
}

// lend returns the pool of g's board, the most recently used now, with
// one more solver counted lent: the one kept, or a new one; nil where
// Config.Boards boards are kept, each with a solver lent. p.mu must be held.
func (p *boards) lend(g *board.Grid) (*pool, error) {
	if i := slices.IndexFunc(p.kept, func(b *pool) bool { return b.grid == g }); i >= 0 {
		b := p.kept[i]
		p.kept = append(slices.Delete(p.kept, i, i+1), b)
		b.lent++
		return b, nil
	}
	if len(p.kept) >= p.cfg.Boards {
		i := slices.IndexFunc(p.kept, func(b *pool) bool { return b.lent == 0 })
		if i < 0 {
			return nil, nil
		}
		// Two statements: in one, Go may read p.kept[i] after
		// slices.Delete has shifted the list, and free the table of a
		// board still kept.
		released := p.kept[i]
		p.kept = slices.Delete(p.kept, i, i+1)
		// Its table is given back now, before another is had.
		released.Table().Free()
	}
	b, err := p.newPool(g)
	if err != nil {
		return nil, err
	}
	b.lent++
	p.kept = append(p.kept, b)
	return b, nil
}

// newPool returns a new pool of g's board, with a new table: its memory
// is mapped, not touched, so that making it under p.mu is quick.
func (p *boards) newPool(g *board.Grid) (*pool, error) {
	tt, err := ttable.New(solver.TableConfig(g, p.cfg.TableMiB))
	if err != nil {
		return nil, err
	}
	return &pool{Pool: solver.NewPool(g, tt, p.cfg.Solvers, p.cfg.Threads, p.cfg.Books[g.Size]), grid: g}, nil
}

// give counts back a solver of b that get lent.
func (p *boards) give(b *pool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if b.lent--; b.lent == 0 {
		close(p.idle)
		p.idle = make(chan struct{})
	}
}
