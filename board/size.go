package board

import (
	"c4solve/internal/position"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Size is a board's width and height. The zero value is no board (or
// Standard where OrStandard says so); get one from ParseSize or check it
// with Check.
type Size struct{ Width, Height int }

// Standard is the standard board, 7x6.
var Standard = Size{position.Width, position.Height}

// MinSide is the least width and height of a board: a smaller one cannot
// hold a vertical or horizontal four.
const MinSide = 4

// MaxBits is the most bits a board's bitboard, one sentinel bit a column,
// may take, Width*(Height+1): two 64-bit words.
const MaxBits = 128

// MaxWidth and MaxHeight are the most columns and rows a board that fits
// can have: 25x4 and 4x31.
const (
	MaxWidth  = position.MaxWidth
	MaxHeight = position.MaxHeight
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
// Scores follow the standard board's convention (Pons'): a win on move m
// scores 1 + (Cells-m)/2, which is Steininger's convention for every size.
func (z Size) MaxScore() int { return position.MaxScoreOf(z.Cells()) }

// WinNextScore is the score of a position of the given number of stones
// whose side to move wins with its next stone.
func (z Size) WinNextScore(stones int) int { return position.WinNext(z.Cells(), stones) }

// LossNextScore is the score of a position of the given number of stones
// whose opponent wins with its next stone.
func (z Size) LossNextScore(stones int) int { return position.LossNext(z.Cells(), stones) }

// ColumnName returns the name of column col (0-based) in move strings:
// '1' to '9', then 'a' on for columns 10 and up ('p' for the 25th, the
// widest board's last).
func ColumnName(col int) byte { return position.ColumnName(col) }

// FormatColumns writes 0-based columns as a move string of ColumnName's
// names, or with from0 of 0-based names ('0' to '9', then 'a' on), as
// Grid.Parse reads them.
func FormatColumns(cols []int, from0 bool) string {
	name := ColumnName
	if from0 {
		name = position.ColumnName0
	}
	s := make([]byte, len(cols))
	for i, c := range cols {
		s[i] = name(c)
	}
	return string(s)
}
