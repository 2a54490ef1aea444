package solver

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"c4solve/board"
)

// fullWriter takes room bytes, then fails as a full disk does, part way
// through the write that fills it.
type fullWriter struct {
	w    *os.File
	room int
}

func (fw *fullWriter) Write(p []byte) (int, error) {
	n := min(len(p), fw.room)
	fw.room -= n
	if _, err := fw.w.Write(p[:n]); err != nil {
		return 0, err
	}
	if n < len(p) {
		return n, &fs.PathError{Op: "write", Path: fw.w.Name(), Err: syscall.ENOSPC}
	}
	return n, nil
}

// TestTableFileWriteFails: the first write that fails is handed to
// OnError at once, and only it; the entries it wrote whole are counted
// as written, exactly those the file next loads, the rest as lost; and
// Close returns the error. The record written in part is removed when the
// file is next opened, the ones before it loaded.
func TestTableFileWriteFails(t *testing.T) {
	z := board.Size{Width: 6, Height: 5}
	path := filepath.Join(t.TempDir(), "t.c4table")
	tf, err := OpenTableFile(path, z)
	if err != nil {
		t.Fatal(err)
	}
	var reported []error
	tf.OnError = func(err error) { reported = append(reported, err) }
	tf.w = &fullWriter{w: tf.f, room: 3*tableRecordLen + 5}
	for i := range 5 {
		tf.add(uint64(i)<<8|0x3f, 0, -1, 1, 2)
	}
	if len(reported) != 0 {
		t.Fatalf("reported before a write: %v", reported)
	}
	if err := tf.Flush(); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("Flush = %v; want no space left", err)
	}
	if len(reported) != 1 || !errors.Is(reported[0], syscall.ENOSPC) || !strings.Contains(reported[0].Error(), path) {
		t.Fatalf("after the write that failed, OnError got %v; want the error once, naming %s", reported, path)
	}
	for i := range 3 {
		tf.add(uint64(10+i)<<8|0x3f, 0, -1, 1, 2)
	}
	if err := tf.Close(); !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("Close = %v; want no space left", err)
	}
	// The write that failed put 3 records in the file whole: they are
	// written, as the next open loads them (before, 0 written and 8 lost).
	written, lost := tf.Written()
	if written != 3 || lost != 5 || len(reported) != 1 {
		t.Errorf("%d written, %d lost, %d reported; want 3, 5, 1", written, lost, len(reported))
	}
	tf, err = OpenTableFile(path, z)
	if err != nil {
		t.Fatal(err)
	}
	tf.Close()
	if tf.Loaded != written || tf.CutTail != 5 || tf.Damaged != 0 {
		t.Errorf("reopened: %d loaded, %d bytes cut, %d damaged; want %d (the entries written), 5, 0", tf.Loaded, tf.CutTail, tf.Damaged, written)
	}

	// /dev/full fails the first write, the header's.
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	if tf, err := OpenTableFile("/dev/full", z); err == nil {
		tf.Close()
		t.Errorf("/dev/full opened as a table file")
	} else if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "/dev/full") {
		t.Errorf("/dev/full: %v; want no space left, naming it", err)
	}
}

// TestTableFileFlushEvery: an entry kept is written out once it waited
// FlushEvery, at the next tick (a worker's poll), and not before, even
// when no entry follows it. The wait is the entry's due time, moved: no
// clock decides the test.
func TestTableFileFlushEvery(t *testing.T) {
	z := board.Size{Width: 6, Height: 5}
	path := filepath.Join(t.TempDir(), "t.c4table")
	tf, err := OpenTableFile(path, z)
	if err != nil {
		t.Fatal(err)
	}
	defer tf.Close()
	tf.FlushEvery = time.Hour
	size := func() int64 {
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return info.Size()
	}
	header := size()
	before := time.Now()
	tf.add(0x3f, 0, -1, 1, 2)
	after := time.Now()
	if due := tf.due.Load(); due < before.Add(tf.FlushEvery).UnixNano() || due > after.Add(tf.FlushEvery).UnixNano() {
		t.Errorf("an entry kept is due at %v; want FlushEvery after it was kept, at %v", time.Unix(0, due), before.Add(tf.FlushEvery))
	}
	tf.tick()
	if got := size(); got != header {
		t.Errorf("written out at once: %d bytes; want %d", got, header)
	}
	tf.due.Store(time.Now().UnixNano()) // FlushEvery has passed
	tf.tick()
	if got := size(); got != header+tableRecordLen {
		t.Errorf("after FlushEvery and a tick: %d bytes; want %d", got, header+tableRecordLen)
	}
}

// TestTableFileReadOnly: a table file the process may not write is read,
// its entries loaded, and nothing written to it, nothing removed.
func TestTableFileReadOnly(t *testing.T) {
	z := board.Size{Width: 6, Height: 5}
	path := filepath.Join(t.TempDir(), "t.c4table")
	tf, err := OpenTableFile(path, z)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		tf.add(uint64(i)<<8|0x3f, 0, -1, 1, 2)
	}
	if err := tf.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("cut"))
	f.Close()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o444); err != nil {
		t.Fatal(err)
	}
	// As a process that is not root finds it, even where the test runs
	// as root.
	defer func() { openFile = os.OpenFile }()
	openFile = func(name string, flag int, perm os.FileMode) (*os.File, error) {
		if flag&(os.O_WRONLY|os.O_RDWR) != 0 {
			return nil, &fs.PathError{Op: "open", Path: name, Err: syscall.EACCES}
		}
		return os.OpenFile(name, flag, perm)
	}
	tf, err = OpenTableFile(path, z)
	if err != nil {
		t.Fatalf("a read-only table file: %v", err)
	}
	if !tf.ReadOnly || tf.Loaded != 4 || tf.CutTail != 3 {
		t.Errorf("a read-only table file: read-only %v, %d loaded, %d bytes cut; want true, 4, 3", tf.ReadOnly, tf.Loaded, tf.CutTail)
	}
	tf.add(9<<8|0x3f, 0, -1, 1, 2)
	if err := tf.Close(); err != nil {
		t.Errorf("Close of a read-only table file: %v", err)
	}
	if got, _ := os.ReadFile(path); string(got) != string(data) {
		t.Errorf("a read-only table file was changed")
	}
	// A read-only one that does not exist is no table file to read.
	if _, err := OpenTableFile(filepath.Join(t.TempDir(), "none"), z); !errors.Is(err, fs.ErrPermission) {
		t.Errorf("a table file that cannot be made: %v; want permission denied", err)
	}
}
