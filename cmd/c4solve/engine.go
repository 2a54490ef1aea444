package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"

	"c4solve/bench"
	"c4solve/board"
	"c4solve/book"
	"c4solve/posfile"
	"c4solve/solver"
)

// newEngine returns the engine of the board z (7x6 or any other), with a
// shared table of mib MiB made to fit what the process may use (fitTable:
// explicit if -tt gave it), threads search goroutines, and the book bk of
// the board (nil for none). It is where a command's size picks its engine.
func newEngine(z board.Size, mib int, explicit bool, threads int, bk *book.Book, stderr io.Writer) (engine, error) {
	g, err := board.NewGrid(z)
	if err != nil {
		return nil, err
	}
	fit, err := fitTable(mib, threads, explicit, stderr)
	if err != nil {
		return nil, err
	}
	sz, err := solver.Alloc(g, fit, threads)
	if err != nil {
		return nil, fmt.Errorf("%w (use -tt to ask for less)", err)
	}
	noteRounded(stderr, fit, sz.TableBytes()>>20)
	if bk != nil {
		sz.UseBook(bk)
	}
	return sized{sz}, nil
}

// engine is the search a command solves with, chosen once, from -size, by
// newCommand: solver.Solver, which picks the engine of the board (on 7x6
// the one whose dimensions are constants), or known, where no position
// needs a search. Solving, analysis, lines of perfect play,
// progress, verify and play are written once, over it.
type engine interface {
	// solve solves l, for its sign only with weak.
	solve(ctx context.Context, l posfile.Line, weak bool) (solver.Result, error)
	// analyze scores every move of l, for their signs only with weak.
	analyze(ctx context.Context, l posfile.Line, weak bool) (solver.Analysis, error)
	// pv returns a line of perfect play from l, whose score is score,
	// and the nodes its searches took (solver.Solver.PV).
	pv(ctx context.Context, l posfile.Line, score int) ([]int, solver.Result, error)
	// progress is the solver's Progress: safe while a solve runs.
	progress() (nodes uint64, lower, upper int)
	// measure times a solve of l and compares its score with l's
	// (bench.Solve).
	measure(ctx context.Context, l posfile.Line, opt bench.Options) (bench.Outcome, error)
	// clearAll empties the table and makes all of it resident, so that
	// no timed solve pays for the first touch of its pages.
	clearAll()
	// withThreads returns the engine of the same table (not cleared)
	// with threads search goroutines and the book bk (nil for none).
	withThreads(threads int, bk *book.Book) engine
	// tableMiB is the size of the shared table.
	tableMiB() int
	// free gives the shared table's memory back now (ttable.Table.Free):
	// the engine, and those withThreads made, must not be used after.
	free()
	// useTableFile loads tf into the table and keeps there the entries
	// of large subtrees from now on.
	useTableFile(tf *solver.TableFile) error
	// verifyBook solves n positions of bk, a book of the engine's board,
	// drawn by rng (all of them for n 0), calling progress (if not nil)
	// with the number checked after each, and returns those whose score
	// differs from the book's, a line each, and how many it checked.
	verifyBook(ctx context.Context, bk *book.Book, n int, rng *rand.Rand, progress func(checked int)) ([]string, int, error)
}

// sized is the engine of every board: lines carry their Board.
type sized struct{ s *solver.Solver }

func (e sized) solve(ctx context.Context, l posfile.Line, weak bool) (solver.Result, error) {
	if weak {
		return e.s.SolveWeak(ctx, l.Board)
	}
	return e.s.Solve(ctx, l.Board)
}

func (e sized) analyze(ctx context.Context, l posfile.Line, weak bool) (solver.Analysis, error) {
	return e.s.Analyze(ctx, l.Board, weak)
}

func (e sized) pv(ctx context.Context, l posfile.Line, score int) ([]int, solver.Result, error) {
	return e.s.PV(ctx, l.Board, score)
}

func (e sized) progress() (uint64, int, int) { return e.s.Progress() }

func (e sized) measure(ctx context.Context, l posfile.Line, opt bench.Options) (bench.Outcome, error) {
	return bench.Solve(ctx, e.s, l, opt)
}

func (e sized) clearAll() { e.s.ClearAll() }

func (e sized) withThreads(threads int, bk *book.Book) engine {
	s := solver.NewOn(e.s.Grid(), e.s.Table(), threads)
	if bk != nil {
		s.UseBook(bk)
	}
	return sized{s}
}

func (e sized) tableMiB() int { return e.s.TableBytes() >> 20 }

func (e sized) free() { e.s.Table().Free() }

func (e sized) useTableFile(tf *solver.TableFile) error { return e.s.UseTableFile(tf) }

func (e sized) verifyBook(ctx context.Context, bk *book.Book, n int, rng *rand.Rand, progress func(int)) ([]string, int, error) {
	bad, checked, err := bk.Verify(ctx, e.s, n, rng, progress)
	var lines []string
	for _, m := range bad {
		line, _ := m.Position.Line() // the book's entries are checked when read
		lines = append(lines, fmt.Sprintf("pos=%s book=%d solved=%d", board.FormatColumns(line), m.Book, m.Solved))
	}
	return lines, checked, err
}

// known is the engine of a command none of whose positions needs a
// search (needSearch): it answers from the book or a win at once
// (solver.Known), as the solver would, and holds no table.
type known struct{ bk *book.Book }

// errNoSearch is what known answers where a search is asked of it, which
// needSearch rules out.
var errNoSearch = errors.New("internal error: a search where none was planned")

func (e known) solve(ctx context.Context, l posfile.Line, weak bool) (solver.Result, error) {
	var b solver.Book
	if e.bk != nil {
		b = e.bk
	}
	r, ok, err := solver.Known(l.Board, b)
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

func (known) analyze(context.Context, posfile.Line, bool) (solver.Analysis, error) {
	return solver.Analysis{}, errNoSearch
}

func (known) pv(context.Context, posfile.Line, int) ([]int, solver.Result, error) {
	return nil, solver.Result{}, errNoSearch
}

func (known) progress() (uint64, int, int) { return 0, 0, 0 }

func (known) measure(context.Context, posfile.Line, bench.Options) (bench.Outcome, error) {
	return bench.Outcome{}, errNoSearch
}

func (known) clearAll() {}

func (e known) withThreads(int, *book.Book) engine { return e }

func (known) tableMiB() int { return 0 }

func (known) free() {}

func (known) useTableFile(*solver.TableFile) error { return errNoSearch }

func (known) verifyBook(context.Context, *book.Book, int, *rand.Rand, func(int)) ([]string, int, error) {
	return nil, 0, errNoSearch
}

// lineOf returns the line of a position p of the command's board, as
// posfile.Format.Position would read its moves.
func lineOf(p board.Board) posfile.Line {
	return posfile.Line{Board: p}
}
