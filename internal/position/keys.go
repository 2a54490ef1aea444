package position

// The keys of the generated engines: what the engine's source
// (position.tmpl.go) does with a key that is not an operator on bitboards,
// for each kind of key; and the 7x6 board's mirror, unrolled, its one
// geometry method not generated (zgeometry.go). A key is current+mask, one bit above
// the top stone of each column (Position.Key); FromKey reads it back a
// column at a time (keyColumn, the column's Height+1 bits).

// mirror swaps column c and column 6-c of a bitboard.
func (Geometry) mirror(b Bitboard) Bitboard {
	const c = 1<<colBits - 1
	return (b&c)<<(6*colBits) | (b&(c<<colBits))<<(4*colBits) |
		(b&(c<<(2*colBits)))<<(2*colBits) | b&(c<<(3*colBits)) |
		(b>>(2*colBits))&(c<<(2*colBits)) | (b>>(4*colBits))&(c<<colBits) |
		(b>>(6*colBits))&c
}

func (Geometry) key(current, mask Bitboard) Key         { return Key(current + mask) }
func (g Geometry) mirrorKey(current, mask Bitboard) Key { return Key(g.mirror(current + mask)) }
func (Geometry) keyLess(a, b Key) bool                  { return a < b }
func (Geometry) keyFits(k Key) bool                     { return k < 1<<(Width*colBits) }
func (Geometry) keyColumn(k Key, col int) uint64        { return k >> (col * colBits) & (1<<colBits - 1) }

func (g *Geometry64) key(current, mask Bitboard) Key64 { return Key64(current + mask) }
func (g *Geometry64) mirrorKey(current, mask Bitboard) Key64 {
	return Key64(g.mirror(current + mask))
}
func (g *Geometry64) keyLess(a, b Key64) bool { return a < b }
func (g *Geometry64) keyFits(k Key64) bool    { return k&^uint64(g.all()) == 0 }
func (g *Geometry64) keyColumn(k Key64, col int) uint64 {
	cb := g.colBits()
	return k >> (uint(col) * cb) & (1<<cb - 1)
}

func (g *Geometry128) key(current, mask Bits128) Key128 { return current.Add(mask) }
func (g *Geometry128) mirrorKey(current, mask Bits128) Key128 {
	return g.mirror(current.Add(mask))
}
func (g *Geometry128) keyLess(a, b Key128) bool { return a.Less(b) }
func (g *Geometry128) keyFits(k Key128) bool    { return k.AndNot(g.all()).IsZero() }
func (g *Geometry128) keyColumn(k Key128, col int) uint64 {
	cb := g.colBits()
	return k.Shr(uint(col)*cb).Low64() & (1<<cb - 1)
}

// KeyPacked is the key of a PositionPacked: Lo is current+mask, which
// carries out of each full column into the next one, Hi the full columns
// (bit c for column c), which tell the carries apart. It is a key of the
// search's table only: books and table files keep the key of the
// board's Position128 (GeometryPacked.Key128).
type KeyPacked = Bits128

// The bits of the bitboards of each engine of other boards, and whether
// they have no sentinel bits.
const (
	packed             = false
	geometryBits64     = 64
	geometryBits128    = 128
	geometryBitsPacked = 64
	packed64           = false
	packed128          = false
	packedPacked       = true
)

// fullColumns returns the full columns of mask as bits 0 to Width-1: the
// top row's bits moved to bits c*Height, gathered by a multiplication
// each group of gather columns (see NewGeometryPacked): one on 8x8, two
// on 9x7 and 10x6, three on 11x5 and 12x5, four on 13x4 to 16x4. The
// first group is gathered here, with no loop, so that the search's keys
// of 8x8 cost one multiplication; the others by moreFullColumns.
func (g *GeometryPacked) fullColumns(mask Bitboard) uint64 {
	x := uint64(mask&g.top) >> (g.height - 1)
	full := g.gatherGroup(x)
	if g.gather < uint(g.width) {
		full |= g.moreFullColumns(x)
	}
	return full
}

// moreFullColumns returns the full columns of the groups of fullColumns
// past its first, from x, the top row's bits moved to bits c*Height.
//
//go:noinline
func (g *GeometryPacked) moreFullColumns(x uint64) uint64 {
	var full uint64
	for c := g.gather; c < uint(g.width); c += g.gather {
		full |= g.gatherGroup(x>>((c*uint(g.height))&63)) << (c & 63)
	}
	return full
}

// gatherGroup returns the full columns of the group of gather columns
// whose top bits are x's bits 0, Height, 2*Height ..., as bits 0 to
// gather-1.
func (g *GeometryPacked) gatherGroup(x uint64) uint64 {
	return (x & g.gatherIn) * g.gatherMul >> g.gatherShift & g.gatherOut
}

func (g *GeometryPacked) key(current, mask Bitboard) KeyPacked {
	return KeyPacked{Lo: uint64(current + mask), Hi: g.fullColumns(mask)}
}
func (g *GeometryPacked) mirrorKey(current, mask Bitboard) KeyPacked {
	return g.key(g.mirror(current), g.mirror(mask))
}
func (g *GeometryPacked) keyLess(a, b KeyPacked) bool { return a.Less(b) }

// keyFits reports whether the key's full columns are of the board, and
// its columns (keyColumn) all of its bits.
func (g *GeometryPacked) keyFits(k KeyPacked) bool {
	if k.Hi>>g.width != 0 {
		return false
	}
	lo := k.Lo
	for col := range g.width {
		lo -= g.keyColumn(k, col) << (uint(col) * uint(g.height)) // 0 past bit 63
	}
	return lo == 0
}

// keyColumn returns column col's current+mask, as keyColumn of a key with
// sentinels: the low bits of Lo less the columns below, and where the
// column is full, 2^Height-1 and its current, d+1 mod 2^Height (d the
// low bits), which carried out of the column unless it was 0.
func (g *GeometryPacked) keyColumn(k KeyPacked, col int) uint64 {
	h := uint(g.height)
	low := uint64(1)<<h - 1
	lo := k.Lo
	var v uint64
	for c := range col + 1 {
		d := lo >> (uint(c) * h) & low
		v = d
		if k.Hi>>c&1 != 0 && d != low {
			v = d + low + 1
		}
		lo -= v << (uint(c) * h)
	}
	return v
}
