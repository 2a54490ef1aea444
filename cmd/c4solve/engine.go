package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"c4solve/board"
	"c4solve/solver"
)

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
