package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"time"

	"golang.org/x/term"

	"c4solve/posfile"
)

// stopReason says in a user's words why work under ctx stopped with err:
// the time limit (-timeout), or the signal that interrupted it (Ctrl-C is
// "interrupt"), never Go's "context canceled".
func stopReason(ctx context.Context, err error) string {
	cause := context.Cause(ctx)
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(cause, context.DeadlineExceeded):
		return "stopped at the time limit (-timeout)"
	case cause == nil || cause == context.Canceled: // a signal's cause is context.Canceled too, to errors.Is
		return "interrupted"
	}
	// The signal, as Go names it ("interrupt", "terminated", "hangup"),
	// or another cause (a failed write on standard output).
	name, signal := strings.CutSuffix(cause.Error(), " signal received")
	switch {
	case !signal:
		return "stopped: " + name
	case name == "interrupt":
		return "interrupted (Ctrl-C)"
	case name == "terminated":
		return "stopped by SIGTERM"
	case name == "hangup":
		return "stopped by SIGHUP (its terminal closed)"
	}
	return "stopped by the signal " + name
}

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

// readLines reads the position lines of the file name, the first limit of
// them if limit > 0, as posfile.Format.ReadFile does, but stops when ctx is done,
// even while it waits for a FIFO's writer or a line of a pipe, and returns
// ctx's cause. A bad line is an error: a benchmark must measure the whole
// file it names.
func readLines(ctx context.Context, name string, format posfile.Format, limit int) ([]posfile.Line, error) {
	f, err := openInput(ctx, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ls, err := format.Read(ctx, f, limit)
	switch {
	case ctx.Err() != nil:
		return nil, fmt.Errorf("%s: %s while reading it", name, stopReason(ctx, ctx.Err()))
	case errors.As(err, new(*posfile.LineError)):
		return nil, posfile.InFile(name, err)
	case err != nil:
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	return ls, nil
}

// isTerminal reports whether v, standard input or output, is a terminal:
// progress and colours are shown only there.
func isTerminal(v any) bool {
	if c, ok := v.(*checkedWriter); ok {
		v = c.w // standard output, checked
	}
	f, ok := v.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// clearLine erases the terminal line w's cursor is on: what a progress
// display's own Clear leaves of a longer line, such as the "^C" the
// terminal echoes after it on Ctrl-C.
func clearLine(w io.Writer) { fmt.Fprint(w, "\r\033[K") }

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
	drop := func(o opened) {
		if o.f != nil {
			o.f.Close()
		}
	}
	select {
	case o := <-done: // opened as ctx ended: the work stops all the same
		drop(o)
		return nil, fmt.Errorf("%s: %s", name, stopReason(ctx, ctx.Err()))
	default:
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
			drop(<-done)
			w.Close()
			break
		}
		if !errors.Is(err, syscall.ENXIO) {
			break
		}
		select {
		case o := <-done:
			drop(o)
			released = true
		case <-time.After(time.Millisecond):
		}
	}
	return nil, fmt.Errorf("%s: %s while waiting for a writer to open it (a FIFO)", name, stopReason(ctx, ctx.Err()))
}
