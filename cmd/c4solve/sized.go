package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"c4solve/board"
	"c4solve/posfile"
	"c4solve/solver"
	"c4solve/ttable"
)

// sizeFlag is -size: the board, 7x6 unless given.
type sizeFlag struct{ board.Size }

func (f *sizeFlag) String() string {
	if f.Size == (board.Size{}) {
		return board.Standard.String()
	}
	return f.Size.String()
}

func (f *sizeFlag) Set(s string) error {
	z, err := board.ParseSize(s)
	if err != nil {
		return err
	}
	f.Size = z
	return nil
}

// standard reports whether the board is 7x6, which Solver searches.
func (f *sizeFlag) standard() bool {
	return f.Size == (board.Size{}) || f.Size == board.Standard
}

// format returns how lines name positions, with columns from 0 if from0.
func (f *sizeFlag) format(from0 bool) (posfile.Format, error) {
	if f.standard() && !from0 {
		return posfile.Format{}, nil
	}
	z := f.Size
	if f.standard() {
		z = board.Standard
	}
	g, err := board.NewGrid(z)
	return posfile.Format{Grid: g, From0: from0}, err
}

// newSized returns the solver of a board of another size than 7x6, with
// threads search goroutines and a table of mib MiB at most, made smaller where the process may not have
// that much (as for the 7x6 table: allocTable).
func newSized(g *board.Grid, mib int, explicit bool, threads int, stderr io.Writer) (*solver.Sized, error) {
	fit, note, err := processMemoryLimit().Fit(ttable.Sizing{MiB: mib, Explicit: explicit})
	if err != nil {
		return nil, err
	}
	if note != "" {
		fmt.Fprintf(stderr, "c4solve: note: %s (-tt %d)\n", note, fit)
	}
	return solver.AllocSized(g, fit, threads)
}

// solveSizedLine solves one position of a board of another size and
// prints its result, as solveLine does for 7x6: its score, or with
// -analyze each move's, and with -pv a line of perfect play.
func (c *command) solveSizedLine(ctx context.Context, where string, l posfile.Line) {
	start := time.Now()
	stop := c.showProgress()
	r := result{Pos: l.Moves}
	var score, lower, upper int
	var expanded uint64
	var err error
	if c.opt.analyze {
		var an solver.SizedAnalysis
		an, err = c.sz.Analyze(ctx, l.Board, c.opt.weak)
		r.Nodes, expanded = an.Nodes, an.Expanded
		r.Scores, r.Best = an.Columns()
		score, lower, upper = an.Lower, an.Lower, an.Upper
	} else {
		solve := c.sz.Solve
		if c.opt.weak {
			solve = c.sz.SolveWeak
		}
		var sr solver.Result
		sr, err = solve(ctx, l.Board)
		r.Nodes, expanded = sr.Nodes, sr.Expanded
		score, lower, upper = sr.Score, sr.Lower, sr.Upper
	}
	if err == nil && c.opt.pv {
		var line []int
		var n uint64
		line, n, err = c.sz.PV(ctx, l.Board, score)
		r.PV, r.Nodes = board.FormatColumns(line), r.Nodes+n
	}
	stop()
	r.Seconds = time.Since(start).Seconds()
	c.conclude(where, l, &r, score, lower, upper, err)
	if err == nil {
		c.stats(l.Moves, r.Nodes, expanded, time.Since(start))
	}
}
