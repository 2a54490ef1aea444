package server

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"sync"

	"c4solve/board"
	"c4solve/solver"
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

// sizedSolvers lends the solvers of boards other than 7x6. A solver is
// made when a request first needs one of its board (solver.Alloc,
// whose table starts small and grows with the search) and kept for the
// next request of that board. At most max are kept, lent or idle, each
// with a table of mib MiB, so their tables take at most max*mib MiB: a
// request for a board that no idle solver has, with max solvers made,
// releases the idle one used least recently. The server lends at most
// Config.Solvers solvers of all boards at once (Server.solving), and max
// is that number, so that one is then idle and a lend never waits.
//
// # Why no table is freed while a solve uses it
//
// A solver is in idle only between put and the next get that takes it
// out, both under mu, and put is called only after the request's work
// has returned, which is after every worker goroutine of its solves has
// ended (the solver waits for them). The one get that frees a solver
// takes it out of idle, under mu, before it frees its table, so no
// other get can lend it, and it was lent to nobody. Were that ever
// wrong, the table's own count of users (ttable.Table.Acquire, held by
// every solve from its first use to its last) keeps its memory until
// the last solve ends, and a solve of a solver freed gets
// ttable.ErrFreed: an error, never a crash.
//
// It is safe for concurrent use. The zero value is not usable.
type sizedSolvers struct {
	mib, threads, max int
	books             map[board.Size]solver.Book

	mu    sync.Mutex // guards what follows
	grids map[board.Size]*board.Grid
	idle  []*solver.Solver // least recently used first
	made  int              // solvers lent or idle
}

// grid returns the grid of the board of size z, made once.
func (p *sizedSolvers) grid(z board.Size) (*board.Grid, error) {
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

// get lends a solver of grid g: the idle one of its board used last, or
// a new one. Give it back with put.
func (p *sizedSolvers) get(g *board.Grid) (*solver.Solver, error) {
	p.mu.Lock()
	for i := len(p.idle) - 1; i >= 0; i-- {
		if sv := p.idle[i]; sv.Grid() == g {
			p.idle = slices.Delete(p.idle, i, i+1)
			p.mu.Unlock()
			return sv, nil
		}
	}
	var released *solver.Solver
	if p.made >= p.max && len(p.idle) > 0 {
		// Two statements: in one, p.idle[0] could be read after
		// slices.Delete has shifted the list (Go leaves that order
		// unspecified), freeing the solver left idle and losing the
		// other, which is how serve died of five requests.
		released = p.idle[0]
		p.idle = slices.Delete(p.idle, 0, 1)
	} else {
		p.made++
	}
	p.mu.Unlock()
	if released != nil {
		// Its table is given back now, before another is had.
		released.Table().Free()
	}
	sv, err := solver.Alloc(g, p.mib, p.threads)
	if err != nil {
		p.mu.Lock()
		p.made--
		p.mu.Unlock()
		return nil, err
	}
	sv.UseBook(p.books[g.Size])
	return sv, nil
}

// put takes back a solver that get lent.
func (p *sizedSolvers) put(sv *solver.Solver) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.idle = append(p.idle, sv)
}
