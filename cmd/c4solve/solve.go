package main

import (
	"context"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"

	"c4solve/bench"
	"c4solve/board"
	"c4solve/posfile"
	"c4solve/solver"
)

// options are the flags of solving and of verify.
type options struct {
	weak    bool
	analyze bool
	pv      bool
	json    bool
	warm    bool
	version bool
	verbose bool
	quiet   bool
	search  searchFlags
	book    bookFlags
	timeout time.Duration
	size    sizeFlag
	from0   bool
	// tableFile is -table-file: where the entries of large subtrees are
	// kept, so that a long solve resumes (solver.TableFile).
	tableFile string
}

// register defines the flags of solving, or with verify, those of verify:
// -analyze and -pv only solve, -warm only verifies (solving takes it only
// to say so, and to hand "c4solve -warm verify FILE" on to verify).
func (o *options) register(fs *flagSet, verify bool) {
	fs.BoolVar(&o.weak, "weak", false, "print only the sign of the score: 1 win, 0 draw, -1 loss")
	fs.BoolVar(&o.json, "json", false, "print each result as a JSON object on a line of its own")
	o.search.register(fs.FlagSet)
	durationVar(fs.FlagSet, &o.timeout, "timeout", 0, "stop after `DURATION` (e.g. 30s; 0: no limit), printing the bounds found")
	fs.BoolVar(&o.verbose, "v", false, "print nodes, time and nodes/s of each solve on standard error")
	fs.BoolVar(&o.quiet, "quiet", false, quietUsage)
	fs.BoolVar(&o.warm, "warm", false, "keep the table from one position to the next")
	if !verify {
		fs.BoolVar(&o.analyze, "analyze", false, "print the score of each move instead: one a column of the board (seven on 7x6, W on -size WxH)")
		fs.BoolVar(&o.pv, "pv", false, "also print a line of perfect play to the end of the game, as columns")
		fs.StringVar(&o.tableFile, "table-file", "", "keep the results of large subtrees in `FILE` as the search runs (written within a quarter second), and load them first, so that a long solve killed part way resumes where it was with the same command (one c4solve at a time; a file it may not write is only read)")
		fs.hide("warm") // taken only to hand "c4solve -warm verify FILE" on to verify
		fs.BoolVar(&o.version, "version", false, "print c4solve's version (module version, commit, Go) and exit")
	}
	o.book.register(fs.FlagSet)
	fs.Var(&o.size, "size", "solve on a board of `WxH`, width x height, as 8x5, instead of 7x6: any with width x (height+1) at most 128 (columns 10 and up are a, b, c, ...; no book but one of that board given by -book)")
	fs.BoolVar(&o.from0, "from0", false, "columns in positions are numbered from 0, as in Steininger's test files")
}

// check refuses flag values and combinations that make no sense.
func (o *options) check() error {
	if err := o.search.check(); err != nil {
		return err
	}
	if o.weak && o.pv {
		return errors.New("-pv needs the exact score: drop -weak")
	}
	return checkTimeout(o.timeout)
}

// usageAbout is what "c4solve -h" says after the list of commands.
//
//go:embed usage.txt
var usageAbout string

const verifyHelp = `Solves every line of benchmark-format files ("moves score" lines; the
file "-" is standard input), prints each line whose score differs from the
expected one as

  MISMATCH FILE:LINE MOVES expected=E got=G

and for each file a summary line of key=value fields: positions,
mismatches, mean, median and max solve time, mean nodes, mean expanded
nodes (those that searched a child) and nodes per second (with -json, one
object a file). The table is cleared before each position (not timed)
unless -warm is given.
`

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
	stopLog := c.startLog("c4solve", "position", "done", len(positions), std.err)
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

// pastLimitIdle is how long standard input is read on past -timeout
// while no line comes: a stream that never ends must not keep the command.
const pastLimitIdle = time.Second

// errIdlePastLimit stops the reading of standard input past -timeout.
var errIdlePastLimit = errors.New("no line came within a second of the time limit")

// solveInput solves the positions of standard input, one a line, and
// prints their results. Past -timeout (ctx's deadline; outer is ctx
// without it) each line that comes still gets its line, line for line
// with the input, as arguments do: its bounds, or its score where that
// takes no search. Reading stops at the end of the input, at an
// interrupt, or when no line came for pastLimitIdle past the limit; what
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
			idle.Store(time.AfterFunc(pastLimitIdle, func() { stopRead(errIdlePastLimit) }))
		}
	})()
	late := 0 // lines read past the time limit
	b := newBatch(ctx, c)
	b.counting = c.terminal && !isTerminal(std.in) // a count would mix with what is typed
	err := scanInput(read, std.in, c.format, func(l posfile.Line, more bool) bool {
		if ctx.Err() != nil {
			late++
			if t := idle.Load(); t != nil {
				t.Reset(pastLimitIdle)
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

// runVerify is the verify command.
func runVerify(ctx context.Context, fs *flagSet, args []string, std stdio) error {
	var opt options
	opt.register(fs, true)
	if st, ok := fs.parseAll(args); !ok {
		return exit(st)
	}
	files := fs.Args()
	if len(files) == 0 {
		return errors.New("no files given")
	}
	c, err := newCommand(fs.Name(), opt, std, nil)
	if err != nil {
		return err
	}
	ctx, cancel := c.withTimeout(ctx)
	defer cancel()
	defer c.startLog(fs.Name(), "position", "done", 0, std.err)()
	return exit(c.verify(ctx, files, std.in))
}

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
	// tableFileFailed is set by tableFile's OnError, once a write of it
	// failed.
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

// openTableFile opens -table-file, if given, for a board of size z, and
// hands it to the solver with use; it says on stderr what it loaded, and
// what it skipped or removed. From then on, stderr is shared with the
// search workers, which report there the first write of the file that
// fails, when it fails.
func (c *command) openTableFile(z board.Size, use func(*solver.TableFile) error) error {
	name := c.opt.tableFile
	if name == "" {
		return nil
	}
	tf, err := solver.OpenTableFile(name, z)
	if err != nil {
		return fmt.Errorf("-table-file: %w", err)
	}
	stderr := &syncWriter{w: c.stderr}
	tf.OnError = func(err error) {
		c.tableFileFailed = true // read after Close, which takes tf's lock
		fmt.Fprintf(stderr, "%s: -table-file %s: %v; the entries found from now on are not kept, and c4solve will exit with status 2\n", c.name, name, err)
	}
	if err := use(tf); err != nil {
		tf.Close()
		return fmt.Errorf("-table-file %s: %w", name, err)
	}
	c.tableFile, c.stderr = tf, stderr
	notes := []string{fmt.Sprintf("%s: table file %s: %d entries loaded", c.name, name, tf.Loaded)}
	if tf.Damaged > 0 {
		notes = append(notes, fmt.Sprintf("%s (checksum fails) skipped", plural(tf.Damaged, "damaged record")))
	}
	if tf.Invalid > 0 {
		notes = append(notes, fmt.Sprintf("%s that cannot be of a %v board (bounds, move or key out of range) skipped", plural(tf.Invalid, "record"), z))
	}
	switch {
	case tf.CutTail > 0 && tf.ReadOnly:
		notes = append(notes, fmt.Sprintf("a last record cut short (%d bytes) ignored", tf.CutTail))
	case tf.CutTail > 0:
		notes = append(notes, fmt.Sprintf("a last record cut short (%d bytes, a write cut by a kill or a full disk) removed from the file", tf.CutTail))
	}
	if tf.ReadOnly {
		notes = append(notes, "the file is read-only here: the entries of this run will not be kept")
	}
	fmt.Fprintln(c.stderr, strings.Join(notes, "; "))
	return nil
}

// closeTableFile writes out and closes -table-file, if any, and says how
// many entries it added. A write that failed (reported when it failed)
// makes the exit status 2.
func (c *command) closeTableFile() {
	tf := c.tableFile
	if tf == nil {
		return
	}
	c.tableFile = nil
	err := tf.Close()
	written, lost := tf.Written()
	switch {
	case c.tableFileFailed:
		fmt.Fprintf(c.stderr, "%s: table file %s: %d entries added, %d not kept (a write failed)\n", c.name, c.opt.tableFile, written, lost)
		c.fail(exitBad)
	case err != nil:
		c.bad(fmt.Errorf("-table-file %s: %w", c.opt.tableFile, err))
	case !tf.ReadOnly:
		fmt.Fprintf(c.stderr, "%s: table file %s: %d entries added\n", c.name, c.opt.tableFile, written)
	}
}

// syncWriter is a Writer that a mutex guards: the stderr of a command with
// a table file, whose workers may write to it beside the command.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.Write(p)
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

// checkArguments refuses, before anything is solved, a flag after the
// positions, which would be ignored, and a first argument that is a
// command misspelt: a word of letters that is no position on the board,
// and is near a command's name, or has no letter that is a column of the
// board. Every other argument is a position: one with a bad move is left
// to the batch, which reports it with its own error and solves the
// others.
func checkArguments(args []string, afterDashes bool, opt options, fs *flagSet) error {
	format, err := opt.size.format(opt.from0)
	if err != nil {
		return err
	}
	for i, a := range args {
		if len(a) > 1 && a[0] == '-' && !afterDashes {
			return fmt.Errorf("argument %d %q: flags go before the positions (c4solve [flags] MOVES ...)", i+1, a)
		}
	}
	if a := args0(args); len(a) > 1 && !afterDashes && strings.Trim(a, "abcdefghijklmnopqrstuvwxyz") == "" {
		if _, err := format.Position(a); err != nil {
			return unknownCommand(a, format, fs)
		}
	}
	return nil
}

// unknownCommand is the error for word, a first argument that is no
// position on format's board, where it is a command misspelt: near a
// command's name (isNear: letters wrong, missing, extra or swapped),
// or with no letter that is a column, naming what it most likely
// misspells, a command or a flag of solving ("analyze" is -analyze). It
// is nil where word is a position with a bad move.
func unknownCommand(word string, format posfile.Format, fs *flagSet) error {
	if word == "solve" {
		return fmt.Errorf("unknown command %q: solving takes no command word (c4solve 4453)", word)
	}
	near, nearest := "", 3
	for _, c := range append(subcommands, helpDoc) {
		if d := editDistance(word, c.word()); d < nearest && isNear(d, word) {
			near, nearest = c.word(), d
		}
	}
	if near == "" && hasColumn(word, format) {
		return nil // a position, reported as one
	}
	fs.VisitAll(func(f *flag.Flag) {
		if d := editDistance(word, f.Name); d < nearest && isNear(d, word) {
			near, nearest = "-"+f.Name, d
		}
	})
	if near == "" {
		return fmt.Errorf("unknown command %q (the commands are %s; c4solve -h lists them and the flags)", word, names(append(subcommands, helpDoc)))
	}
	return fmt.Errorf("unknown command %q (did you mean %s?)", word, near)
}

// hasColumn reports whether a letter of word is a column of format's
// board (a, b, c, ... are columns 10, 11, 12, ... of a wide one).
func hasColumn(word string, format posfile.Format) bool {
	for _, r := range word {
		if _, err := format.Position(string(r)); err == nil {
			return true
		}
	}
	return false
}

// editDistance is the optimal string alignment distance of a and b: the
// fewest letters inserted, deleted, changed or swapped with a neighbour
// that turn one into the other.
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// solveLine solves one position and prints its result: its score, or
// with -analyze each move's, and with -pv a line of perfect play.
func (c *command) solveLine(ctx context.Context, where string, l posfile.Line) {
	start := time.Now()
	stop := c.showProgress()
	endLog := c.log.begin(where+" "+posfile.Spell(l.Moves), c.s)
	r := result{Pos: posfile.Spell(l.Moves)}
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
func (c *command) conclude(ctx context.Context, where string, l posfile.Line, r *result, sr solver.Result, err error) {
	if err != nil {
		c.solveError(ctx, where, l.Moves, err)
		if !errors.Is(err, solver.ErrGameOver) {
			r.Scores, r.Best, r.PV = nil, nil, ""
			r.Lower, r.Upper, r.Incomplete = &sr.Lower, &sr.Upper, true
			c.emit(r, r.line())
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
	c.emit(r, r.line())
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

// progressDelay is how long a solve runs before progress is shown: quick
// solves show none. (A variable: tests shorten it.)
var progressDelay = time.Second

// showProgress shows, while a solve runs and stderr is a terminal, its
// elapsed time, nodes, node rate and score bounds, refreshed in place. It
// returns the function that ends the display; no goroutine outlives it.
func (c *command) showProgress() (stop func()) {
	if !c.terminal || c.s == nil {
		return func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		start := time.Now()
		tick := time.NewTicker(progressDelay / 4)
		defer tick.Stop()
		var bar *progressbar.ProgressBar
		for {
			select {
			case <-done:
				if bar != nil {
					bar.Clear()
					clearLine(c.stderr)
				}
				return
			case <-tick.C:
			}
			d := time.Since(start)
			if d < progressDelay {
				continue
			}
			if bar == nil {
				// The spinner turns with each tick of this loop: with
				// its own interval the bar renders from a goroutine of
				// its own, which would outlive stop and write after it.
				bar = progressbar.NewOptions(-1, progressbar.OptionSetWriter(c.stderr),
					progressbar.OptionSpinnerType(14), progressbar.OptionSetElapsedTime(true),
					progressbar.OptionSetSpinnerChangeInterval(0))
			}
			nodes, lo, hi := c.s.Progress()
			bar.Describe(fmt.Sprintf("%d nodes  %.2f M nodes/s  %d <= score <= %d",
				nodes, float64(nodes)/d.Seconds()/1e6, lo, hi))
			bar.Add(1)
		}
	})
	return func() {
		close(done)
		wg.Wait()
	}
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

// verify checks each file and prints its mismatches and summary; the
// file "-" is stdin, standard input.
func (c *command) verify(ctx context.Context, files []string, stdin io.Reader) int {
	opt := bench.Options{Weak: c.opt.weak, Cold: !c.opt.warm}
	c.s.ClearAll()
	for _, name := range files {
		var f io.ReadCloser = io.NopCloser(stdin)
		var err error
		if name != "-" {
			f, err = openInput(ctx, name)
		}
		if err != nil && ctx.Err() != nil {
			fmt.Fprintf(c.stderr, "c4solve verify: %v\n", err)
			c.fail(exitIncomplete)
			break
		}
		if err != nil {
			c.bad(err)
			continue
		}
		var st bench.Stats
		var stopped *bench.Outcome // the solve under way when ctx ended
		// from0 is set at the first line with a column 0 while columns are
		// numbered from 1: the file is numbered from 0, and one hint says
		// so instead of an error a line and a MISMATCH for each line that
		// reads as another position.
		from0 := false
		// Read in a goroutine of its own (scanInput), so that a signal
		// stops verify even while it waits for a line of a pipe.
		err = scanInput(ctx, f, c.format, func(l posfile.Line, _ bool) bool {
			if from0 {
				return false // the rest of the file is not read as it is written
			}
			endLog := c.log.begin(fmt.Sprintf("%s:%d %s", name, l.Num, posfile.Spell(l.Moves)), c.s)
			o, err := bench.Solve(ctx, c.s, l, opt)
			endLog()
			c.log.count()
			if err != nil {
				c.solveError(ctx, fmt.Sprintf("%s:%d", name, l.Num), l.Moves, err)
				if ctx.Err() != nil && !errors.Is(err, solver.ErrGameOver) {
					stopped = &o
				}
				return ctx.Err() == nil
			}
			if !l.HasScore {
				c.bad(fmt.Errorf("%s:%d: no expected score", name, l.Num))
			}
			st.Add(o.Time, o.Nodes, o.Mismatch)
			st.Expanded += o.Expanded
			if o.Mismatch {
				c.emit(verifyMismatch{name, l.Num, posfile.Spell(l.Moves), l.Expected, o.Score, true},
					fmt.Sprintf("MISMATCH %s:%d %s expected=%d got=%d", name, l.Num, posfile.Spell(l.Moves), l.Expected, o.Score))
				c.fail(exitMismatch)
			}
			c.stats(l.Moves, o.Nodes, o.Expanded, o.Time)
			if c.terminal {
				fmt.Fprintf(c.stderr, "\r%s: %d positions, %d mismatches, mean %v ", name, st.Positions, st.Mismatches, st.Mean())
			}
			return true
		}, func(e *posfile.LineError) {
			switch {
			case from0: // said once
			case !c.format.From0 && strings.Contains(e.Moves, "0"):
				from0 = true
				c.bad(fmt.Errorf("%s:%d: a column 0 in %s: the file numbers its columns from 0, as Steininger's do: verify -from0 reads it so; the rest of it is not checked%s",
					name, e.Num, e.Moves, mismatchesAbove(st.Mismatches)))
			default:
				c.bad(fmt.Errorf("%s:%d: %w", name, e.Num, e.Err))
			}
		})
		f.Close()
		if c.terminal {
			clearLine(c.stderr)
		}
		if err != nil && ctx.Err() == nil {
			c.bad(fmt.Errorf("reading %s: %w", name, err))
			continue // unreadable: no summary of what could be read
		}
		incomplete := ctx.Err() != nil
		if incomplete && stopped == nil && c.status < exitIncomplete {
			// Stopped while waiting for a line: no solve said so.
			fmt.Fprintf(c.stderr, "c4solve verify: %s: %s while waiting for a line\n", name, stopReason(ctx, ctx.Err()))
			c.fail(exitIncomplete)
		}
		if o := stopped; o != nil { // its bounds, as a stopped solve prints them
			c.emit(verifyStopped{name, o.Line.Num, o.Line.Moves, o.Lower, o.Upper, true},
				fmt.Sprintf("%s:%d %s incomplete %d <= score <= %d", name, o.Line.Num, o.Line.Moves, o.Lower, o.Upper))
		}
		summary := name + " " + st.String()
		if incomplete {
			summary += " incomplete"
		}
		c.emit(verifySummary(name, &st, incomplete), summary)
		if incomplete {
			break // the files after it are not begun
		}
	}
	return c.status
}

// mismatchesAbove is what the hint of a file numbered from 0 says of the n
// mismatches printed before it: lines read as other positions.
func mismatchesAbove(n int) string {
	switch n {
	case 0:
		return ""
	case 1:
		return " (the MISMATCH above is likely a line read as another position)"
	}
	return fmt.Sprintf(" (the %d MISMATCH lines above are likely lines read as other positions)", n)
}

// plural returns n and noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
