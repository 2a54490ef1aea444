package solver

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"c4solve/board"
	"c4solve/internal/atomicfile"
	"c4solve/internal/position"
	"c4solve/internal/settings"
)

// TableFile keeps the table entries of large subtrees of a long solve on
// disk, so that a solve that is killed (hours into a board larger than
// 7x6) resumes where it was: the entries of every subtree of at least
// Nodes nodes are appended to the file as the search stores them, and
// each is written out within FlushEvery of being stored (the workers look
// at the clock every few thousand nodes, and a solve writes out what it
// kept when it ends), so that a kill loses at most that much;
// OpenTableFile and the Solver's UseTableFile load the entries a file
// holds into the solver's table before the search starts. The bounds are
// facts about their positions, true whatever root they were found under,
// so loading them can only spare work, never change a score.
//
// The file is a header (the line "c4solve table file 1", then the
// board's width and height as "8 5\n"), then records of 24 bytes: the
// key's two words, the bounds, the best move and a CRC-32 of the rest.
// Records have a fixed length, so a bad one does not hide those after it:
// a record whose checksum fails (Damaged) or whose contents cannot be of
// the board (Invalid: lower above upper, a lower bound above the board's
// highest score or an upper bound below its lowest, a move off the board,
// a key of more bits than the board's) is skipped, counted and left in
// the file, and the records after it are read. A last record cut short (a
// write cut by a kill, or a full disk) is removed, so that new records
// start at a record's boundary; its length is CutTail.
//
// One process at a time may write a table file (OpenTableFile locks it);
// one the process may not write is opened ReadOnly. After a failed write
// (OnError) nothing more is written, and Flush and Close return the error.
//
// Its methods are safe for concurrent use. The zero value is not usable;
// call OpenTableFile.
type TableFile struct {
	// Nodes is the least work (nodes of the subtree) of an entry kept
	// in the file; FlushEvery, how long an entry kept may wait before
	// it is written out. Set them before the first solve.
	Nodes      uint64
	FlushEvery time.Duration
	// OnError, if not nil, is called with the first error of a write,
	// once, as it happens, by the goroutine that writes (a search
	// worker, or Flush's or Close's caller) while it holds the file's
	// lock: it must not call the TableFile's methods. Set it before the
	// first solve.
	OnError func(error)

	// ReadOnly says that the file was opened for reading only (the
	// process may not write it): nothing is written, nothing removed.
	ReadOnly bool
	// Loaded counts the records read; Damaged, those skipped for a
	// checksum that fails; Invalid, those skipped for contents that
	// cannot be of the board; CutTail, the bytes of a last record cut
	// short, removed from the file (left there if ReadOnly). They are
	// set by OpenTableFile.
	Loaded, Damaged, Invalid, CutTail int

	mu      sync.Mutex
	f       *os.File
	w       io.Writer // f, but for tests of a write that fails
	buf     []byte
	due     atomic.Int64  // when buf, if not empty, must be written out (UnixNano); 0 for never
	entries []tableRecord // loaded by OpenTableFile, for Solver's load
	size    board.Size
	err     error // the first write error
	// written counts the records written out whole since the file was
	// opened; lost, those not, for a write that failed.
	written, lost int
}

const (
	tableFileMagic = "c4solve table file 1\n"
	tableRecordLen = 8 + 8 + 3 + 1 + 4
	// maxTableHeaderLine is the longest line of the board a header may
	// have: "WIDTH HEIGHT\n", each far below a thousand.
	maxTableHeaderLine = 16
)

// tableRecord is one entry of a table file.
type tableRecord struct {
	lo, hi       uint64
	lower, upper int8
	move         int8
}

// openFile is os.OpenFile, but for tests of a file the process may not
// write, which root may.
var openFile = os.OpenFile

// OpenTableFile opens the table file path of a board of size z, creating
// it if it does not exist, locks it against other processes, and reads
// its entries (see TableFile). A file it refuses (of another board, naming
// both; not a table file exactly as it writes them, or one cut short in
// its header; or one another process holds) is an error that names the
// file, and is left as it is.
func OpenTableFile(path string, z board.Size) (*TableFile, error) {
	readOnly := false
	f, err := openFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS) {
		// Still worth reading, where it exists.
		if rf, rerr := openFile(path, os.O_RDONLY, 0); rerr == nil {
			f, err, readOnly = rf, nil, true
		}
	}
	if err != nil {
		return nil, err
	}
	if !readOnly {
		// Two processes appending to one file would interleave their
		// records, and each would cut the other's last one. A reader
		// needs no lock: it changes nothing, and a record half written
		// by another fails its checksum.
		if err := atomicfile.Lock(f); err != nil {
			if errors.Is(err, atomicfile.ErrLocked) {
				err = errors.New("another c4solve is using it (it is locked); wait for that one to end, or give another file")
			}
			f.Close()
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	tf := &TableFile{Nodes: settings.TableFileNodes, FlushEvery: settings.TableFileFlush, f: f, w: f, size: z, ReadOnly: readOnly}
	if err := tf.read(path); err != nil {
		f.Close()
		return nil, err
	}
	return tf, nil
}

// read reads the header and the records, removes a last record cut short,
// and leaves the file at its end, where new records go; an empty file
// gets its header.
func (tf *TableFile) read(path string) error {
	info, err := tf.f.Stat()
	if err != nil {
		return err
	}
	if info.Size() == 0 {
		if tf.ReadOnly {
			return nil // a new file of no entries, that stays so
		}
		if _, err := fmt.Fprintf(tf.f, "%s%d %d\n", tableFileMagic, tf.size.Width, tf.size.Height); err != nil {
			return fmt.Errorf("writing the header of %s: %w", path, err)
		}
		return nil
	}
	r := bufio.NewReaderSize(tf.f, 1<<16)
	z, end, err := readTableHeader(r)
	if err != nil {
		return fmt.Errorf("%s: %w; refused, and left as it is", path, err)
	}
	if z != tf.size {
		return fmt.Errorf("%s: a table file of the %v board, and the board solved is %v", path, z, tf.size)
	}
	rec := make([]byte, tableRecordLen)
	for {
		n, err := io.ReadFull(r, rec)
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			tf.CutTail = n // 0 at the end of the last whole record
			break
		}
		if err != nil {
			return fmt.Errorf("reading %s: %w", path, err)
		}
		end += tableRecordLen
		if crc32.ChecksumIEEE(rec[:tableRecordLen-4]) != binary.LittleEndian.Uint32(rec[tableRecordLen-4:]) {
			tf.Damaged++
			continue
		}
		tr := tableRecord{
			lo: binary.LittleEndian.Uint64(rec), hi: binary.LittleEndian.Uint64(rec[8:]),
			lower: int8(rec[16]), upper: int8(rec[17]), move: int8(rec[18]),
		}
		if !tr.fits(tf.size) {
			tf.Invalid++
			continue
		}
		// Bounds within the board's scores: the same facts about a score
		// that lies there, what a table holds.
		m := int8(tf.size.MaxScore())
		tr.lower, tr.upper = max(tr.lower, -m), min(tr.upper, m)
		tf.entries = append(tf.entries, tr)
	}
	tf.Loaded = len(tf.entries)
	if tf.ReadOnly {
		return nil
	}
	if tf.CutTail > 0 {
		// New records must start at a record's boundary, or every one
		// after would be read at the wrong place.
		if err := tf.f.Truncate(end); err != nil {
			return fmt.Errorf("removing the record cut short at the end of %s: %w", path, err)
		}
	}
	if _, err := tf.f.Seek(end, io.SeekStart); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// readTableHeader reads a table file's header from r, exactly as read
// writes it, and returns its board and length.
func readTableHeader(r *bufio.Reader) (board.Size, int64, error) {
	head, err := r.Peek(len(tableFileMagic) + maxTableHeaderLine + 1)
	if err != nil && err != io.EOF {
		return board.Size{}, 0, err
	}
	magic := min(len(head), len(tableFileMagic))
	if string(head[:magic]) != tableFileMagic[:magic] {
		return board.Size{}, 0, errors.New("not a c4solve table file")
	}
	line, _, found := bytes.Cut(head[magic:], []byte("\n"))
	if !found && err == io.EOF {
		return board.Size{}, 0, fmt.Errorf("a table file cut short inside its header (%d bytes, no entries; remove it to start anew)", len(head))
	}
	// Decimal numbers below a thousand, no sign, no zero before: what
	// prints back as the line.
	var w, h int
	fmt.Sscanf(string(line), "%d %d", &w, &h)
	if !found || min(w, h) < 1 || max(w, h) > 999 || fmt.Sprintf("%d %d", w, h) != string(line) {
		return board.Size{}, 0, fmt.Errorf("a table file whose header names its board as %.20q, not as WIDTH HEIGHT (as %q: one space, no zeros before)", line, "8 5")
	}
	n, _ := r.Discard(magic + len(line) + 1) // all peeked
	return board.Size{Width: w, Height: h}, int64(n), nil
}

// fits reports whether tr could be an entry of a position of the board z
// (TableFile's Invalid lists what cannot): no bound false whatever the
// score. The solver stores bounds a little beyond the scores (a window's
// edge, a root's bound of a loss on the last move): loose, but true, and
// read clamps them to the board's.
func (tr tableRecord) fits(z board.Size) bool {
	m := z.MaxScore()
	return tr.lower <= tr.upper && int(tr.lower) <= m && int(tr.upper) >= -m &&
		tr.move >= -1 && int(tr.move) < z.Width &&
		position.Bits128{Lo: tr.lo, Hi: tr.hi}.Shr(uint(z.Bits())).IsZero()
}

// add keeps an entry, to be written out within FlushEvery.
func (tf *TableFile) add(lo, hi uint64, lower, upper, move int) {
	if tf.ReadOnly {
		return
	}
	var rec [tableRecordLen]byte
	binary.LittleEndian.PutUint64(rec[:], lo)
	binary.LittleEndian.PutUint64(rec[8:], hi)
	rec[16], rec[17], rec[18] = byte(int8(lower)), byte(int8(upper)), byte(int8(move))
	binary.LittleEndian.PutUint32(rec[tableRecordLen-4:], crc32.ChecksumIEEE(rec[:tableRecordLen-4]))
	tf.mu.Lock()
	defer tf.mu.Unlock()
	if tf.err != nil {
		tf.lost++
		return
	}
	now := time.Now()
	if len(tf.buf) == 0 {
		tf.due.Store(now.Add(tf.FlushEvery).UnixNano())
	}
	tf.buf = append(tf.buf, rec[:]...)
	if now.UnixNano() >= tf.due.Load() {
		tf.flushLocked()
	}
}

// tick writes out the entries kept if the oldest has waited FlushEvery.
// The workers call it every few thousand nodes: a worker may store no
// large subtree for minutes, and what it kept before must not wait.
func (tf *TableFile) tick() {
	if due := tf.due.Load(); due != 0 && time.Now().UnixNano() >= due {
		_ = tf.Flush() // an error is OnError's and Close's to report
	}
}

// Flush writes out the entries kept so far, and returns the first error
// of a write, this one's or an earlier one's.
func (tf *TableFile) Flush() error {
	tf.mu.Lock()
	defer tf.mu.Unlock()
	tf.flushLocked()
	return tf.err
}

// flushLocked writes out buf; after a write that failed it writes
// nothing more. A write that fails part way (a full disk) has put the
// records before the one it cut in the file, whole: they count as
// written, as the next OpenTableFile loads them; the one cut (which that
// OpenTableFile removes) and those after it count as lost.
func (tf *TableFile) flushLocked() {
	tf.due.Store(0)
	if len(tf.buf) == 0 {
		return
	}
	n, err := tf.w.Write(tf.buf)
	all, whole := len(tf.buf)/tableRecordLen, min(n, len(tf.buf))/tableRecordLen
	tf.buf = tf.buf[:0]
	tf.written += whole
	if err != nil {
		tf.err, tf.lost = err, tf.lost+all-whole
		if tf.OnError != nil {
			tf.OnError(err)
		}
	}
}

// Written returns how many entries were written out whole since the file
// was opened (those the file holds of this process's), and how many were
// not, for a write that failed.
func (tf *TableFile) Written() (written, lost int) {
	tf.mu.Lock()
	defer tf.mu.Unlock()
	return tf.written, tf.lost
}

// Close writes out what is kept and closes the file (which releases its
// lock); it returns the first error of a write, or of the close.
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
