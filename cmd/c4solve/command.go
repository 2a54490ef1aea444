package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"c4solve/board"
	"c4solve/posfile"
	"c4solve/solver"
)

// command is the state of one run: the solver, the outputs and the worst
// status so far.
type command struct {
	name           string // the command's path, as "c4solve verify": the prefix of its lines on stderr
	opt            options
	s              *solver.Solver // the board's (-size); nil where no position needs a search
	bk             solver.Book    // the board's book, nil for none
	format         posfile.Format // how positions are written (-size, -from0)
	stdout, stderr io.Writer
	terminal       bool     // stderr is a terminal, and no -quiet: show progress there
	log            *workLog // off a terminal, where the work is, every progressEvery; nil for none
	status         int
	tableFile      *solver.TableFile // -table-file, nil for none
	// set by tableFile's OnError, once a write of it failed
	tableFileFailed bool
}

// newCommand checks opt and returns the command name (its path, as
// "c4solve verify") that carries it out.
//
// When positions are the command's only ones and none needs a search (the
// book or a win at once answers each, or it is not a position), there is
// no table: "c4solve 4453" needs no memory for a search it will not make,
// and answers under any limit on it.
func newCommand(name string, opt options, std stdio, positions []string) (*command, error) {
	if err := opt.check(); err != nil {
		return nil, err
	}
	format, err := opt.size.format(opt.from0)
	if err != nil {
		return nil, err
	}
	bk, err := opt.book.loadBook(opt.size.board())
	if err != nil {
		return nil, err
	}
	c := &command{name: name, opt: opt, bk: bk, format: format, stdout: std.out, stderr: std.err, terminal: isTerminal(std.err) && !opt.quiet}
	if positions != nil && !needSearch(opt, format, bk, positions) {
		return c, nil // no table file either: needSearch says none is given
	}
	if c.s, err = newSolver(opt.size.board(), opt.search.ttMiB, opt.search.explicitTT(), opt.search.threads, bk, std.err); err != nil {
		return nil, err
	}
	return c, c.openTableFile(opt.size.board(), c.s.UseTableFile)
}

// withTimeout returns ctx bounded by the command's -timeout, if any.
func (c *command) withTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	if c.opt.timeout > 0 {
		return context.WithTimeout(ctx, c.opt.timeout)
	}
	return ctx, func() {}
}

// needSearch reports whether a solve of one of positions, as opt asks,
// needs a search (solver.Known): a line of perfect play or an analysis
// may, a table file is for one, and a position that neither the book bk
// nor a win at once answers does.
func needSearch(opt options, format posfile.Format, bk solver.Book, positions []string) bool {
	if opt.pv || opt.analyze || opt.tableFile != "" {
		return true
	}
	for _, moves := range positions {
		l, err := format.Position(moves)
		if err != nil {
			continue // refused
		}
		if _, ok, err := solver.Known(l.Board, bk); !ok && err == nil {
			return true
		}
	}
	return false
}

// fail raises the exit status to at least st.
func (c *command) fail(st int) { c.status = max(c.status, st) }

// bad reports bad input and marks the run as failed.
func (c *command) bad(err error) {
	c.fail(report(c.stderr, c.name, exitBad, err))
}

// newSolver returns the solver of the board z, with a shared table of mib
// MiB made to fit what the process may use (fitTable: explicit if -tt gave
// it), threads search goroutines, and the board's book bk (nil for none).
func newSolver(z board.Size, mib int, explicit bool, threads int, bk solver.Book, stderr io.Writer) (*solver.Solver, error) {
	g, err := board.NewGrid(z)
	if err != nil {
		return nil, err
	}
	fit, err := fitTable(mib, threads, explicit, stderr)
	if err != nil {
		return nil, err
	}
	s, err := solver.New(g, fit, threads)
	if err != nil {
		return nil, fmt.Errorf("%w (use -tt to ask for less)", err)
	}
	noteRounded(stderr, fit, s.Table().Bytes()>>20)
	s.UseBook(bk)
	return s, nil
}

// errNoSearch is what a command without a solver answers where a search
// is asked of it, which needSearch rules out.
var errNoSearch = errors.New("internal error: a search where none was planned")

// solve solves b, for its sign only with weak: with the command's
// solver, or where it has none (needSearch found none needed) from the
// book or a win at once (solver.Known), as the solver would.
func (c *command) solve(ctx context.Context, b board.Board, weak bool) (solver.Result, error) {
	switch {
	case c.s != nil && weak:
		return c.s.SolveWeak(ctx, b)
	case c.s != nil:
		return c.s.Solve(ctx, b)
	}
	r, ok, err := solver.Known(b, c.bk)
	switch {
	case err != nil:
		return r, err
	case !ok:
		return r, errNoSearch
	case weak:
		return r.Weak(), nil
	}
	return r, nil
}
