package main

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"

	"c4solve/board"
	"c4solve/book"
	"c4solve/internal/atomicfile"
	"c4solve/posfile"
)

// bookCommands are book's subcommands, in the order its help lists them.
var bookCommands = []*subcommand{
	{path: "c4solve book generate", args: "[flags] -depth D -o FILE", short: "solve every position of at most D stones", long: bookGenerateHelp, run: runBookGenerate},
	{path: "c4solve book merge", args: "-o FILE PART ...", short: "join the parts of a sharded generate", long: bookMergeHelp, run: runBookMerge},
	{path: "c4solve book info", args: "[FILE]", short: "header and positions per depth (FILE\nomitted: the built-in book)", long: bookInfoHelp, run: runBookInfo},
	{path: "c4solve book verify", args: "[flags] [FILE]", short: "check the checksum and re-solve a sample\n(FILE omitted: the built-in book)", long: bookVerifyHelp, run: runBookVerify},
	{path: "c4solve book sample", args: "[flags] [FILE]", short: "print a random sample as \"moves score\"\nlines, to check with another solver", long: bookSampleHelp, run: runBookSample},
}

// bookAbout is what book's help says after the list of its commands.
const bookAbout = `An opening book holds the exact score of every position of at most D
stones (mirror images once, finished games left out). c4solve answers
from its built-in book unless given -book FILE or -nobook.

` + bookGenerateAbout + `
A book records its board: info, verify, sample and merge read it from the
file, and c4solve -size WxH -book FILE solves from it. Each command's
flags: c4solve book CMD -h.

Exit status: 0 ok, 1 verify found a wrong score, 2 bad usage or a bad file,
3 interrupted.
`

// bookGenerateAbout is how generate works, in book's help and its own.
const bookGenerateAbout = `generate solves the positions of exactly D stones and takes the scores of
shallower ones from their children. It records each solved position in a
checkpoint file (FILE.checkpoint) at once; run the same command again after
an interruption and it goes on from there. On a terminal, a progress bar
shows the positions solved, the rate and the time left; elsewhere a line
every 10s says them (-quiet: neither). With -shard K/N it
solves only shard K of N and writes a part; "book merge" joins the N parts
into the book one run would make. Where a book (the built-in one, or
-book FILE) holds the positions of D-1 stones, each position is solved
knowing it scores at least minus its parent's score, and the parent's
best moves take one probe: a book one stone deeper than the built-in one
takes about a fifth less time (docs/book.md). -nobook searches without.

-size WxH makes a book of another board (of at most 128 bits) the same
way: shards, checkpoint, progress and -book, which there must be a book of
that board (the built-in book is of 7x6, so without -book no solve is
bounded).
`

// The helps of book's commands, each its own.
const (
	bookGenerateHelp = `Solves every position of at most D stones (of the 7x6 board, or of -size
WxH) and writes them as a book to FILE.

` + bookGenerateAbout + `
Exit status: 0 ok, 2 bad usage or a bad file, 3 interrupted (run the same
command again to go on).
`
	bookMergeHelp = `Joins the N parts that "book generate -shard K/N" wrote, all of one board,
depth and root, into the book one run would have made, and writes it to
FILE. A part missing, repeated or of another book is refused.

Exit status: 0 ok, 2 bad usage or a bad part.
`
	bookInfoHelp = `Prints the header of the book FILE (or of the built-in book): its format
version, board, depth, root, shard, positions and bytes, then a line of
positions for each number of stones.

Exit status: 0 ok, 2 a bad file.
`
	bookVerifyHelp = `Checks the checksum of the book FILE (or of the built-in book), then
solves -n of its positions drawn at random with the search alone and
compares their scores with the book's; each difference is printed as a
MISMATCH line.

Exit status: 0 ok, 1 a wrong score, 2 bad usage or a bad file, 3
interrupted.
`
	bookSampleHelp = `Prints -n positions of the book FILE (or of the built-in book), drawn at
random, as "moves score" lines, the format of the benchmark files: to
check the book with another solver, or to benchmark on.

Exit status: 0 ok, 2 bad usage or a bad file.
`
)

// bookUsage is book's help: its commands, then bookAbout.
func bookUsage() string { return "Usage:\n" + commandList(bookCommands...) + "\n" + bookAbout }

// sameFile reports whether the names a and b are one file: the same
// existing file, or, where either does not exist yet, the same path.
func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(fa, fb)
	}
	absA, errA := filepath.Abs(a)
	absB, errB := filepath.Abs(b)
	return errA == nil && errB == nil && absA == absB
}

func runBook(ctx context.Context, _ *flagSet, args []string, std stdio) error {
	if len(args) == 0 {
		fmt.Fprint(std.err, bookUsage())
		return exit(exitBad)
	}
	if args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		fmt.Fprint(std.out, bookUsage())
		return nil
	}
	cmd, err := lookup(bookCommands, args[0])
	if err != nil {
		return err
	}
	return exit(status(std.err, cmd.path, cmd.run(ctx, cmd.flagSet(std), args[1:], std)))
}

func runBookGenerate(ctx context.Context, fs *flagSet, args []string, std stdio) error {
	depth := fs.Int("depth", -1, "the most stones of a position in the book (required)")
	out := fs.String("o", "", "write the book, or the part, to `FILE` (required)")
	from := fs.String("from", "", "only positions that extend these `MOVES`")
	shard := fs.String("shard", "", "solve only shard `K/N` (1 <= K <= N) and write it as a part")
	var search searchFlags
	search.register(fs.FlagSet)
	ckName := fs.String("checkpoint", "", "checkpoint `FILE` (default: the output name + .checkpoint)")
	var size sizeFlag
	fs.Var(&size, "size", "a book of a board of `WxH`, as 5x5 or 8x8, instead of 7x6")
	var parents bookFlags
	fs.StringVar(&parents.name, "book", "", "bound the solves by the opening book in `FILE` instead of the built-in one (see above)")
	fs.BoolVar(&parents.off, "nobook", false, "bound no solve by a book")
	quiet := fs.Bool("quiet", false, quietUsage)
	if st, ok := fs.parseAll(args); !ok {
		return exit(st)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	depthGiven := false
	fs.Visit(func(f *flag.Flag) { depthGiven = depthGiven || f.Name == "depth" })
	switch {
	case !depthGiven:
		return errors.New("-depth is required: the most stones of a position in the book, as -depth 4")
	case *depth < 0:
		return fmt.Errorf("-depth %d: want 0 or more stones", *depth)
	case *out == "":
		return errors.New("-o is required: the FILE to write the book to, as -o book.c4book")
	}
	opt := book.Options{Size: size.board(), Depth: *depth, Root: *from, Threads: search.threads, Checkpoint: cmp.Or(*ckName, *out+".checkpoint")}
	if *shard != "" {
		ks, ns, found := strings.Cut(*shard, "/")
		k, errK := strconv.Atoi(ks)
		n, errN := strconv.Atoi(ns)
		if !found || errK != nil || errN != nil || n < 1 || n > 255 || k < 1 || k > n {
			return fmt.Errorf("-shard %q: want K/N with 1 <= K <= N <= 255", *shard)
		}
		opt.Shard, opt.Shards = k, n
	}
	if err := search.check(); err != nil {
		return err
	}
	bounds, err := parents.loadBook(size.board())
	if err != nil {
		return err
	}
	parentsName := "none"
	if bounds != nil && bounds.Depth() >= *depth-1 {
		opt.Parents, parentsName = bounds, cmp.Or(parents.name, "(built in)")
	}
	// Refuse an output that cannot be written before hours of work.
	if _, err := atomicfile.Check(*out); err != nil {
		return fmt.Errorf("-o: %v", err)
	}
	if sameFile(*out, opt.Checkpoint) {
		return fmt.Errorf("-o %s and -checkpoint %s are the same file: the book would replace the checkpoint it is made from", *out, opt.Checkpoint)
	}
	// The table is made by package book, of the size that fits.
	mib, err := fitTable(search.ttMiB, search.threads, search.explicitTT(), std.err)
	if err != nil {
		return err
	}
	opt.TableMiB = mib
	if limit := processMemoryLimit().Bytes; limit > 0 {
		opt.MemoryBytes = limit - min(limit, uint64(mib)<<20) // what the table leaves
	}
	start := time.Now()
	var total int
	var known knownScores
	opt.Known = func(resumed, copied int) { known = knownScores{resumed, copied} }
	// On a terminal a progress bar with counts, rate and ETA; elsewhere (a
	// log, a batch job) a line every progressEvery; none with -quiet.
	show := func(int, int) {}
	switch {
	case *quiet:
	case isTerminal(std.err):
		show = bookProgress(std.err, &known)
	default:
		std.err = &syncWriter{w: std.err} // written by the ticks too
		var tick func()
		show, tick = bookLog(std.err, fs.Name(), progressEvery, time.Now, &known)
		defer every(progressEvery, tick)()
	}
	opt.Progress = func(done, all int) {
		total = all
		show(done, all)
	}
	bk, err := book.Generate(ctx, opt)
	show(-1, 0)
	if err != nil {
		if ctx.Err() != nil {
			return failed(exitIncomplete, fmt.Errorf("interrupted; the solved positions are in %s: run the same command again to go on", opt.Checkpoint))
		}
		return err
	}
	if err := bk.WriteFile(*out); err != nil {
		return fmt.Errorf("%v; the solved positions are still in %s: run the same command again to write the book", err, opt.Checkpoint)
	}
	if err := os.Remove(opt.Checkpoint); err != nil && !errors.Is(err, os.ErrNotExist) {
		fmt.Fprintf(std.err, "%s: %v\n", fs.Name(), err)
	}
	took := time.Since(start)
	solved := total - known.resumed - known.copied
	fmt.Fprintf(std.out, "book=%s board=%v depth=%d positions=%d bytes=%d solved=%d copied=%d resumed=%d time=%v solved_per_hour=%.0f parents=%q\n",
		*out, bk.Board(), bk.Depth(), bk.Len(), bk.Size(), solved, known.copied, known.resumed, took.Round(time.Millisecond), float64(solved)/took.Hours(), parentsName)
	return nil
}

// knownScores are the positions of a book whose score generation knows
// before any solve (book.Options.Known): resumed from the checkpoint, and
// copied from the parents' book.
type knownScores struct{ resumed, copied int }

// setApart says, for the first line of the progress, what of the
// positions done this run did not solve.
func (k *knownScores) setApart() string {
	var parts []string
	if k.copied > 0 {
		parts = append(parts, fmt.Sprintf("%d copied from the book", k.copied))
	}
	if k.resumed > 0 {
		parts = append(parts, fmt.Sprintf("%d solved before the resume", k.resumed))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// bookLog returns the progress of book generation as log lines on w:
// show, called with the positions done and in all (and with done -1 at
// the end), says at its first call the positions to solve, and known,
// those that need no solve; tick, called every 'every', says the
// positions done and in all, the rate and the time left, counting only
// what this run solved (not what it resumed or copied), or before the
// first show, that the positions are being listed. show and tick may be
// called from two goroutines; w must take their writes whole (a
// syncWriter).
func bookLog(w io.Writer, name string, every time.Duration, now func() time.Time, known *knownScores) (show func(done, total int), tick func()) {
	var mu sync.Mutex
	began := now()
	var start time.Time
	resumed, done, total := -1, 0, 0
	show = func(d, all int) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case d < 0:
		case resumed < 0:
			start, resumed, done, total = now(), d, d, all
			fmt.Fprintf(w, "%s: %d positions to solve%s", name, all-d, known.setApart())
			if all == d {
				fmt.Fprintln(w)
				break
			}
			fmt.Fprintf(w, ", a line of progress every %v\n", every)
		default:
			done, total = d, all
		}
	}
	tick = func() {
		mu.Lock()
		defer mu.Unlock()
		t := now()
		if resumed < 0 {
			fmt.Fprintf(w, "%s: %v so far, listing the positions of the book\n", name, t.Sub(began).Round(time.Second))
			return
		}
		took := t.Sub(start)
		fmt.Fprintf(w, "%s: %d of %d positions (%.1f%%), ", name, done, total, 100*float64(done)/float64(max(total, 1)))
		if done == resumed {
			fmt.Fprintf(w, "none solved yet, %v so far\n", took.Round(time.Second))
			return
		}
		rate := float64(done-resumed) / took.Hours()
		left := time.Duration(float64(total-done) / rate * float64(time.Hour))
		fmt.Fprintf(w, "%.0f an hour, %v so far, about %v left\n", rate, took.Round(time.Second), left.Round(time.Second))
	}
	return show, tick
}

// bookProgress returns the progress display of book generation on w:
// called with the positions done and in all, and with done -1 at the end.
// Positions done before a resume or copied, known, are set apart, so that
// the rate and the time left count only what this run solves.
func bookProgress(w io.Writer, known *knownScores) func(done, total int) {
	var bar *progressbar.ProgressBar
	resumed := 0
	return func(done, total int) {
		switch {
		case done < 0:
			if bar != nil {
				bar.Exit()
				fmt.Fprintln(w)
			}
		case bar == nil:
			resumed = done
			desc := "positions" + known.setApart()
			bar = progressbar.NewOptions(total-resumed,
				progressbar.OptionSetWriter(w),
				progressbar.OptionSetDescription(desc),
				progressbar.OptionShowCount(),
				progressbar.OptionShowIts(),
				progressbar.OptionSetItsString("pos"),
				progressbar.OptionSetPredictTime(true),
				progressbar.OptionThrottle(200*time.Millisecond))
		default:
			bar.Set(done - resumed)
		}
	}
}

func runBookMerge(_ context.Context, fs *flagSet, args []string, std stdio) error {
	out := fs.String("o", "", "write the merged book to `FILE` (required)")
	if st, ok := fs.parseAll(args); !ok {
		return exit(st)
	}
	if *out == "" || fs.NArg() == 0 {
		return errors.New("want -o FILE and the part files")
	}
	if _, err := atomicfile.Check(*out); err != nil {
		return fmt.Errorf("-o: %v", err)
	}
	if slices.ContainsFunc(fs.Args(), func(name string) bool { return sameFile(*out, name) }) {
		return fmt.Errorf("-o %s is one of the parts to merge: the book would replace a part it is made from", *out)
	}
	var parts []*book.Book
	for _, name := range fs.Args() {
		p, err := book.ReadFile(name)
		if err != nil {
			return err
		}
		parts = append(parts, p)
	}
	bk, err := book.Merge(parts...)
	if err != nil {
		return err
	}
	if err := bk.WriteFile(*out); err != nil {
		return err
	}
	fmt.Fprintf(std.out, "book=%s depth=%d positions=%d parts=%d\n", *out, bk.Depth(), bk.Len(), len(parts))
	return nil
}

func runBookInfo(_ context.Context, fs *flagSet, args []string, std stdio) error {
	if st, ok := fs.parseAll(args); !ok {
		return exit(st)
	}
	if fs.NArg() > 1 {
		return errors.New("want at most one file")
	}
	name, bk, err := openBook(fs)
	if err != nil {
		return err
	}
	shard := "whole"
	if k, n := bk.Shard(); n > 0 {
		shard = fmt.Sprintf("%d/%d", k, n)
	}
	fmt.Fprintf(std.out, "book=%q version=%d board=%v depth=%d root=%q shard=%s positions=%d bytes=%d\n",
		name, bk.FormatVersion(), bk.Board(), bk.Depth(), bk.Root(), shard, bk.Len(), bk.Size())
	for n, c := range bk.Counts() {
		if c > 0 {
			fmt.Fprintf(std.out, "stones=%d positions=%d\n", n, c)
		}
	}
	return nil
}

// openBook reads the book named by the one argument, or the built-in book.
func openBook(fs *flagSet) (name string, bk *book.Book, err error) {
	if fs.NArg() == 0 {
		bk, err = book.Default()
		return "(built in)", bk, err
	}
	bk, err = book.ReadFile(fs.Arg(0))
	return fs.Arg(0), bk, err
}

// checkSample checks the arguments of sample and verify: at most one book
// file, and a sample of n >= 0 entries.
func checkSample(fs *flagSet, n int) error {
	if fs.NArg() > 1 {
		return errors.New("want at most one book file")
	}
	if n < 0 {
		return fmt.Errorf("-n %d: want 0 or more", n)
	}
	return nil
}

// runBookSample prints entries drawn at random, each as moves that reach
// it and its score: the benchmark files' format, which another solver can
// check (compare/README.md).
func runBookSample(_ context.Context, fs *flagSet, args []string, std stdio) error {
	n := fs.Int("n", 20, "positions to print, drawn at random")
	stones := fs.Int("stones", -1, "only positions of this many stones (-1: any)")
	seed := fs.Uint64("seed", 0, "random seed (0: from the clock)")
	if st, ok := fs.parseAll(args); !ok {
		return exit(st)
	}
	if err := checkSample(fs, *n); err != nil {
		return err
	}
	name, bk, err := openBook(fs)
	if err != nil {
		return err
	}
	if *stones > bk.Depth() {
		return fmt.Errorf("-stones %d: the book %s holds positions of at most %d stones", *stones, name, bk.Depth())
	}
	*seed = cmp.Or(*seed, uint64(time.Now().UnixNano()))
	lines, scores, err := bk.Sample(*n, *stones, rand.New(rand.NewPCG(*seed, 0)))
	if err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	// Standard output is the lines alone, which other solvers' drivers read.
	fmt.Fprintf(std.err, "%s: book=%s stones=%d seed=%d positions=%d\n", fs.Name(), name, *stones, *seed, len(lines))
	w := bufio.NewWriter(std.out)
	for i, line := range lines {
		fmt.Fprintf(w, "%s %d\n", posfile.Spell(board.FormatColumns(line, false)), scores[i])
	}
	return w.Flush()
}

func runBookVerify(ctx context.Context, fs *flagSet, args []string, std stdio) error {
	sample := fs.Int("n", 20, "positions to re-solve, drawn at random")
	seed := fs.Uint64("seed", 0, "random seed (0: from the clock)")
	var search searchFlags
	search.register(fs.FlagSet)
	quiet := fs.Bool("quiet", false, quietUsage)
	if st, ok := fs.parseAll(args); !ok {
		return exit(st)
	}
	if err := checkSample(fs, *sample); err != nil {
		return err
	}
	if err := search.check(); err != nil {
		return err
	}
	name, bk, err := openBook(fs)
	if err != nil {
		return err
	}
	*seed = cmp.Or(*seed, uint64(time.Now().UnixNano()))
	s, err := newSolver(bk.Board(), search.ttMiB, search.explicitTT(), search.threads, nil, std.err) // no book: a real search
	if err != nil {
		return err
	}
	// A sample takes seconds a position (a solve with no book): on a
	// terminal, say how far it is.
	total := min(*sample, bk.Len())
	terminal := isTerminal(std.err) && total > 0 && !*quiet
	bar := rowProgress(terminal, std.err, "positions checked", total)
	log, stderr := startLog(std.err, *quiet, fs.Name(), "position", "checked", total)
	std.err = stderr
	under := func(checked int) { // the position under way, for the log
		if checked < total {
			log.begin(fmt.Sprintf("position %d", checked+1), s)
		}
	}
	under(0)
	mismatches, n, err := bk.Verify(ctx, s, *sample, rand.New(rand.NewPCG(*seed, 0)), func(checked int) {
		bar.Add(1)
		log.count()
		under(checked)
	})
	log.stop()
	if terminal {
		bar.Clear()
		clearLine(std.err)
	}
	status := exitOK
	for _, m := range mismatches {
		line, _ := m.Position.Line() // the book's entries are checked when read
		fmt.Fprintf(std.out, "MISMATCH %s pos=%s book=%d solved=%d\n", name, board.FormatColumns(line, false), m.Book, m.Solved)
		status = exitMismatch
	}
	if err != nil && ctx.Err() != nil {
		return failed(exitIncomplete, fmt.Errorf("%s: %s after %d of %d positions checked, %d of them wrong",
			name, stopReason(ctx, err), n, total, len(mismatches)))
	}
	if err != nil {
		return failed(exitIncomplete, err)
	}
	fmt.Fprintf(std.out, "book=%s board=%v checksum=ok checked=%d mismatches=%d seed=%d\n", name, bk.Board(), n, len(mismatches), *seed)
	return exit(status)
}
