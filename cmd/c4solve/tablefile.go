package main

import (
	"fmt"
	"io"
	"strings"
	"sync"

	"c4solve/board"
	"c4solve/solver"
)

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
