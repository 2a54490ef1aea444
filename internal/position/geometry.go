package position

// The standard 7x6 board's dimensions, constants of its engine (Position,
// Geometry) so that the compiler folds them into the search's code.
const (
	Width  = 7
	Height = 6
	// Cells is the number of cells, and so the most moves a game can last.
	Cells = Width * Height
	// colBits is the number of bits per column: Height cells plus one
	// sentinel bit that keeps shifts from carrying into the next column.
	colBits = Height + 1
)

const (
	// BottomRow has the bottom cell of every column.
	BottomRow Bitboard = 1 | 1<<7 | 1<<14 | 1<<21 | 1<<28 | 1<<35 | 1<<42
	// Playable has every cell of the board, and no sentinel.
	Playable Bitboard = BottomRow * (1<<Height - 1)
	// oddRows has the cells of rows 1, 3 and 5 (0-based): the 2nd, 4th
	// and 6th from the bottom.
	oddRows Bitboard = BottomRow * 0b101010
	// fourColumns has the bottom cells of the first four columns.
	fourColumns Bitboard = 1 | 1<<colBits | 1<<(2*colBits) | 1<<(3*colBits)
	// leftHalf has the columns left of the center, and the center's.
	leftHalf = 1<<(4*colBits) - 1&Playable
)

// ClaimevenWinScore is the best score the claimeven rules give the second
// player on the 7x6 board (Geometry.ClaimevenWinScore).
const ClaimevenWinScore = Height / 2

// Key is the key of a position of a board of at most 64 bits (Position's,
// Position64's): current+mask, one bit above the top stone of each column.
// Key64 is the same type, under the name the generated engine of boards of
// up to 64 bits uses; Key128 is the key of the boards of Position128.
type (
	Key    = uint64
	Key64  = uint64
	Key128 = Bits128
)

// Column returns the cells of column col (0-based) of the 7x6 board,
// sentinel excluded.
func Column(col int) Bitboard { return (1<<Height - 1) << (col * colBits) }

// Geometry is the 7x6 board's geometry: its methods return constants, so
// that the engine written once for every board (position.tmpl.go, with
// Geometry64 and Geometry128 for the others) compiles for 7x6 as if it
// had been written for it. It has no state: the zero value is the board,
// safe for concurrent use.
type Geometry struct{}

// Width returns the number of columns.
func (Geometry) Width() int { return Width }

// Height returns the number of rows.
func (Geometry) Height() int { return Height }

// Cells returns the number of cells.
func (Geometry) Cells() int { return Cells }

func (Geometry) colBits() uint { return colBits }

// Bottom returns the bottom cell of every column.
func (Geometry) Bottom() Bitboard { return BottomRow }

// Playable returns every cell of the board, and no sentinel.
func (Geometry) Playable() Bitboard { return Playable }

// NextCells returns the cells where a stone lands in each column that is
// not full, given the occupied cells mask.
func (Geometry) NextCells(mask Bitboard) Bitboard { return (mask + BottomRow) & Playable }

// Above returns the cells right above those of b in their columns (above
// the top row, the sentinel: no cell of Playable); Below, right below.
func (Geometry) Above(b Bitboard) Bitboard { return b << 1 }

// Below: see Above.
func (Geometry) Below(b Bitboard) Bitboard { return b >> 1 }

// topRow returns the top row; lowStarts and highStarts the cells where a
// four up (vertical or diagonal) and one down to the right start.
func (Geometry) topRow() Bitboard     { return BottomRow << (Height - 1) }
func (Geometry) lowStarts() Bitboard  { return BottomRow * (1<<(Height-3) - 1) }
func (Geometry) highStarts() Bitboard { return Playable &^ (BottomRow * 0b111) }

// Column returns the cells of column col (0-based).
func (Geometry) Column(col int) Bitboard { return Column(col) }

// LeftHalf returns the columns left of the center and the center's: the
// moves of a symmetric position that are not mirror images of others.
func (Geometry) LeftHalf() Bitboard { return leftHalf }

// claimRows returns the rows of the cells claimeven's follower claims
// (ClaimevenBound): on a board of even height the 2nd, 4th, ... from the
// bottom, on 7x6 oddRows.
func (Geometry) claimRows() Bitboard { return oddRows }

// ClaimParity is the parity of the stones of a position where
// ClaimevenBound applies to the side to move: 0 on a board of even height,
// where every column then holds an even number of stones (or two hold an
// odd one).
func (Geometry) ClaimParity() int      { return 0 }
func (Geometry) fourColumns() Bitboard { return fourColumns }

// rowsBelow returns the cells of the k bottom rows.
func (Geometry) rowsBelow(k int) Bitboard { return BottomRow * (1<<k - 1) }

// columnStart returns the bit of the bottom cell of the column of the
// cell c.
func (Geometry) columnStart(c Bitboard) uint { return uint(c.TrailingZeros() / colBits * colBits) }

func (Geometry) topCell(col int) Bitboard    { return 1 << (Height - 1 + col*colBits) }
func (Geometry) bottomCell(col int) Bitboard { return 1 << (col * colBits) }

// ClaimevenWinScore is the best score the claimeven rules give the
// second player: a four whose free cells all lie on the 2nd row is
// complete by the 38th stone (claimedWinTime).
func (Geometry) ClaimevenWinScore() int { return ClaimevenWinScore }

// OddThreatMax is the best bound OddThreatBound gives: a threat on the
// 3rd row wins by the first player's 20th stone.
func (Geometry) OddThreatMax() int { return (Height - 1) / 2 }

// MaxScore returns the best score, MaxScore.
func (Geometry) MaxScore() int { return MaxScore }

// MinScore returns the worst score, MinScore.
func (Geometry) MinScore() int { return MinScore }

// WinNextScore is WinNextScore.
func (Geometry) WinNextScore(stones int) int { return WinNextScore(stones) }

// LossNextScore is LossNextScore.
func (Geometry) LossNextScore(stones int) int { return LossNextScore(stones) }

// ColumnOrder returns the i-th column (0-based) in center-first order.
func (Geometry) ColumnOrder(i int) int { return columnOrder[i] }

// OrderCells returns the cells of the i-th column in center-first order.
func (Geometry) OrderCells(i int) Bitboard { return columnCells[i] }

// CellLines returns the number of lines of four through the one cell of
// cell.
func (Geometry) CellLines(cell Bitboard) int32 { return cellLines[cell.TrailingZeros()] }

// mirror swaps column c and column 6-c of a bitboard.
func (Geometry) mirror(b Bitboard) Bitboard {
	const c = 1<<colBits - 1
	return (b&c)<<(6*colBits) | (b&(c<<colBits))<<(4*colBits) |
		(b&(c<<(2*colBits)))<<(2*colBits) | b&(c<<(3*colBits)) |
		(b>>(2*colBits))&(c<<(2*colBits)) | (b>>(4*colBits))&(c<<colBits) |
		(b>>(6*colBits))&c
}

// packed says whether a geometry's bitboards have no sentinel bits
// (GeometryPacked's): the 7x6 board's have.
const packed = false

func (Geometry) key(current, mask Bitboard) Key         { return Key(current + mask) }
func (g Geometry) mirrorKey(current, mask Bitboard) Key { return Key(g.mirror(current + mask)) }
func (Geometry) keyLess(a, b Key) bool                  { return a < b }
func (Geometry) keyFits(k Key) bool                     { return k < 1<<(Width*colBits) }
func (Geometry) keyColumn(k Key, col int) uint64        { return k >> (col * colBits) & (1<<colBits - 1) }

// columnOrder is the center-first order: central cells lie on more lines
// of four.
var columnOrder = [Width]int{3, 2, 4, 1, 5, 0, 6}

// columnCells[i] is the cells of column columnOrder[i].
var columnCells = func() (cells [Width]Bitboard) {
	for i, col := range columnOrder {
		cells[i] = Column(col)
	}
	return cells
}()

// cellLines[i] is the number of lines of four through the cell of bit i:
// 3 in a corner to 13 in the center's middle rows.
var cellLines = func() (lines [64]int32) {
	countLines(Width, Height, colBits, func(bit int) { lines[bit]++ })
	return lines
}()
