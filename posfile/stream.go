package posfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
)

// ScanContext is Scan, with fn told whether another line was already read
// and waits behind the one it gets (a stream's lines that come together
// can be solved together), and with r read in a goroutine of its own, so
// that ctx stops it even while a read waits (a pipe, a terminal): it then
// returns ctx's cause. (The goroutine may stay blocked in that read until
// the process ends.)
func (f Format) ScanContext(ctx context.Context, r io.Reader, fn func(l Line, more bool) bool, bad func(*LineError)) error {
	type item struct {
		l Line
		e *LineError
	}
	// Lines are read ahead, so that fn knows whether more are waiting.
	items := make(chan item, scanAhead)
	errc := make(chan error, 1)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		errc <- f.Scan(r, func(l Line) bool {
			select {
			case items <- item{l: l}:
				return true
			case <-stop:
				return false
			}
		}, func(e *LineError) {
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

// scanAhead is how many lines ScanContext reads ahead of fn.
const scanAhead = 64

// Read reads the position lines of r, on f's board, the first limit of
// them if limit > 0, and stops when ctx is done (ScanContext), returning
// ctx's cause. A bad line is an error, its *LineError: a benchmark must
// measure the whole file it names.
func (f Format) Read(ctx context.Context, r io.Reader, limit int) ([]Line, error) {
	var ls []Line
	var bad *LineError
	err := f.ScanContext(ctx, r, func(l Line, _ bool) bool {
		ls = append(ls, l)
		return limit == 0 || len(ls) < limit
	}, func(e *LineError) {
		if bad == nil {
			bad = e
		}
	})
	switch {
	case err != nil:
		return nil, err
	case bad != nil:
		return nil, bad
	}
	return ls, nil
}

// ReadFile reads the position lines of the file name, as Read does, and
// names the file in a bad line's error ("name:2: ...").
func (f Format) ReadFile(name string, limit int) ([]Line, error) {
	file, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	ls, err := f.Read(context.Background(), file, limit)
	return ls, InFile(name, err)
}

// InFile returns err, an error of Read of the file name, with a bad line's
// error naming the file and the line as "name:2: ..."; other errors as
// they are.
func InFile(name string, err error) error {
	if le := (*LineError)(nil); errors.As(err, &le) {
		return fmt.Errorf("%s:%d: %w", name, le.Num, le.Err)
	}
	return err
}
