package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"

	"golang.org/x/term"

	"c4solve/posfile"
)

// checkedWriter is standard output: after its first failed write it
// writes nothing more, and calls failed with the error.
type checkedWriter struct {
	w      io.Writer
	err    error
	failed func(error)
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err != nil {
		c.err = err
		c.failed(fmt.Errorf("writing standard output: %w", err))
	}
	return n, err
}

// outputFailed reports whether a write on w, standard output, failed: run
// then says so itself.
func outputFailed(w io.Writer) bool {
	c, ok := w.(*checkedWriter)
	return ok && c.err != nil
}

// scanInput is format's Scan over r, in a goroutine of its own, so that ctx
// stops the command even while it waits for a line; it then returns ctx's
// error. (The goroutine may stay blocked in a read until the process ends.)
// fn is told whether another line was already read and waits behind the
// one it gets (see batch).
func scanInput(ctx context.Context, r io.Reader, format posfile.Format, fn func(l posfile.Line, more bool) bool, bad func(*posfile.LineError)) error {
	type item struct {
		l posfile.Line
		e *posfile.LineError
	}
	// Lines are read ahead, so that fn knows whether more are waiting.
	items := make(chan item, scanAhead)
	errc := make(chan error, 1)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		errc <- format.Scan(r, func(l posfile.Line) bool {
			select {
			case items <- item{l: l}:
				return true
			case <-stop:
				return false
			}
		}, func(e *posfile.LineError) {
			select {
			case items <- item{e: e}:
			case <-stop:
			}
		})
		close(items)
	}()
	for {
		select {
		case it, ok := <-items:
			switch {
			case !ok:
				return <-errc
			case it.e != nil:
				bad(it.e)
			case !fn(it.l, len(items) > 0):
				return nil
			}
		case <-ctx.Done():
			return context.Cause(ctx)
		}
	}
}

// scanAhead is how many lines scanInput reads ahead of the solves.
const scanAhead = 64

// isTerminal reports whether w is a terminal: progress and colours are
// shown only there.
func isTerminal(w io.Writer) bool {
	if c, ok := w.(*checkedWriter); ok {
		w = c.w // standard output, checked
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// openInput opens the file name for reading. Opening a FIFO waits for a
// writer to open it too: openInput waits for that or for ctx, so that
// Ctrl-C still stops the command.
func openInput(ctx context.Context, name string) (*os.File, error) {
	st, err := os.Stat(name)
	if err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		return os.Open(name)
	}
	type opened struct {
		f   *os.File
		err error
	}
	done := make(chan opened, 1)
	go func() {
		f, err := os.Open(name)
		done <- opened{f, err}
	}()
	select {
	case o := <-done:
		return o.f, o.err
	case <-ctx.Done():
	}
	// Release the open under way by opening the FIFO's other end, then
	// drop both. Until the goroutine's open has begun, that end cannot be
	// opened (ENXIO: no reader yet): try again until it can, or until the
	// open ends by itself, so that no open is left waiting to take the
	// next writer's data. (Where the other end cannot be opened at all,
	// the open is left waiting.)
	for released := false; !released; {
		w, err := os.OpenFile(name, os.O_WRONLY|syscall.O_NONBLOCK, 0)
		if err == nil {
			if o := <-done; o.f != nil {
				o.f.Close()
			}
			w.Close()
			break
		}
		if !errors.Is(err, syscall.ENXIO) {
			break
		}
		select {
		case o := <-done:
			if o.f != nil {
				o.f.Close()
			}
			released = true
		case <-time.After(time.Millisecond):
		}
	}
	return nil, fmt.Errorf("%s: a FIFO with no writer; stopped waiting: %w", name, context.Cause(ctx))
}
