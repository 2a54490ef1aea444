package position

import (
	"fmt"
	"math/bits"
)

// Bitboard is a set of cells of a board of at most 64 bits (the 7x6
// board, and the other boards of Position64) or of at most 64 cells
// (PositionPacked's), one bit per cell.
//
// Bit col*(Height+1)+row is the cell in column col (0 is the leftmost) and
// row row (0 is the bottom). Bit Height of each column is a sentinel that
// never holds a stone; the bits above the last column are unused. On the
// 7x6 board:
//
//	row   col: 0  1  2  3  4  5  6
//	 6 (sentinel) 6 13 20 27 34 41 48
//	 5            5 12 19 26 33 40 47
//	 4            4 11 18 25 32 39 46
//	 3            3 10 17 24 31 38 45
//	 2            2  9 16 23 30 37 44
//	 1            1  8 15 22 29 36 43
//	 0 (bottom)   0  7 14 21 28 35 42
//
// A PositionPacked's bitboards have no sentinel: bit col*Height+row, the
// top cell of a column right below the bottom cell of the next. On 8x8,
// all 64 bits:
//
//	row   col: 0  1  2  3  4  5  6  7
//	 7            7 15 23 31 39 47 55 63
//	 ...
//	 1            1  9 17 25 33 41 49 57
//	 0 (bottom)   0  8 16 24 32 40 48 56
type Bitboard uint64

// Count returns the number of cells in b.
func (b Bitboard) Count() int { return bits.OnesCount64(uint64(b)) }

// TrailingZeros returns the index of the lowest cell of b, 64 for none.
func (b Bitboard) TrailingZeros() int { return bits.TrailingZeros64(uint64(b)) }

// Low64 returns the low 64 bits of b: b itself.
func (b Bitboard) Low64() uint64 { return uint64(b) }

// Bits128 is a set of cells of a board of 65 to 128 bits (Position128),
// laid out as Bitboard's: bit i is bit i of Lo for i < 64, else bit i-64
// of Hi. Its methods are the operators of Bitboard, which the generator
// (internal/gen) writes in their place where the engine's source uses
// operators: And is &, Shl is <<, Add is + with the carry from Lo into Hi,
// and so on. A Bits128 is a plain value; the zero value is the empty set.
type Bits128 struct{ Lo, Hi uint64 }

// And returns b & c.
func (b Bits128) And(c Bits128) Bits128 { return Bits128{b.Lo & c.Lo, b.Hi & c.Hi} }

// Or returns b | c.
func (b Bits128) Or(c Bits128) Bits128 { return Bits128{b.Lo | c.Lo, b.Hi | c.Hi} }

// Xor returns b ^ c.
func (b Bits128) Xor(c Bits128) Bits128 { return Bits128{b.Lo ^ c.Lo, b.Hi ^ c.Hi} }

// AndNot returns b &^ c.
func (b Bits128) AndNot(c Bits128) Bits128 { return Bits128{b.Lo &^ c.Lo, b.Hi &^ c.Hi} }

// Not returns ^b.
func (b Bits128) Not() Bits128 { return Bits128{^b.Lo, ^b.Hi} }

// Shl returns b << n. The engine's shifts are by less than 64 but on the
// tallest boards, so that case comes first, with no shift by 64 or more
// for the compiler to guard: the bits carried into Hi are shifted by 1
// and then by 63-n, below 64 where n is, rather than by 64-n, which
// reaches 64 at n 0 and made the compiler mask the result (a compare, a
// subtract with borrow and an and in every shift of the engine's lines).
func (b Bits128) Shl(n uint) Bits128 {
	if n < 64 {
		return Bits128{b.Lo << n, b.Hi<<n | b.Lo>>1>>(63-n)}
	}
	return Bits128{0, b.Lo << (n - 64)}
}

// Shr returns b >> n (see Shl).
func (b Bits128) Shr(n uint) Bits128 {
	if n < 64 {
		return Bits128{b.Lo>>n | b.Hi<<1<<(63-n), b.Hi >> n}
	}
	return Bits128{b.Hi >> (n - 64), 0}
}

// Add returns b + c modulo 2^128.
func (b Bits128) Add(c Bits128) Bits128 {
	lo, carry := bits.Add64(b.Lo, c.Lo, 0)
	hi, _ := bits.Add64(b.Hi, c.Hi, carry)
	return Bits128{lo, hi}
}

// Sub returns b - c modulo 2^128.
func (b Bits128) Sub(c Bits128) Bits128 {
	lo, borrow := bits.Sub64(b.Lo, c.Lo, 0)
	hi, _ := bits.Sub64(b.Hi, c.Hi, borrow)
	return Bits128{lo, hi}
}

// Neg returns -b modulo 2^128.
func (b Bits128) Neg() Bits128 { return Bits128{}.Sub(b) }

// Less reports whether b < c as unsigned numbers.
func (b Bits128) Less(c Bits128) bool { return b.Hi < c.Hi || b.Hi == c.Hi && b.Lo < c.Lo }

// Count returns the number of cells in b.
func (b Bits128) Count() int { return bits.OnesCount64(b.Lo) + bits.OnesCount64(b.Hi) }

// TrailingZeros returns the index of the lowest cell of b, 128 for none.
func (b Bits128) TrailingZeros() int {
	if b.Lo != 0 {
		return bits.TrailingZeros64(b.Lo)
	}
	return 64 + bits.TrailingZeros64(b.Hi)
}

// Low64 returns the low 64 bits of b.
func (b Bits128) Low64() uint64 { return b.Lo }

// Hash folds b into one word, for sets that may confuse two keys (they
// only order moves or skip a draw): the high word through a
// multiplication by an odd constant, so that values differing only there
// differ.
func (b Bits128) Hash() uint64 { return b.Lo ^ bits.RotateLeft64(b.Hi*0x9e3779b97f4a7c15, 32) }

// Of128 returns the Bits128 whose low word is lo.
func Of128(lo uint64) Bits128 { return Bits128{Lo: lo} }

// Format writes b as one number, the high word's digits before the low
// word's, so that a key of two words reads as a key of one: with %x (and
// %#x, %X), and with %v as %#x. A key of a board of at most 64 bits, whose
// high word is 0, prints as its one word does.
func (b Bits128) Format(f fmt.State, verb rune) {
	digits := "%x"
	if verb == 'X' {
		digits = "%X"
	}
	if f.Flag('#') || verb == 'v' {
		f.Write([]byte("0x"))
	}
	if b.Hi == 0 {
		fmt.Fprintf(f, digits, b.Lo)
		return
	}
	fmt.Fprintf(f, digits, b.Hi)
	fmt.Fprintf(f, "%016"+digits[1:], b.Lo)
}

// IsZero reports whether b is the empty set.
func (b Bits128) IsZero() bool { return b.Lo|b.Hi == 0 }

// MaxWidth and MaxHeight are the most columns and rows of a board whose
// bitboard, a sentinel bit a column, fits two words: 25x4 and 4x31
// (board.Size.Check).
const (
	MaxWidth  = 128 / 5
	MaxHeight = 128/4 - 1
)

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
