package book

import (
	"bytes"
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	farm "github.com/dgryski/go-farm"

	"c4solve/board"
	"c4solve/internal/position"
	"c4solve/solver"
)

func mustParse(t testing.TB, moves string) position.Position {
	t.Helper()
	p, err := position.Parse(moves)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// testRoot and testDepth make a book a test can afford: the positions up
// to three moves after a position of Test_L2_R1 (score -10).
const (
	testRoot      = "737534232264"
	testRootScore = -10
	testDepth     = 15
)

func generate(t testing.TB, opt Options) *Book {
	t.Helper()
	if opt.Root == "" && opt.Depth == 0 {
		opt.Root, opt.Depth = testRoot, testDepth
	}
	if opt.TableMiB == 0 {
		opt.TableMiB = 16
	}
	b, err := Generate(context.Background(), opt)
	if err != nil {
		t.Fatalf("Generate(%+v): %v", opt, err)
	}
	return b
}

var testBook = func() func(t testing.TB) *Book {
	var b *Book
	return func(t testing.TB) *Book {
		if b == nil {
			b = generate(t, Options{Threads: 2})
		}
		return b
	}
}()

func TestKnownScore(t *testing.T) {
	b := testBook(t)
	if sc, ok := lookup(t, b, mustParse(t, testRoot)); !ok || sc != testRootScore {
		t.Errorf("Lookup(%s) = %d, %v; want %d, true", testRoot, sc, ok, testRootScore)
	}
	if b.Root() != testRoot || b.Depth() != testDepth {
		t.Errorf("Root() = %q, Depth() = %d; want %q, %d", b.Root(), b.Depth(), testRoot, testDepth)
	}
}

// Every entry agrees with a search from scratch, and its mirror image has
// the same score.
func TestEntriesAgreeWithSolver(t *testing.T) {
	b := testBook(t)
	counts := b.Counts()
	if counts[len(testRoot)] != 1 || b.Len() != sum(counts) || counts[testDepth] < 100 {
		t.Fatalf("Counts() = %v, Len() = %d; want 1 position with the root's stones, Len the sum, and 100 or more of the most stones", counts, b.Len())
	}
	g := standardGrid(t)
	s := testSolver(t, g, 16, 1)
	step := 1
	if testing.Short() {
		step = 7
	}
	for i := 0; i < b.Len(); i += step {
		p, want := b.Entry(g, i)
		r, err := s.Solve(context.Background(), p)
		if err != nil || r.Score != want {
			t.Fatalf("entry %d:\n%v\nSolve = %d, %v; book %d", i, position7x6(p), r.Score, err, want)
		}
		if sc, ok := lookup(t, b, position7x6(p).Mirror()); !ok || sc != want {
			t.Fatalf("entry %d mirrored: Lookup = %d, %v; want %d, true", i, sc, ok, want)
		}
	}
}

func sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}

func TestLookupOutside(t *testing.T) {
	b := testBook(t)
	for _, moves := range []string{"", "4", "737534232261", "7375342322614", testRoot + "1111"} {
		p := mustParse(t, moves)
		if sc, ok := lookup(t, b, p); ok {
			t.Errorf("Lookup(%q) = %d, true; the book does not hold it", moves, sc)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	b := testBook(t)
	name := filepath.Join(t.TempDir(), "b.c4book")
	if err := b.WriteFile(name); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if got.root != b.root || got.depth != b.depth || !slices.Equal(got.keys, b.keys) || !slices.Equal(got.scores, b.scores) {
		t.Fatalf("ReadFile after WriteFile: a different book")
	}
	fi, _ := os.Stat(name)
	if perEntry := float64(fi.Size()) / float64(b.Len()); perEntry > 6 {
		t.Errorf("%d bytes for %d positions: %.1f a position, want at most 6", fi.Size(), b.Len(), perEntry)
	}
	if got.Size() != int(fi.Size()) {
		t.Errorf("Size() = %d, the file has %d", got.Size(), fi.Size())
	}
}

// resum recomputes the checksum of a book file after an edit.
func resum(data []byte) []byte {
	clear(data[sumOffset : sumOffset+8])
	binary.LittleEndian.PutUint64(data[sumOffset:], farm.Fingerprint64(data))
	return data
}

func TestDecodeRefuses(t *testing.T) {
	good := testBook(t).encode()
	edit := func(f func(d []byte) []byte) []byte { return f(slices.Clone(good)) }
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "truncated"},
		{"half magic", good[:4], "truncated"},
		{"half header", good[:20], "truncated"},
		{"header only", good[:headerSize+len(testRoot)], "truncated"},
		{"last byte cut", good[:len(good)-1], "truncated"},
		{"wrong magic", edit(func(d []byte) []byte { d[0] = 'X'; return d }), "wrong magic"},
		{"a text file", []byte("4453 -2\n4455 18\n"), "wrong magic"},
		{"version 2", edit(func(d []byte) []byte { d[8] = 2; return resum(d) }), "format version 2"},
		{"version 3", edit(func(d []byte) []byte { d[8] = 3; return resum(d) }), "format version 3; this c4solve reads versions 1 and 2"},
		{"8x8 board in version 1", edit(func(d []byte) []byte { d[10], d[11] = 8, 8; return resum(d) }), "format version 1 for a board of 72 bits"},
		{"26x4 board", edit(func(d []byte) []byte { d[10], d[11] = 26, 4; return resum(d) }), "a book for a board this c4solve cannot play: size 26x4"},
		{"flipped byte", edit(func(d []byte) []byte { d[len(d)-3] ^= 0x10; return d }), "checksum mismatch"},
		// A bit of the header flipped is damage, not another board or
		// format ("a book for a board this c4solve cannot play: size 38x5").
		{"flipped width bit", edit(func(d []byte) []byte { d[10] ^= 0x20; return d }), "checksum mismatch: the file is damaged"},
		{"flipped height bit", edit(func(d []byte) []byte { d[11] ^= 0x08; return d }), "checksum mismatch: the file is damaged"},
		{"flipped version bit", edit(func(d []byte) []byte { d[8] ^= 0x04; return d }), "checksum mismatch: the file is damaged"},
		{"flipped checksum", edit(func(d []byte) []byte { d[sumOffset] ^= 1; return d }), "checksum mismatch"},
		{"trailing byte", edit(func(d []byte) []byte { return resum(append(d, 0)) }), "1 bytes after the last entry"},
		{"bad score", edit(func(d []byte) []byte { d[len(d)-1] = 100; return resum(d) }), "score 100 is impossible"},
		{"depth 43", edit(func(d []byte) []byte { d[12] = 43; return resum(d) }), "depth 43"},
		{"shallower depth", edit(func(d []byte) []byte { d[12] = testDepth - 1; return resum(d) }), "outside the book's range"},
		{"shard 2 of 1", edit(func(d []byte) []byte { d[13], d[14] = 2, 1; return resum(d) }), "shard 2 of 1"},
	}
	for _, tt := range tests {
		b, err := Decode("x.c4book", tt.data)
		if err == nil {
			t.Errorf("%s: Decode succeeded with %d positions, want an error", tt.name, b.Len())
			continue
		}
		if msg := err.Error(); !strings.HasPrefix(msg, "book x.c4book: ") || !strings.Contains(msg, tt.want) {
			t.Errorf("%s: error %q, want it to name the file and say %q", tt.name, msg, tt.want)
		}
		if fe, ok := err.(*FileError); !ok || fe.Name != "x.c4book" || !strings.Contains(fe.Err.Error(), tt.want) || strings.Contains(fe.Err.Error(), "x.c4book") {
			t.Errorf("%s: error %#v, want a *FileError of x.c4book whose Err says %q without the name", tt.name, err, tt.want)
		}
	}
}

// No single flipped bit, and no truncation, goes unnoticed.
func TestDecodeEveryDamage(t *testing.T) {
	good := testBook(t).encode()
	for i := range good {
		if _, err := Decode("x", good[:i]); err == nil {
			t.Fatalf("the first %d bytes decoded", i)
		}
		for bit := range 8 {
			d := slices.Clone(good)
			d[i] ^= 1 << bit
			if _, err := Decode("x", d); err == nil {
				t.Fatalf("byte %d bit %d flipped: decoded", i, bit)
			}
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add(testBook(f).encode())
	f.Add((&Book{depth: 3, root: "444"}).encode())
	f.Add(generate(f, Options{Shard: 2, Shards: 2, Threads: 1}).encode())
	f.Add([]byte(magic))
	f.Add(book5x4.generate(f, Options{}).encode())
	f.Add(book8x8.generate(f, Options{Threads: 2}).encode()) // format version 2
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := Decode("fuzz", data)
		if err != nil {
			return
		}
		// What decodes is a valid book, and encodes to the same bytes.
		if !bytes.Equal(b.encode(), data) {
			t.Fatalf("decoded and encoded again: different bytes")
		}
		g, err := board.NewGrid(b.Board())
		if err != nil {
			t.Fatal(err)
		}
		for i := range b.Len() {
			p, sc := b.Entry(g, i)
			if got, ok := b.Lookup(p); !ok || got != sc {
				t.Fatalf("entry %d: Lookup = %d, %v; want %d", i, got, ok, sc)
			}
		}
	})
}

// A search that reaches a book position stops there: with the deepest
// level alone (a part of one shard), a solve of the root searches only the
// positions above it.
func TestSolverStopsAtBook(t *testing.T) {
	deepest := generate(t, Options{Shard: 1, Shards: 1, Threads: 1})
	g := standardGrid(t)
	p := boardOf(g, mustParse(t, testRoot))
	s := testSolver(t, g, 16, 1)
	bare, err := s.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	s.Clear()
	s.UseBook(deepest)
	r, err := s.Solve(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	above := sum(testBook(t).Counts()[:testDepth])
	if r.Score != bare.Score || r.Nodes > uint64(4*above) || r.Nodes >= bare.Nodes {
		t.Errorf("with the deepest level: score %d in %d nodes; without a book %d in %d nodes; want the same score in at most %d nodes",
			r.Score, r.Nodes, bare.Score, bare.Nodes, 4*above)
	}
	s.UseBook(testBook(t))
	if r, err := s.Solve(context.Background(), p); err != nil || r.Score != testRootScore || r.Nodes != 1 {
		t.Errorf("with the whole book: %+v, %v; want score %d in 1 node", r, err, testRootScore)
	}
}

// Analyze of a position within depth - 1 takes all seven scores from the
// book: one node each.
func TestAnalyzeFromBook(t *testing.T) {
	b := testBook(t)
	p := mustParse(t, testRoot)
	s := testSolver(t, standardGrid(t), 16, 1)
	s.UseBook(b)
	an, err := s.Analyze(context.Background(), boardOf(standardGrid(t), p), false)
	if err != nil {
		t.Fatal(err)
	}
	moves := 0
	for col := range position.Width {
		if !an.Legal[col] || p.IsWinningMove(col) {
			continue
		}
		moves++
		c := p
		c.Play(col)
		if sc, _ := lookup(t, b, c); an.Scores[col] != -sc {
			t.Errorf("move %d: Analyze says %d, the book %d", col+1, an.Scores[col], -sc)
		}
	}
	if an.Nodes != uint64(moves) {
		t.Errorf("Analyze took %d nodes for %d moves; want one each", an.Nodes, moves)
	}
}

// TestReadFileBounded: a book file with more bytes than its header allows
// is refused without being read whole.
func TestReadFileBounded(t *testing.T) {
	name := filepath.Join(t.TempDir(), "b")
	if err := testBook(t).WriteFile(name); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(name); err != nil {
		t.Fatalf("ReadFile of a good book: %v", err)
	}
	f, _ := os.OpenFile(name, os.O_APPEND|os.O_WRONLY, 0)
	f.Write(make([]byte, 1<<20))
	f.Close()
	if _, err := ReadFile(name); err == nil || !strings.Contains(err.Error(), "longer than its header says") {
		t.Errorf("ReadFile of a book with 1 MiB more: %v; want it refused", err)
	}
}

// standardGrid returns the grid of the 7x6 board.
func standardGrid(t testing.TB) *board.Grid {
	t.Helper()
	g, err := board.NewGrid(board.Standard)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// canonical returns the key of p or of its mirror image, whichever is
// smaller, as a book holds it: position.Position's own, as two words.
func canonical(p position.Position) board.Key {
	k, _, _ := p.CanonicalKey()
	return board.Key{Lo: k}
}

// lookup is b.Lookup of p, a 7x6 position.
func lookup(t testing.TB, b *Book, p position.Position) (int, bool) {
	return b.Lookup(boardOf(standardGrid(t), p))
}

// position7x6 returns b, a Board of 7x6, as a Position; boardOf the other
// way, a Board of g.
func position7x6(b board.Board) position.Position {
	p, err := position.FromKey(b.Key().Lo)
	if err != nil {
		panic(err)
	}
	return p
}

func boardOf(g *board.Grid, p position.Position) board.Board {
	b, err := g.FromKey(board.Key{Lo: p.Key()})
	if err != nil {
		panic(err)
	}
	return b
}

// testSolver returns solver.New's solver of g, and fails t where the
// table's memory cannot be had.
func testSolver(t testing.TB, g *board.Grid, mib, threads int) *solver.Solver {
	t.Helper()
	s, err := solver.New(g, mib, threads)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
