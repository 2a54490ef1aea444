package book

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	farm "github.com/dgryski/go-farm"

	"c4solve/board"
	"c4solve/internal/atomicfile"
)

// A checkpoint file records the positions a run has solved, so that an
// interrupted run resumes where it stopped. It starts with a line naming
// the run (format 4: its board, depth, root and shard); then each solved
// position is one record of recordSize bytes: its canonical key's two
// words, little-endian, low first, its score as a signed byte, then 4
// bytes little-endian, the go-farm Fingerprint32 of those, so that a
// damaged record is refused rather than turned into a book.
//
// Each record goes to the file in one write as soon as its position is
// solved, so a killed process loses no finished position; the file is
// synced to disk at most syncEvery apart, so a crashed machine loses at
// most that much work. A record cut short by a crash is dropped on resume.
//
// Older versions wrote the checkpoints of 7x6 in format 3: a first line
// without the board, and records of recordSize3 bytes whose key (of 49
// bits) holds the score in its top byte. A run resumes from one too: its
// records are read, and the file is replaced by one of format 4 that
// holds them before the run goes on (load).
type checkpoint struct {
	g        *board.Grid
	name     string
	f        *os.File
	lastSync time.Time
}

const (
	syncEvery    = 5 * time.Second   // the most time between two syncs of the file
	checksumSize = 4                 // a record's checksum
	recordSize   = 17 + checksumSize // a record of format 4
	recordSize3  = 8 + checksumSize  // a record of format 3
)

// openCheckpoint opens or creates the checkpoint file name for the run
// opt on g's board, whose positions to solve are todo (sorted), and adds
// the positions it records to scores. A checkpoint of format 3 it
// replaces by one of format 4, which it then opens.
func openCheckpoint(g *board.Grid, name string, opt Options, todo []board.Key, scores map[board.Key]int8) (*checkpoint, error) {
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	// Two runs on one checkpoint would interleave their records and
	// truncate each other's.
	if err := atomicfile.Lock(f); err != nil {
		if errors.Is(err, atomicfile.ErrLocked) {
			err = errors.New("another run is using it (it is locked)")
		}
		f.Close()
		return nil, fmt.Errorf("checkpoint %s: %w", name, err)
	}
	ck := &checkpoint{g: g, name: name, f: f, lastSync: time.Now()}
	replaced, err := ck.load(opt, todo, scores)
	if err != nil || replaced {
		ck.close()
	}
	if err != nil {
		return nil, fmt.Errorf("checkpoint %s: %w", name, err)
	}
	if replaced {
		return openCheckpoint(g, name, opt, todo, scores)
	}
	return ck, nil
}

// load checks that the checkpoint is the run opt's, whose positions to
// solve are todo, and adds the positions it records to scores; or writes
// the first line of an empty one. It leaves the file at the end of its
// good records, where the next is added; a format-3 one it replaces by one
// of format 4, atomically (a crash leaves the old file or the whole new
// one), and returns replaced true.
func (ck *checkpoint) load(opt Options, todo []board.Key, scores map[board.Key]int8) (replaced bool, err error) {
	header := fmt.Sprintf("c4solve book checkpoint 4 board=%v depth=%d root=%q shard=%d/%d\n", ck.g.Size, opt.Depth, opt.Root, opt.Shard, opt.Shards)
	r := bufio.NewReader(ck.f)
	got, err := r.ReadString('\n')
	size, read := recordSize, readRecord
	format3 := ck.g.Size == board.Standard && got == fmt.Sprintf("c4solve book checkpoint 3 depth=%d root=%q shard=%d/%d\n", opt.Depth, opt.Root, opt.Shard, opt.Shards)
	switch {
	case got == "" && err == io.EOF: // a new file
		if _, err := io.WriteString(ck.f, header); err != nil {
			return false, err
		}
		return false, ck.f.Sync()
	case strings.HasPrefix(got, "c4solve book checkpoint 1 "):
		return false, errors.New("a checkpoint of format 1, without checksums, from an older c4solve: finish that run with the version that began it, or delete the file to start again")
	case format3:
		size, read = recordSize3, readRecord3
	case err != nil && strings.HasPrefix(header, got):
		return false, fmt.Errorf("its first line is incomplete (%d of %d bytes: a run stopped as it created the file, before it solved anything): delete it and run the same command again", len(got), len(header))
	case err != nil || got != header:
		if len(got) > 100 {
			got = got[:100] + "..."
		}
		return false, fmt.Errorf("it is not the checkpoint of this run (its first line is %q, this run's is %q): "+
			"to start this run afresh, delete it (rm %s) and run the same command again; "+
			"to keep it for its own run, give this one a checkpoint of its own (-checkpoint FILE)", got, header, ck.name)
	}
	good := int64(len(got))
	records := []byte(header) // the file of format 4 that replaces one of format 3
	rec := make([]byte, size)
	sum := size - checksumSize
	for n := 1; ; n++ {
		if _, err := io.ReadFull(r, rec); err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				break // a record cut short by a crash is dropped below
			}
			return false, err
		}
		if farm.Fingerprint32(rec[:sum]) != binary.LittleEndian.Uint32(rec[sum:]) {
			return false, fmt.Errorf("record %d: its checksum does not match: the file is damaged there. "+
				"The %d records before it are good: to keep them and solve the rest again, cut the file to them "+
				"(truncate -s %d %s) and run the same command again", n, n-1, good, ck.name)
		}
		k, score := read(rec)
		if _, ok := slices.BinarySearchFunc(todo, k, board.Key.Compare); !ok {
			return false, fmt.Errorf("record %d: key %s is not a position of this run", n, formatKey(k))
		}
		if score < ck.g.LossNextScore(opt.Depth) || score > ck.g.WinNextScore(opt.Depth) {
			return false, fmt.Errorf("record %d: score %d is impossible", n, score)
		}
		scores[k] = int8(score)
		good += int64(size)
		if format3 {
			records = appendRecord(records, k, score)
		}
	}
	if format3 {
		return true, atomicfile.Write(ck.name, 0o644, func(w io.Writer) error {
			_, err := w.Write(records)
			return err
		})
	}
	if err := ck.f.Truncate(good); err != nil {
		return false, err
	}
	_, err = ck.f.Seek(good, io.SeekStart)
	return false, err
}

// appendRecord appends to rec the record of format 4 of the position with
// canonical key k and its score, checksum included.
func appendRecord(rec []byte, k board.Key, score int) []byte {
	start := len(rec)
	rec = binary.LittleEndian.AppendUint64(rec, k.Lo)
	rec = binary.LittleEndian.AppendUint64(rec, k.Hi)
	rec = append(rec, byte(int8(score)))
	return binary.LittleEndian.AppendUint32(rec, farm.Fingerprint32(rec[start:]))
}

// readRecord returns the key and score of rec, a record of format 4 whose
// checksum matches.
func readRecord(rec []byte) (board.Key, int) {
	return board.Key{Lo: binary.LittleEndian.Uint64(rec), Hi: binary.LittleEndian.Uint64(rec[8:])}, int(int8(rec[16]))
}

// readRecord3 returns the key and score of rec, a record of format 3 whose
// checksum matches.
func readRecord3(rec []byte) (board.Key, int) {
	v := binary.LittleEndian.Uint64(rec)
	return board.Key{Lo: v & (1<<56 - 1)}, int(int8(v >> 56))
}

// add records the score of the position with canonical key k. It does
// nothing on a nil checkpoint.
func (ck *checkpoint) add(k board.Key, score int) error {
	if ck == nil {
		return nil
	}
	if _, err := ck.f.Write(appendRecord(make([]byte, 0, recordSize), k, score)); err != nil {
		return fmt.Errorf("checkpoint %s: %w", ck.name, err)
	}
	if time.Since(ck.lastSync) >= syncEvery {
		return ck.sync()
	}
	return nil
}

// sync syncs the checkpoint's file to disk.
func (ck *checkpoint) sync() error {
	ck.lastSync = time.Now()
	if err := ck.f.Sync(); err != nil {
		return fmt.Errorf("checkpoint %s: %w", ck.name, err)
	}
	return nil
}

// close closes the checkpoint's file, and so unlocks it.
func (ck *checkpoint) close() { ck.f.Close() }
