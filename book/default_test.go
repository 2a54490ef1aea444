package book

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"c4solve/internal/position"
)

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
