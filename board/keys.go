package board

// The keys of the generated engines of other boards: what the engine's
// source (position.tmpl.go) does with a key that is not an operator on
// bitboards, for each kind of key.

func (g *Geometry64) toKey(b Bitboard) Key64   { return Key64(b) }
func (g *Geometry64) keyBits(k Key64) Bitboard { return Bitboard(k) }
func (g *Geometry64) keyLess(a, b Key64) bool  { return a < b }

func (g *Geometry128) toKey(b Bits128) Key128   { return b }
func (g *Geometry128) keyBits(k Key128) Bits128 { return k }
func (g *Geometry128) keyLess(a, b Key128) bool { return a.Less(b) }

// The bits of the bitboards of each engine of other boards.
const (
	geometryBits64  = 64
	geometryBits128 = 128
)
