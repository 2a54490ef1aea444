package board

import (
	"errors"
	"fmt"
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
// bit a column as Position's, must also fit two 64-bit words:
// Width*(Height+1) <= MaxBits.
const MinSide = 4

// MaxBits is the most bits a board's bitboard may take, Width*(Height+1):
// Position128's two words.
const MaxBits = 128

// MaxWidth and MaxHeight are the most columns and rows a board that fits
// can have: 25x4 and 4x31.
const (
	MaxWidth  = MaxBits / (MinSide + 1)
	MaxHeight = MaxBits/MinSide - 1
)

// ParseSize reads a size written "WxH", as "8x5".
func ParseSize(s string) (Size, error) {
	ws, hs, ok := strings.Cut(strings.ToLower(s), "x")
	w, errW := strconv.Atoi(ws)
	h, errH := strconv.Atoi(hs)
	// A number of more digits than an int holds is a size, too large.
	tooLarge := func(err error) bool { return errors.Is(err, strconv.ErrRange) }
	if ok && (tooLarge(errW) || tooLarge(errH)) && (errW == nil || tooLarge(errW)) && (errH == nil || tooLarge(errH)) {
		return Size{}, fmt.Errorf("size %q: too large: at most %d columns and %d rows, and %d bits (width x (height+1))", s, MaxWidth, MaxHeight, MaxBits)
	}
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
// a bitboard of Width*(Height+1) bits at most MaxBits.
func (z Size) Check() error {
	switch {
	case z.Width < MinSide || z.Height < MinSide:
		return fmt.Errorf("size %v: each side must be %d or more", z, MinSide)
	case z.Width > MaxWidth || z.Height > MaxHeight:
		return fmt.Errorf("size %v: too large: at most %d columns and %d rows, and %d bits (width x (height+1))", z, MaxWidth, MaxHeight, MaxBits)
	case z.Width*(z.Height+1) > MaxBits:
		return fmt.Errorf("size %v: needs %d bits, at most %d are supported (width x (height+1))", z, z.Width*(z.Height+1), MaxBits)
	}
	return nil
}

// OrStandard returns z, or Standard for the zero Size: the one place
// where a Size left unset (a flag not given, a field of a struct left
// zero) means the 7x6 board.
func (z Size) OrStandard() Size {
	if z == (Size{}) {
		return Standard
	}
	return z
}

// Bits returns the bits of the board's bitboard: Width*(Height+1).
func (z Size) Bits() int { return z.Width * (z.Height + 1) }

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
func (z Size) WinNextScore(stones int) int { return winNext(z.Cells(), stones) }

// LossNextScore is the score of a position of the given number of stones
// whose opponent wins with its next stone.
func (z Size) LossNextScore(stones int) int { return lossNext(z.Cells(), stones) }

// winNext and lossNext are WinNextScore and LossNextScore on a board of
// cells cells, the one place their formula is written: a win with the
// next stone, the stones+1-th, leaves cells-stones-1 cells free, and
// scores 1 + that/2; a loss to the opponent's next one, the stones+2-th.
func winNext(cells, stones int) int  { return (cells + 1 - stones) >> 1 }
func lossNext(cells, stones int) int { return -((cells - stones) >> 1) }

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

// FormatColumns writes 0-based columns as a move string of ColumnName's
// names.
func FormatColumns(cols []int) string {
	s := make([]byte, len(cols))
	for i, c := range cols {
		s[i] = ColumnName(c)
	}
	return string(s)
}

// FormatColumns0 is FormatColumns with 0-based names ('0' to '9', then 'a'
// on), as positions read with from0 are written.
func FormatColumns0(cols []int) string {
	s := make([]byte, len(cols))
	for i, c := range cols {
		s[i] = columnName0(c)
	}
	return string(s)
}

// countLines calls line(bit) once for each line of four through each cell
// of a board of width x height, the cell's bit as in Bitboard: bit
// c*colBits + r for column c and row r.
func countLines(width, height, colBits int, line func(bit int)) {
	inside := func(c, r int) bool { return c >= 0 && c < width && r >= 0 && r < height }
	for c := range width {
		for r := range height {
			for _, d := range [4][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}} {
				for back := range 4 { // the cell is the line's back-th
					c0, r0 := c-back*d[0], r-back*d[1]
					if inside(c0, r0) && inside(c0+3*d[0], r0+3*d[1]) {
						line(c*colBits + r)
					}
				}
			}
		}
	}
}

// CenterFirst returns the columns of a board of width w, center first,
// left before right among those as central.
func CenterFirst(w int) []int {
	cols := make([]int, w)
	for i := range cols {
		// w odd: c, c-1, c+1, ...; w even: c-1, c, c-2, c+1, ...
		off := (i + 1) / 2
		if i%2 == 1 {
			off = -off
		}
		cols[i] = (w-1)/2 + off
		if w%2 == 0 {
			cols[i] = w/2 - 1 - off
		}
	}
	return cols
}
