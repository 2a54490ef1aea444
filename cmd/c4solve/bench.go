package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"

	"c4solve/bench"
	"c4solve/internal/atomicfile"
	"c4solve/posfile"
	"c4solve/solver"
	"c4solve/ttable"

	"github.com/schollz/progressbar/v3"
)

const benchHelp = `Solves the positions of benchmark-format files ("moves score" lines) at
every combination of the listed thread counts and table sizes, and prints
one markdown table row per file and setting: positions, mismatches, mean,
median and max solve time, mean nodes, mean expanded nodes (those that
searched a child), nodes per second, and the speedup over one thread
(when 1 is among the thread counts). The table is cleared
before each position (cold; not timed) unless -warm is given. Positions
are answered from the built-in opening book where it knows them: measure
the search alone with -nobook.

Exit status: 0 ok, 1 a score differed from the expected one, 2 bad usage or
an unreadable file or line, 3 interrupted.
`

func runBench(ctx context.Context, fs *flagSet, args []string, std stdio) error {
	stdout, stderr := std.out, std.err
	threads := fs.String("threads", "1,2", "comma-separated thread counts")
	tts := fs.String("tt", "64", "comma-separated table sizes in MiB (64 by default, not the 512 of solving: the size the side-by-side\nmeasurements against the reference solvers use)")
	lines := fs.Int("lines", 0, "only the first N positions of each file (0: all)")
	warm := fs.Bool("warm", false, "keep the table between positions instead of clearing it")
	weak := fs.Bool("weak", false, "solve for the sign of the score only")
	var bf bookFlags
	bf.register(fs.FlagSet)
	out := fs.String("o", "", "also write the results to `FILE`, as JSON (.json) or CSV (.csv)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the searches to `FILE` (for go tool pprof)")
	var size sizeFlag
	fs.Var(&size, "size", "positions of a board of `WxH`, as 8x5, instead of 7x6 (no book)")
	from0 := fs.Bool("from0", false, "columns in positions are numbered from 0, as in Steininger's test files")
	quiet := fs.Bool("quiet", false, quietUsage)
	if st, ok := fs.parseAll(args); !ok {
		return exit(st)
	}
	threadList, err := intList(*threads, 1, maxThreads())
	if err != nil {
		return fmt.Errorf("-threads: %v", err)
	}
	// Fewest threads first: the one-thread row, the base of the others'
	// speedups, is then printed before them.
	slices.Sort(threadList)
	threadList = slices.Compact(threadList)
	format, err := size.format(*from0)
	if err != nil {
		return err
	}
	ttList, err := intList(*tts, 1, 1<<30)
	if err != nil {
		return fmt.Errorf("-tt: %v", err)
	}
	for _, mib := range ttList {
		if err := ttable.CheckSize(mib); err != nil {
			return fmt.Errorf("-tt %d: %v", mib, err)
		}
	}
	if *lines < 0 {
		return fmt.Errorf("-lines %d: want 0 or more", *lines)
	}
	write := map[string]func(io.Writer, []bench.Row) error{".json": bench.WriteJSON, ".csv": bench.WriteCSV}[filepath.Ext(*out)]
	if *out != "" && write == nil {
		return fmt.Errorf("-o %s: the name must end in .json or .csv", *out)
	}
	if *out != "" {
		if _, err := atomicfile.Check(*out); err != nil {
			return fmt.Errorf("-o: %v", err)
		}
	}
	if fs.NArg() == 0 {
		return errors.New("no files given")
	}
	bk, err := bf.loadBook(size.board())
	if err != nil {
		return err
	}
	bookName := "none"
	if bk != nil {
		bookName = cmp.Or(bf.name, "built-in")
	}

	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return fmt.Errorf("-cpuprofile: %v", err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return fmt.Errorf("-cpuprofile: %v", err)
		}
		defer func() {
			pprof.StopCPUProfile()
			if err := f.Close(); err != nil {
				fmt.Fprintf(stderr, "c4solve bench: -cpuprofile %s: %v\n", *cpuProfile, err)
			}
		}()
	}

	// Each row is printed as soon as it is measured: a long run shows its
	// rows as it goes, and a run interrupted or killed keeps those done.
	// (A failed write stops the command, which reports it: see run.)
	status := exitOK
	var rows []bench.Row
	terminal := isTerminal(stderr) && !*quiet
	log, stderr := startLog(stderr, *quiet, fs.Name(), "position", "solved", 0)
	defer log.stop()
	// Every row's table must fit what the process may use: all are
	// checked before the first row, so that a run is refused at once, not
	// after hours of the rows of smaller tables.
	for _, mib := range ttList {
		if _, err := fitTable(mib, slices.Max(threadList), true, io.Discard); err != nil {
			return err
		}
	}
files:
	for _, name := range fs.Args() {
		ls, err := readLines(ctx, name, format, *lines)
		if err != nil && ctx.Err() != nil {
			status = max(status, report(stderr, "c4solve bench", exitIncomplete, err))
			break
		}
		if err != nil {
			status = max(status, report(stderr, "c4solve bench", exitBad, err))
			continue
		}
		for _, mib := range ttList {
			s, err := newSolver(size.board(), mib, true, slices.Max(threadList), nil, stderr)
			if err != nil {
				return err
			}
			stopped := false
			for _, th := range threadList {
				set := bench.Setting{Threads: th, TableMiB: s.Table().Bytes() >> 20, Warm: *warm, Weak: *weak, Book: bk, BookName: bookName}
				e := solver.NewOn(s.Grid(), s.Table(), th) // the same table, cleared by Measure
				row := fmt.Sprintf("%s, %d threads, %d MiB", name, th, set.TableMiB)
				bar := rowProgress(terminal, stderr, row, len(ls))
				log.setStage(row, len(ls))
				positions := func(yield func(posfile.Line) bool) {
					for _, l := range ls {
						log.begin(fmt.Sprintf("%s:%d %s", name, l.Num, posfile.Spell(l.Moves)), e) // the line under way
						if !yield(l) {
							return
						}
					}
				}
				st, err := bench.Measure(ctx, e, positions, set, func(o bench.Outcome, err error) error {
					if err != nil {
						return err
					}
					bar.Add(1)
					log.count()
					if o.Mismatch {
						fmt.Fprintf(stderr, "c4solve bench: MISMATCH %s:%d %s expected=%d got=%d\n",
							name, o.Line.Num, posfile.Spell(o.Line.Moves), o.Line.Expected, o.Score)
					}
					return nil
				})
				if terminal {
					bar.Clear()
					clearLine(stderr)
				}
				if err != nil { // a *posfile.LineError (bench.Measure)
					fmt.Fprintf(stderr, "c4solve bench: %v\n", posfile.InFile(name, err))
					if ctx.Err() != nil {
						status, stopped = exitIncomplete, true
						break // the rows finished are printed
					}
					status = max(status, exitBad)
					continue
				}
				if st.Mismatches > 0 {
					status = max(status, exitMismatch)
				}
				if len(rows) == 0 {
					bench.WriteMarkdownHeader(stdout)
				}
				rows = append(rows, bench.Row{File: name, Setting: set, Stats: st})
				bench.FillSpeedups(rows)
				bench.WriteMarkdownRow(stdout, rows[len(rows)-1])
			}
			// The next table is made once this one is given back, so that
			// the run holds one at a time (in a memory cgroup, two may not
			// fit).
			s.Table().Free()
			if stopped {
				break files
			}
		}
	}
	if write != nil && len(rows) > 0 {
		// Written whole or not at all (atomicfile), for everyone to read.
		if err := atomicfile.Write(*out, 0o644, func(w io.Writer) error { return write(w, rows) }); err != nil {
			fmt.Fprintf(stderr, "c4solve bench: -o %s: %v\n", *out, err)
			status = max(status, exitBad)
		}
	}
	return exit(status)
}

// rowProgress starts the progress of one bench row, described by what, of
// n positions: on a terminal, a bar of the positions solved, to clear
// when the row is done; off one, it shows nothing.
func rowProgress(terminal bool, w io.Writer, what string, n int) *progressbar.ProgressBar {
	return progressbar.NewOptions(n, progressbar.OptionSetVisibility(terminal), progressbar.OptionSetWriter(w), progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(), progressbar.OptionSetElapsedTime(true), progressbar.OptionSetPredictTime(true),
		progressbar.OptionSetRenderBlankState(true))
}

// intList parses a comma-separated list of whole numbers in [lo, hi].
func intList(s string, lo, hi int) ([]int, error) {
	var list []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < lo || n > hi {
			return nil, fmt.Errorf("%q is not a whole number from %d to %d", f, lo, hi)
		}
		list = append(list, n)
	}
	return list, nil
}
