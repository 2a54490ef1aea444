package position

import "fmt"

// The boards of at most 64 cells whose bitboards, a sentinel bit a
// column, take more than 64 bits (8x8, 9x7, 10x6): the Grid keeps their
// positions as Position128s, as for every board over 64 bits, and the
// search plays them as PositionPackeds, one word without sentinels, the
// same moves at a third of the cost. Keys outside the search (books,
// table files) stay those of Position128.

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

// FromPosition128 returns p, a position of the board of g, as a
// PositionPacked.
func (g *GeometryPacked) FromPosition128(p Position128) PositionPacked {
	cb, h := uint(g.height+1), uint(g.height)
	column := uint64(1)<<h - 1
	var current, mask Bitboard
	for col := range uint(g.width) {
		current |= Bitboard(p.current.Shr(col*cb).Low64()&column) << (col * h)
		mask |= Bitboard(p.mask.Shr(col*cb).Low64()&column) << (col * h)
	}
	return PositionPacked{g: g, current: current, mask: mask, stones: p.stones}
}

// Position128 returns p as a position of g128, the Geometry128 of p's
// board.
func (p PositionPacked) Position128(g128 *Geometry128) Position128 {
	cb, h := uint(p.g.height+1), uint(p.g.height)
	column := uint64(1)<<h - 1
	var current, mask Bits128
	for col := range uint(p.g.width) {
		current = current.Or(Bits128{Lo: uint64(p.current>>(col*h)) & column}.Shl(col * cb))
		mask = mask.Or(Bits128{Lo: uint64(p.mask>>(col*h)) & column}.Shl(col * cb))
	}
	return Position128{g: g128, current: current, mask: mask, stones: p.stones}
}

// Key128 returns the key of the Position128 of the position whose key is
// k, and KeyOf128 the other way: the keys of table files, which are
// those of Position128.
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
