package book

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"c4solve/board"
)

// sizedCase is a book of another board than 7x6 that a test can afford.
type sizedCase struct {
	size  board.Size
	root  string
	depth int
}

var (
	// book5x4 is every position of 5x4 of at most 5 stones.
	book5x4 = sizedCase{board.Size{Width: 5, Height: 4}, "", 5}
	// book8x8 is the positions of up to two stones after a position of
	// 32 stones of 8x8, a board of 72 bits (keys of two words), whose
	// solves take milliseconds.
	book8x8 = sizedCase{board.Size{Width: 8, Height: 8}, "68333825128447741833366676678867", 34}
)

func (c sizedCase) grid(t testing.TB) *board.Grid {
	t.Helper()
	g, err := board.NewGrid(c.size)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// generate makes the book of c with opt's other fields.
func (c sizedCase) generate(t testing.TB, opt Options) *Book {
	t.Helper()
	opt.Size, opt.Root, opt.Depth = c.grid(t).Size, c.root, c.depth
	b, err := Generate(context.Background(), opt)
	if err != nil {
		t.Fatalf("Generate(%s, %+v): %v", c.size, opt, err)
	}
	return b
}

// TestGenerateSized makes books of 5x4 and of 8x8 (over 64 bits), whole
// and in two shards merged, which must be the same book, and checks every
// entry against a search of its own, the round trip through a file, and
// a solver that answers from the book.
func TestGenerateSized(t *testing.T) {
	for _, c := range []sizedCase{book5x4, book8x8} {
		t.Run(c.size.String(), func(t *testing.T) {
			g := c.grid(t)
			b := c.generate(t, Options{Threads: 2})
			if b.Board() != g.Size || b.Len() == 0 {
				t.Fatalf("book of %v: board %v, %d positions", g.Size, b.Board(), b.Len())
			}
			parts := []*Book{c.generate(t, Options{Shard: 1, Shards: 2}), c.generate(t, Options{Shard: 2, Shards: 2, Threads: 2})}
			if parts[0].Len() == 0 || parts[1].Len() == 0 {
				t.Errorf("parts of %d and %d positions; want both some", parts[0].Len(), parts[1].Len())
			}
			merged, err := Merge(parts[1], parts[0])
			if err != nil || !bytes.Equal(merged.encode(), b.encode()) {
				t.Fatalf("Merge of the 2 parts: %v, or a book that differs from the whole run's", err)
			}

			s := testSolver(t, g, 4, 1)
			for i := range b.Len() {
				p, sc := b.Entry(g, i)
				r, err := s.Solve(context.Background(), p)
				if err != nil || r.Score != sc {
					t.Errorf("entry %s: book %d, search %d (%v)", formatKey(b.keys[i]), sc, r.Score, err)
				}
			}

			name := filepath.Join(t.TempDir(), "b.c4book")
			if err := b.WriteFile(name); err != nil {
				t.Fatal(err)
			}
			back, err := ReadFile(name)
			if err != nil || !bytes.Equal(back.encode(), b.encode()) {
				t.Fatalf("ReadFile(WriteFile) = %v; want the book back", err)
			}
			if want := 1 + btoi(g.Bits() > 64); back.FormatVersion() != want {
				t.Errorf("format version %d; want %d", back.FormatVersion(), want)
			}
			if _, ok := back.Lookup(standardGrid(t).Empty()); ok {
				t.Errorf("a book of %v answers a 7x6 lookup", g.Size)
			}

			// The solver answers the root from the book, at once.
			root, err := g.Parse(c.root, false)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := back.Lookup(root)
			s.UseBook(back)
			if r, err := s.Solve(context.Background(), root); err != nil || r.Score != want || r.Nodes > 1 {
				t.Errorf("Solve(%q) with the book: score %d in %d nodes (%v); want %d from the book", c.root, r.Score, r.Nodes, err, want)
			}
		})
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestResumeSized: a run of 8x8 interrupted resumes from its checkpoint,
// of records of two-word keys, and makes the book an uninterrupted run
// makes; the checkpoint of another board is refused.
func TestResumeSized(t *testing.T) {
	whole := book8x8.generate(t, Options{Threads: 2})
	ck := filepath.Join(t.TempDir(), "ck")
	ctx, cancel := context.WithCancel(context.Background())
	opt := Options{Size: book8x8.grid(t).Size, Root: book8x8.root, Depth: book8x8.depth, Threads: 2, Checkpoint: ck}
	first := opt
	first.Progress = func(done, total int) {
		if done >= 10 {
			cancel()
		}
	}
	if _, err := Generate(ctx, first); err == nil {
		t.Fatal("Generate, canceled: no error")
	}
	resumed := -1
	second := opt
	second.Progress = func(done, total int) {
		if resumed < 0 {
			resumed = done
		}
	}
	b, err := Generate(context.Background(), second)
	if err != nil || !bytes.Equal(b.encode(), whole.encode()) {
		t.Fatalf("the resumed run: %v, or a book that differs from an uninterrupted run's", err)
	}
	if resumed < 10 {
		t.Errorf("resumed with %d positions done; want at least 10", resumed)
	}
	other := opt
	other.Size = board.Size{Width: 9, Height: 7}
	if _, err := Generate(context.Background(), other); err == nil || !strings.Contains(err.Error(), "not the checkpoint of this run") {
		t.Errorf("Generate of 9x7 on the checkpoint of 8x8: %v; want it refused", err)
	}
}

// lyingSizedBook claims that every position of its board scores the
// least score: as parents, it bounds every child by the most, which is
// false.
type lyingSizedBook struct {
	lyingBook
	g *board.Grid
}

func (b lyingSizedBook) Lookup(board.Board) (int, bool) { return -b.g.MaxScore(), true }

// TestGenerateSizedWithParents: a book of 5x4 generated with its parents'
// scores is the book generated without; a book that lies about them
// changes it, so they are used.
func TestGenerateSizedWithParents(t *testing.T) {
	whole := book5x4.generate(t, Options{})
	shallow := sizedCase{book5x4.size, "", book5x4.depth - 1}
	if b := book5x4.generate(t, Options{Parents: shallow.generate(t, Options{})}); !bytes.Equal(b.encode(), whole.encode()) {
		t.Error("the book generated with its parents' scores differs from the one without")
	}
	lying := lyingSizedBook{lyingBook{book5x4.depth - 1}, book5x4.grid(t)}
	if b := book5x4.generate(t, Options{Parents: lying}); bytes.Equal(b.encode(), whole.encode()) {
		t.Error("parents that lie about their scores change nothing: the bound is not used")
	}
}
