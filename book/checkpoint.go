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

	"c4solve/internal/atomicfile"
)

// A checkpoint file records the positions a run has solved, so that an
// interrupted run resumes where it stopped. It starts with a line naming
// the run; then each solved position is one record: its canonical key and
// its score (on 7x6, 8 bytes little-endian, the key with the score as a
// signed byte in the top 8 bits; on other boards, the key's two words,
// little-endian, low first, then the score's byte), then 4 bytes
// little-endian, the go-farm Fingerprint32 of those, so that a damaged
// record is refused rather than turned into a book (see variant's
// checkpointHeader).
//
// Each record goes to the file in one write as soon as its position is
// solved, so a killed process loses no finished position; the file is
// synced to disk at most syncEvery apart, so a crashed machine loses at
// most that much work. A record cut short by a crash is dropped on resume.
type checkpoint[K comparable] struct {
	v        variant[K]
	name     string
	f        *os.File
	lastSync time.Time
}

const syncEvery = 5 * time.Second

// openCheckpoint opens or creates the checkpoint file name for the run
// opt on v's board, whose positions to solve are todo (sorted), and adds
// the positions it records to scores.
func openCheckpoint[K comparable](v variant[K], name string, opt Options, todo []K, scores map[K]int8) (*checkpoint[K], error) {
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
	ck := &checkpoint[K]{v: v, name: name, f: f, lastSync: time.Now()}
	if err := ck.load(opt, todo, scores); err != nil {
		f.Close()
		return nil, fmt.Errorf("checkpoint %s: %w", name, err)
	}
	return ck, nil
}

func (ck *checkpoint[K]) load(opt Options, todo []K, scores map[K]int8) error {
	header, recordSize := ck.v.checkpointHeader(opt)
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
	rec := make([]byte, recordSize)
	sum := recordSize - checksumSize
	for n := 1; ; n++ {
		if _, err := io.ReadFull(r, rec); err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				break // a record cut short by a crash is dropped below
			}
			return err
		}
		if farm.Fingerprint32(rec[:sum]) != binary.LittleEndian.Uint32(rec[sum:]) {
			return fmt.Errorf("record %d: its checksum does not match: the file is damaged there. "+
				"The %d records before it are good: to keep them and solve the rest again, cut the file to them "+
				"(truncate -s %d %s) and run the same command again", n, n-1, good, ck.name)
		}
		k, score := ck.v.record(rec)
		if _, ok := slices.BinarySearchFunc(todo, k, ck.v.compare); !ok {
			return fmt.Errorf("record %d: key %s is not a position of this run", n, formatKey(ck.v.key128(k)))
		}
		if z := ck.v.size(); score < z.LossNextScore(opt.Depth) || score > z.WinNextScore(opt.Depth) {
			return fmt.Errorf("record %d: score %d is impossible", n, score)
		}
		scores[k] = int8(score)
		good += int64(recordSize)
	}
	if err := ck.f.Truncate(good); err != nil {
		return err
	}
	_, err = ck.f.Seek(good, io.SeekStart)
	return err
}

// add records the score of the position with canonical key k. It does
// nothing on a nil checkpoint.
func (ck *checkpoint[K]) add(k K, score int) error {
	if ck == nil {
		return nil
	}
	rec := ck.v.appendRecord(make([]byte, 0, 32), k, score)
	rec = binary.LittleEndian.AppendUint32(rec, farm.Fingerprint32(rec))
	if _, err := ck.f.Write(rec); err != nil {
		return fmt.Errorf("checkpoint %s: %w", ck.name, err)
	}
	if time.Since(ck.lastSync) >= syncEvery {
		return ck.sync()
	}
	return nil
}

func (ck *checkpoint[K]) sync() error {
	ck.lastSync = time.Now()
	if err := ck.f.Sync(); err != nil {
		return fmt.Errorf("checkpoint %s: %w", ck.name, err)
	}
	return nil
}

func (ck *checkpoint[K]) close() { ck.f.Close() }
