package solver

import (
	"math/bits"

	"c4solve/board"
	"c4solve/internal/position"
	"c4solve/ttable"
)

// What the instantiations of the search (engine.tmpl.go) do differently:
// the 7x6 engine and engine49 (other boards of at most 49 bits) keep
// their positions in a ttable.Table, whose keys are of 49 bits at most;
// engine64, enginePacked and engine128, for the boards over 49 bits, in a
// ttable.Wide, whose keys are of one or two words. The names here take
// the variant's suffix in the generated code (internal/gen); Solver makes
// the solvers of other boards (newSolver49, ...: a board's geometry, the
// shared table, the threads).

// positionOfKey returns the variant's position of a Board's key, and
// keyOfPosition the key of the Board of the variant's position: a key of
// one word in Lo up to 64 bits, a packed board's through the key of its
// Position128.
func positionOfKey(_ position.Geometry, k board.Key) (position.Position, error) {
	return position.FromKey(k.Lo)
}
func positionOfKey49(g *position.Geometry64, k board.Key) (position.Position64, error) {
	return g.FromKey(k.Lo)
}
func positionOfKey64(g *position.Geometry64, k board.Key) (position.Position64, error) {
	return g.FromKey(k.Lo)
}
func positionOfKey128(g *position.Geometry128, k board.Key) (position.Position128, error) {
	return g.FromKey(position.Bits128(k))
}
func positionOfKeyPacked(g *position.GeometryPacked, k board.Key) (position.PositionPacked, error) {
	kp, err := g.KeyOf128(position.Bits128(k))
	if err != nil {
		return position.PositionPacked{}, err
	}
	return g.FromKey(kp)
}

func keyOfPosition(_ position.Geometry, p position.Position) board.Key { return board.Key{Lo: p.Key()} }
func keyOfPosition49(_ *position.Geometry64, p position.Position64) board.Key {
	return board.Key{Lo: p.Key()}
}
func keyOfPosition64(_ *position.Geometry64, p position.Position64) board.Key {
	return board.Key{Lo: p.Key()}
}
func keyOfPosition128(_ *position.Geometry128, p position.Position128) board.Key {
	return board.Key(p.Key())
}
func keyOfPositionPacked(g *position.GeometryPacked, p position.PositionPacked) board.Key {
	return board.Key(g.Key128(p.Key()))
}

// packedKeyBits is the bits of a position.KeyPacked of a board of width w:
// a word and the full columns.
func packedKeyBits(w int) int { return 64 + w }

// The most columns and cells of a board of each variant: the sizes of
// the search's arrays.
const (
	maxWidth       = position.Width
	maxCells       = position.Cells
	maxWidth49     = 49 / (board.MinSide + 1) // 9x4
	maxCells49     = 44                       // 4x11, the most cells in 49 bits
	maxWidth64     = 64 / (board.MinSide + 1) // 12x4
	maxCells64     = 60                       // 4x15, the most cells in 64 bits
	maxWidth128    = board.MaxWidth
	maxCells128    = 124                // 4x31
	maxWidthPacked = 64 / board.MinSide // 16x4
	maxCellsPacked = 64
)

// helpersSpread says whether a helper worker asks the probe beside the
// first worker's (helperProbe) rather than the same one. On 7x6 the
// neighbours measured as good as or better, and on boards over 64 bits
// (10x6 at 16 stones, 2 threads: 4.7 s against 6.7 s; 9x7 at 20: 4.6
// against 4.3); on the other boards, two threads asking the same probe,
// kept apart by the busy table alone, measured faster: 7x5's empty board
// 0.73-1.05 s -> 0.52-0.54 s, 6x7's 8.47-9.11 s -> 6.17-7.20 s, 6x6's
// 0.74 -> 0.60 s, 8x5's 14.3-14.5 s -> 12.8-13.1 s, 9x5's opening_L2 196
// -> 174 ms (issue 40; docs/performance.md).
const (
	helpersSpread       = true
	helpersSpread49     = false
	helpersSpread64     = false
	helpersSpread128    = true
	helpersSpreadPacked = true
)

// gallop says which ways the root's walk of null-window probes gallops
// away from mtdCenter (see nextProbe). Mean expanded nodes, one thread,
// against the walk by one (docs/performance.md):
//
//   - 7x6, whose scores lie near zero: none; galloping both ways costs
//     1.6-2.3% (fresh7j and fresh8j, 40 positions each).
//   - boards of at most 49 bits: up only; galloping down costs the empty
//     9x4 board (score -1) 11%, its probe "> -3" one the walk does not
//     need, and 6x6's (-1) 14%.
//   - the other boards: both ways; random8x8 -25% (-21% up only),
//     random10x6 -2.3%, random9x7 -0.4%, his 9x5 files' first 200 of
//     opening_L2 -11% (-9% up only), midgame_L2 -2.8% (-0.2%).
const (
	gallop       = gallopNone
	gallop49     = gallopUp
	gallop64     = gallopBoth
	gallop128    = gallopBoth
	gallopPacked = gallopBoth
)

// drawRule says whether generateMoves looks for a move that leaves the
// opponent no line of four (drawAtLeast) where the window asks for a draw
// at most. On the other boards it saves 4-7% of the expanded nodes (9x4's
// empty board 20.47 M -> 18.97 M); on 7x6 1-2% (Test_L1_R3:30 2.63 M ->
// 2.59 M), and fresh8g's 40 positions, side by side, alternated twice,
// took 0.194 and 0.125 s with it against 0.111 and 0.115 s without
// (docs/performance.md).
const (
	drawRule       = false
	drawRule49     = true
	drawRule64     = true
	drawRule128    = true
	drawRulePacked = true
)

func tableRef(t *ttable.Table, k position.Key) ttable.Ref { return t.Ref(k) }
func tablePut(t *ttable.Table, k position.Key, lower, upper, move int, nodes uint64) {
	t.Put(k, lower, upper, move, nodes)
}
func newTable(_ position.Geometry, mib int) *ttable.Table { return must(ttable.New(mib)) }
func keyHash(k position.Key) uint64                       { return k }

func tableRef49(t *ttable.Table, k position.Key64) ttable.Ref { return t.Ref(k) }

// tablePut49 stores no move beyond the seventh column, which a Table's
// entry has no room for (boards of 8 and 9 columns): a move stored orders
// the moves, so its loss costs order, never a result.
func tablePut49(t *ttable.Table, k position.Key64, lower, upper, move int, nodes uint64) {
	if move >= ttable.MaxMoves {
		move = -1
	}
	t.Put(k, lower, upper, move, nodes)
}
func newTable49(_ *position.Geometry64, mib int) *ttable.Table { return must(ttable.New(mib)) }
func keyHash49(k position.Key64) uint64                        { return k }

func tableRef64(t *ttable.Wide, k position.Key64) ttable.WideRef { return t.Ref(k, 0) }
func tablePut64(t *ttable.Wide, k position.Key64, lower, upper, move int, nodes uint64) {
	t.Put(k, 0, lower, upper, move, nodes)
}
func newTable64(g *position.Geometry64, mib int) *ttable.Wide {
	return must(ttable.NewWide(mib, g.Width()*(g.Height()+1)))
}
func keyHash64(k position.Key64) uint64 { return k }

func tableRef128(t *ttable.Wide, k position.Bits128) ttable.WideRef { return t.Ref(k.Lo, k.Hi) }
func tablePut128(t *ttable.Wide, k position.Bits128, lower, upper, move int, nodes uint64) {
	t.Put(k.Lo, k.Hi, lower, upper, move, nodes)
}
func newTable128(g *position.Geometry128, mib int) *ttable.Wide {
	return must(ttable.NewWide(mib, g.Width()*(g.Height()+1)))
}

// keyHash128 folds a key into the one word of the busy table, which only
// orders moves: a collision costs order, never a result.
func keyHash128(k position.Bits128) uint64 { return k.Hash() }

func tableRefPacked(t *ttable.Wide, k position.KeyPacked) ttable.WideRef { return t.Ref(k.Lo, k.Hi) }
func tablePutPacked(t *ttable.Wide, k position.KeyPacked, lower, upper, move int, nodes uint64) {
	t.Put(k.Lo, k.Hi, lower, upper, move, nodes)
}
func newTablePacked(g *position.GeometryPacked, mib int) *ttable.Wide {
	return must(ttable.NewWide(mib, packedKeyBits(g.Width())))
}
func keyHashPacked(k position.KeyPacked) uint64 { return k.Hash() }

// keyWords returns a key as the two words of a table file's records;
// tablePutWords stores the entry of the key of those words, and reports
// false where they are no key of the variant's (a high word of a key of
// one).
func keyWords(_ position.Geometry, k position.Key) (lo, hi uint64) { return k, 0 }
func tablePutWords(_ position.Geometry, t *ttable.Table, lo, hi uint64, lower, upper, move int, nodes uint64) bool {
	if hi != 0 || lo >= 1<<(position.Width*(position.Height+1)) {
		return false
	}
	t.Put(lo, lower, upper, move, nodes)
	return true
}

func keyWords49(_ *position.Geometry64, k position.Key64) (lo, hi uint64) { return k, 0 }
func tablePutWords49(_ *position.Geometry64, t *ttable.Table, lo, hi uint64, lower, upper, move int, nodes uint64) bool {
	if hi != 0 || lo >= 1<<ttable.KeyBits {
		return false
	}
	tablePut49(t, lo, lower, upper, move, nodes)
	return true
}

func keyWords64(_ *position.Geometry64, k position.Key64) (lo, hi uint64) { return k, 0 }
func tablePutWords64(_ *position.Geometry64, t *ttable.Wide, lo, hi uint64, lower, upper, move int, nodes uint64) bool {
	if hi != 0 {
		return false
	}
	t.Put(lo, 0, lower, upper, move, nodes)
	return true
}

func keyWords128(_ *position.Geometry128, k position.Bits128) (lo, hi uint64) { return k.Lo, k.Hi }
func tablePutWords128(_ *position.Geometry128, t *ttable.Wide, lo, hi uint64, lower, upper, move int, nodes uint64) bool {
	if bits.Len64(hi) > t.KeyBits()-64 {
		return false
	}
	t.Put(lo, hi, lower, upper, move, nodes)
	return true
}

// A table file of a packed board holds the keys of its Position128s, as
// the files of the other boards over 64 bits.
func keyWordsPacked(g *position.GeometryPacked, k position.KeyPacked) (lo, hi uint64) {
	k128 := g.Key128(k)
	return k128.Lo, k128.Hi
}
func tablePutWordsPacked(g *position.GeometryPacked, t *ttable.Wide, lo, hi uint64, lower, upper, move int, nodes uint64) bool {
	k, err := g.KeyOf128(position.Bits128{Lo: lo, Hi: hi})
	if err != nil {
		return false
	}
	t.Put(k.Lo, k.Hi, lower, upper, move, nodes)
	return true
}

// growTable lets the shared table of a search that has stored so many
// entries in it use more of its memory (ttable.Table.Grow and
// ttable.Wide.Grow); the Table of 7x6 has its size from the start.
func growTable(t *ttable.Table, stores uint64)      {}
func growTable49(t *ttable.Table, stores uint64)    { t.Grow(stores) }
func growTable64(t *ttable.Wide, stores uint64)     { t.Grow(stores) }
func growTable128(t *ttable.Wide, stores uint64)    { t.Grow(stores) }
func growTablePacked(t *ttable.Wide, stores uint64) { t.Grow(stores) }
