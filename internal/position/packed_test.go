package position

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// The packed engine (PositionPacked) is checked against Position128, whose
// rules TestRulesAgainstExactScores checks against exact scores: on every
// board it packs, every answer of a position and its rules is the same,
// and so is every answer of the line code on bitboards of random cells,
// where a four across two columns would show.

// packedSizes are the boards Packs accepts: 8x8, 9x7 and 10x6, the
// tallest (5x12, 6x10, 7x9) and the widest (11x5, 12x5, 13x4, 16x4),
// whose full columns gather in three and four multiplications.
var packedSizes = []string{"8x8", "9x7", "10x6", "7x9", "6x10", "5x12", "11x5", "12x5", "13x4", "16x4"}

func TestPacks(t *testing.T) {
	for _, size := range packedSizes {
		if z, _ := ParseSize(size); !Packs(z.Width, z.Height) {
			t.Errorf("Packs(%v) = false; want true", z)
		}
	}
	// 64 bits or fewer with sentinels; over 64 cells.
	for _, size := range []string{"7x6", "8x7", "7x8", "4x15", "9x8", "8x9", "11x6", "17x4", "25x4"} {
		if z, _ := ParseSize(size); Packs(z.Width, z.Height) {
			t.Errorf("Packs(%v) = true; want false", z)
		}
	}
	if _, err := NewGeometryPacked(9, 8); err == nil {
		t.Errorf("NewGeometryPacked(9x8.Width, 9x8.Height): no error; want one (72 cells)")
	}
}

// packedPair returns the two geometries of a board that packs.
func packedPair(t *testing.T, size string) (*GeometryPacked, *Geometry128) {
	t.Helper()
	z, err := ParseSize(size)
	if err != nil {
		t.Fatal(err)
	}
	gp, err := NewGeometryPacked(z.Width, z.Height)
	if err != nil {
		t.Fatal(err)
	}
	g128, err := NewGeometry128(z.Width, z.Height)
	if err != nil {
		t.Fatal(err)
	}
	return gp, g128
}

// wideOf returns the cells of b, a packed bitboard of gp's, as the
// Position128's bitboard of the board.
func wideOf(gp *GeometryPacked, b Bitboard) Bits128 {
	var w Bits128
	for col := range gp.width {
		for row := range gp.height {
			if b>>(col*gp.height+row)&1 != 0 {
				w = w.Or(Of128(1).Shl(uint(col*(gp.height+1) + row)))
			}
		}
	}
	return w
}

// TestFullColumns: every set of full columns of every board that packs
// gathers into bits 0 to Width-1, whatever the other columns hold.
func TestFullColumns(t *testing.T) {
	r := rand.New(rand.NewPCG(50, 2))
	for _, size := range packedSizes {
		gp, _ := packedPair(t, size)
		column := Bitboard(1)<<gp.height - 1
		for full := range uint64(1) << gp.width {
			var mask Bitboard
			for col := range gp.width {
				h := gp.height
				if full>>col&1 == 0 {
					h = r.IntN(gp.height)
				}
				mask |= (column >> (gp.height - h)) << (col * gp.height)
			}
			if got := gp.fullColumns(mask); got != full {
				t.Fatalf("%v: fullColumns(%#x) = %#b; want %#b", Size{gp.width, gp.height}, mask, got, full)
			}
		}
	}
}

// TestPackedAgrees plays random games to their end on every board that
// packs, with PositionPacked and Position128: every answer is the same,
// the keys are each other's (Key128, KeyOf128), and FromKey reads a
// packed key back.
func TestPackedAgrees(t *testing.T) {
	games := 300
	if testing.Short() {
		games = 40
	}
	for _, size := range packedSizes {
		gp, g128 := packedPair(t, size)
		r := rand.New(rand.NewPCG(uint64(gp.width), uint64(gp.height)))
		for range games {
			p, q := gp.Empty(), g128.Empty()
			moves := ""
			for !q.Over() {
				if err := agreePacked(p, q); err != nil {
					t.Fatalf("%v %q: %v", Size{gp.width, gp.height}, moves, err)
				}
				col := randomColumn(r, q.CanPlay, gp.width)
				p.Play(col)
				q.Play(col)
				moves += string(ColumnName(col))
			}
			if err := agreePacked(p, q); err != nil {
				t.Fatalf("%v %q (over): %v", Size{gp.width, gp.height}, moves, err)
			}
		}
	}
}

// agreePacked compares PositionPacked's answers with Position128's.
func agreePacked(p PositionPacked, q Position128) error {
	gp := p.g
	w := func(b Bitboard) Bits128 { return wideOf(gp, b) }
	for _, c := range []struct {
		name string
		a, b any
	}{
		{"Key128(Key)", gp.Key128(p.Key()), q.Key()},
		{"Key128(MirrorKey)", gp.Key128(p.MirrorKey()), q.MirrorKey()},
		{"Possible", w(p.Possible()), q.Possible()},
		{"Won", p.Won(), q.Won()},
		{"Over", p.Over(), q.Over()},
		{"CanStillWin", p.CanStillWin(), q.CanStillWin()},
		{"OpponentCanStillWin", p.OpponentCanStillWin(), q.OpponentCanStillWin()},
		{"MayMeetMirror", p.MayMeetMirror(), q.MayMeetMirror()},
		{"String", p.String(), q.String()},
	} {
		if c.a != c.b {
			return fmt.Errorf("%s: PositionPacked %v, Position128 %v", c.name, c.a, c.b)
		}
	}
	if k, err := gp.KeyOf128(q.Key()); err != nil || k != p.Key() {
		return fmt.Errorf("KeyOf128(%#x) = %#x, %v; want %#x", q.Key(), k, err, p.Key())
	}
	back, err := gp.FromKey(p.Key())
	if err != nil || back != p {
		return fmt.Errorf("FromKey(Key) = %v, %v", back, err)
	}
	k, _, s := p.CanonicalKey()
	k2, _, s2 := q.CanonicalKey()
	if s != s2 || (gp.Key128(k) != q.Key() && gp.Key128(k) != q.MirrorKey()) {
		return fmt.Errorf("CanonicalKey: packed %#x %t, Position128 %#x %t", k, s, k2, s2)
	}
	if gp.Key128(p.Mirror().Key()) != q.Mirror().Key() {
		return fmt.Errorf("Mirror: %v; want %v", p.Mirror(), q.Mirror())
	}
	if p.Over() {
		return nil
	}
	for _, c := range []struct {
		name string
		a, b Bits128
	}{
		{"WinningCells", w(p.WinningCells()), q.WinningCells()},
		{"OpponentWinningCells", w(p.OpponentWinningCells()), q.OpponentWinningCells()},
		{"NonLosingMoves", w(p.NonLosingMoves()), q.NonLosingMoves()},
	} {
		if c.a != c.b {
			return fmt.Errorf("%s: PositionPacked %v, Position128 %v", c.name, c.a, c.b)
		}
	}
	for col := range gp.width {
		if p.Height(col) != q.Height(col) || (p.CanPlay(col) && p.IsWinningMove(col) != q.IsWinningMove(col)) {
			return fmt.Errorf("column %d: height %d, winning %t; Position128 %d", col, p.Height(col), p.IsWinningMove(col), q.Height(col))
		}
	}
	for moves := p.Possible(); moves != 0; moves &= moves - 1 {
		m := moves & -moves
		if a, b := w(p.ThreatsAfter(m)), q.ThreatsAfter(w(m)); a != b {
			return fmt.Errorf("ThreatsAfter(%#x): PositionPacked %v, Position128 %v", m, a, b)
		}
	}
	for v := -gp.MaxScore(); v <= gp.MaxScore(); v++ {
		b1, ok1 := p.ClaimevenBound(v)
		b2, ok2 := q.ClaimevenBound(v)
		if b1 != b2 || ok1 != ok2 {
			return fmt.Errorf("ClaimevenBound(%d): %d %t and %d %t", v, b1, ok1, b2, ok2)
		}
		r1, rok1, a1 := p.ClaimevenReplyBound(v)
		r2, rok2, a2 := q.ClaimevenReplyBound(v)
		if r1 != r2 || rok1 != rok2 || w(a1).And(q.g.Playable()) != a2.And(q.g.Playable()) {
			return fmt.Errorf("ClaimevenReplyBound(%d): %d %t %v and %d %t %v", v, r1, rok1, w(a1), r2, rok2, a2)
		}
		o1, ook1 := p.OddThreatBound(v)
		o2, ook2 := q.OddThreatBound(v)
		if o1 != o2 || ook1 != ook2 {
			return fmt.Errorf("OddThreatBound(%d): %d %t and %d %t", v, o1, ook1, o2, ook2)
		}
	}
	return nil
}

// TestPackedCells: the line code of the packed engine on bitboards of
// random cells (dense ones, where a line across two columns is likely)
// agrees with Position128's: hasFour, winningCells, blocked, Above,
// Below and NextCells.
func TestPackedCells(t *testing.T) {
	r := rand.New(rand.NewPCG(50, 3))
	trials := 20000
	if testing.Short() {
		trials = 2000
	}
	for _, size := range packedSizes {
		gp, g128 := packedPair(t, size)
		w := func(b Bitboard) Bits128 { return wideOf(gp, b) }
		cells := func(density uint64) Bitboard { // each cell with density/8
			var b Bitboard
			for bit := range gp.width * gp.height {
				if r.Uint64N(8) < density {
					b |= 1 << bit
				}
			}
			return b
		}
		column := Bitboard(1)<<gp.height - 1
		for range trials {
			s, mask, second := cells(1+r.Uint64N(7)), cells(r.Uint64N(8)), cells(1+r.Uint64N(7))
			if a, b := gp.hasFour(s), g128.hasFour(w(s)); a != b {
				t.Fatalf("%v: hasFour(%v) = %t; Position128 %t", Size{gp.width, gp.height}, w(s), a, b)
			}
			if a, b := w(gp.winningCells(s, mask)), g128.winningCells(w(s), w(mask)); a != b {
				t.Fatalf("%v: winningCells(%v, %v) = %v; Position128 %v", Size{gp.width, gp.height}, w(s), w(mask), a, b)
			}
			if a, b := gp.blocked(s, second, mask), g128.blocked(w(s), w(second), w(mask)); a != b {
				t.Fatalf("%v: blocked(%v, %v, %v) = %t; Position128 %t", Size{gp.width, gp.height}, w(s), w(second), w(mask), a, b)
			}
			pl := g128.Playable()
			if a, b := w(gp.Above(s)), g128.Above(w(s)).And(pl); a != b {
				t.Fatalf("%v: Above(%v) = %v; Position128 %v", Size{gp.width, gp.height}, w(s), a, b)
			}
			if a, b := w(gp.Below(s)), g128.Below(w(s)).And(pl); a != b {
				t.Fatalf("%v: Below(%v) = %v; Position128 %v", Size{gp.width, gp.height}, w(s), a, b)
			}
			var heights Bitboard // a mask of stones: columns filled from the bottom
			for col := range gp.width {
				heights |= (column >> r.IntN(gp.height+1)) << (col * gp.height)
			}
			if a, b := w(gp.NextCells(heights)), g128.NextCells(w(heights)); a != b {
				t.Fatalf("%v: NextCells(%v) = %v; Position128 %v", Size{gp.width, gp.height}, w(heights), a, b)
			}
		}
	}
}

// TestPackedFromKeyErrors: a packed key whose full columns are not its
// stones', or beyond the board, is refused, as is a key of the
// Position128s that is no column of stones.
func TestPackedFromKeyErrors(t *testing.T) {
	gp, _ := packedPair(t, "8x8")
	p, err := gp.Parse("11111111", false) // column 1 full
	if err != nil {
		t.Fatal(err)
	}
	k := p.Key()
	for _, c := range []struct {
		key  KeyPacked
		want string
	}{
		{KeyPacked{Lo: k.Lo, Hi: 3}, fmt.Sprintf("key %#x: ", KeyPacked{Lo: k.Lo, Hi: 3})},
		// Column 1 of 8 stones of the other side, unflagged; column 2 of
		// 8 of the side to move.
		{KeyPacked{Lo: 255 + 510<<8, Hi: 2}, "its full columns are not those of its stones"},
		{KeyPacked{Lo: 0, Hi: 1 << 8}, "beyond the board's 72 bits"},
	} {
		if _, err := gp.FromKey(c.key); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("FromKey(%#x) error = %v; want one with %q", c.key, err, c.want)
		}
	}
	if _, err := gp.KeyOf128(Key128{Lo: 0x1ff}); err == nil || !strings.Contains(err.Error(), "column 1 is not a column of stones") {
		t.Errorf("KeyOf128(0x1ff) error = %v; want column 1 refused", err)
	}
	if _, err := gp.KeyOf128(Key128{Hi: 1 << 8}); err == nil || !strings.Contains(err.Error(), "beyond the board's 72 bits") {
		t.Errorf("KeyOf128(1<<72) error = %v; want it refused", err)
	}
}
