package book

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
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

// Three parts, merged, make the book one run makes.
func TestShardsMerge(t *testing.T) {
	whole := testBook(t)
	var parts []*Book
	for k := 1; k <= 3; k++ {
		p := generate(t, Options{Shard: k, Shards: 3, Threads: 1})
		if n, m := p.Shard(); n != k || m != 3 {
			t.Fatalf("part %d: Shard() = %d, %d", k, n, m)
		}
		parts = append(parts, p)
	}
	// Parts come in any order.
	merged, err := Merge(parts[2], parts[0], parts[1])
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(merged.encode(), whole.encode()) {
		t.Fatal("the merged book differs from the whole run's")
	}
	if sum := parts[0].Len() + parts[1].Len() + parts[2].Len(); sum != whole.Counts()[testDepth] {
		t.Errorf("the parts hold %d positions; the deepest level has %d", sum, whole.Counts()[testDepth])
	}

	for _, tt := range []struct {
		name  string
		parts []*Book
		want  string
	}{
		{"none", nil, "no parts"},
		{"missing", parts[:2], "shard 3/3 is missing"},
		{"twice", []*Book{parts[0], parts[1], parts[2], parts[1]}, "shard 2/3 is given twice"},
		{"whole", []*Book{whole}, "whole book"},
		{"other run", []*Book{parts[0], generate(t, Options{Root: testRoot, Depth: testDepth - 1, Shard: 2, Shards: 3, Threads: 1})}, "not of the same run"},
	} {
		if _, err := Merge(tt.parts...); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Merge(%s) error %v, want %q", tt.name, err, tt.want)
		}
	}
}

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

func TestGenerateRefuses(t *testing.T) {
	for _, opt := range []Options{
		{Root: "4453", Depth: 3},    // shallower than the root
		{Root: "4453", Depth: 42},   // a full board
		{Root: "4x", Depth: 5},      // not a position
		{Root: "1212121", Depth: 9}, // a finished game
		{Root: "44", Depth: 4, Shard: 4, Shards: 3},
		{Root: "44", Depth: 4, Shard: 0, Shards: 3},
	} {
		if _, err := Generate(context.Background(), opt); err == nil {
			t.Errorf("Generate(%+v) succeeded", opt)
		}
	}
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

func TestVerify(t *testing.T) {
	b := testBook(t)
	g := standardGrid(t)
	s := testSolver(t, g, 16, 1)
	n := 50
	bad, checked, err := b.Verify(context.Background(), s, n, rand.New(rand.NewPCG(1, 2)), nil)
	if err != nil || checked != n || len(bad) != 0 {
		t.Fatalf("Verify(%d) = %v, %d, %v; want no mismatch among %d", n, bad, checked, err, n)
	}
	// One score changed: Verify of every entry finds it, and only it.
	wrong := *b
	wrong.scores = slices.Clone(b.scores)
	wrong.scores[7]++
	p, _ := wrong.Entry(g, 7)
	bad, checked, err = wrong.Verify(context.Background(), s, wrong.Len()+10, rand.New(rand.NewPCG(1, 2)), nil)
	if err != nil || checked != wrong.Len() || len(bad) != 1 || bad[0].Position != p || bad[0].Book != bad[0].Solved+1 {
		t.Errorf("Verify of a book with entry 7 one too high: %+v, %d checked, %v; want that entry alone, all %d checked",
			bad, checked, err, wrong.Len())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, checked, err := b.Verify(ctx, s, n, rand.New(rand.NewPCG(1, 2)), nil); !errors.Is(err, context.Canceled) || checked >= n {
		t.Errorf("Verify, cancelled: %d checked, %v; want fewer than %d and context.Canceled", checked, err, n)
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

// TestDefaultBook: the built-in book holds every position of at most 9
// stones (mirror images once, finished games left out), and answers the
// 100 positions of testdata/random7.txt and the 100 of random8.txt with
// the scores Steininger's solver gives.
func TestDefaultBook(t *testing.T) {
	b, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{1, 4, 25, 121, 568, 2144, 8231, 27109, 91295, 269531}; b.Depth() != 9 || !slices.Equal(b.Counts(), want) {
		t.Errorf("the built-in book: depth %d, positions per stones %v; want 9 and %v", b.Depth(), b.Counts(), want)
	}
	if !bytes.Equal(b.encode(), defaultData) {
		t.Error("the built-in book, decoded and encoded again, differs from its file")
	}
	for _, name := range []string{"random7.txt", "random8.txt"} {
		data, err := os.ReadFile("../testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			var moves string
			var want int
			if _, err := fmt.Sscan(line, &moves, &want); err != nil {
				t.Fatalf("%s:%d: %v", name, i+1, err)
			}
			p, err := position.Parse(moves)
			if err != nil {
				t.Fatalf("%s:%d: %v", name, i+1, err)
			}
			if got, ok := lookup(t, b, p); !ok || got != want {
				t.Errorf("the built-in book: %s = %d, %v; want %d (%s:%d)", moves, got, ok, want, name, i+1)
			}
		}
	}
}

// TestGolden: the books in testdata, written by the version before the
// generator was written once for every board (7x6's on keys of one
// word), read back to the same bytes, and a run makes them again byte for
// byte: the test book of 7x6 and the books of 5x4 (format version 1) and
// of 8x8 (format version 2, keys of two words).
func TestGolden(t *testing.T) {
	for _, tt := range []struct {
		file    string
		version int
		make    func() *Book
	}{
		{"7x6.c4book", 1, func() *Book { return testBook(t) }},
		{"5x4.c4book", 1, func() *Book { return book5x4.generate(t, Options{}) }},
		{"8x8.c4book", 2, func() *Book { return book8x8.generate(t, Options{Threads: 2}) }},
	} {
		name := filepath.Join("testdata", tt.file)
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		b, err := ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if b.FormatVersion() != tt.version || !bytes.Equal(b.encode(), data) {
			t.Errorf("%s: format version %d, read and encoded again: equal bytes %v; want version %d, the same bytes",
				name, b.FormatVersion(), bytes.Equal(b.encode(), data), tt.version)
		}
		if !bytes.Equal(tt.make().encode(), data) {
			t.Errorf("%s: a run makes another book", name)
		}
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

// Every position of the deepest level is in exactly one family, that of
// its first parent in key order, and a shard holds whole families.
func TestFamilies(t *testing.T) {
	g := standardGrid(t)
	levels, err := enumerate(g, canonical(mustParse(t, testRoot)), testDepth, 0)
	if err != nil {
		t.Fatal(err)
	}
	deepest, above := levels[len(levels)-1], levels[len(levels)-2]
	fams := families(g, levels)
	in := make(map[board.Key]board.Key) // member: its family's parent
	for _, f := range fams {
		if len(f.members) == 0 || !slices.IsSortedFunc(f.members, board.Key.Compare) {
			t.Fatalf("family of %#x: members %v, want some, in key order", f.parent, f.members)
		}
		for _, k := range f.members {
			if p, dup := in[k]; dup {
				t.Fatalf("position %#x is in the families of %#x and %#x", k, p, f.parent)
			}
			in[k] = f.parent
		}
	}
	if len(in) != len(deepest) {
		t.Fatalf("the families hold %d positions; the deepest level has %d", len(in), len(deepest))
	}
	for _, k := range deepest {
		var first board.Key
		found := false
		for _, pk := range above { // in key order: the first found is the first parent
			p, _ := position.FromKey(pk.Lo)
			for col := range position.Width {
				if p.CanPlay(col) && !p.IsWinningMove(col) {
					c := p
					c.Play(col)
					if canonical(c) == k {
						first, found = pk, true
					}
				}
			}
			if found {
				break
			}
		}
		if in[k] != first {
			t.Errorf("position %#x is in the family of %#x; its first parent is %#x", k, in[k], first)
		}
	}
	if len(fams) < 2 {
		t.Fatalf("%d families: the test wants several", len(fams))
	}
	// A part that holds a position of another shard is refused by Merge.
	parts := []*Book{generate(t, Options{Shard: 1, Shards: 2, Threads: 1}), generate(t, Options{Shard: 2, Shards: 2, Threads: 1})}
	parts[0].keys = append(slices.Clone(parts[0].keys), parts[1].keys[0])
	slices.SortFunc(parts[0].keys, board.Key.Compare)
	parts[0].scores = append(slices.Clone(parts[0].scores), 0)
	if _, err := Merge(parts...); err == nil || !strings.Contains(err.Error(), "holds a position of shard 2") {
		t.Errorf("Merge with a position of shard 2 in part 1: %v; want it refused", err)
	}
}

// Sample draws entries of the stones asked for, each once, as moves that
// reach the entry's position, with its score.
func TestSample(t *testing.T) {
	b := testBook(t)
	counts := b.Counts()
	for _, tt := range []struct{ n, stones, want int }{
		{10, testDepth, 10},
		{1 << 20, testDepth - 1, counts[testDepth-1]},
		{1 << 20, -1, b.Len()},
		{0, testDepth, 0},
	} {
		lines, scores, err := b.Sample(tt.n, tt.stones, rand.New(rand.NewPCG(3, 4)))
		if err != nil || len(lines) != tt.want || len(scores) != tt.want {
			t.Fatalf("Sample(%d, %d): %d lines, %d scores, %v; want %d", tt.n, tt.stones, len(lines), len(scores), err, tt.want)
		}
		seen := make(map[board.Key]bool)
		for i, line := range lines {
			var p position.Position
			for _, col := range line {
				if p.Won() || !p.CanPlay(col) {
					t.Fatalf("Sample(%d, %d): line %v is not a game", tt.n, tt.stones, line)
				}
				p.Play(col)
			}
			sc, ok := lookup(t, b, p)
			switch {
			case !ok || sc != scores[i]:
				t.Errorf("line %v: score %d; the book has %d, %v", line, scores[i], sc, ok)
			case tt.stones >= 0 && p.Stones() != tt.stones:
				t.Errorf("line %v: %d stones, want %d", line, p.Stones(), tt.stones)
			case seen[canonical(p)]:
				t.Errorf("line %v: drawn twice", line)
			}
			seen[canonical(p)] = true
		}
	}
}

// A book too large for the memory given is refused before its levels are
// made, with the estimate; one that fits is made.
func TestEnumerateMemory(t *testing.T) {
	g := standardGrid(t)
	_, err := enumerate(g, canonical(mustParse(t, "4453445")), 30, 1<<30)
	// At once: the estimate is made from the first level of projectFrom
	// positions or more, at most 7 times the level before it.
	level := -1
	if err != nil {
		if m := regexp.MustCompile(`would hold about \S+ positions \((\d+) of \d+ stones`).FindStringSubmatch(err.Error()); m != nil {
			level, _ = strconv.Atoi(m[1])
		}
	}
	if err == nil || !strings.Contains(err.Error(), "to 30 stones would hold about") || level < projectFrom || level >= 7*projectFrom {
		t.Errorf("enumerate(4453445, 30, 1 GiB): %v; want a refusal with the estimate, made from a level of %d to %d positions", err, projectFrom, 7*projectFrom)
	}
	if _, err := enumerate(g, canonical(mustParse(t, "")), 8, 100<<10); err == nil || !strings.Contains(err.Error(), "the level of") {
		t.Errorf("enumerate(empty board, 8, 100 KiB): %v; want the next level refused", err)
	}
	// A board over 64 bits is estimated so too.
	g8 := book8x8.grid(t)
	if _, err := enumerate(g8, canonicalKey(g8.Empty()), 12, 1<<20); err == nil || !strings.Contains(err.Error(), "would hold about") {
		t.Errorf("enumerate(empty 8x8, 12, 1 MiB): %v; want a refusal with the estimate", err)
	}
	root := canonical(mustParse(t, testRoot))
	levels, err := enumerate(g, root, testDepth, 1<<20)
	unbounded, _ := enumerate(g, root, testDepth, 0)
	if err != nil || !slices.EqualFunc(levels, unbounded, slices.Equal) {
		t.Errorf("enumerate(test root, 1 MiB): %v; want the levels enumerated without a bound", err)
	}
}

// lyingBook claims that every position scores MinScore: as parents, it
// bounds every child by MaxScore, which is false.
type lyingBook struct{ depth int }

func (b lyingBook) Depth() int                     { return b.depth }
func (b lyingBook) Lookup(board.Board) (int, bool) { return position.MinScore, true }

// TestGenerateCopies: the positions a given book already holds are copied
// from it, not solved: a book as deep as the one to make gives that book,
// and one that lies about them gives its lies.
func TestGenerateCopies(t *testing.T) {
	whole := testBook(t)
	if b := generate(t, Options{Threads: 1, Parents: whole}); !bytes.Equal(b.encode(), whole.encode()) {
		t.Error("the book made from a book that holds all its positions differs from that book")
	}
	lied := generate(t, Options{Threads: 1, Parents: lyingBook{testDepth}})
	deepest := 0
	g := standardGrid(t)
	for i := range lied.Len() {
		if p, sc := lied.Entry(g, i); p.Stones() == testDepth {
			deepest++
			if sc != position.MinScore {
				t.Fatalf("position %#x of %d stones scores %d; want the given book's %d, copied", p.Key(), testDepth, sc, position.MinScore)
			}
		}
	}
	if deepest == 0 {
		t.Fatalf("no position of %d stones in the book: the test proves nothing", testDepth)
	}
}

// TestGenerateWithParents: a book generated with the scores of the
// parents of its deepest positions (a book one stone shallower) is the
// book generated without, whole and in parts; and the parents' scores are
// used, as a book that lies about them shows.
func TestGenerateWithParents(t *testing.T) {
	whole := testBook(t)
	parents := generate(t, Options{Root: testRoot, Depth: testDepth - 1, Threads: 1})
	bounded := generate(t, Options{Threads: 2, Parents: parents})
	if !bytes.Equal(bounded.encode(), whole.encode()) {
		t.Fatal("the book generated with its parents' scores differs from the one without")
	}
	var parts []*Book
	for k := 1; k <= 2; k++ {
		parts = append(parts, generate(t, Options{Shard: k, Shards: 2, Threads: 1, Parents: parents}))
	}
	merged, err := Merge(parts...)
	if err != nil || !bytes.Equal(merged.encode(), whole.encode()) {
		t.Fatalf("the parts generated with their parents' scores merge to another book (%v)", err)
	}
	lied := generate(t, Options{Threads: 1, Parents: lyingBook{testDepth - 1}})
	if bytes.Equal(lied.encode(), whole.encode()) {
		t.Error("a book of parents that lies about their scores changes nothing: the bound is not used")
	}
	// Parents too shallow to hold the parents bound nothing.
	if b := generate(t, Options{Threads: 1, Parents: lyingBook{testDepth - 2}}); !bytes.Equal(b.encode(), whole.encode()) {
		t.Error("a book of parents shallower than the parents changed the book")
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
