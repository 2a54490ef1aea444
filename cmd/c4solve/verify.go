package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"c4solve/bench"
	"c4solve/posfile"
	"c4solve/solver"
)

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
	defer c.startLog("position", "done", 0)()
	return exit(c.verify(ctx, files, std.in))
}

// verify checks each file and prints its mismatches and summary; the
// file "-" is stdin, standard input. Each file is measured as bench
// measures (bench.Measure), its lines read as they come.
func (c *command) verify(ctx context.Context, files []string, stdin io.Reader) int {
	set := bench.Setting{Threads: c.opt.search.threads, Weak: c.opt.weak, Warm: c.opt.warm, Book: c.bk}
	for _, name := range files {
		var f io.ReadCloser = io.NopCloser(stdin)
		var err error
		if name != "-" {
			f, err = openInput(ctx, name)
		}
		if err != nil && ctx.Err() != nil {
			c.fail(report(c.stderr, c.name, exitIncomplete, err))
			break
		}
		if err != nil {
			c.bad(err)
			continue
		}
		var seen bench.Stats       // the lines solved so far, for the terminal's line
		var stopped *bench.Outcome // the solve under way when ctx ended
		endLog := func() {}        // the log's line under way
		// from0 is set at the first line with a column 0 while columns are
		// numbered from 1: the file is numbered from 0, and one hint says
		// so instead of an error a line and a MISMATCH for each line that
		// reads as another position.
		from0 := false
		// Read in a goroutine of its own (posfile.Format.ScanContext), so that a signal
		// stops verify even while it waits for a line of a pipe.
		lines := func(yield func(posfile.Line) bool) {
			err = c.format.ScanContext(ctx, f, func(l posfile.Line, _ bool) bool {
				if from0 {
					return false // the rest of the file is not read as it is written
				}
				endLog = c.log.begin(fmt.Sprintf("%s:%d %s", name, l.Num, posfile.Spell(l.Moves)), c.s)
				return yield(l)
			}, func(e *posfile.LineError) {
				switch {
				case from0: // said once
				case !c.format.From0 && strings.Contains(e.Moves, "0"):
					from0 = true
					c.bad(fmt.Errorf("%s:%d: a column 0 in %s: the file numbers its columns from 0, as Steininger's do: verify -from0 reads it so; the rest of it is not checked%s",
						name, e.Num, e.Moves, mismatchesAbove(seen.Mismatches)))
				default:
					c.bad(fmt.Errorf("%s:%d: %w", name, e.Num, e.Err))
				}
			})
		}
		st, _ := bench.Measure(ctx, c.s, lines, set, func(o bench.Outcome, err error) error {
			l := o.Line
			endLog()
			c.log.count()
			if err != nil {
				c.solveError(ctx, fmt.Sprintf("%s:%d", name, l.Num), l.Moves, err)
				if ctx.Err() != nil && !errors.Is(err, solver.ErrGameOver) {
					stopped = &o
				}
				return ctx.Err()
			}
			if !l.HasScore {
				c.bad(fmt.Errorf("%s:%d: no expected score", name, l.Num))
			}
			seen.Add(o.Time, o.Nodes, o.Mismatch)
			if o.Mismatch {
				c.emit(verifyLine{File: name, Line: l.Num, Pos: posfile.Unspell(l.Moves), Expected: &l.Expected, Score: &o.Score, Mismatch: true},
					fmt.Sprintf("MISMATCH %s:%d %s expected=%d got=%d", name, l.Num, posfile.Spell(l.Moves), l.Expected, o.Score))
				c.fail(exitMismatch)
			}
			c.stats(l.Moves, o.Nodes, o.Expanded, o.Time)
			if c.terminal {
				fmt.Fprintf(c.stderr, "\r%s: %d positions, %d mismatches, mean %v ", name, seen.Positions, seen.Mismatches, seen.Mean())
			}
			return nil
		})
		set.Continue = true // the table is cleared once, before the first file measured
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
			c.emit(verifyLine{File: name, Line: o.Line.Num, Pos: posfile.Unspell(o.Line.Moves), Lower: &o.Lower, Upper: &o.Upper, Incomplete: true},
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
