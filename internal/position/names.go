package position

import (
	"fmt"
	"strings"
)

// WinNext and LossNext are the scores of a win with the next stone and of
// a loss to the opponent's next one on a board of cells cells, the one
// place their formula is written (board.Size.WinNextScore): a win with the
// next stone, the stones+1-th, leaves cells-stones-1 cells free, and
// scores 1 + that/2; a loss to the opponent's next one, the stones+2-th.
func WinNext(cells, stones int) int  { return (cells + 1 - stones) >> 1 }
func LossNext(cells, stones int) int { return -((cells - stones) >> 1) }

// MaxScoreOf is the best score on a board of cells cells: a win with the
// fourth stone (MaxScore on 7x6).
func MaxScoreOf(cells int) int { return (cells+1)/2 - 3 }

// ColumnName returns the name of column col (0-based) in move strings:
// '1' to '9', then 'a' on for columns 10 and up ('p' for the 25th, the
// widest board's last).
func ColumnName(col int) byte {
	if col < 9 {
		return byte('1' + col)
	}
	return byte('a' + col - 9)
}

// ColumnOf is the inverse of ColumnName, or with from0 of its
// 0-based variant ('0' to '9', then 'a' on for 10 and up, as Steininger's
// test files name columns); -1 for a byte that names no column.
func ColumnOf(c byte, from0 bool) int {
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

// notAColumn is the reason of a ParseError for a byte c that names no
// column of a board of width columns and height rows (from0: columns
// named from '0').
func notAColumn(c byte, width, height int, from0 bool) string {
	what := fmt.Sprintf("%q", rune(c))
	if c >= 0x80 {
		what = fmt.Sprintf("byte 0x%02x", c)
	}
	first, last := ColumnName(0), ColumnName(width-1)
	if from0 {
		first, last = '0', ColumnName0(width-1)
	}
	if width == Width && height == Height && !from0 {
		return fmt.Sprintf("%s is not a column %c-%c", what, first, last) // the default board
	}
	return fmt.Sprintf("%s is not a column %c-%c of the %dx%d board", what, first, last, width, height)
}

// ColumnName0 is ColumnName's 0-based variant: '0' to '9', then 'a' on.
func ColumnName0(col int) byte {
	if col < 10 {
		return byte('0' + col)
	}
	return byte('a' + col - 10)
}

// draw draws a board of width columns and height rows whose cells hold
// who(col, row), each as cell gives it, the column names (ColumnName)
// below.
func draw(width, height int, who func(col, row int) int, cell func(who int) string) string {
	var sb strings.Builder
	for row := height - 1; row >= 0; row-- {
		for col := 0; col < width; col++ {
			if col > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(cell(who(col, row)))
		}
		sb.WriteByte('\n')
	}
	for col := 0; col < width; col++ {
		if col > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteByte(ColumnName(col))
	}
	sb.WriteByte('\n')
	return sb.String()
}
