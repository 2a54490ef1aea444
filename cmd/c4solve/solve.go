package main

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"c4solve/board"
	"c4solve/internal/settings"
	"c4solve/posfile"
	"c4solve/solver"
)

// usageAbout is what "c4solve -h" says after the list of commands.
//
//go:embed usage.txt
var usageAbout string

// runSolve solves the positions of args, or of standard input.
func runSolve(ctx context.Context, args []string, std stdio) error {
	var opt options
	fs := newFlagSet("c4solve", usageText(), std.out, std.err)
	opt.register(fs, false)
	all := args
	if st, ok := fs.parse(args); !ok {
		return exit(st)
	}
	args = fs.Args()
	if opt.version {
		fmt.Fprintln(std.out, version())
		return nil
	}
	if _, err := lookup(subcommands, args0(args)); err == nil && args0(args) != "verify" && fs.NFlag() > 0 {
		return exit(report(std.err, "c4solve "+args[0], exitBad, fmt.Errorf("flags go after the command name (see c4solve %s -h)", args[0])))
	}
	if args0(args) == "verify" {
		// Flags may also come before the command name ("c4solve -nobook
		// verify FILE"): verify parses them all, with its own flags.
		verify, _ := lookup(subcommands, "verify")
		return exit(status(std.err, verify.path, runVerify(ctx, verify.flagSet(std), slices.Concat(all[:len(all)-len(args)], args[1:]), std)))
	}
	// After "--" every argument is a position, even one that looks like a
	// flag.
	afterDashes := len(all) > len(args) && all[len(all)-len(args)-1] == "--"
	if err := checkArguments(args, afterDashes, opt, fs); err != nil {
		return err
	}
	if opt.warm {
		return errors.New("-warm acts only with verify (c4solve verify -warm FILE)")
	}
	var positions []string // nil: those of standard input
	if len(args) > 0 && !(len(args) == 1 && args[0] == "-") {
		positions = args
	}
	c, err := newCommand(fs.Name(), opt, std, positions)
	if err != nil {
		return err
	}
	limited, cancel := c.withTimeout(ctx)
	defer cancel()
	stopLog := c.startLog("position", "done", len(positions))
	if positions != nil {
		c.solveArgs(limited, positions)
	} else {
		c.solveInput(limited, ctx, std)
	}
	stopLog()
	// Before the status is taken: a write of the table file that
	// failed makes it 2.
	c.closeTableFile()
	return exit(c.status)
}

// solveArgs solves the positions of args, the arguments, and prints their
// results.
func (c *command) solveArgs(ctx context.Context, args []string) {
	b := newBatch(ctx, c)
	for i, a := range args {
		where := fmt.Sprintf("argument %d", i+1)
		l, err := c.format.Position(a)
		if err != nil {
			b.reportBad(fmt.Errorf("%s %s: %w", where, quoteShort(a), err))
			continue
		}
		// Past -timeout, the time limit of the whole command, each
		// position left still gets its line (its bounds, or its score
		// where that takes no search), line for line with the arguments,
		// on every board; an interrupt stops after the position it
		// stopped.
		if i > 0 && ctx.Err() != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			break
		}
		b.solve(where, l, i < len(args)-1)
	}
	b.flush()
}

// errIdlePastLimit stops the reading of standard input past -timeout.
var errIdlePastLimit = errors.New("no line came within a second of the time limit")

// solveInput solves the positions of standard input, one a line, and
// prints their results. Past -timeout (ctx's deadline; outer is ctx
// without it) each line that comes still gets its line, line for line
// with the input, as arguments do: its bounds, or its score where that
// takes no search. Reading stops at the end of the input, at an
// interrupt, or when no line came for settings.PastLimitIdle past the limit; what
// came past it is counted on stderr.
func (c *command) solveInput(ctx, outer context.Context, std stdio) {
	if isTerminal(std.in) {
		// Else c4solve alone seems to hang.
		fmt.Fprintln(c.stderr, "c4solve: reading positions from standard input, one a line (Ctrl-D ends; c4solve 4453 solves one, c4solve -h helps)")
	}
	read, stopRead := context.WithCancelCause(outer)
	defer stopRead(nil)
	var idle atomic.Pointer[time.Timer] // from the time limit on
	defer context.AfterFunc(ctx, func() {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			idle.Store(time.AfterFunc(settings.PastLimitIdle, func() { stopRead(errIdlePastLimit) }))
		}
	})()
	late := 0 // lines read past the time limit
	b := newBatch(ctx, c)
	b.counting = c.terminal && !isTerminal(std.in) // a count would mix with what is typed
	err := c.format.ScanContext(read, std.in, func(l posfile.Line, more bool) bool {
		if ctx.Err() != nil {
			late++
			if t := idle.Load(); t != nil {
				t.Reset(settings.PastLimitIdle)
			}
		}
		b.solve(fmt.Sprintf("line %d", l.Num), l, more)
		return read.Err() == nil
	}, func(e *posfile.LineError) { b.reportBad(e) })
	b.flush()
	if t := idle.Load(); t != nil {
		t.Stop()
	}
	switch {
	case late > 0 || errors.Is(context.Cause(read), errIdlePastLimit):
		fmt.Fprintf(c.stderr, "c4solve: standard input: %s read after the time limit (-timeout), printed with the bounds found (or the score, where none is needed)", plural(late, "line"))
		if errors.Is(context.Cause(read), errIdlePastLimit) {
			fmt.Fprintf(c.stderr, "; reading stopped when %s", errIdlePastLimit)
		}
		fmt.Fprintln(c.stderr)
		c.fail(exitIncomplete)
	case ctx.Err() != nil && c.status < exitIncomplete && !outputFailed(std.out):
		// Stopped while waiting for a line: no solve said so.
		fmt.Fprintf(c.stderr, "c4solve: standard input: %s\n", stopReason(ctx, ctx.Err()))
		c.fail(exitIncomplete)
	case err != nil && ctx.Err() == nil:
		c.bad(fmt.Errorf("reading standard input: %w", err))
	}
}

// solveLine solves one position and prints its result: its score, or
// with -analyze each move's, and with -pv a line of perfect play.
func (c *command) solveLine(ctx context.Context, where string, l posfile.Line) {
	start := time.Now()
	stop := c.showProgress()
	endLog := c.log.begin(where+" "+posfile.Spell(l.Moves), c.s)
	r := posfile.Result{Pos: posfile.Spell(l.Moves)}
	var sr solver.Result // with -analyze, the analysis's bounds and counts
	var err error
	if c.opt.analyze {
		var an solver.Analysis
		an, err = c.s.Analyze(ctx, l.Board, c.opt.weak)
		r.Scores, r.Best = an.Columns()
		sr = solver.Result{Score: an.Lower, Lower: an.Lower, Upper: an.Upper, Nodes: an.Nodes, Expanded: an.Expanded}
	} else {
		sr, err = c.solve(ctx, l.Board, c.opt.weak)
	}
	nodes, expanded := sr.Nodes, sr.Expanded
	var pv *solver.Result // the searches of the line of perfect play
	if err == nil && c.opt.pv {
		var line []int
		pv = new(solver.Result)
		line, *pv, err = c.s.PV(ctx, l.Board, sr.Score)
		// written as the position is
		r.PV, nodes, expanded = board.FormatColumns(line, c.format.From0), nodes+pv.Nodes, expanded+pv.Expanded
	}
	stop()
	endLog()
	d := time.Since(start)
	r.Nodes, r.Seconds = nodes, d.Seconds()
	c.conclude(ctx, where, l, &r, sr, err)
	if errors.Is(err, solver.ErrGameOver) {
		return // nothing searched
	}
	// What -v says besides the counts: where the score came from, what
	// the line of perfect play searched, the bounds of a stopped solve.
	var more []string
	if sr.FromBook {
		more = append(more, "score_from=book")
	}
	if pv != nil {
		more = append(more, fmt.Sprintf("pv_nodes=%d pv_expanded=%d", pv.Nodes, pv.Expanded))
	}
	if err != nil {
		more = append(more, fmt.Sprintf("stopped=true lower=%d upper=%d", sr.Lower, sr.Upper))
	}
	c.stats(l.Moves, nodes, expanded, d, more...)
}

// conclude prints r, the result of the solve of l: its score, sr's,
// compared with l's, or where err stopped it, the error and the bounds
// found.
func (c *command) conclude(ctx context.Context, where string, l posfile.Line, r *posfile.Result, sr solver.Result, err error) {
	if err != nil {
		c.solveError(ctx, where, l.Moves, err)
		if !errors.Is(err, solver.ErrGameOver) {
			r.Scores, r.Best, r.PV = nil, nil, ""
			r.Lower, r.Upper, r.Incomplete = &sr.Lower, &sr.Upper, true
			c.emit(r, r.Line())
		}
		return
	}
	r.Score = &sr.Score
	mismatch := l.Contradicts(sr.Score, c.opt.weak)
	if l.HasScore {
		r.Expected, r.Mismatch = &l.Expected, &mismatch
	}
	if mismatch {
		c.fail(exitMismatch)
	}
	c.emit(r, r.Line())
}

func (c *command) solveError(ctx context.Context, where, moves string, err error) {
	if moves != posfile.EmptyBoard {
		moves = strconv.Quote(moves) // "" for the empty board
	}
	if errors.Is(err, solver.ErrGameOver) {
		c.bad(fmt.Errorf("%s %s: %w", where, moves, err))
		return
	}
	fmt.Fprintf(c.stderr, "%s: %s %s: %s\n", c.name, where, moves, stopReason(ctx, err))
	c.fail(exitIncomplete)
}

// stats reports a solve's nodes, of them those that searched a child
// (solver.Result.Expanded), and time, with -v, then the key=value fields
// of more.
func (c *command) stats(moves string, nodes, expanded uint64, d time.Duration, more ...string) {
	if !c.opt.verbose {
		return
	}
	fmt.Fprintf(c.stderr, "%q: nodes=%d expanded=%d time=%v nodes_per_s=%.0f%s\n",
		moves, nodes, expanded, d, float64(nodes)/max(d.Seconds(), 1e-9), strings.Join(append([]string{""}, more...), " "))
}
