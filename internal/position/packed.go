package position

import "fmt"

// The boards of at most 64 cells whose bitboards, a sentinel bit a
// column, take more than 64 bits (8x8, 9x7, 10x6, 11x5, 12x5, 13x4 ...):
// board.Grid keeps their positions as Position128s, as for every board
// over 64 bits, and the search plays them as PositionPackeds, one word
// without sentinels, the same moves at a third of the cost. Keys outside
// the search (Boards, books, table files) stay those of Position128, and
// the search converts between the two by key (Key128, KeyOf128).

// Packs reports whether the search plays the positions of a board of
// width x height as PositionPackeds: a board over 64 bits of at most 64
// cells whose geometry can be had (NewGeometryPacked).
func Packs(width, height int) bool {
	if width*(height+1) <= 64 {
		return false
	}
	_, err := NewGeometryPacked(width, height) // fails past 64 cells
	return err == nil
}

// Key128 returns the key of the Position128 of the position whose key is
// k, and KeyOf128 the other way: the keys of Boards and table files.
func (g *GeometryPacked) Key128(k KeyPacked) Key128 {
	cb := uint(g.height + 1)
	var key Key128
	for col := range g.width {
		key = key.Or(Bits128{Lo: g.keyColumn(k, col)}.Shl(uint(col) * cb))
	}
	return key
}

// KeyOf128: see Key128. It fails for a number that is no key of the board.
func (g *GeometryPacked) KeyOf128(k Key128) (KeyPacked, error) {
	cb, h := uint(g.height+1), uint(g.height)
	if !k.Shr(uint(g.width) * cb).IsZero() {
		return KeyPacked{}, fmt.Errorf("key %#x: beyond the board's %d bits", k, g.width*int(cb))
	}
	var lo, full uint64
	for col := range uint(g.width) {
		v := k.Shr(col*cb).Low64() & (1<<cb - 1)
		if v == 1<<cb-1 {
			return KeyPacked{}, fmt.Errorf("key %#x: column %d is not a column of stones", k, col+1)
		}
		if v >= 1<<h-1 { // a full column: 2^h - 1 + its current
			full |= 1 << col
		}
		lo += v << (col * h) // its carry into the next column, as Key's
	}
	return KeyPacked{Lo: lo, Hi: full}, nil
}
