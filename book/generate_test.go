package book

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"c4solve/board"
	"c4solve/internal/position"
)

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
