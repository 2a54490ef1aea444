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
)

// A checkpoint file records the positions a run has solved, so that an
// interrupted run resumes where it stopped. It starts with a line naming
// the run; then each solved position is one 12-byte record: 8 bytes
// little-endian, its canonical key with the score as a signed byte in the
// top 8 bits, then 4 bytes little-endian, the go-farm Fingerprint32 of
// those 8, so that a damaged record is refused rather than turned into a
// book.
//
// Each record goes to the file in one write as soon as its position is
// solved, so a killed process loses no finished position; the file is
// synced to disk at most syncEvery apart, so a crashed machine loses at
// most that much work. A record cut short by a crash is dropped on resume.
type checkpoint struct {
	name     string
	f        *os.File
	lastSync time.Time
}

const syncEvery = 5 * time.Second

// recordSize is the size of a checkpoint record: key and score, checksum.
const recordSize = 12

func checkpointHeader(opt Options) string {
	return fmt.Sprintf("c4solve book checkpoint 3 depth=%d root=%q shard=%d/%d\n", opt.Depth, opt.Root, opt.Shard, opt.Shards)
}

// openCheckpoint opens or creates the checkpoint file name for the run
// opt, whose positions to solve are todo (sorted), and adds the positions
// it records to scores.
func openCheckpoint(name string, opt Options, todo []uint64, scores map[uint64]int8) (*checkpoint, error) {
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	// Two runs on one checkpoint would interleave their records and
	// truncate each other's.
	if err := lock(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("checkpoint %s: %w", name, err)
	}
	ck := &checkpoint{name: name, f: f, lastSync: time.Now()}
	if err := ck.load(opt, todo, scores); err != nil {
		f.Close()
		return nil, fmt.Errorf("checkpoint %s: %w", name, err)
	}
	return ck, nil
}

func (ck *checkpoint) load(opt Options, todo []uint64, scores map[uint64]int8) error {
	header := checkpointHeader(opt)
	fi, err := ck.f.Stat()
	if err != nil {
		return err
	}
	if fi.Size() == 0 {
		if _, err := io.WriteString(ck.f, header); err != nil {
			return err
		}
		return ck.f.Sync()
	}
	r := bufio.NewReader(ck.f)
	got, err := r.ReadString('\n')
	if strings.HasPrefix(got, "c4solve book checkpoint 1 ") {
		return errors.New("a checkpoint of format 1, without checksums, from an older c4solve: finish that run with the version that began it, or delete the file to start again")
	}
	if err != nil && strings.HasPrefix(header, got) {
		return fmt.Errorf("its first line is incomplete (%d of %d bytes: a run stopped as it created the file, before it solved anything): delete it and run the same command again", len(got), len(header))
	}
	if err != nil || got != header {
		return fmt.Errorf("it is not the checkpoint of this run (want first line %q)", header)
	}
	good := int64(len(header))
	var rec [recordSize]byte
	for n := 1; ; n++ {
		if _, err := io.ReadFull(r, rec[:]); err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				break // a record cut short by a crash is dropped below
			}
			return err
		}
		if farm.Fingerprint32(rec[:8]) != binary.LittleEndian.Uint32(rec[8:]) {
			return fmt.Errorf("record %d: its checksum does not match: the file is damaged there. "+
				"The %d records before it are good: to keep them and solve the rest again, cut the file to them "+
				"(truncate -s %d %s) and run the same command again", n, n-1, good, ck.name)
		}
		v := binary.LittleEndian.Uint64(rec[:8])
		k, score := v&(1<<56-1), int(int8(v>>56))
		if _, ok := slices.BinarySearch(todo, k); !ok {
			return fmt.Errorf("record %d: key %#x is not a position of this run", n, k)
		}
		if score < board.LossNextScore(opt.Depth) || score > board.WinNextScore(opt.Depth) {
			return fmt.Errorf("record %d: score %d is impossible", n, score)
		}
		scores[k] = int8(score)
		good += recordSize
	}
	if err := ck.f.Truncate(good); err != nil {
		return err
	}
	_, err = ck.f.Seek(good, io.SeekStart)
	return err
}

// add records the score of the position with canonical key k. It does
// nothing on a nil checkpoint.
func (ck *checkpoint) add(k uint64, score int) error {
	if ck == nil {
		return nil
	}
	var rec [recordSize]byte
	binary.LittleEndian.PutUint64(rec[:8], k|uint64(uint8(int8(score)))<<56)
	binary.LittleEndian.PutUint32(rec[8:], farm.Fingerprint32(rec[:8]))
	if _, err := ck.f.Write(rec[:]); err != nil {
		return fmt.Errorf("checkpoint %s: %w", ck.name, err)
	}
	if time.Since(ck.lastSync) >= syncEvery {
		return ck.sync()
	}
	return nil
}

func (ck *checkpoint) sync() error {
	ck.lastSync = time.Now()
	if err := ck.f.Sync(); err != nil {
		return fmt.Errorf("checkpoint %s: %w", ck.name, err)
	}
	return nil
}

func (ck *checkpoint) close() { ck.f.Close() }
