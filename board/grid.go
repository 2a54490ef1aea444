package board

import "fmt"

// Grid is a board of any size, for the code that handles every size the
// same way (the command's input and output, books of other boards, the
// game in the terminal): it hands out its positions as Boards, which hold
// them as Position128s whatever the size, and has the geometry of the
// engine that searches them (Geometry64 up to 64 bits, GeometryPacked
// where the search packs, Geometry128 above). It is read-only, and safe
// for concurrent use. Get one from NewGrid.
type Grid struct {
	Size
	g128 *Geometry128    // the Boards' positions, on every board
	g64  *Geometry64     // the search's, for a board of at most 64 bits; nil above
	gp   *GeometryPacked // the search's where it packs (Packs); nil elsewhere
}

// NewGrid returns the grid of a board of size z.
func NewGrid(z Size) (*Grid, error) {
	if err := z.Check(); err != nil {
		return nil, err
	}
	g := &Grid{Size: z}
	var err error
	if g.g128, err = NewGeometry128(z); err != nil {
		return nil, err
	}
	if z.Bits() <= 64 {
		g.g64, err = NewGeometry64(z)
	} else if gp, perr := NewGeometryPacked(z); perr == nil {
		g.gp = gp // the board packs (Packs)
	}
	return g, err
}

// Geometry64 returns the search's geometry of a board of at most 64
// bits, nil for a wider board.
func (g *Grid) Geometry64() *Geometry64 { return g.g64 }

// Geometry128 returns the geometry of the board's positions as Position128s.
func (g *Grid) Geometry128() *Geometry128 { return g.g128 }

// GeometryPacked returns the geometry of the board's positions as the
// search plays them where it packs them (Packs), nil elsewhere.
func (g *Grid) GeometryPacked() *GeometryPacked { return g.gp }

// Empty returns the empty board of the grid.
func (g *Grid) Empty() Board { return Board{g: g, p: g.g128.Empty()} }

// Parse returns the position reached by the move string s on the grid
// (Geometry128.Parse). Errors are *ParseError.
func (g *Grid) Parse(s string, from0 bool) (Board, error) {
	p, err := g.g128.Parse(s, from0)
	return Board{g: g, p: p}, err
}

// Columns returns the columns (0-based) of the move string s, which
// must make a legal game, as Parse checks it; with from0, its columns are
// numbered from 0. Errors are *ParseError.
func (g *Grid) Columns(s string, from0 bool) ([]int, error) {
	if _, err := g.Parse(s, from0); err != nil {
		return nil, err
	}
	cols := make([]int, len(s))
	for i := range len(s) {
		cols[i] = columnOfName(s[i], from0)
	}
	return cols, nil
}

// FromKey returns the position of the grid whose key is key
// (Board.Key), with the checks of Geometry128.FromKey: on a board of at
// most 64 bits, the key of one word is in Lo, Hi 0.
func (g *Grid) FromKey(key Key128) (Board, error) {
	p, err := g.g128.FromKey(key)
	return Board{g: g, p: p}, err
}

// Board is a position on a Grid, of any size. Its zero value is not
// usable; get the empty board from Grid.Empty. It is a small value: copy
// it to keep it.
type Board struct {
	g *Grid
	p Position128 // in the same bits as Position64's on a board of at most 64 bits
}

// BoardOf returns p, a position of the 7x6 board, as a Board of the grid
// g, which must be of 7x6.
func (g *Grid) BoardOf(p Position) Board {
	return Board{g: g, p: Position128{g: g.g128, current: Bits128{Lo: uint64(p.current)}, mask: Bits128{Lo: uint64(p.mask)}, stones: p.stones}}
}

// Position returns the 7x6 position of a Board of a 7x6 grid (BoardOf).
func (b Board) Position() Position {
	return Position{current: Bitboard(b.p.current.Lo), mask: Bitboard(b.p.mask.Lo), stones: b.p.stones}
}

// BoardOf64 returns p as a Board of the grid g, whose geometry is p's.
func (g *Grid) BoardOf64(p Position64) Board {
	return Board{g: g, p: Position128{g: g.g128, current: Bits128{Lo: uint64(p.current)}, mask: Bits128{Lo: uint64(p.mask)}, stones: p.stones}}
}

// BoardOf128 returns p as a Board of the grid g, whose geometry is p's.
func (g *Grid) BoardOf128(p Position128) Board { return Board{g: g, p: p} }

// Grid returns the board's grid.
func (b Board) Grid() *Grid { return b.g }

// Position64 returns the position of a board of at most 64 bits on the
// grid's Geometry64.
func (b Board) Position64() Position64 {
	return Position64{g: b.g.g64, current: Bitboard(b.p.current.Lo), mask: Bitboard(b.p.mask.Lo), stones: b.p.stones}
}

// Position128 returns the position.
func (b Board) Position128() Position128 { return b.p }

// Stones returns the number of stones played.
func (b Board) Stones() int { return b.p.Stones() }

// CanPlay reports whether column col (0-based) has room.
func (b Board) CanPlay(col int) bool { return b.p.CanPlay(col) }

// Play drops a stone of the side to move in column col, which must have
// room.
func (b *Board) Play(col int) { b.p.Play(col) }

// IsWinningMove reports whether playing column col wins at once.
func (b Board) IsWinningMove(col int) bool { return b.p.IsWinningMove(col) }

// CanWinNext reports whether the side to move wins with its next stone.
func (b Board) CanWinNext() bool { return b.p.CanWinNext() }

// Won reports whether the side that just played has four in a line.
func (b Board) Won() bool { return b.p.Won() }

// Over reports whether the game has ended: a four, or a full board.
func (b Board) Over() bool { return b.p.Over() }

// Key returns the position's key (Position128.Key): on a board of at
// most 64 bits, the key of one word (Position64's) in Lo, Hi 0.
func (b Board) Key() Key128 { return b.p.Key() }

// CanonicalKey returns the smaller of the keys of the position and of its
// mirror image, which have the same score, whether it is the mirror's,
// and whether the position is its own mirror image.
func (b Board) CanonicalKey() (key Key128, mirrored, symmetric bool) { return b.p.CanonicalKey() }

// hash returns a number that identifies the position and its mirror
// image among most others, on any board: its canonical key's two words
// mixed (the key itself on a board of at most 64 bits).
func (b Board) hash() uint64 {
	k, _, _ := b.CanonicalKey()
	return k.Hash()
}

// Line returns moves (0-based columns) that reach the position from the
// empty board, or false when no game reaches it (Position128.Line).
func (b Board) Line() ([]int, bool) { return b.p.Line() }

// Cell returns who holds the cell at column col and row row (both
// 0-based, row 0 at the bottom): 0 nobody, 1 the first player, 2 the
// second.
func (b Board) Cell(col, row int) int { return b.p.Cell(col, row) }

// Draw draws the board as Position.Draw does, the columns named below by
// ColumnName.
func (b Board) Draw(cell func(who int) string) string {
	return draw(b.g.Width, b.g.Height, b.Cell, cell)
}

// Height returns the number of stones in column col.
func (b Board) Height(col int) int { return b.p.Height(col) }

// notAColumn is the reason of a ParseError for a byte c that names no
// column of a board of size z.
func notAColumn(c byte, z Size, from0 bool) string {
	what := fmt.Sprintf("%q", rune(c))
	if c >= 0x80 {
		what = fmt.Sprintf("byte 0x%02x", c)
	}
	first, last := ColumnName(0), ColumnName(z.Width-1)
	if from0 {
		first, last = '0', columnName0(z.Width-1)
	}
	if z == Standard && !from0 {
		return fmt.Sprintf("%s is not a column %c-%c", what, first, last) // the default board
	}
	return fmt.Sprintf("%s is not a column %c-%c of the %v board", what, first, last, z)
}

// columnName0 is ColumnName's 0-based variant: '0' to '9', then 'a' on.
func columnName0(col int) byte {
	if col < 10 {
		return byte('0' + col)
	}
	return byte('a' + col - 10)
}
