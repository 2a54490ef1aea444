package board

import "c4solve/internal/position"

// Grid is a board of any size: it hands out its positions as Boards. It
// is read-only, and safe for concurrent use. Get one from NewGrid.
type Grid struct {
	Size
	g *position.Geometry128 // the Boards' positions, on every board
}

// NewGrid returns the grid of a board of size z.
func NewGrid(z Size) (*Grid, error) {
	if err := z.Check(); err != nil {
		return nil, err
	}
	g, err := position.NewGeometry128(z.Width, z.Height)
	return &Grid{Size: z, g: g}, err
}

// Empty returns the empty board of the grid.
func (g *Grid) Empty() Board { return Board{g: g, p: g.g.Empty()} }

// Parse returns the position reached by the move string s on the grid, one
// column name (ColumnName) per move, or with from0 the names of 0-based
// columns ('0' to '9', then 'a' on, as Steininger's test files name them).
// It checks that the moves make a legal game: every name a column of the
// board, no move into a full column or after the game was won. Errors are
// *ParseError.
func (g *Grid) Parse(s string, from0 bool) (Board, error) {
	p, err := g.g.Parse(s, from0)
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
		cols[i] = position.ColumnOf(s[i], from0)
	}
	return cols, nil
}

// FromKey returns the position of the grid whose key is key (Board.Key).
// It fails for a number that is no position's key on the board.
func (g *Grid) FromKey(key Key) (Board, error) {
	p, err := g.g.FromKey(position.Bits128(key))
	return Board{g: g, p: p}, err
}

// Board is a position on a Grid, of any size. Its zero value is not
// usable; get the empty board from Grid.Empty. It is a small value: copy
// it to keep it.
type Board struct {
	g *Grid
	p position.Position128
}

// Grid returns the board's grid.
func (b Board) Grid() *Grid { return b.g }

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

// Key returns the position's key.
func (b Board) Key() Key { return Key(b.p.Key()) }

// CanonicalKey returns the smaller of the keys of the position and of its
// mirror image, which have the same score, whether it is the mirror's,
// and whether the position is its own mirror image.
func (b Board) CanonicalKey() (key Key, mirrored, symmetric bool) {
	k, mirrored, symmetric := b.p.CanonicalKey()
	return Key(k), mirrored, symmetric
}

// hash returns a number that identifies the position and its mirror
// image among most others, on any board: its canonical key's two words
// mixed (the key itself on a board of at most 64 bits).
func (b Board) hash() uint64 {
	k, _, _ := b.p.CanonicalKey()
	return k.Hash()
}

// Line returns moves (0-based columns) that reach the position from the
// empty board, or false when no game reaches it (a position of FromKey
// may be none).
func (b Board) Line() ([]int, bool) { return b.p.Line() }

// Cell returns who holds the cell at column col and row row (both
// 0-based, row 0 at the bottom): 0 nobody, 1 the first player, 2 the
// second.
func (b Board) Cell(col, row int) int { return b.p.Cell(col, row) }

// Draw draws the board, a line a row, each cell as cell gives it for
// Cell's answer, the columns named below by ColumnName.
func (b Board) Draw(cell func(who int) string) string { return b.p.Draw(cell) }

// Height returns the number of stones in column col.
func (b Board) Height(col int) int { return b.p.Height(col) }
