package main

import (
	"bytes"
	"context"
	"fmt"

	"c4solve/posfile"
	"c4solve/solver"
)

// batch prints the results of a stream of positions in the order given,
// solved as solver.Batch schedules them: alone with every thread, or side
// by side. A position solved beside others writes its result and messages
// into buffers, which are copied to the outputs in its turn; the command's
// state (its status, its outputs) is touched only by the goroutine that
// calls the batch's methods.
type batch struct {
	c   *command
	ctx context.Context
	b   *solver.Batch

	// counting: the positions are a stream that no one types, and stderr
	// is a terminal: the count of the positions done is kept on its last
	// line, cleared before anything else is written and drawn again after.
	counting bool
	done     int  // positions done (printed), bad lines included
	shown    bool // the count is on the terminal now
}

func newBatch(ctx context.Context, c *command) *batch {
	if c.s == nil {
		return &batch{c: c, ctx: ctx} // one position at a time
	}
	return &batch{c: c, ctx: ctx, b: solver.NewBatch(c.s)}
}

// solve solves l, a position of the stream, and prints its result in its
// turn. more says whether another position is known to follow at once.
func (b *batch) solve(where string, l posfile.Line, more bool) {
	if b.b == nil {
		b.clearCount()
		b.c.solveLine(b.ctx, where, l)
		b.count()
		return
	}
	var out, errOut bytes.Buffer
	jc := *b.c // the command as a solve beside others sees it: buffered outputs
	jc.stdout, jc.stderr, jc.terminal, jc.status = &out, &errOut, false, 0
	beside := false
	b.b.Do(more, func(s *solver.Solver) {
		if b.c.s == s { // alone, with every thread: printed at once
			b.clearCount()
			b.c.solveLine(b.ctx, where, l)
			return
		}
		beside, jc.s = true, s
		jc.solveLine(b.ctx, where, l)
	}, func() {
		if beside {
			b.clearCount()
			b.c.stdout.Write(out.Bytes())
			b.c.stderr.Write(errOut.Bytes())
			b.c.fail(jc.status)
		}
		b.count()
	})
}

// reportBad reports a bad line in its turn.
func (b *batch) reportBad(err error) {
	report := func() {
		b.clearCount()
		b.c.bad(err)
		b.count()
	}
	if b.b == nil {
		report()
		return
	}
	b.b.Do(false, nil, report)
}

// flush waits for every solve under way and prints the rest.
func (b *batch) flush() {
	if b.b != nil {
		b.b.Flush()
	}
	b.clearCount()
}

// count counts a position done and, when counting, shows the count.
func (b *batch) count() {
	b.done++
	b.c.log.count()
	if b.counting {
		fmt.Fprintf(b.c.stderr, "\rc4solve: standard input: positions done: %d", b.done)
		b.shown = true
	}
}

// clearCount erases the count, if shown, before something is written.
func (b *batch) clearCount() {
	if b.shown {
		clearLine(b.c.stderr)
		b.shown = false
	}
}
