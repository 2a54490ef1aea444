package board

import "math/bits"

// The keys of the generated engines of other boards: what the engine's
// source (position.tmpl.go) does with a key that is not an operator on
// bitboards, for each kind of key.

func (g *Geometry64) toKey(b Bitboard) Key64   { return Key64(b) }
func (g *Geometry64) keyBits(k Key64) Bitboard { return Bitboard(k) }
func (g *Geometry64) keyLess(a, b Key64) bool  { return a < b }

// keyHash returns a key's table hash: the key itself, which the tables
// mix.
func (g *Geometry64) keyHash(k Key64) uint64 { return k }

// keyWords returns a key as the two words of ttable.Wide's keys.
func (g *Geometry64) keyWords(k Key64) (lo, hi uint64) { return k, 0 }

func (g *Geometry128) toKey(b Bits128) Key128   { return b }
func (g *Geometry128) keyBits(k Key128) Bits128 { return k }
func (g *Geometry128) keyLess(a, b Key128) bool { return a.Less(b) }

// keyHash folds a key into one word (for the busy table, which only
// orders moves): the high word through a multiplication by an odd
// constant, so that keys differing only there differ.
func (g *Geometry128) keyHash(k Key128) uint64 {
	return k.Lo ^ bits.RotateLeft64(k.Hi*0x9e3779b97f4a7c15, 32)
}

func (g *Geometry128) keyWords(k Key128) (lo, hi uint64) { return k.Lo, k.Hi }

// The bits of the bitboards of each engine of other boards.
const (
	geometryBits64  = 64
	geometryBits128 = 128
)
