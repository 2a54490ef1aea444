// C4solve solves Connect-Four positions exactly.
//
// Usage:
//
//	c4solve [flags] [MOVES ...]
//	c4solve [flags] verify FILE ...
//	c4solve bench [flags] FILE ...
//
// A position is written as the columns played so far, 1 (left) to 7
// (right), in order from the empty 7x6 board: "4453" is four moves, the
// first in the center column. The empty string "" is the empty board.
//
// For each MOVES argument c4solve prints one line, the moves, a space and
// the exact score of the position for the side to move, in Pascal Pons'
// convention: 0 for a draw; for a win, 22 minus the number of stones the
// winner has played when the game ends; for a loss, the negative of that.
//
//	$ c4solve 4453 4455
//	4453 -2
//	4455 18
//
// With no MOVES, or MOVES "-", positions are read from standard input, one a
// line. Blank lines and lines starting with '#' are skipped. A line may carry
// an expected score after the moves ("4453 -2", the benchmark file format);
// the output line is then the moves and the computed score, followed by the
// word MISMATCH if they differ.
//
// With -analyze the line holds the moves and then the score of each of the
// seven moves (columns 1 to 7) for the side that plays it, or "full" for a
// full column.
//
// The verify command solves every line of benchmark-format files, prints
// each line whose score differs from the expected one as
//
//	MISMATCH FILE:LINE MOVES expected=E got=G
//
// and for each file a summary line of key=value fields: positions,
// mismatches, mean, median and max solve time, mean nodes and nodes per
// second. The table is cleared before each position (not timed) unless
// -warm is given. Progress is shown on standard error when it is a terminal.
//
// The search runs on -threads goroutines (by default one per CPU) that
// share one transposition table; the score does not depend on their
// number. A solve stopped by -timeout or by an interrupt (Ctrl-C) prints
// what it established, as
//
//	MOVES incomplete LOWER <= score <= UPPER
//
// and the command stops there. While a solve runs for more than a second,
// its progress (time, nodes, nodes per second, score bounds) is shown on
// standard error when that is a terminal.
//
// Results go to standard output and nothing else does; errors and -v
// statistics go to standard error. A bad position is reported with its
// argument or line number and the character at fault, and the rest are
// still solved.
//
// Exit status: 0 when all went well; 1 when a computed score differed from
// an expected one; 2 for bad usage, a bad position, or an unreadable file;
// 3 when a solve was stopped before it finished.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"

	"c4solve/bench"
	"c4solve/board"
	"c4solve/book"
	"c4solve/solver"
	"c4solve/ttable"
)

// Exit statuses.
const (
	exitOK         = 0
	exitMismatch   = 1
	exitBad        = 2
	exitIncomplete = 3
)

// options are the flags every command takes.
type options struct {
	weak    bool
	analyze bool
	warm    bool
	ttMiB   int
	threads int
	timeout time.Duration
	verbose bool
	book    string
	noBook  bool
}

func (o *options) register(fs *flag.FlagSet) {
	fs.BoolVar(&o.weak, "weak", false, "print only the sign of the score: 1 win, 0 draw, -1 loss")
	fs.BoolVar(&o.analyze, "analyze", false, "print the score of each of the seven moves instead")
	fs.IntVar(&o.ttMiB, "tt", ttable.DefaultMiB, "shared transposition table size in MiB (each thread adds a table of 2 MiB of its own)")
	fs.IntVar(&o.threads, "threads", runtime.NumCPU(), "search goroutines sharing the table")
	fs.DurationVar(&o.timeout, "timeout", 0, "stop after this long (e.g. 30s; 0: no limit), printing the bounds found")
	fs.BoolVar(&o.verbose, "v", false, "print nodes, time and nodes/s of each solve on standard error")
	fs.BoolVar(&o.warm, "warm", false, "verify: keep the table from one position to the next")
	registerBookFlags(fs, &o.book, &o.noBook)
}

func registerBookFlags(fs *flag.FlagSet, name *string, off *bool) {
	fs.StringVar(name, "book", "", "answer from the opening book in `FILE` instead of the built-in one")
	fs.BoolVar(off, "nobook", false, "use no opening book: search every position")
}

// loadBook returns the book the flags ask for: none with -nobook, the file
// of -book, or the built-in book.
func loadBook(name string, off bool) (solver.Book, error) {
	switch {
	case off && name != "":
		return nil, errors.New("-book and -nobook contradict each other")
	case off:
		return nil, nil
	case name != "":
		return book.ReadFile(name)
	}
	return book.Default()
}

const usageText = `Usage:
  c4solve [flags] [MOVES ...]      solve positions (standard input if none, or "-")
  c4solve [flags] verify FILE ...  check benchmark files and time the solves
  c4solve bench [flags] FILE ...   measure speed at several thread counts and
                                   table sizes ("c4solve bench -h")
  c4solve book CMD ...             generate, merge, inspect or check opening
                                   books ("c4solve book -h")

Positions within the built-in opening book are answered from it at once
(see -book, -nobook).

MOVES are the columns played from the empty board, 1 to 7: "4453".
"" is the empty board. Each result is printed as "MOVES SCORE".

SCORE is for the side to move: 0 draw; 22 minus the winner's stone count
when the game ends if it wins; the negative of that if it loses.

Input lines may carry an expected score ("4453 -2"); a differing result
gets a third field, MISMATCH. Blank lines and '#' comments are skipped.

A solve stopped by -timeout or Ctrl-C prints "MOVES incomplete L <= score <= U".

Exit status: 0 ok, 1 a score differed from the expected one, 2 bad usage,
bad position or unreadable file, 3 a solve was stopped before it finished.

Flags:
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the whole command, with its environment as arguments for tests.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var opt options
	fs := flag.NewFlagSet("c4solve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	opt.register(fs)
	fs.Usage = func() {
		fmt.Fprint(stderr, usageText)
		fs.PrintDefaults()
	}
	if st, ok := parseFlags(fs, args); !ok {
		return st
	}
	args = fs.Args()
	if len(args) > 0 && args[0] == "bench" {
		if fs.NFlag() > 0 {
			fmt.Fprintln(stderr, "c4solve bench: flags go after the word bench (see c4solve bench -h)")
			return exitBad
		}
		return runBench(ctx, args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "book" {
		if fs.NFlag() > 0 {
			fmt.Fprintln(stderr, "c4solve book: flags go after the subcommand (see c4solve book -h)")
			return exitBad
		}
		return runBook(ctx, args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "verify" {
		// Flags may also follow the command name.
		if st, ok := parseFlags(fs, args[1:]); !ok {
			return st
		}
		args = append([]string{"verify"}, fs.Args()...)
	}
	if err := checkTableSize(opt.ttMiB); err != nil {
		fmt.Fprintf(stderr, "c4solve: -tt %d: %v\n", opt.ttMiB, err)
		return exitBad
	}
	if opt.threads < 1 || opt.threads > maxThreads {
		fmt.Fprintf(stderr, "c4solve: -threads %d: want 1 to %d\n", opt.threads, maxThreads)
		return exitBad
	}
	if opt.timeout < 0 {
		fmt.Fprintf(stderr, "c4solve: -timeout %v: want a positive duration, or 0 for none\n", opt.timeout)
		return exitBad
	}
	bk, err := loadBook(opt.book, opt.noBook)
	if err != nil {
		fmt.Fprintf(stderr, "c4solve: %v\n", err)
		return exitBad
	}
	if opt.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opt.timeout)
		defer cancel()
	}
	if len(args) > 0 && args[0] == "verify" {
		if len(args) == 1 {
			fmt.Fprintln(stderr, "c4solve verify: no files given")
			return exitBad
		}
		if opt.analyze {
			fmt.Fprintln(stderr, "c4solve verify: -analyze does not apply")
			return exitBad
		}
		c := newCommand(opt, bk, stdout, stderr)
		return c.verify(ctx, args[1:])
	}
	c := newCommand(opt, bk, stdout, stderr)
	if len(args) == 0 || len(args) == 1 && args[0] == "-" {
		err := bench.Scan(stdin, func(l bench.Line) bool {
			c.solveLine(ctx, fmt.Sprintf("line %d", l.Num), l)
			return ctx.Err() == nil
		}, func(e *bench.LineError) {
			c.bad(e)
		})
		if err != nil {
			c.bad(fmt.Errorf("reading standard input: %w", err))
		}
		return c.status
	}
	for i, a := range args {
		where := fmt.Sprintf("argument %d", i+1)
		p, err := board.Parse(a)
		if err != nil {
			c.bad(fmt.Errorf("%s %q: %w", where, a, err))
			continue
		}
		c.solveLine(ctx, where, bench.Line{Moves: a, Position: p})
		if ctx.Err() != nil {
			break
		}
	}
	return c.status
}

// maxThreads bounds -threads: far more goroutines than cores only slow the
// search down.
const maxThreads = 1024

// checkTableSize refuses table sizes that cannot be allocated: below the
// minimum, or more than half the machine's memory.
func checkTableSize(mib int) error {
	if mib < ttable.MinMiB {
		return fmt.Errorf("the table needs at least %d MiB", ttable.MinMiB)
	}
	if mem := physicalMemory(); mem > 0 && uint64(mib) > mem>>21 {
		return fmt.Errorf("more than half of this machine's %d MiB of memory", mem>>20)
	}
	if mib > ttable.MaxMiB {
		return fmt.Errorf("the table holds at most %d MiB", ttable.MaxMiB)
	}
	return nil
}

// parseFlags parses args into fs. When it returns ok false the command
// ends with status: 0 after -h, 2 for a bad flag (fs has said which).
func parseFlags(fs *flag.FlagSet, args []string) (status int, ok bool) {
	err := fs.Parse(args)
	switch {
	case err == nil:
		return exitOK, true
	case errors.Is(err, flag.ErrHelp):
		return exitOK, false
	}
	return exitBad, false
}

// command is the state of one run: the solver, the outputs and the worst
// status so far.
type command struct {
	opt            options
	s              *solver.Solver
	stdout, stderr io.Writer
	terminal       bool // stderr is a terminal: show progress there
	status         int
}

func newCommand(opt options, bk solver.Book, stdout, stderr io.Writer) *command {
	c := &command{opt: opt, s: solver.New(ttable.New(opt.ttMiB), opt.threads), stdout: stdout, stderr: stderr}
	c.s.UseBook(bk)
	if f, ok := stderr.(*os.File); ok {
		c.terminal = term.IsTerminal(int(f.Fd()))
	}
	return c
}

// fail raises the exit status to at least st.
func (c *command) fail(st int) { c.status = max(c.status, st) }

// bad reports bad input and marks the run as failed.
func (c *command) bad(err error) {
	fmt.Fprintf(c.stderr, "c4solve: %v\n", err)
	c.fail(exitBad)
}

// solveLine solves one position and prints its result line.
func (c *command) solveLine(ctx context.Context, where string, l bench.Line) {
	if c.opt.analyze {
		c.analyzeLine(ctx, where, l)
		return
	}
	stop := c.showProgress()
	o, err := bench.Solve(ctx, c.s, l, bench.Options{Weak: c.opt.weak})
	stop()
	if err != nil {
		c.solveError(where, l, err)
		if !errors.Is(err, solver.ErrGameOver) {
			fmt.Fprintf(c.stdout, "%s incomplete %d <= score <= %d\n", l.Moves, o.Lower, o.Upper)
		}
		return
	}
	out := l.Moves + " " + strconv.Itoa(o.Score)
	if o.Mismatch {
		out += " MISMATCH"
		c.fail(exitMismatch)
	}
	fmt.Fprintln(c.stdout, out)
	c.stats(l.Moves, o.Nodes, o.Time)
}

func (c *command) analyzeLine(ctx context.Context, where string, l bench.Line) {
	start := time.Now()
	stop := c.showProgress()
	an, err := c.s.Analyze(ctx, l.Position)
	stop()
	if err != nil {
		c.solveError(where, l, err)
		return
	}
	var sb strings.Builder
	sb.WriteString(l.Moves)
	best := solver.MinScore - 1
	for col, sc := range an.Scores {
		if !an.Legal[col] {
			sb.WriteString(" full")
			continue
		}
		if c.opt.weak {
			sc = min(max(sc, -1), 1)
		}
		best = max(best, sc)
		fmt.Fprintf(&sb, " %d", sc)
	}
	want := l.Expected
	if c.opt.weak {
		want = min(max(want, -1), 1)
	}
	if l.HasScore && best != want {
		sb.WriteString(" MISMATCH")
		c.fail(exitMismatch)
	}
	fmt.Fprintln(c.stdout, sb.String())
	c.stats(l.Moves, an.Nodes, time.Since(start))
}

func (c *command) solveError(where string, l bench.Line, err error) {
	if errors.Is(err, solver.ErrGameOver) {
		c.bad(fmt.Errorf("%s %q: %w", where, l.Moves, err))
		return
	}
	fmt.Fprintf(c.stderr, "c4solve: %s %q: interrupted: %v\n", where, l.Moves, err)
	c.fail(exitIncomplete)
}

// progressDelay is how long a solve runs before progress is shown: quick
// solves show none.
const progressDelay = time.Second

// showProgress shows, while a solve runs and stderr is a terminal, its
// elapsed time, nodes, node rate and score bounds, refreshed in place. It
// returns the function that ends the display; no goroutine outlives it.
func (c *command) showProgress() (stop func()) {
	if !c.terminal {
		return func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		start := time.Now()
		tick := time.NewTicker(progressDelay / 4)
		defer tick.Stop()
		shown := false
		for {
			select {
			case <-done:
				if shown {
					fmt.Fprint(c.stderr, "\r\033[K")
				}
				return
			case <-tick.C:
			}
			d := time.Since(start)
			if d < progressDelay {
				continue
			}
			nodes, lo, hi := c.s.Progress()
			fmt.Fprintf(c.stderr, "\r\033[K%v  %d nodes  %.2f M nodes/s  %d <= score <= %d",
				d.Round(time.Second), nodes, float64(nodes)/d.Seconds()/1e6, lo, hi)
			shown = true
		}
	}()
	return func() {
		close(done)
		wg.Wait()
	}
}

func (c *command) stats(moves string, nodes uint64, d time.Duration) {
	if !c.opt.verbose {
		return
	}
	fmt.Fprintf(c.stderr, "%q: nodes=%d time=%v nodes_per_s=%.0f\n",
		moves, nodes, d, float64(nodes)/max(d.Seconds(), 1e-9))
}

// verify checks each file and prints its mismatches and summary.
func (c *command) verify(ctx context.Context, files []string) int {
	progress := c.terminal
	opt := bench.Options{Weak: c.opt.weak, Cold: !c.opt.warm}
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			c.bad(err)
			continue
		}
		var st bench.Stats
		err = bench.Scan(f, func(l bench.Line) bool {
			o, err := bench.Solve(ctx, c.s, l, opt)
			if err != nil {
				c.solveError(fmt.Sprintf("%s:%d", name, l.Num), l, err)
				return ctx.Err() == nil
			}
			if !l.HasScore {
				c.bad(fmt.Errorf("%s:%d: no expected score", name, l.Num))
			}
			st.Add(o.Time, o.Nodes, o.Mismatch)
			if o.Mismatch {
				fmt.Fprintf(c.stdout, "MISMATCH %s:%d %s expected=%d got=%d\n", name, l.Num, l.Moves, l.Expected, o.Score)
				c.fail(exitMismatch)
			}
			c.stats(l.Moves, o.Nodes, o.Time)
			if progress {
				fmt.Fprintf(c.stderr, "\r%s: %d positions, %d mismatches, mean %v ", name, st.Positions, st.Mismatches, st.Mean())
			}
			return true
		}, func(e *bench.LineError) {
			c.bad(fmt.Errorf("%s: %w", name, e))
		})
		f.Close()
		if progress {
			fmt.Fprint(c.stderr, "\r\033[K")
		}
		if err != nil {
			c.bad(fmt.Errorf("reading %s: %w", name, err))
		}
		if ctx.Err() != nil {
			break // interrupted: no summary of a partial file
		}
		fmt.Fprintf(c.stdout, "%s %s\n", name, st.String())
	}
	return c.status
}
