package board

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// Size is a board's width and height, for boards other than the standard
// 7x6 of Position. The zero value is no board; get one from ParseSize or
// check it with Check.
type Size struct{ Width, Height int }

// Standard is the board of Position.
var Standard = Size{Width, Height}

// MinSide is the least width and height of a board: a smaller one cannot
// hold a vertical or horizontal four. A board's bitboard, one sentinel
// bit a column as Position's, must also fit one 64-bit word:
// Width*(Height+1) <= 64, so at most 12 columns.
const MinSide = 4

// MaxColumns is the most columns a board that fits can have (12x4).
const MaxColumns = 12

// ParseSize reads a size written "WxH", as "8x5".
func ParseSize(s string) (Size, error) {
	ws, hs, ok := strings.Cut(strings.ToLower(s), "x")
	w, errW := strconv.Atoi(ws)
	h, errH := strconv.Atoi(hs)
	if !ok || errW != nil || errH != nil {
		return Size{}, fmt.Errorf("size %q: want WIDTHxHEIGHT, as 8x5", s)
	}
	z := Size{w, h}
	if err := z.Check(); err != nil {
		return Size{}, err
	}
	return z, nil
}

// Check reports whether the board fits: each side at least MinSide, and
// a bitboard of Width*(Height+1) bits at most 64.
func (z Size) Check() error {
	switch {
	case z.Width < MinSide || z.Height < MinSide:
		return fmt.Errorf("size %v: each side must be %d or more", z, MinSide)
	case z.Width*(z.Height+1) > 64:
		return fmt.Errorf("size %v: needs %d bits, one word holds 64 (width x (height+1))", z, z.Width*(z.Height+1))
	}
	return nil
}

// String writes the size as ParseSize reads it.
func (z Size) String() string { return fmt.Sprintf("%dx%d", z.Width, z.Height) }

// Cells is the number of cells, the most moves a game on the board lasts.
func (z Size) Cells() int { return z.Width * z.Height }

// MaxScore is the best score on the board: a win with the fourth stone.
// Scores are as for the standard board (see MaxScore): a win on move m
// scores 1 + (Cells-m)/2, which is Steininger's convention for every size.
func (z Size) MaxScore() int { return (z.Cells()+1)/2 - 3 }

// WinNextScore is the score of a position of the given number of stones
// whose side to move wins with its next stone.
func (z Size) WinNextScore(stones int) int { return (z.Cells() + 1 - stones) >> 1 }

// LossNextScore is the score of a position of the given number of stones
// whose opponent wins with its next stone.
func (z Size) LossNextScore(stones int) int { return -((z.Cells() - stones) >> 1) }

// ColumnName returns the name of column col (0-based) in move strings:
// '1' to '9', then 'a', 'b' and 'c' for columns 10 to 12.
func ColumnName(col int) byte {
	if col < 9 {
		return byte('1' + col)
	}
	return byte('a' + col - 9)
}

// columnOfName is the inverse of ColumnName, or with from0 of its
// 0-based variant ('0' to '9', then 'a' on for 10 and up, as Steininger's
// test files name columns); -1 for a byte that names no column.
func columnOfName(c byte, from0 bool) int {
	col := -1
	switch {
	case c >= '0' && c <= '9':
		col = int(c - '0')
	case c >= 'a' && c <= 'z':
		col = int(c-'a') + 10
	case c >= 'A' && c <= 'Z':
		col = int(c-'A') + 10
	}
	if !from0 && col >= 0 {
		col-- // '1' is column 0, 'a' column 9, and '0' none
	}
	return col
}

// Grid is the geometry of a board of a Size: its masks and the shifts of
// its lines, worked out once. It is read-only, and safe for concurrent
// use. Get one from NewGrid.
type Grid struct {
	Size
	colBits  int      // Height+1: a column's cells and its sentinel
	bottom   Bitboard // the bottom cell of every column
	playable Bitboard // every cell, no sentinel
	cells    int
}

// NewGrid returns the grid of a board of size z.
func NewGrid(z Size) (*Grid, error) {
	if err := z.Check(); err != nil {
		return nil, err
	}
	g := &Grid{Size: z, colBits: z.Height + 1, cells: z.Cells()}
	for col := range z.Width {
		g.bottom |= 1 << (col * g.colBits)
	}
	g.playable = g.bottom * (1<<z.Height - 1)
	return g, nil
}

// Column returns the cells of column col (0-based).
func (g *Grid) Column(col int) Bitboard { return (1<<g.Height - 1) << (col * g.colBits) }

// hasFour reports whether s holds four in a line.
func (g *Grid) hasFour(s Bitboard) bool {
	for _, d := range [4]int{1, g.colBits, g.colBits - 1, g.colBits + 1} {
		m := s & (s >> d)
		if m&(m>>(2*d)) != 0 {
			return true
		}
	}
	return false
}

// winningCells returns the empty cells of the board (of mask's
// complement) that would complete four for the stones s.
func (g *Grid) winningCells(s, mask Bitboard) Bitboard {
	r := (s << 1) & (s << 2) & (s << 3) // vertical: three below
	for _, d := range [3]int{g.colBits, g.colBits - 1, g.colBits + 1} {
		p := (s << d) & (s << (2 * d))
		r |= p & (s << (3 * d))
		r |= p & (s >> d)
		p = (s >> d) & (s >> (2 * d))
		r |= p & (s << d)
		r |= p & (s >> (3 * d))
	}
	return r & (g.playable &^ mask)
}

// Board is a position on a Grid, as Position is on the standard board:
// the stones of the side to move, the occupied cells, the moves played.
// Its zero value is not usable; get the empty board from Grid.Empty. It is
// a small value: copy it to keep it.
type Board struct {
	g       *Grid
	current Bitboard
	mask    Bitboard
	stones  int
}

// Empty returns the empty board of the grid.
func (g *Grid) Empty() Board { return Board{g: g} }

// Grid returns the board's grid.
func (b Board) Grid() *Grid { return b.g }

// Stones returns the number of stones played.
func (b Board) Stones() int { return b.stones }

// Mask returns the occupied cells.
func (b Board) Mask() Bitboard { return b.mask }

// Current returns the stones of the side to move.
func (b Board) Current() Bitboard { return b.current }

// CanPlay reports whether column col (0-based) has room.
func (b Board) CanPlay(col int) bool {
	return b.mask&(1<<(b.g.Height-1+col*b.g.colBits)) == 0
}

// Play drops a stone of the side to move in column col, which must have
// room.
func (b *Board) Play(col int) {
	b.PlayMove((b.mask + 1<<(col*b.g.colBits)) & b.g.Column(col))
}

// PlayMove plays the move whose cell is move (one of Possible's).
func (b *Board) PlayMove(move Bitboard) {
	b.current ^= b.mask
	b.mask |= move
	b.stones++
}

// Possible returns the cells where a stone can be dropped now.
func (b Board) Possible() Bitboard { return (b.mask + b.g.bottom) & b.g.playable }

// WinningCells returns the empty cells that would complete four for the
// side to move.
func (b Board) WinningCells() Bitboard { return b.g.winningCells(b.current, b.mask) }

// OpponentWinningCells returns the empty cells that would complete four
// for the opponent of the side to move.
func (b Board) OpponentWinningCells() Bitboard {
	return b.g.winningCells(b.current^b.mask, b.mask)
}

// IsWinningMove reports whether playing column col wins at once.
func (b Board) IsWinningMove(col int) bool {
	return b.WinningCells()&b.Possible()&b.g.Column(col) != 0
}

// CanWinNext reports whether the side to move wins with its next stone.
func (b Board) CanWinNext() bool { return b.WinningCells()&b.Possible() != 0 }

// NonLosingMoves returns the moves (cells) after which the opponent cannot
// win at once, for a position whose side to move cannot win at once: none
// when the opponent has two threats to play, or a threat under one of its
// others.
func (b Board) NonLosingMoves() Bitboard {
	return b.NonLosingMovesAgainst(b.OpponentWinningCells())
}

// NonLosingMovesAgainst is NonLosingMoves given the opponent's winning
// cells, OpponentWinningCells, which a search has at hand.
func (b Board) NonLosingMovesAgainst(opp Bitboard) Bitboard {
	possible := b.Possible()
	if forced := possible & opp; forced != 0 {
		if forced&(forced-1) != 0 {
			return 0 // two threats to block at once
		}
		possible = forced
	}
	return possible &^ (opp >> 1) // not under the opponent's threat
}

// ThreatsAfter returns the winning cells of the side to move once it has
// played move (one of Possible's): the opponent's in the position after it.
func (b Board) ThreatsAfter(move Bitboard) Bitboard {
	return b.g.winningCells(b.current|move, b.mask|move)
}

// CanStillWin reports whether the side to move has a line of four left
// open (none of the opponent's stones in it). Without one, it scores at
// most 0.
func (b Board) CanStillWin() bool { return b.g.hasFour(b.g.playable &^ (b.current ^ b.mask)) }

// OpponentCanStillWin is CanStillWin for the opponent of the side to move.
func (b Board) OpponentCanStillWin() bool {
	return b.g.hasFour(b.g.playable &^ b.current)
}

// Won reports whether the side that just played has four in a line.
func (b Board) Won() bool { return b.g.hasFour(b.current ^ b.mask) }

// Over reports whether the game has ended: a four, or a full board.
func (b Board) Over() bool { return b.stones == b.g.cells || b.Won() }

// Key returns a number that identifies the position among those of its
// grid: Position's key (current+mask, below each column's sentinel) for
// any size, which fits Width*(Height+1) bits.
func (b Board) Key() uint64 { return uint64(b.current + b.mask) }

// FromKey returns the position of the grid whose Key is key, as FromKey
// does for the standard board, with the same checks.
func (g *Grid) FromKey(key uint64) (Board, error) {
	if bitsUsed := g.Width * g.colBits; bitsUsed < 64 && key >= 1<<bitsUsed {
		return Board{}, fmt.Errorf("key %#x: beyond the board's %d bits", key, bitsUsed)
	}
	b := g.Empty()
	for col := range g.Width {
		v := key >> (col * g.colBits) & (1<<g.colBits - 1)
		h := bits.Len64(v+1) - 1 // as in FromKey
		if h > g.Height {
			return Board{}, fmt.Errorf("key %#x: column %d is not a column of stones", key, col+1)
		}
		colMask := uint64(1)<<h - 1
		b.mask |= Bitboard(colMask << (col * g.colBits))
		b.current |= Bitboard((v - colMask) << (col * g.colBits))
		b.stones += h
	}
	if b.current.Count() != b.stones/2 {
		return Board{}, fmt.Errorf("key %#x: %d stones of the side to move among %d", key, b.current.Count(), b.stones)
	}
	return b, nil
}

// CanonicalKey returns the smaller of the keys of the position and of its
// mirror image, which have the same score, whether it is the mirror's,
// and whether the position is its own mirror image.
func (b Board) CanonicalKey() (key uint64, mirrored, symmetric bool) {
	k := b.Key()
	m := b.g.mirror(k)
	if m < k {
		return m, true, false
	}
	return k, false, m == k
}

// LeftHalf returns the cells of the left half of the board, the center
// column of an odd width included: the moves of a symmetric position that
// are not the mirror images of others.
func (g *Grid) LeftHalf() Bitboard {
	return g.bottom & (1<<(((g.Width+1)/2)*g.colBits) - 1) * (1<<g.Height - 1)
}

// ColumnOf returns the column (0-based) of a cell.
func (g *Grid) ColumnOf(cell Bitboard) int {
	return bits.TrailingZeros64(uint64(cell)) / g.colBits
}

// mirror returns the key of the mirror image of the position of key k.
func (g *Grid) mirror(k uint64) uint64 {
	var m uint64
	col := uint64(1)<<g.colBits - 1
	for c := range g.Width {
		m |= (k >> (c * g.colBits) & col) << ((g.Width - 1 - c) * g.colBits)
	}
	return m
}

// Cell returns who holds the cell at column col and row row (both
// 0-based, row 0 at the bottom): 0 nobody, 1 the first player, 2 the
// second.
func (b Board) Cell(col, row int) int {
	bit := Bitboard(1) << (col*b.g.colBits + row)
	switch {
	case b.mask&bit == 0:
		return 0
	case (b.current&bit != 0) == (b.stones%2 == 0):
		return 1
	default:
		return 2
	}
}

// Draw draws the board as Position.Draw does, the columns named below by
// ColumnName.
func (b Board) Draw(cell func(who int) string) string {
	return draw(b.g.Width, b.g.Height, b.Cell, cell)
}

// Height returns the number of stones in column col.
func (b Board) Height(col int) int { return (b.mask & b.g.Column(col)).Count() }

// Parse returns the position reached by the move string s on the grid:
// one character per move naming a column, '1' to '9' and then 'a' on
// (ColumnName), or with from0 '0' to '9' and then 'a' on (Steininger's
// test files). It checks that the moves make a legal game, as ParseMoves
// does. Errors are *ParseError.
func (g *Grid) Parse(s string, from0 bool) (Board, error) {
	b := g.Empty()
	first, last := ColumnName(0), ColumnName(g.Width-1)
	if from0 {
		first, last = '0', "0123456789abc"[g.Width-1]
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		col := columnOfName(c, from0)
		if col < 0 || col >= g.Width {
			what := fmt.Sprintf("%q", rune(c))
			if c >= 0x80 {
				what = fmt.Sprintf("byte 0x%02x", c)
			}
			return Board{}, &ParseError{i + 1, fmt.Sprintf("%s is not a column %c-%c of a %v board", what, first, last, g.Size)}
		}
		if i == g.cells {
			return Board{}, &ParseError{i + 1, fmt.Sprintf("more than %d moves", g.cells)}
		}
		if b.Won() {
			return Board{}, &ParseError{i + 1, fmt.Sprintf("the game was already won by move %d", i)}
		}
		if !b.CanPlay(col) {
			return Board{}, &ParseError{i + 1, fmt.Sprintf("column %c is full", ColumnName(col))}
		}
		b.Play(col)
	}
	return b, nil
}

// FormatColumns writes 0-based columns as a move string of ColumnName's
// names.
func FormatColumns(cols []int) string {
	s := make([]byte, len(cols))
	for i, c := range cols {
		s[i] = ColumnName(c)
	}
	return string(s)
}
