package book

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	farm "github.com/dgryski/go-farm"

	"c4solve/board"
)

// An interrupted run resumes from its checkpoint, solves only what is
// left, and makes the same book.
func TestResume(t *testing.T) {
	whole := testBook(t)
	ck := filepath.Join(t.TempDir(), "ck")
	ctx, cancel := context.WithCancel(context.Background())
	first := 0
	_, err := Generate(ctx, Options{Root: testRoot, Depth: testDepth, Threads: 2, TableMiB: 16, Checkpoint: ck,
		Progress: func(done, total int) {
			if first = done; done >= 10 {
				cancel()
			}
		}})
	if err == nil {
		t.Fatal("Generate, canceled: no error")
	}
	// A record whose score byte was changed, to another possible score,
	// is refused: the checkpoint never becomes a book.
	data, err := os.ReadFile(ck)
	if err != nil {
		t.Fatal(err)
	}
	damaged := filepath.Join(t.TempDir(), "damaged")
	bad := slices.Clone(data)
	first3 := bytes.IndexByte(bad, '\n') + 1 + 2*recordSize // the third record
	bad[first3+16] ^= 1                                     // its score, one off
	os.WriteFile(damaged, bad, 0o644)
	_, err = Generate(context.Background(), Options{Root: testRoot, Depth: testDepth, Threads: 2, TableMiB: 16, Checkpoint: damaged})
	if err == nil || !strings.Contains(err.Error(), "record 3: its checksum does not match") {
		t.Errorf("Generate with a checkpoint whose third score is changed: %v; want the damage refused", err)
	}
	// The message's way forward works: cut the file where it says, and the
	// run goes on from the two good records to the whole book.
	var size int64
	if err == nil || !strings.Contains(err.Error(), "The 2 records before it are good") {
		t.Errorf("the damage message %v: want it to say that 2 records are good", err)
	} else if _, scanErr := fmt.Sscanf(err.Error()[strings.Index(err.Error(), "truncate -s ")+len("truncate -s "):], "%d", &size); scanErr != nil || size != int64(first3) {
		t.Errorf("the damage message %v: want truncate -s %d", err, first3)
	} else {
		os.Truncate(damaged, size)
		b, err := Generate(context.Background(), Options{Root: testRoot, Depth: testDepth, Threads: 2, TableMiB: 16, Checkpoint: damaged})
		if err != nil || !bytes.Equal(b.encode(), whole.encode()) {
			t.Errorf("Generate after cutting the damaged checkpoint as told: %v, or a book that differs from an uninterrupted run's", err)
		}
	}
	// A first line cut short is called incomplete.
	partial := filepath.Join(t.TempDir(), "partial")
	os.WriteFile(partial, data[:10], 0o644)
	_, err = Generate(context.Background(), Options{Root: testRoot, Depth: testDepth, Threads: 2, TableMiB: 16, Checkpoint: partial})
	if err == nil || !strings.Contains(err.Error(), "its first line is incomplete") {
		t.Errorf("Generate with a checkpoint whose first line is cut short: %v; want it called incomplete", err)
	}

	// A record cut short by a crash is dropped.
	f, _ := os.OpenFile(ck, os.O_APPEND|os.O_WRONLY, 0)
	f.Write([]byte{1, 2, 3})
	f.Close()

	resumed, solved := -1, 0
	b, err := Generate(context.Background(), Options{Root: testRoot, Depth: testDepth, Threads: 2, TableMiB: 16, Checkpoint: ck,
		Progress: func(done, total int) {
			if resumed < 0 {
				resumed = done
			}
			solved = done - resumed
		}})
	if err != nil {
		t.Fatal(err)
	}
	if resumed < 10 || resumed > first || solved != whole.Counts()[testDepth]-resumed {
		t.Errorf("resumed with %d positions done (the first run reported %d), then solved %d; want at least 10, and the rest",
			resumed, first, solved)
	}
	if !bytes.Equal(b.encode(), whole.encode()) {
		t.Fatal("the resumed run's book differs from an uninterrupted run's")
	}

	// A checkpoint of another run is refused.
	_, err = Generate(context.Background(), Options{Root: testRoot, Depth: testDepth - 1, TableMiB: 16, Checkpoint: ck})
	if err == nil || !strings.Contains(err.Error(), "not the checkpoint of this run") {
		t.Errorf("Generate with another run's checkpoint: %v", err)
	}
}

// TestCheckpointLocked: a second run on a checkpoint in use is refused,
// not let interleave its records with the first's.
func TestCheckpointLocked(t *testing.T) {
	name := filepath.Join(t.TempDir(), "ck")
	opt := Options{Root: testRoot, Depth: testDepth, TableMiB: 16, Checkpoint: name}
	first, err := openCheckpoint(standardGrid(t), name, opt, nil, map[board.Key]int8{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Generate(context.Background(), opt)
	if err == nil || !strings.Contains(err.Error(), "another run is using it") {
		t.Errorf("Generate on a checkpoint in use: %v; want it refused", err)
	}
	first.close()
	if _, err := Generate(context.Background(), opt); err != nil {
		t.Errorf("Generate once the checkpoint is free: %v", err)
	}
}

// TestResumeFormat3: a run of 7x6 resumes from a checkpoint of format 3,
// which older versions wrote (8-byte records, the score in the key's top
// byte), made here as they made it: it solves only the positions that
// the checkpoint lacks and makes the same book, and the checkpoint, now
// of format 4, holds every position, so that another run on it solves
// none. A damaged format-3 checkpoint is refused and left as it was.
func TestResumeFormat3(t *testing.T) {
	whole := testBook(t)
	g := standardGrid(t)
	const resumed = 10
	old := []byte(fmt.Sprintf("c4solve book checkpoint 3 depth=%d root=%q shard=0/0\n", testDepth, testRoot))
	for i, n := 0, 0; n < resumed; i++ {
		if p, sc := whole.Entry(g, i); p.Stones() == testDepth {
			rec := binary.LittleEndian.AppendUint64(nil, whole.keys[i].Lo|uint64(uint8(int8(sc)))<<56)
			old = binary.LittleEndian.AppendUint32(append(old, rec...), farm.Fingerprint32(rec))
			n++
		}
	}
	old = append(old[:len(old):len(old)], 1, 2, 3) // a record cut short by a crash
	header := len(old) - 3 - resumed*recordSize3

	damaged := filepath.Join(t.TempDir(), "damaged")
	bad := slices.Clone(old)
	bad[header+recordSize3+7] ^= 1 // the second record's score
	os.WriteFile(damaged, bad, 0o644)
	_, err := Generate(context.Background(), Options{Root: testRoot, Depth: testDepth, TableMiB: 16, Checkpoint: damaged})
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("record 2: its checksum does not match: the file is damaged there. The 1 records before it are good: to keep them and solve the rest again, cut the file to them (truncate -s %d ", header+recordSize3)) {
		t.Errorf("Generate with a format-3 checkpoint whose second score is changed: %v; want the damage refused, 1 record good", err)
	}
	if data, _ := os.ReadFile(damaged); !bytes.Equal(data, bad) {
		t.Error("the damaged format-3 checkpoint was changed")
	}

	ck := filepath.Join(t.TempDir(), "ck")
	os.WriteFile(ck, old, 0o644)
	first, solved, total := -1, 0, 0
	opt := Options{Root: testRoot, Depth: testDepth, Threads: 2, TableMiB: 16, Checkpoint: ck,
		Progress: func(done, all int) {
			if first < 0 {
				first = done
			}
			solved, total = done-first, all
		}}
	b, err := Generate(context.Background(), opt)
	if err != nil || !bytes.Equal(b.encode(), whole.encode()) {
		t.Fatalf("Generate from a format-3 checkpoint: %v, or a book that differs from an uninterrupted run's", err)
	}
	if first != resumed || solved != total-resumed {
		t.Errorf("resumed with %d positions done, then solved %d of %d; want %d, and the rest", first, solved, total, resumed)
	}
	data, err := os.ReadFile(ck)
	want := fmt.Sprintf("c4solve book checkpoint 4 board=7x6 depth=%d root=%q shard=0/0\n", testDepth, testRoot)
	if err != nil || !bytes.HasPrefix(data, []byte(want)) || len(data) != len(want)+total*recordSize {
		t.Errorf("the checkpoint after the run: %v, %d bytes, first line %q; want %d records of format 4 after %q",
			err, len(data), data[:bytes.IndexByte(data, '\n')+1], total, want)
	}
	first = -1
	if _, err := Generate(context.Background(), opt); err != nil || first != total {
		t.Errorf("Generate again on the checkpoint: %v, %d positions done at first; want all %d", err, first, total)
	}
}
