package position

import "fmt"

// Size, Grid and Board are the tests' board of any size, as package
// board's (which imports this one): a Position128, and up to 64 bits the
// same position on Geometry64.
type Size struct{ Width, Height int }

// ParseSize reads "WxH".
func ParseSize(s string) (Size, error) {
	var z Size
	if _, err := fmt.Sscanf(s, "%dx%d", &z.Width, &z.Height); err != nil {
		return Size{}, fmt.Errorf("size %q: %v", s, err)
	}
	return z, nil
}

func (z Size) String() string               { return fmt.Sprintf("%dx%d", z.Width, z.Height) }
func (z Size) Cells() int                   { return z.Width * z.Height }
func (z Size) Bits() int                    { return z.Width * (z.Height + 1) }
func (z Size) MaxScore() int                { return MaxScoreOf(z.Cells()) }
func (z Size) WinNextScore(stones int) int  { return WinNext(z.Cells(), stones) }
func (z Size) LossNextScore(stones int) int { return LossNext(z.Cells(), stones) }

type Grid struct {
	Size
	g128 *Geometry128
	g64  *Geometry64 // nil over 64 bits
}

func NewGrid(z Size) (*Grid, error) {
	g := &Grid{Size: z}
	var err error
	if g.g128, err = NewGeometry128(z.Width, z.Height); err != nil {
		return nil, err
	}
	if z.Bits() <= 64 {
		g.g64, err = NewGeometry64(z.Width, z.Height)
	}
	return g, err
}

func (g *Grid) Empty() Board { return Board{g: g, p: g.g128.Empty()} }

type Board struct {
	g *Grid
	p Position128
}

// Position64 returns the position on the grid's Geometry64.
func (b Board) Position64() Position64 {
	return Position64{g: b.g.g64, current: Bitboard(b.p.current.Lo), mask: Bitboard(b.p.mask.Lo), stones: b.p.stones}
}

func (b Board) Stones() int                         { return b.p.Stones() }
func (b Board) CanPlay(col int) bool                { return b.p.CanPlay(col) }
func (b *Board) Play(col int)                       { b.p.Play(col) }
func (b Board) IsWinningMove(col int) bool          { return b.p.IsWinningMove(col) }
func (b Board) CanWinNext() bool                    { return b.p.CanWinNext() }
func (b Board) Over() bool                          { return b.p.Over() }
func (b Board) Key() Bits128                        { return b.p.Key() }
func (b Board) CanonicalKey() (Bits128, bool, bool) { return b.p.CanonicalKey() }
