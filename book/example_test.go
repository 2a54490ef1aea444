package book_test

import (
	"fmt"

	"c4solve/board"
	"c4solve/book"
)

// The built-in book answers the empty board and the first moves at once.
func ExampleDefault() {
	b, err := book.Default()
	if err != nil {
		fmt.Println(err)
		return
	}
	g, _ := board.NewGrid(board.Standard)
	for _, moves := range []string{"", "4", "1", "4453"} {
		p, _ := g.Parse(moves, false)
		score, ok := b.Lookup(p)
		fmt.Printf("%q: %d %v\n", moves, score, ok)
	}
	// Output:
	// "": 1 true
	// "4": -1 true
	// "1": 2 true
	// "4453": -2 true
}
