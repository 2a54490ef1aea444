package solver_test

import (
	"context"
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

	fresh, err := solver.NewSized(g, 16, 1).Solve(ctx, g.Empty())
	if err != nil {
		t.Fatal(err)
	}

	tf, err := solver.OpenTableFile(path, g.Size)
	if err != nil {
		t.Fatal(err)
	}
	tf.Nodes = 1 << 10
	s := solver.NewSized(g, 16, 1)
	if err := s.UseTableFile(tf); err != nil {
		t.Fatal(err)
	}
	stop, cancel := context.WithCancel(ctx)
	go func() {
		for {
			if n, _, _ := s.Progress(); n >= fresh.Nodes/2 {
				cancel()
				return
			}
			time.Sleep(time.Millisecond)
		}
	}()
	if _, err := s.Solve(stop, g.Empty()); err == nil {
		t.Fatal("the solve was not stopped part way")
	}
	written := tf.Written
	if err := tf.Close(); err != nil || written == 0 {
		t.Fatalf("Close = %v, %d entries written; want some", err, written)
	}

	tf, err = solver.OpenTableFile(path, g.Size)
	if err != nil {
		t.Fatal(err)
	}
	defer tf.Close()
	if tf.Loaded != written || tf.Ignored != 0 {
		t.Fatalf("%d entries loaded, %d bytes ignored; want %d and 0", tf.Loaded, tf.Ignored, written)
	}
	s = solver.NewSized(g, 16, 1)
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

// TestTableFileBad: a file of another board is refused, naming both; a
// file that is no table file is refused; a damaged tail is ignored and cut
// off, the records before it kept.
func TestTableFileBad(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.c4table")
	g := mustGrid(t, "5x4")
	tf, err := solver.OpenTableFile(path, g.Size)
	if err != nil {
		t.Fatal(err)
	}
	tf.Nodes = 1
	s := solver.NewSized(g, 4, 1)
	if err := s.UseTableFile(tf); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Solve(context.Background(), g.Empty()); err != nil {
		t.Fatal(err)
	}
	n := tf.Written
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
	if _, err := solver.OpenTableFile(other, g.Size); err == nil || !strings.Contains(err.Error(), "not a c4solve table file") {
		t.Errorf("a file of positions opened as a table file: %v", err)
	}

	// A record cut short, and one damaged: loading stops at the damage.
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	header := len(data) - n*24
	cut := append(append([]byte{}, data...), data[header:header+10]...)
	if err := os.WriteFile(path, cut, 0o644); err != nil {
		t.Fatal(err)
	}
	tf, err = solver.OpenTableFile(path, g.Size)
	if err != nil || tf.Loaded != n || tf.Ignored != 10 {
		t.Fatalf("a cut record: %v, %d loaded, %d bytes ignored; want %d and 10", err, tf.Loaded, tf.Ignored, n)
	}
	tf.Close()
	if info, _ := os.Stat(path); info.Size() != int64(len(data)) {
		t.Errorf("the bad tail was not cut: %d bytes; want %d", info.Size(), len(data))
	}
	damaged := append([]byte{}, data...)
	damaged[header+24+3] ^= 0x40 // the second record's key
	if err := os.WriteFile(path, damaged, 0o644); err != nil {
		t.Fatal(err)
	}
	tf, err = solver.OpenTableFile(path, g.Size)
	if err != nil || tf.Loaded != 1 || tf.Ignored != (n-1)*24 {
		t.Fatalf("a damaged second record: %v, %d loaded, %d bytes ignored; want 1 and %d", err, tf.Loaded, tf.Ignored, (n-1)*24)
	}
	tf.Close()

	// The 7x6 Solver refuses a file of another board.
	tf, err = solver.OpenTableFile(filepath.Join(dir, "x"), g.Size)
	if err != nil {
		t.Fatal(err)
	}
	defer tf.Close()
	if err := solver.New(nil, 1).UseTableFile(tf); err == nil || !strings.Contains(err.Error(), "5x4, and the solver's is 7x6") {
		t.Errorf("7x6 Solver with a 5x4 file: %v", err)
	}
}
