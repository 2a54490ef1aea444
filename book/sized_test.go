package book

import (
	"bytes"
	"context"
	"testing"

	"c4solve/board"
	"c4solve/solver"
)

// TestGenerateSized makes the book of 5x4 to depth 5 and checks every
// entry against a search of its own, the empty board against the
// published result (a draw), the round trip through the file format, and
// that the 7x6 lookup does not answer from it.
func TestGenerateSized(t *testing.T) {
	z, _ := board.ParseSize("5x4")
	g, err := board.NewGrid(z)
	if err != nil {
		t.Fatal(err)
	}
	b, err := GenerateSized(context.Background(), g, Options{Depth: 5})
	if err != nil {
		t.Fatal(err)
	}
	if b.Board() != z || b.Len() == 0 {
		t.Fatalf("book of 5x4: board %v, %d positions", b.Board(), b.Len())
	}
	if sc, ok := b.LookupBoard(g.Empty()); !ok || sc != 0 {
		t.Errorf("LookupBoard(empty 5x4) = %d, %t; want 0 (a draw), true", sc, ok)
	}
	s := solver.NewSized(g, 4, 1)
	counts := make([]int, 6)
	for _, k := range b.keys {
		p, err := g.FromKey(k)
		if err != nil {
			t.Fatal(err)
		}
		counts[p.Stones()]++
		r, err := s.Solve(context.Background(), p)
		sc, _ := b.LookupBoard(p)
		if err != nil || r.Score != sc {
			t.Errorf("entry %#x: book %d, search %d (%v)", k, sc, r.Score, err)
		}
	}
	// Positions of 0-5 stones, mirror images once, none over: counted by
	// hand for the first two levels (1; columns 1/5, 2/4, 3).
	if counts[0] != 1 || counts[1] != 3 {
		t.Errorf("counts %v; want 1 and 3 for 0 and 1 stones", counts)
	}
	var buf bytes.Buffer
	if _, err := b.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := Decode("5x4", buf.Bytes())
	if err != nil || back.Board() != z || back.Len() != b.Len() {
		t.Fatalf("Decode(WriteTo) = %v, %v; want the 5x4 book back", back, err)
	}
	if _, ok := back.Lookup(board.Position{}); ok {
		t.Error("a 5x4 book answers a 7x6 lookup")
	}
	if _, err := GenerateSized(context.Background(), g, Options{Depth: 3, Shards: 2, Shard: 1}); err == nil {
		t.Error("GenerateSized with shards: no error")
	}
}
