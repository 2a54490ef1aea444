package solver_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"c4solve/board"
	"c4solve/solver"
)

// TestTableFileResume stops a solve part way, as a kill would, and solves
// again with the entries its table file kept: the same score as a solve
// from scratch, and fewer expanded nodes.
func TestTableFileResume(t *testing.T) {
	g := mustGrid(t, "6x5")
	path := filepath.Join(t.TempDir(), "t.c4table")
	ctx := context.Background()

	fresh, err := testSolver(t, g, 16, 1).Solve(ctx, g.Empty())
	if err != nil {
		t.Fatal(err)
	}

	tf, err := solver.OpenTableFile(path, g.Size)
	if err != nil {
		t.Fatal(err)
	}
	tf.Nodes = 1 << 10
	s := testSolver(t, g, 16, 1)
	if err := s.UseTableFile(tf); err != nil {
		t.Fatal(err)
	}
	// Stopped half way, counted in nodes (a poll of Progress, which ends
	// with the solve).
	stop, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		for stop.Err() == nil {
			if n, _, _ := s.Progress(); n >= fresh.Nodes/2 {
				cancel()
			}
			time.Sleep(time.Millisecond)
		}
	}()
	_, err = s.Solve(stop, g.Empty())
	cancel()
	if err == nil {
		t.Fatal("the solve was not stopped part way")
	}
	// A stopped solve writes out what it kept, before Close.
	written, lost := tf.Written()
	if written == 0 || lost != 0 {
		t.Fatalf("after the stopped solve: %d entries written, %d lost; want some and 0", written, lost)
	}
	if err := tf.Close(); err != nil {
		t.Fatal(err)
	}

	tf, err = solver.OpenTableFile(path, g.Size)
	if err != nil {
		t.Fatal(err)
	}
	defer tf.Close()
	if tf.Loaded != written || tf.Damaged != 0 || tf.Invalid != 0 || tf.CutTail != 0 {
		t.Fatalf("%d entries loaded, %d damaged, %d invalid, %d bytes cut; want %d, 0, 0, 0", tf.Loaded, tf.Damaged, tf.Invalid, tf.CutTail, written)
	}
	s = testSolver(t, g, 16, 1)
	if err := s.UseTableFile(tf); err != nil {
		t.Fatal(err)
	}
	resumed, err := s.Solve(ctx, g.Empty())
	if err != nil || resumed.Score != fresh.Score {
		t.Fatalf("resumed: %d, %v; want %d", resumed.Score, err, fresh.Score)
	}
	if resumed.Expanded >= fresh.Expanded {
		t.Errorf("resumed with %d entries: %d expanded nodes; from scratch %d", written, resumed.Expanded, fresh.Expanded)
	}
	t.Logf("6x5: %d entries kept; expanded %d from scratch, %d resumed", written, fresh.Expanded, resumed.Expanded)
}

// writeTableFile writes a table file of the board z holding recs.
func writeTableFile(t *testing.T, path string, z board.Size, recs ...[]byte) []byte {
	t.Helper()
	data := fmt.Appendf(nil, "c4solve table file 1\n%d %d\n", z.Width, z.Height)
	for _, r := range recs {
		data = append(data, r...)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return data
}

// tableRecord is a record of a table file, as TableFile writes it.
func tableRecord(lo, hi uint64, lower, upper, move int) []byte {
	rec := make([]byte, 24)
	binary.LittleEndian.PutUint64(rec, lo)
	binary.LittleEndian.PutUint64(rec[8:], hi)
	rec[16], rec[17], rec[18] = byte(int8(lower)), byte(int8(upper)), byte(int8(move))
	binary.LittleEndian.PutUint32(rec[20:], crc32.ChecksumIEEE(rec[:20]))
	return rec
}

// unreached is the key of no position of a board of height 4 or more: a
// column's bits all set (current + mask never is), then i. Records of such
// keys are sensible and change no solve.
func unreached(i int) uint64 { return uint64(i)<<8 | 0x1f }

// mustOpen opens path, a table file of z, and fails the test if it can
// not; the file is closed at the end of the test.
func mustOpen(t *testing.T, path string, z board.Size) *solver.TableFile {
	t.Helper()
	tf, err := solver.OpenTableFile(path, z)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tf.Close() })
	return tf
}

// TestTableFileBad: a file of another board is refused, naming both; a
// file that is no table file is refused; a last record cut short is
// removed, the records before it kept; a damaged record is skipped and the
// file left as it is.
func TestTableFileBad(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.c4table")
	g := mustGrid(t, "5x4")
	tf, err := solver.OpenTableFile(path, g.Size)
	if err != nil {
		t.Fatal(err)
	}
	tf.Nodes = 1
	s := testSolver(t, g, 4, 1)
	if err := s.UseTableFile(tf); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Solve(context.Background(), g.Empty()); err != nil {
		t.Fatal(err)
	}
	n, _ := tf.Written()
	if err := tf.Close(); err != nil || n < 3 {
		t.Fatalf("Close = %v after %d entries; want some", err, n)
	}

	if _, err := solver.OpenTableFile(path, board.Size{Width: 8, Height: 5}); err == nil ||
		!strings.Contains(err.Error(), "a table file of the 5x4 board, and the board solved is 8x5") {
		t.Errorf("a file of 5x4 opened for 8x5: %v; want both named", err)
	}
	if err := s.UseTableFile(nil); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other")
	if err := os.WriteFile(other, []byte("4453 -2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := solver.OpenTableFile(other, g.Size); err == nil || !strings.Contains(err.Error(), other+": not a c4solve table file") {
		t.Errorf("a file of positions opened as a table file: %v", err)
	}

	// A record cut short at the end: removed, the others loaded.
	data := mustRead(t, path)
	header := len(data) - n*24
	cut := append(append([]byte{}, data...), data[header:header+10]...)
	if err := os.WriteFile(path, cut, 0o644); err != nil {
		t.Fatal(err)
	}
	tf, err = solver.OpenTableFile(path, g.Size)
	if err != nil || tf.Loaded != n || tf.CutTail != 10 || tf.Damaged != 0 {
		t.Fatalf("a cut record: %v, %d loaded, %d bytes cut, %d damaged; want %d, 10, 0", err, tf.Loaded, tf.CutTail, tf.Damaged, n)
	}
	tf.Close()
	if got := mustRead(t, path); !bytes.Equal(got, data) {
		t.Errorf("the record cut short was not removed: %d bytes; want %d", len(got), len(data))
	}

	// A damaged record in the middle: skipped, the ones after it
	// loaded, the file left as it is.
	damaged := append([]byte{}, data...)
	damaged[header+24+3] ^= 0x40 // the second record's key
	if err := os.WriteFile(path, damaged, 0o644); err != nil {
		t.Fatal(err)
	}
	tf, err = solver.OpenTableFile(path, g.Size)
	if err != nil || tf.Loaded != n-1 || tf.Damaged != 1 || tf.CutTail != 0 {
		t.Fatalf("a damaged second record: %v, %d loaded, %d damaged, %d bytes cut; want %d, 1, 0", err, tf.Loaded, tf.Damaged, tf.CutTail, n-1)
	}
	tf.Close()
	if got := mustRead(t, path); !bytes.Equal(got, damaged) {
		t.Errorf("a file with a damaged record was changed")
	}

	// The 7x6 Solver refuses a file of another board.
	tf = mustOpen(t, filepath.Join(dir, "x"), g.Size)
	if err := solver.NewStandard(nil, 1).UseTableFile(tf); err == nil || !strings.Contains(err.Error(), "5x4, and the solver's is 7x6") {
		t.Errorf("7x6 Solver with a 5x4 file: %v", err)
	}
}

// TestTableFileResync: one flipped bit at offset 25 of a file of 61
// entries of 8x5, the first byte of the first record (the header is 25
// bytes), loses that record only; so do damaged records anywhere, each
// read past at the next record's boundary; the file is not changed.
func TestTableFileResync(t *testing.T) {
	z := board.Size{Width: 8, Height: 5}
	path := filepath.Join(t.TempDir(), "t.c4table")
	var recs [][]byte
	for i := range 61 {
		recs = append(recs, tableRecord(unreached(i), 0, -2, 3, i%8))
	}
	data := writeTableFile(t, path, z, recs...)
	for _, tc := range []struct {
		flip    []int // offsets of bytes whose low bit flips
		damaged int
	}{
		{nil, 0},
		{[]int{25}, 1},
		{[]int{25, 26, 48}, 1},      // bytes of the first record only
		{[]int{25 + 24*60 + 23}, 1}, // the last record's checksum
		{[]int{25 + 24*5 + 16, 25 + 24*6, 25 + 24*40 + 9}, 3},
	} {
		bad := append([]byte{}, data...)
		for _, o := range tc.flip {
			bad[o] ^= 1
		}
		if err := os.WriteFile(path, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		tf, err := solver.OpenTableFile(path, z)
		if err != nil {
			t.Fatalf("bits flipped at %v: %v", tc.flip, err)
		}
		if err := tf.Close(); err != nil {
			t.Fatal(err)
		}
		if tf.Loaded != 61-tc.damaged || tf.Damaged != tc.damaged || tf.Invalid != 0 || tf.CutTail != 0 {
			t.Errorf("bits flipped at %v: %d loaded, %d damaged, %d invalid, %d bytes cut; want %d, %d, 0, 0",
				tc.flip, tf.Loaded, tf.Damaged, tf.Invalid, tf.CutTail, 61-tc.damaged, tc.damaged)
		}
		if got := mustRead(t, path); !bytes.Equal(got, bad) {
			t.Errorf("bits flipped at %v: the file was changed (%d bytes; was %d)", tc.flip, len(got), len(bad))
		}
	}
}

// TestTableFileSense: records whose checksum holds but whose contents
// cannot be of the board are skipped and counted, each, and the records
// after them loaded.
func TestTableFileSense(t *testing.T) {
	z := board.Size{Width: 8, Height: 5}     // scores -17 to 17, keys of 48 bits
	wide := board.Size{Width: 10, Height: 7} // keys of 80 bits
	for _, tc := range []struct {
		name string
		z    board.Size
		rec  []byte
	}{
		{"lower above upper", z, tableRecord(unreached(1), 0, 5, 2, 3)},
		{"lower above 17", z, tableRecord(unreached(2), 0, 18, 18, 3)},
		{"upper below -17", z, tableRecord(unreached(3), 0, -20, -18, 3)},
		{"lower of 127", z, tableRecord(unreached(3), 0, 127, 127, 3)},
		{"move 8", z, tableRecord(unreached(4), 0, 0, 1, 8)},
		{"move -2", z, tableRecord(unreached(5), 0, 0, 1, -2)},
		{"a key of 49 bits", z, tableRecord(unreached(6)|1<<48, 0, 0, 1, 2)},
		{"a key's high word", z, tableRecord(unreached(7), 1, 0, 1, 2)},
		{"a key of 81 bits", wide, tableRecord(unreached(7), 1<<16, 0, 1, 2)},
	} {
		path := filepath.Join(t.TempDir(), "t.c4table")
		good := func(i int) []byte { return tableRecord(unreached(100+i), 0, -1, 1, -1) }
		writeTableFile(t, path, tc.z, good(0), tc.rec, good(1))
		tf := mustOpen(t, path, tc.z)
		if tf.Loaded != 2 || tf.Invalid != 1 || tf.Damaged != 0 {
			t.Errorf("%s: %d loaded, %d invalid, %d damaged; want 2, 1, 0", tc.name, tf.Loaded, tf.Invalid, tf.Damaged)
		}
	}
	// The extremes are sensible, and so are bounds beyond the scores
	// that say nothing (the solver stores some).
	path := filepath.Join(t.TempDir(), "t.c4table")
	writeTableFile(t, path, z, tableRecord(unreached(1), 0, -17, 17, 7), tableRecord(1<<48-1, 0, 17, 17, -1),
		tableRecord(unreached(2), 0, -19, 18, 7), tableRecord(unreached(3), 0, -128, -17, 7), tableRecord(unreached(4), 0, 17, 127, 7))
	if tf := mustOpen(t, path, z); tf.Loaded != 5 || tf.Invalid != 0 {
		t.Errorf("records at the limits: %d loaded, %d invalid; want 5, 0", tf.Loaded, tf.Invalid)
	}
	// A key of all the bits of the board, 48 and 80.
	path = filepath.Join(t.TempDir(), "t.c4table")
	writeTableFile(t, path, z, tableRecord(1<<47|unreached(5), 0, 0, 1, 2))
	if tf := mustOpen(t, path, z); tf.Loaded != 1 || tf.Invalid != 0 {
		t.Errorf("a key of 48 bits on %v: %d loaded, %d invalid; want 1, 0", z, tf.Loaded, tf.Invalid)
	}
	path = filepath.Join(t.TempDir(), "t.c4table")
	writeTableFile(t, path, wide, tableRecord(unreached(6), 1<<15, 0, 1, 2))
	if tf := mustOpen(t, path, wide); tf.Loaded != 1 || tf.Invalid != 0 {
		t.Errorf("a key of 80 bits on %v: %d loaded, %d invalid; want 1, 0", wide, tf.Loaded, tf.Invalid)
	}
}

// TestTableFileHeader: a header not exactly as OpenTableFile writes it, or
// cut short, is refused with an error that names the file and what is
// wrong, and the file is left as it is; an empty file is a new one.
func TestTableFileHeader(t *testing.T) {
	z := board.Size{Width: 8, Height: 5}
	path := filepath.Join(t.TempDir(), "t.c4table")
	rec := tableRecord(unreached(1), 0, 0, 1, 2)
	for _, tc := range []struct {
		header, want string
	}{
		{"c4solve table file 1\n08 5\n", `names its board as "08 5"`},
		{"c4solve table file 1\n8  5\n", `names its board as "8  5"`},
		{"c4solve table file 1\n 8 5\n", `names its board as " 8 5"`},
		{"c4solve table file 1\n8 5 \n", `names its board as "8 5 "`},
		{"c4solve table file 1\n8 5\r\n", `names its board as "8 5\r"`},
		{"c4solve table file 1\n8x5\n", `names its board as "8x5"`},
		{"c4solve table file 1\n+8 5\n", `names its board as "+8 5"`},
		{"c4solve table file 1\n8 5 8 5 8 5 8 5 8 5\n", `names its board as "8 5 8 5 8 5 8 5 8"`},
		{"c4solve table file 1\n8 5", "cut short inside its header (24 bytes, no entries; remove it to start anew)"},
		{"c4solve table file 1\n", "cut short inside its header (21 bytes, no entries; remove it to start anew)"},
		{"c4solve tab", "cut short inside its header (11 bytes, no entries; remove it to start anew)"},
		{"c4solve table file 2\n8 5\n", "not a c4solve table file"},
		{"\x00c4solve table file 1\n8 5\n", "not a c4solve table file"},
	} {
		for _, data := range []string{tc.header, tc.header + string(rec)} {
			if strings.Contains(tc.want, "cut short") && data != tc.header {
				continue
			}
			if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
			tf, err := solver.OpenTableFile(path, z)
			if err == nil {
				tf.Close()
			}
			if err == nil || !strings.HasPrefix(err.Error(), path+": ") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("OpenTableFile of %q: %v; want %q, naming the file", data, err, tc.want)
			}
			if got := mustRead(t, path); string(got) != data {
				t.Errorf("OpenTableFile of %q changed it to %q", data, got)
			}
		}
	}

	// Empty: a new file, given its header.
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tf, err := solver.OpenTableFile(path, z)
	if err != nil {
		t.Fatal(err)
	}
	tf.Close()
	if got, want := string(mustRead(t, path)), "c4solve table file 1\n8 5\n"; got != want {
		t.Errorf("an empty table file became %q; want %q", got, want)
	}
}

// TestTableFileLock: a table file open in one place is refused in
// another, naming the file, until it is closed.
func TestTableFileLock(t *testing.T) {
	z := board.Size{Width: 6, Height: 5}
	path := filepath.Join(t.TempDir(), "t.c4table")
	tf, err := solver.OpenTableFile(path, z)
	if err != nil {
		t.Fatal(err)
	}
	if other, err := solver.OpenTableFile(path, z); err == nil {
		other.Close()
		t.Errorf("a table file opened twice at once")
	} else if want := path + ": another c4solve is using it (it is locked)"; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("a table file opened twice at once: %v; want %q", err, want)
	}
	tf.Close()
	mustOpen(t, path, z)
}

// TestTableFileBatch: a Batch's positions solved side by side, by the
// single-threaded Solvers of its pool, keep their entries in the table
// file of the Batch's Solver.
func TestTableFileBatch(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.c4table")
	tf := mustOpen(t, path, board.Standard)
	tf.Nodes = 1 << 10
	g := mustGrid(t, "7x6")
	s := testSolver(t, g, 16, 2)
	if err := s.UseTableFile(tf); err != nil {
		t.Fatal(err)
	}
	b := solver.NewBatch(s)
	var pool []*solver.Solver
	for _, moves := range []string{"444444", "333333", "555555"} {
		p, err := g.Parse(moves, false)
		if err != nil {
			t.Fatal(err)
		}
		b.Do(true, func(ps *solver.Solver) {
			if ps == s {
				t.Errorf("%s solved alone; want beside the others", moves)
			}
			if _, err := ps.Solve(context.Background(), p); err != nil {
				t.Error(err)
			}
		}, func() { pool = append(pool, nil) })
	}
	b.Flush()
	if written, lost := tf.Written(); written == 0 || lost != 0 || len(pool) != 3 {
		t.Errorf("3 positions solved side by side: %d entries written, %d lost; want some and 0", written, lost)
	}
}

func mustRead(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestTableFilePacked: the table file of a board the search packs (8x8,
// position.Packs) holds the keys of the board's Position128s, as every file
// of a board over 64 bits does, and a solve resumed from it agrees.
func TestTableFilePacked(t *testing.T) {
	g := mustGrid(t, "8x8")
	b, err := g.Parse("621611456135672632211422", false) // BenchmarkBoards'
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "t.c4table")
	ctx := context.Background()
	tf, err := solver.OpenTableFile(path, g.Size)
	if err != nil {
		t.Fatal(err)
	}
	tf.Nodes = 1 << 10
	s := testSolver(t, g, 16, 1)
	if err := s.UseTableFile(tf); err != nil {
		t.Fatal(err)
	}
	fresh, err := s.Solve(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	if err := tf.Close(); err != nil {
		t.Fatal(err)
	}
	data := mustRead(t, path)
	header := len("c4solve table file 1\n8 8\n")
	if (len(data)-header)%24 != 0 || len(data) == header {
		t.Fatalf("a file of %d bytes: want a header of %d and records of 24", len(data), header)
	}
	for off := header; off < len(data); off += 24 {
		k := board.Key{Lo: binary.LittleEndian.Uint64(data[off:]), Hi: binary.LittleEndian.Uint64(data[off+8:])}
		if _, err := g.FromKey(k); err != nil {
			t.Fatalf("record %d: %v; want the key of a Position128", (off-header)/24, err)
		}
	}
	tf = mustOpen(t, path, g.Size)
	if tf.Loaded == 0 || tf.Invalid != 0 {
		t.Fatalf("%d entries loaded, %d invalid; want some and 0", tf.Loaded, tf.Invalid)
	}
	s = testSolver(t, g, 16, 1)
	if err := s.UseTableFile(tf); err != nil {
		t.Fatal(err)
	}
	resumed, err := s.Solve(ctx, b)
	if err != nil || resumed.Score != fresh.Score || resumed.Expanded >= fresh.Expanded {
		t.Errorf("resumed: %d, %v, %d expanded; want %d in fewer than %d", resumed.Score, err, resumed.Expanded, fresh.Score, fresh.Expanded)
	}
}
