package main

import (
	"bytes"
	"context"

	"c4solve/posfile"
	"c4solve/solver"
)

// batch solves a stream of positions and prints their results in the
// order given. With one thread it solves them one at a time. With more, a
// position that arrives while none is being solved and none waits behind
// it (a caller asking one question at a time, or the last of a stream)
// gets every thread of the command's solver, as one solve (lazy SMP);
// positions that come in a batch are solved side by side instead, one
// thread each, in single-threaded solvers that share the command's table.
// A solve of a few milliseconds gains little from a second thread (the
// helpers join after thousands of nodes and search much the same tree), so
// a batch of them goes nearly twice as fast two at a time.
//
// A position solved beside others writes its result and messages into
// buffers, which are copied to the outputs in order once it and all the
// positions before it are done; the command's state (its status, its
// outputs) is touched only by the goroutine that calls the batch's
// methods.
type batch struct {
	c        *command
	ctx      context.Context
	pool     *solver.Pool // single-threaded solvers on the command's table, made when first needed
	pending  []*job       // solves started and not printed, in input order
	finished chan *job    // solves done, in any order
}

// job is one position of a batch: its line, or a bad line to report in its
// place, and what its solve printed.
type job struct {
	where    string
	line     posfile.Line
	bad      error          // a bad line, reported in order; no solve
	s        *solver.Solver // nil for a bad line
	cmd      command        // the command as the solve saw it: buffered outputs
	out, err bytes.Buffer
	done     bool
}

func newBatch(ctx context.Context, c *command) *batch {
	return &batch{c: c, ctx: ctx, finished: make(chan *job)}
}

// threads is the number of positions the batch solves at once.
func (b *batch) threads() int { return b.c.opt.search.threads }

// solve solves l, a position of the stream, and prints its result in its
// turn. more says whether another position is known to follow at once.
func (b *batch) solve(where string, l posfile.Line, more bool) {
	if b.threads() == 1 || !more && len(b.pending) == 0 {
		b.c.solveLine(b.ctx, where, l) // every thread on one position
		return
	}
	s := b.solver()
	j := &job{where: where, line: l, s: s, cmd: *b.c}
	j.cmd.s, j.cmd.stdout, j.cmd.stderr, j.cmd.terminal, j.cmd.status = s, &j.out, &j.err, false, 0
	b.pending = append(b.pending, j)
	go func() {
		j.cmd.solveLine(b.ctx, j.where, j.line)
		b.finished <- j
	}()
}

// reportBad reports a bad line in its turn.
func (b *batch) reportBad(err error) {
	if len(b.pending) == 0 {
		b.c.bad(err)
		return
	}
	b.pending = append(b.pending, &job{bad: err, done: true})
}

// solver returns a free single-threaded solver, waiting for a solve to end
// when all are in use; it prints what is done meanwhile.
func (b *batch) solver() *solver.Solver {
	if b.pool == nil {
		b.pool = solver.NewPool(b.c.s.Table(), b.threads(), 1, b.c.book)
	}
	for {
		if s, ok := b.pool.TryGet(); ok {
			return s
		}
		b.wait()
	}
}

// wait waits for one solve to end, frees its solver and prints every
// result now due.
func (b *batch) wait() {
	j := <-b.finished
	j.done = true
	b.pool.Put(j.s)
	for len(b.pending) > 0 && b.pending[0].done {
		j := b.pending[0]
		b.pending = b.pending[1:]
		if j.bad != nil {
			b.c.bad(j.bad)
			continue
		}
		b.c.stdout.Write(j.out.Bytes())
		b.c.stderr.Write(j.err.Bytes())
		b.c.fail(j.cmd.status)
	}
}

// flush waits for every solve under way and prints the rest. The first
// pending job is always a solve under way: wait prints what is done
// behind it, bad lines included.
func (b *batch) flush() {
	for len(b.pending) > 0 {
		b.wait()
	}
}
