//go:build ignore

// The geometry of a board of any size, instantiated by internal/gen as
// Geometry64 (boards of at most 64 bits), Geometry128 (at most 128) and
// GeometryPacked (at most 64 cells, no sentinel bits: see packed): what
// Geometry's methods return as constants for 7x6, here worked out once
// from the size and kept; and as Geometry, the 7x6 board's, whose fields
// the generator replaces by the constants NewGeometry gives them on 7x6.

package position

import "fmt"

// Geometry is the geometry of a board of a size that its bitboards hold:
// its masks, the shifts of its lines, the center-first order of its
// columns. It is read-only once made, and safe for concurrent use; the
// zero value is not usable: get one from NewGeometry.
type Geometry struct {
	width, height, cells  int
	bitsPerColumn         uint
	bottom, playable, odd Bitboard // odd: the rows of claimRows
	top                   Bitboard // the top row
	// low: the cells of the rows where a four up (vertical or diagonal)
	// starts, the Height-3 bottom ones; high: where one down to the
	// right starts, above the 3 bottom rows.
	low, high         Bitboard
	four, left, every Bitboard
	column            Bitboard                // the cells of column 0
	rows              [MaxHeight + 1]Bitboard // rows[k]: the k bottom rows
	order             [MaxWidth]int
	orderCells        [MaxWidth]Bitboard
	lines             [128]int32
	colStart          [128]uint8 // colStart[i]: the bit of the bottom cell of bit i's column
	// The pairs of columns mirror swaps: column c (mirrorCols[c], with
	// its sentinel) and column Width-1-c, mirrorShifts[c] bits above it,
	// for c < Width/2; the middle column of an odd width stays
	// (mirrorMiddle).
	mirrorCols   [MaxWidth / 2]Bitboard
	mirrorShifts [MaxWidth / 2]uint
	mirrorMiddle Bitboard
	mirrorPairs  uint // Width/2, the pairs of columns mirror swaps
	claimParity  int  // see ClaimParity
	// The full columns of a packed key (fullColumns): the top row's bits
	// moved to bits c*Height are gathered by a multiplication a group of
	// gather columns, into bits 0 to Width-1 (gatherOut the bits of one
	// group).
	gatherIn, gatherMul, gatherOut uint64
	gatherShift, gather            uint
}

// NewGeometry returns the geometry of a board of width x height, each at
// least 4, which must fit the bitboard (see board.Size.Check).
func NewGeometry(width, height int) (*Geometry, error) {
	if width < 4 || height < 4 {
		return nil, fmt.Errorf("size %dx%d: each side must be 4 or more", width, height)
	}
	cb := height + 1 // the bits of a column, its sentinel's included
	if packed {
		cb = height
	}
	g := &Geometry{width: width, height: height, cells: width * height, bitsPerColumn: uint(cb),
		mirrorPairs: uint(width / 2), claimParity: height % 2 * width % 2}
	if need := width * cb; need > geometryBits {
		return nil, fmt.Errorf("size %dx%d: needs %d bits, more than the %d of this engine", width, height, need, geometryBits)
	}
	var column Bitboard
	for r := range height {
		column |= Bitboard(1) << r
	}
	g.column = column
	for c := range width {
		g.bottom |= Bitboard(1) << (c * cb)
		g.playable |= column << (c * cb)
	}
	g.top = g.bottom << (height - 1)
	for k := 1; k <= height && k < len(g.rows); k++ {
		g.rows[k] = g.rows[k-1] | (g.bottom << (k - 1))
	}
	g.low, g.high = g.rows[height-3], g.playable&^g.rows[3]
	// The rows claimeven's follower claims: those of the parity of the
	// top row's (see ClaimevenBound).
	for r := (height + 1) % 2; r < height; r += 2 {
		g.odd |= g.bottom << r
	}
	for c := range 4 {
		g.four |= Bitboard(1) << (c * cb)
	}
	for c := range (width + 1) / 2 {
		g.left |= column << (c * cb)
	}
	every := column | column<<1 // a column and its sentinel
	if packed {
		every = column
	}
	for c := range width {
		g.every |= every << (c * cb)
	}
	for i := range width * cb {
		g.colStart[i] = uint8(i / cb * cb)
	}
	for i, col := range CenterFirst(width) {
		g.order[i] = col
		g.orderCells[i] = column << (col * cb)
	}
	countLines(width, height, cb, func(bit int) { g.lines[bit]++ })
	for c := range width / 2 {
		g.mirrorCols[c] = every << (c * cb)
		g.mirrorShifts[c] = uint((width - 1 - 2*c) * cb)
	}
	if width%2 == 1 {
		g.mirrorMiddle = every << (width / 2 * cb)
	}
	if packed {
		// Columns 0 to n-1 of x, bits c*Height, multiplied by the sum of
		// 2^(j*(Height-1)), j < n, land each on bit (n-1)*(Height-1)+c,
		// and nothing else does, nor carries there, where n <= Height.
		n := min(width, height)
		for (n-1)*(height-1)+n > 64 {
			n--
		}
		g.gather, g.gatherShift, g.gatherOut = uint(n), uint((n-1)*(height-1)), 1<<n-1
		for j := range n {
			g.gatherIn |= 1 << (j * height)
			g.gatherMul |= 1 << (j * (height - 1))
		}
	}
	return g, nil
}

// Width returns the number of columns.
func (g *Geometry) Width() int { return g.width }

// Height returns the number of rows.
func (g *Geometry) Height() int { return g.height }

// Cells returns the number of cells.
func (g *Geometry) Cells() int { return g.cells }

func (g *Geometry) colBits() uint { return g.bitsPerColumn }

// Bottom returns the bottom cell of every column.
func (g *Geometry) Bottom() Bitboard { return g.bottom }

// Playable returns every cell of the board, and no sentinel.
func (g *Geometry) Playable() Bitboard { return g.playable }

// NextCells returns the cells where a stone lands in each column that is
// not full, given the occupied cells mask.
func (g *Geometry) NextCells(mask Bitboard) Bitboard {
	if packed {
		// No sentinel to stop a carry: the cell above each top stone,
		// or the bottom cell, less the occupied ones.
		return (mask<<1 | g.bottom) &^ mask & g.playable
	}
	return (mask + g.bottom) & g.playable
}

// Above returns the cells right above those of b in their columns;
// Below, right below. A cell of the top row has none above it (or the
// sentinel, which is no cell of Playable), one of the bottom row none
// below.
func (g *Geometry) Above(b Bitboard) Bitboard {
	if packed {
		b &^= g.top
	}
	return b << 1
}

// Below: see Above.
func (g *Geometry) Below(b Bitboard) Bitboard {
	if packed {
		b &^= g.bottom
	}
	return b >> 1
}

// topRow returns the top row; lowStarts and highStarts the cells where a
// four up (vertical or diagonal) and one down to the right start.
func (g *Geometry) topRow() Bitboard     { return g.top }
func (g *Geometry) lowStarts() Bitboard  { return g.low }
func (g *Geometry) highStarts() Bitboard { return g.high }

// Column returns the cells of column col (0-based).
func (g *Geometry) Column(col int) Bitboard { return g.column << (uint(col) * g.bitsPerColumn) }

// LeftHalf returns the columns left of the center, and the center's of
// an odd width: the moves of a symmetric position that are not mirror
// images of others.
func (g *Geometry) LeftHalf() Bitboard { return g.left }

// claimRows returns the rows of the cells claimeven's follower claims:
// the top row and every other one below it (see ClaimevenBound).
func (g *Geometry) claimRows() Bitboard { return g.odd }

// ClaimParity is the parity of the stones of a position where
// ClaimevenBound applies to the side to move: where the columns of an odd
// number of free cells are even in number. On a board of even height
// that is an even number of stones; on one of odd height, the columns of
// an odd number of free cells hold an even number of stones, and the
// stones have the parity of the width. (Worked out once: the search asks
// at every node, and the remainders by a variable cost instructions.)
func (g *Geometry) ClaimParity() int      { return g.claimParity }
func (g *Geometry) fourColumns() Bitboard { return g.four }
func (g *Geometry) all() Bitboard         { return g.every }

// rowsBelow returns the cells of the k bottom rows.
func (g *Geometry) rowsBelow(k int) Bitboard { return g.rows[k] }

// columnStart returns the bit of the bottom cell of the column of the
// cell c: read from a table, as a division by the variable bits of a
// column costs tens of cycles (blocked asks it in its loops).
func (g *Geometry) columnStart(c Bitboard) uint { return uint(g.colStart[c.TrailingZeros()&127]) }

func (g *Geometry) topCell(col int) Bitboard {
	return Bitboard(1) << (uint(g.height-1) + uint(col)*g.bitsPerColumn)
}

func (g *Geometry) bottomCell(col int) Bitboard { return Bitboard(1) << (uint(col) * g.bitsPerColumn) }

// ClaimevenWinScore is the best score the claimeven rules give the
// follower: a four whose free cells all lie on its lowest row (the 2nd,
// or on a board of odd height the 3rd) is complete with Height-2 or
// Height-3 cells still free.
func (g *Geometry) ClaimevenWinScore() int { return g.height / 2 }

// OddThreatMax is the best bound OddThreatBound gives: a threat on the
// lowest row it can use (the 3rd, or on a board of odd height the 2nd).
func (g *Geometry) OddThreatMax() int { return (g.height - 1) / 2 }

// MaxScore returns the best score: a win with the fourth stone.
func (g *Geometry) MaxScore() int { return MaxScoreOf(g.cells) }

// MinScore returns the worst score.
func (g *Geometry) MinScore() int { return -MaxScoreOf(g.cells) }

// WinNextScore is the score of a position of the given number of stones
// whose side to move wins with its next stone.
func (g *Geometry) WinNextScore(stones int) int { return WinNext(g.cells, stones) }

// LossNextScore is the score of a position of the given number of stones
// whose opponent wins with its next stone.
func (g *Geometry) LossNextScore(stones int) int { return LossNext(g.cells, stones) }

// ColumnOrder returns the i-th column (0-based) in center-first order.
func (g *Geometry) ColumnOrder(i int) int { return g.order[i] }

// OrderCells returns the cells of the i-th column in center-first order.
func (g *Geometry) OrderCells(i int) Bitboard { return g.orderCells[i] }

// CellLines returns the number of lines of four through the one cell of
// cell.
func (g *Geometry) CellLines(cell Bitboard) int32 { return g.lines[cell.TrailingZeros()] }

// mirror swaps column c and column Width-1-c of a bitboard, a pair of
// columns at a time: half the shifts of moving each column on its own
// (6x6's empty board 3.6% of its time in mirror before).
func (g *Geometry) mirror(b Bitboard) Bitboard {
	m := b & g.mirrorMiddle
	for c := range g.mirrorPairs {
		cols, d := g.mirrorCols[c], g.mirrorShifts[c]
		m |= (b&cols)<<d | (b>>d)&cols
	}
	return m
}
