package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"

	"c4solve/board"
	"c4solve/book"
	"c4solve/internal/atomicfile"
	"c4solve/solver"
)

const bookUsage = `Usage:
  c4solve book generate [flags] -depth D -o FILE   solve every position of at most D stones
  c4solve book merge -o FILE PART ...              join the parts of a sharded generate
  c4solve book info [FILE]                         header and positions per depth (FILE
                                                   omitted: the built-in book)
  c4solve book verify [flags] [FILE]               check the checksum and re-solve a sample
                                                   (FILE omitted: the built-in book)
  c4solve book sample [flags] [FILE]               print a random sample as "moves score"
                                                   lines, to check with another solver

An opening book holds the exact score of every position of at most D
stones (mirror images once, finished games left out). c4solve answers
from its built-in book unless given -book FILE or -nobook.

generate solves the positions of exactly D stones and takes the scores of
shallower ones from their children. It records each solved position in a
checkpoint file (FILE.checkpoint) at once; run the same command again after
an interruption and it goes on from there. On a terminal, a progress bar
shows the positions solved, the rate and the time left. With -shard K/N it solves only
shard K of N and writes a part; "book merge" joins the N parts into the book
one run would make.

Exit status: 0 ok, 1 verify found a wrong score, 2 bad usage or a bad file,
3 interrupted.
`

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

// runBook is the book command.
func runBook(ctx context.Context, args []string, std stdio) error {
	stdout, stderr := std.out, std.err
	if len(args) == 0 {
		fmt.Fprint(stderr, bookUsage)
		return exit(exitBad)
	}
	if args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
		fmt.Fprint(stdout, bookUsage)
		return nil
	}
	cmd, args := args[0], args[1:]
	fs := newFlagSet("c4solve book "+cmd, bookUsage, stdout, stderr)
	b := &bookCommand{name: "c4solve book " + cmd, stdout: stdout, stderr: stderr}
	switch cmd {
	case "generate":
		return exit(b.generate(ctx, fs, args))
	case "merge":
		return exit(b.merge(fs, args))
	case "info":
		return exit(b.info(fs, args))
	case "verify":
		return exit(b.verify(ctx, fs, args))
	case "sample":
		return exit(b.sample(fs, args))
	}
	return fmt.Errorf("unknown command %q (want generate, merge, info, verify or sample)", cmd)
}

type bookCommand struct {
	name           string
	stdout, stderr io.Writer
}

func (b *bookCommand) fail(st int, format string, a ...any) int {
	return report(b.stderr, b.name, st, fmt.Errorf(format, a...))
}

func (b *bookCommand) generate(ctx context.Context, fs *flagSet, args []string) int {
	depth := fs.Int("depth", -1, "the most stones of a position in the book (required)")
	out := fs.String("o", "", "write the book, or the part, to `FILE` (required)")
	from := fs.String("from", "", "only positions that extend these `MOVES`")
	shard := fs.String("shard", "", "solve only shard `K/N` (1 <= K <= N) and write it as a part")
	var search searchFlags
	search.register(fs.FlagSet)
	ckName := fs.String("checkpoint", "", "checkpoint `FILE` (default: the output name + .checkpoint)")
	if st, ok := fs.parse(args); !ok {
		return st
	}
	if fs.NArg() > 0 {
		return b.fail(exitBad, "unexpected argument %q", fs.Arg(0))
	}
	if *depth < 0 || *out == "" {
		return b.fail(exitBad, "-depth and -o are required")
	}
	opt := book.Options{Depth: *depth, Root: *from, Threads: search.threads, Checkpoint: *ckName}
	if *shard != "" {
		k, n, ok := parseShard(*shard)
		if !ok {
			return b.fail(exitBad, "-shard %q: want K/N with 1 <= K <= N <= 255", *shard)
		}
		opt.Shard, opt.Shards = k, n
	}
	if err := search.check(); err != nil {
		return b.fail(exitBad, "%v", err)
	}
	if opt.Checkpoint == "" {
		opt.Checkpoint = *out + ".checkpoint"
	}
	// Refuse an output that cannot be written before hours of work.
	if _, err := atomicfile.Check(*out); err != nil {
		return b.fail(exitBad, "-o: %v", err)
	}
	if sameFile(*out, opt.Checkpoint) {
		return b.fail(exitBad, "-o %s and -checkpoint %s are the same file: the book would replace the checkpoint it is made from", *out, opt.Checkpoint)
	}
	tt, err := search.table(search.threads, b.stderr)
	if err != nil {
		return b.fail(exitBad, "%v", err)
	}
	opt.Table = tt
	start := time.Now()
	var total, resumed int
	show := b.progress()
	opt.Progress = func(done, all int) {
		if total == 0 {
			total, resumed = all, done
		}
		show(done, all)
	}
	bk, err := book.Generate(ctx, opt)
	show(-1, 0)
	if err != nil {
		if ctx.Err() != nil {
			return b.fail(exitIncomplete, "interrupted; the solved positions are in %s: run the same command again to go on", opt.Checkpoint)
		}
		return b.fail(exitBad, "%v", err)
	}
	if err := bk.WriteFile(*out); err != nil {
		return b.fail(exitBad, "%v; the solved positions are still in %s: run the same command again to write the book", err, opt.Checkpoint)
	}
	if err := os.Remove(opt.Checkpoint); err != nil && !errors.Is(err, os.ErrNotExist) {
		fmt.Fprintf(b.stderr, "%s: %v\n", b.name, err)
	}
	fi, err := os.Stat(*out)
	if err != nil {
		return b.fail(exitBad, "%v", err)
	}
	took := time.Since(start)
	solved := total - resumed
	fmt.Fprintf(b.stdout, "book=%s depth=%d positions=%d bytes=%d solved=%d resumed=%d time=%v solved_per_hour=%.0f\n",
		*out, bk.Depth(), bk.Len(), fi.Size(), solved, resumed, took.Round(time.Millisecond), float64(solved)/took.Hours())
	return exitOK
}

// parseShard parses "K/N".
func parseShard(s string) (k, n int, ok bool) {
	ks, ns, found := strings.Cut(s, "/")
	k, err1 := strconv.Atoi(ks)
	n, err2 := strconv.Atoi(ns)
	if !found || err1 != nil || err2 != nil || n < 1 || n > 255 || k < 1 || k > n {
		return 0, 0, false
	}
	return k, n, true
}

// progress returns a function that shows generation progress on stderr
// when it is a terminal, as a progress bar with counts, rate and ETA.
// Calling it with done < 0 ends the display.
func (b *bookCommand) progress() func(done, total int) {
	if isTerminal(b.stderr) {
		return bookProgress(b.stderr)
	}
	return func(done, total int) {} // quiet when not watched
}

// bookProgress returns the progress display of book generation on w:
// called with the positions done and in all, and with done -1 at the end.
// Positions done before a resume are set apart, so that the rate and the
// time left count only what this run solves.
func bookProgress(w io.Writer) func(done, total int) {
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
			desc := "positions"
			if resumed > 0 {
				desc = fmt.Sprintf("positions (%d solved before the resume)", resumed)
			}
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

func (b *bookCommand) merge(fs *flagSet, args []string) int {
	out := fs.String("o", "", "write the merged book to `FILE` (required)")
	if st, ok := fs.parse(args); !ok {
		return st
	}
	if *out == "" || fs.NArg() == 0 {
		return b.fail(exitBad, "want -o FILE and the part files")
	}
	if _, err := atomicfile.Check(*out); err != nil {
		return b.fail(exitBad, "-o: %v", err)
	}
	for _, name := range fs.Args() {
		if sameFile(*out, name) {
			return b.fail(exitBad, "-o %s is one of the parts to merge: the book would replace a part it is made from", *out)
		}
	}
	var parts []*book.Book
	for _, name := range fs.Args() {
		p, err := book.ReadFile(name)
		if err != nil {
			return b.fail(exitBad, "%v", err)
		}
		parts = append(parts, p)
	}
	bk, err := book.Merge(parts...)
	if err != nil {
		return b.fail(exitBad, "%v", err)
	}
	if err := bk.WriteFile(*out); err != nil {
		return b.fail(exitBad, "%v", err)
	}
	fmt.Fprintf(b.stdout, "book=%s depth=%d positions=%d parts=%d\n", *out, bk.Depth(), bk.Len(), len(parts))
	return exitOK
}

func (b *bookCommand) info(fs *flagSet, args []string) int {
	if st, ok := fs.parse(args); !ok {
		return st
	}
	if fs.NArg() > 1 {
		return b.fail(exitBad, "want at most one file")
	}
	name, bk, err := b.open(fs)
	if err != nil {
		return b.fail(exitBad, "%v", err)
	}
	shard := "whole"
	if k, n := bk.Shard(); n > 0 {
		shard = fmt.Sprintf("%d/%d", k, n)
	}
	fmt.Fprintf(b.stdout, "book=%q version=%d board=%dx%d depth=%d root=%q shard=%s positions=%d bytes=%d\n",
		name, book.Version, board.Width, board.Height, bk.Depth(), bk.Root(), shard, bk.Len(), bk.Size())
	for n, c := range bk.Counts() {
		if c > 0 {
			fmt.Fprintf(b.stdout, "stones=%d positions=%d\n", n, c)
		}
	}
	return exitOK
}

// open reads the book named by the one argument, or the built-in book.
func (b *bookCommand) open(fs *flagSet) (name string, bk *book.Book, err error) {
	if fs.NArg() == 0 {
		bk, err = book.Default()
		return "(built in)", bk, err
	}
	bk, err = book.ReadFile(fs.Arg(0))
	return fs.Arg(0), bk, err
}

// sample prints entries drawn at random, each as moves that reach it and
// its score: the benchmark files' format, which another solver can check
// (compare/README.md).
func (b *bookCommand) sample(fs *flagSet, args []string) int {
	n := fs.Int("n", 20, "positions to print, drawn at random")
	stones := fs.Int("stones", -1, "only positions of this many stones (-1: any)")
	seed := fs.Uint64("seed", 0, "random seed (0: from the clock)")
	if st, ok := fs.parse(args); !ok {
		return st
	}
	if fs.NArg() > 1 {
		return b.fail(exitBad, "want at most one book file")
	}
	if *n < 0 {
		return b.fail(exitBad, "-n %d: want 0 or more", *n)
	}
	name, bk, err := b.open(fs)
	if err != nil {
		return b.fail(exitBad, "%v", err)
	}
	if *stones > bk.Depth() {
		return b.fail(exitBad, "-stones %d: the book %s holds positions of at most %d stones", *stones, name, bk.Depth())
	}
	if *seed == 0 {
		*seed = uint64(time.Now().UnixNano())
	}
	lines, scores, err := bk.Sample(*n, *stones, rand.New(rand.NewPCG(*seed, 0)))
	if err != nil {
		return b.fail(exitBad, "%s: %v", name, err)
	}
	// Standard output is the lines alone, which other solvers' drivers read.
	fmt.Fprintf(b.stderr, "%s: book=%s stones=%d seed=%d positions=%d\n", b.name, name, *stones, *seed, len(lines))
	w := bufio.NewWriter(b.stdout)
	for i, line := range lines {
		fmt.Fprintf(w, "%s %d\n", board.FormatMoves(line), scores[i])
	}
	if err := w.Flush(); err != nil {
		return b.fail(exitBad, "%v", err)
	}
	return exitOK
}

func (b *bookCommand) verify(ctx context.Context, fs *flagSet, args []string) int {
	sample := fs.Int("n", 20, "positions to re-solve, drawn at random")
	seed := fs.Uint64("seed", 0, "random seed (0: from the clock)")
	var search searchFlags
	search.register(fs.FlagSet)
	if st, ok := fs.parse(args); !ok {
		return st
	}
	if fs.NArg() > 1 {
		return b.fail(exitBad, "want at most one book file")
	}
	if *sample < 0 {
		return b.fail(exitBad, "-n %d: want 0 or more", *sample)
	}
	if err := search.check(); err != nil {
		return b.fail(exitBad, "%v", err)
	}
	name, bk, err := b.open(fs)
	if err != nil {
		return b.fail(exitBad, "%v", err)
	}
	if *seed == 0 {
		*seed = uint64(time.Now().UnixNano())
	}
	rng := rand.New(rand.NewPCG(*seed, 0))
	tt, err := search.table(search.threads, b.stderr)
	if err != nil {
		return b.fail(exitBad, "%v", err)
	}
	s := solver.New(tt, search.threads) // no book: a real search
	bad, n, err := bk.Verify(ctx, s, *sample, rng)
	if err != nil {
		return b.fail(exitIncomplete, "%v", err)
	}
	status := exitOK
	for _, m := range bad {
		fmt.Fprintf(b.stdout, "MISMATCH %s key=%#x book=%d solved=%d\n", name, m.Position.Key(), m.Book, m.Solved)
		status = exitMismatch
	}
	fmt.Fprintf(b.stdout, "book=%s checksum=ok checked=%d mismatches=%d seed=%d\n", name, n, len(bad), *seed)
	return status
}
