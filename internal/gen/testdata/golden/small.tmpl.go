//go:build ignore

// A small template for TestGolden: a type, and functions on bitboards
// and positions, whose variants rename them and rewrite their operators.

package small

import "c4solve/internal/position"

// Count is a count of stones.
type Count int

// Stones returns the stones of b above the bottom row, shifted up by one
// and down by n, and how many there are.
func Stones(b position.Bitboard, n int) (Count, position.Bitboard) {
	x := b &^ 0x7f
	x <<= 1
	return Count(x.Count()), x>>n | b&(b-1)
}

// stonesOf returns the stones of p above its bottom row.
func stonesOf(p position.Position) Count {
	c, _ := Stones(p.Mask(), 2)
	return c
}
