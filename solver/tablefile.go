package solver

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"sync"
	"time"

	"c4solve/board"
)

// TableFile keeps the table entries of large subtrees of a long solve on
// disk, so that a solve that is killed (hours into a board larger than
// 7x6) resumes where it was: the entries of every subtree of at least
// Nodes nodes are appended to the file as the search stores them, and
// written out at least every FlushEvery, so that a kill loses at most that
// much; Open loads the entries a file holds into the solver's table
// before the search starts. The bounds are facts about their positions,
// true whatever root they were found under, so loading them can only
// spare work, never change a score.
//
// The file is a header (tableFileMagic, the board's width and height),
// then records of tableRecordLen bytes: the key's two words, the bounds,
// the best move and a CRC-32 of the rest. A file of another board is
// refused, naming both; a record that does not check (the tail of a file
// cut by a kill, or damaged) ends the loading: it and what follows are
// ignored, counted in Ignored, and the file is cut back to the last good
// record before new ones are appended.
//
// Its methods are safe for concurrent use. The zero value is not usable;
// call OpenTableFile.
type TableFile struct {
	// Nodes is the least work (nodes of the subtree) of an entry kept
	// in the file; FlushEvery, how often what was kept is written out.
	Nodes      uint64
	FlushEvery time.Duration

	mu      sync.Mutex
	f       *os.File
	buf     []byte
	last    time.Time
	entries []tableRecord // loaded by OpenTableFile, for Solver's load
	size    board.Size
	err     error // the first write error, reported by Close
	// Loaded and Ignored count the records read and the bytes of a bad
	// tail dropped when the file was opened; Written, the records
	// appended since.
	Loaded, Ignored, Written int
}

// DefaultTableFileNodes is TableFile.Nodes unless set: a subtree of a
// million nodes is a second or so of search, and such entries are few
// (Steininger's solver keeps the same in its table files).
const DefaultTableFileNodes = 1 << 20

const (
	tableFileMagic = "c4solve table file 1\n"
	tableRecordLen = 8 + 8 + 3 + 1 + 4
)

// tableRecord is one entry of a table file.
type tableRecord struct {
	lo, hi       uint64
	lower, upper int8
	move         int8
}

// OpenTableFile opens the table file path of a board of size z, creating
// it if it does not exist, and reads its entries (see TableFile). A file
// of another board, or one that is no table file, is an error.
func OpenTableFile(path string, z board.Size) (*TableFile, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	tf := &TableFile{Nodes: DefaultTableFileNodes, FlushEvery: 2 * time.Second, f: f, size: z, last: time.Now()}
	good, err := tf.read(path)
	if err == nil {
		// Cut a bad tail, so that new records follow the good ones.
		if err = f.Truncate(good); err == nil {
			_, err = f.Seek(good, io.SeekStart)
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return tf, nil
}

// read reads the header and the records, and returns the length of the
// file up to the last good record.
func (tf *TableFile) read(path string) (int64, error) {
	info, err := tf.f.Stat()
	if err != nil {
		return 0, err
	}
	header := []byte(fmt.Sprintf("%s%d %d\n", tableFileMagic, tf.size.Width, tf.size.Height))
	if info.Size() == 0 {
		_, err := tf.f.Write(header)
		return int64(len(header)), err
	}
	r := bufio.NewReader(tf.f)
	magic := make([]byte, len(tableFileMagic))
	if _, err := io.ReadFull(r, magic); err != nil || string(magic) != tableFileMagic {
		return 0, fmt.Errorf("%s: not a c4solve table file", path)
	}
	var w, h int
	if _, err := fmt.Fscanf(r, "%d %d\n", &w, &h); err != nil {
		return 0, fmt.Errorf("%s: a table file whose header names no board: %v", path, err)
	}
	if got := (board.Size{Width: w, Height: h}); got != tf.size {
		return 0, fmt.Errorf("%s: a table file of the %v board, and the board solved is %v", path, got, tf.size)
	}
	good := int64(len(header))
	rec := make([]byte, tableRecordLen)
	for {
		_, err := io.ReadFull(r, rec)
		if err == io.EOF {
			break
		}
		if err != nil || crc32.ChecksumIEEE(rec[:tableRecordLen-4]) != binary.LittleEndian.Uint32(rec[tableRecordLen-4:]) {
			tf.Ignored = int(info.Size() - good)
			break
		}
		tr := tableRecord{
			lo: binary.LittleEndian.Uint64(rec), hi: binary.LittleEndian.Uint64(rec[8:]),
			lower: int8(rec[16]), upper: int8(rec[17]), move: int8(rec[18]),
		}
		tf.entries = append(tf.entries, tr)
		good += tableRecordLen
	}
	tf.Loaded = len(tf.entries)
	return good, nil
}

// add keeps an entry, and writes out what was kept if the last write is
// FlushEvery old. A write error is kept for Close.
func (tf *TableFile) add(lo, hi uint64, lower, upper, move int) {
	var rec [tableRecordLen]byte
	binary.LittleEndian.PutUint64(rec[:], lo)
	binary.LittleEndian.PutUint64(rec[8:], hi)
	rec[16], rec[17], rec[18] = byte(int8(lower)), byte(int8(upper)), byte(int8(move))
	binary.LittleEndian.PutUint32(rec[tableRecordLen-4:], crc32.ChecksumIEEE(rec[:tableRecordLen-4]))
	tf.mu.Lock()
	defer tf.mu.Unlock()
	tf.buf = append(tf.buf, rec[:]...)
	tf.Written++
	if time.Since(tf.last) >= tf.FlushEvery {
		tf.flushLocked()
	}
}

// Flush writes out the entries kept so far.
func (tf *TableFile) Flush() error {
	tf.mu.Lock()
	defer tf.mu.Unlock()
	tf.flushLocked()
	return tf.err
}

func (tf *TableFile) flushLocked() {
	tf.last = time.Now()
	if len(tf.buf) == 0 || tf.err != nil {
		return
	}
	if _, err := tf.f.Write(tf.buf); err != nil {
		tf.err = err
	}
	tf.buf = tf.buf[:0]
}

// Close writes out what is kept and closes the file; it returns the first
// error of a write.
func (tf *TableFile) Close() error {
	err := tf.Flush()
	if cerr := tf.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// errTableFileSize is returned where a table file is used with a solver of
// another board.
var errTableFileSize = errors.New("a table file of another board")

// check reports whether tf's board is z.
func (tf *TableFile) check(z board.Size) error {
	if tf.size != z {
		return fmt.Errorf("%w: %v, and the solver's is %v", errTableFileSize, tf.size, z)
	}
	return nil
}
