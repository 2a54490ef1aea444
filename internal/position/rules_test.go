package position

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// The static rules (ClaimevenBound, ClaimevenReplyBound, OddThreatBound)
// are checked here against exact scores, on every family of board shapes:
// each bound a rule gives at a position of a late game must hold for the
// position's exact score, found by a plain negamax with no rule and no
// bound (exactScore). Each rule must also fire: a family where a rule
// never gives a bound proves nothing about it, and fails.

// The rules of a Board, on the engine that searches its board: Position64
// up to 64 bits (the rules of Position128 on those boards agree with it:
// TestEnginesAgree), Position128 above.
func (b Board) claimevenBound(alpha int) (int, bool) {
	if b.g.g64 == nil {
		return b.p.ClaimevenBound(alpha)
	}
	return b.Position64().ClaimevenBound(alpha)
}

func (b Board) claimevenReplyBound(beta int) (int, bool) {
	if b.g.g64 == nil {
		bound, ok, _ := b.p.ClaimevenReplyBound(beta)
		return bound, ok
	}
	bound, ok, _ := b.Position64().ClaimevenReplyBound(beta)
	return bound, ok
}

func (b Board) oddThreatBound(beta int) (int, bool) {
	if b.g.g64 == nil {
		return b.p.OddThreatBound(beta)
	}
	return b.Position64().OddThreatBound(beta)
}

// exactScore returns the score of b, whose game is not over, by negamax
// over every move, memoized by canonical key: no rule, no bound.
func exactScore(b Board, memo map[Bits128]int) int {
	k, _, _ := b.CanonicalKey()
	if sc, ok := memo[k]; ok {
		return sc
	}
	g, n := b.g, b.Stones()
	best := -1 << 20
	for col := range g.Width {
		if !b.CanPlay(col) {
			continue
		}
		if b.IsWinningMove(col) {
			best = g.WinNextScore(n)
			break
		}
		c := b
		c.Play(col)
		sc := 0 // the last cell, and no four: a draw
		if c.Stones() < g.Cells() {
			sc = -exactScore(c, memo)
		}
		best = max(best, sc)
	}
	memo[k] = best
	return best
}

// ruleCounts counts the bounds each rule gave.
type ruleCounts struct{ claimeven, reply, oddThreat, positions int }

// checkRules checks every rule at b, whose exact score is sc, and at each
// position below it (exactScore has them in memo).
func checkRules(t *testing.T, b Board, moves string, memo map[Bits128]int, seen map[Bits128]bool, rc *ruleCounts) {
	k, _, _ := b.CanonicalKey()
	if seen[k] {
		return
	}
	seen[k] = true
	sc := memo[k]
	rc.positions++
	g := b.g
	if bound, ok := b.claimevenBound(-g.MaxScore()); ok {
		rc.claimeven++
		if sc > bound {
			t.Fatalf("%v %q: ClaimevenBound says at most %d; the score is %d", g.Size, moves, bound, sc)
		}
	}
	if bound, ok := b.claimevenReplyBound(g.MaxScore()); ok {
		rc.reply++
		if sc < bound {
			t.Fatalf("%v %q: ClaimevenReplyBound says at least %d; the score is %d", g.Size, moves, bound, sc)
		}
	}
	if bound, ok := b.oddThreatBound(g.MaxScore()); ok {
		rc.oddThreat++
		if sc < bound {
			t.Fatalf("%v %q: OddThreatBound says at least %d; the score is %d", g.Size, moves, bound, sc)
		}
	}
	for col := range g.Width {
		if !b.CanPlay(col) || b.IsWinningMove(col) {
			continue
		}
		c := b
		c.Play(col)
		if c.Stones() < g.Cells() && !c.CanWinNext() {
			checkRules(t, c, moves+string(ColumnName(col)), memo, seen, rc)
		}
	}
}

// TestRulesAgainstExactScores plays random games on boards of every shape
// family (even and odd heights, widths 4 to 12, boards of one word and of
// two) to a few empty cells, and checks every rule at every position of
// the game's end, against exact scores.
func TestRulesAgainstExactScores(t *testing.T) {
	tests := []struct {
		size  string
		empty int // empty cells left by the random moves
		games int
	}{
		{"7x6", 14, 60},
		{"4x4", 10, 60},
		{"5x4", 12, 60},
		{"6x4", 13, 60},
		{"8x4", 14, 40},
		{"12x4", 14, 40},
		{"4x6", 13, 60},
		{"5x6", 13, 40},
		{"6x6", 14, 40},
		{"8x6", 14, 30},
		{"9x6", 14, 30},
		{"4x8", 13, 40},
		{"7x8", 14, 30}, // 63 bits
		{"8x7", 14, 30}, // 64 bits
		{"4x15", 14, 30},
		{"5x12", 14, 30}, // 65 bits: Position128
		{"13x4", 14, 30},
		{"10x6", 14, 30},
		{"8x8", 14, 30},
		{"9x7", 14, 30},
		{"18x6", 14, 20}, // 126 bits
		{"14x8", 14, 20},
		{"11x10", 14, 20},
		{"8x14", 14, 20},
		{"25x4", 14, 20},
		{"8x15", 14, 20}, // 128 bits, odd height
		{"16x7", 14, 20},
		{"4x31", 14, 20},
		{"5x5", 12, 60}, // odd heights: the follower claims the top row
		{"7x5", 14, 40},
		{"6x7", 14, 30},
		{"8x5", 14, 30},
		{"9x5", 14, 30},
		{"4x5", 12, 60},
		{"6x5", 12, 60},
	}
	for _, tt := range tests {
		t.Run(tt.size, func(t *testing.T) {
			z, err := ParseSize(tt.size)
			if err != nil {
				t.Fatal(err)
			}
			g, err := NewGrid(z)
			if err != nil {
				t.Fatal(err)
			}
			games := tt.games
			r := rand.New(rand.NewPCG(uint64(z.Width), uint64(z.Height)))
			var rc ruleCounts
			for range games {
				// Random games that end before the stones wanted are
				// drawn again.
				b, moves, ok := randomLateGame(r, g, z.Cells()-tt.empty)
				for try := 0; !ok && try < 100; try++ {
					b, moves, ok = randomLateGame(r, g, z.Cells()-tt.empty)
				}
				if !ok {
					continue
				}
				memo := make(map[Bits128]int)
				exactScore(b, memo)
				checkRules(t, b, moves, memo, make(map[Bits128]bool), &rc)
			}
			t.Logf("%v: %d positions; bounds given: claimeven %d, reply %d, odd threat %d", z, rc.positions, rc.claimeven, rc.reply, rc.oddThreat)
			if rc.positions < games {
				t.Fatalf("%v: only %d positions checked", z, rc.positions)
			}
			fired := rc.claimeven > 0 && rc.reply > 0 && rc.oddThreat > 0
			if !fired {
				t.Errorf("%v: a rule never gave a bound (claimeven %d, reply %d, odd threat %d): the test proves nothing of it", z, rc.claimeven, rc.reply, rc.oddThreat)
			}
		})
	}
}

// randomLateGame plays random moves that make no four and leave the
// opponent no win at once, until stones are on the board; false if the
// game could not get there. On a large board, where random games seldom
// get that far, the game starts from patternBoard's position.
func randomLateGame(r *rand.Rand, g *Grid, stones int) (Board, string, bool) {
	b := g.Empty()
	moves := ""
	if g.Cells() > 64 {
		fill := max((stones-12)/g.Width-2, 0) &^ 1
		b, moves = patternBoard(g, min(fill, g.Height-2)), fmt.Sprintf("pattern%d:", fill)
	}
	for b.Stones() < stones {
		var legal []int
		for col := range g.Width {
			if !b.CanPlay(col) || b.IsWinningMove(col) {
				continue
			}
			c := b
			c.Play(col)
			if !c.CanWinNext() {
				legal = append(legal, col)
			}
		}
		if len(legal) == 0 {
			return b, moves, false
		}
		col := legal[r.IntN(len(legal))]
		b.Play(col)
		moves += string(ColumnName(col))
	}
	return b, moves, !b.CanWinNext()
}

// TestEnginesAgree plays random games on the 7x6 board with its own
// engine (Position) and with the engines of other boards (Position64 and
// Position128 on a 7x6 geometry), and on boards of one word with both of
// those: every answer of the position and its rules is the same.
func TestEnginesAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(40, 1))
	g64, _ := NewGeometry64(Width, Height)
	g128, _ := NewGeometry128(Width, Height)
	games := 3000
	if testing.Short() {
		games = 300
	}
	for range games {
		var p Position
		p64, p128 := g64.Empty(), g128.Empty()
		moves := ""
		for !p.Over() {
			if err := agree3(p, p64, p128); err != nil {
				t.Fatalf("7x6 %q: %v", moves, err)
			}
			col := r.IntN(Width)
			for !p.CanPlay(col) {
				col = r.IntN(Width)
			}
			p.Play(col)
			p64.Play(col)
			p128.Play(col)
			moves += string(ColumnName(col))
		}
	}
	for _, size := range []string{"4x4", "5x4", "12x4", "8x5", "6x6", "7x8", "8x7", "4x15"} {
		z, _ := ParseSize(size)
		a, _ := NewGeometry64(z.Width, z.Height)
		b, _ := NewGeometry128(z.Width, z.Height)
		for range games / 10 {
			p64, p128 := a.Empty(), b.Empty()
			moves := ""
			for !p64.Over() {
				if err := agree(p64, p128); err != nil {
					t.Fatalf("%v %q: %v", z, moves, err)
				}
				col := r.IntN(z.Width)
				for !p64.CanPlay(col) {
					col = r.IntN(z.Width)
				}
				p64.Play(col)
				p128.Play(col)
				moves += string(ColumnName(col))
			}
		}
	}
}

// agree3 compares the 7x6 engine's answers with Position64's, and those
// with Position128's.
func agree3(p Position, p64 Position64, p128 Position128) error {
	q := Position64{g: p64.g, current: p.current, mask: p.mask, stones: p.stones}
	if err := agree(q, p128); err != nil {
		return err
	}
	for _, c := range []struct {
		name string
		a, b any
	}{
		{"Key", p.Key(), p64.Key()},
		{"WinningCells", p.WinningCells(), p64.WinningCells()},
		{"Possible", p.Possible(), p64.Possible()},
		{"CanonicalKey", fmt.Sprint(p.CanonicalKey()), fmt.Sprint(p64.CanonicalKey())},
	} {
		if c.a != c.b {
			return fmt.Errorf("%s: 7x6 %v, Position64 %v", c.name, c.a, c.b)
		}
	}
	return rulesAgree(p64, p.ClaimevenBound, p.ClaimevenReplyBound, p.OddThreatBound)
}

// agree compares Position64's answers with Position128's.
func agree(p Position64, q Position128) error {
	w := func(b Bitboard) Bits128 { return Bits128{Lo: uint64(b)} }
	for _, c := range []struct {
		name string
		a, b any
	}{
		{"Key", w(Bitboard(p.Key())), q.Key()},
		{"MirrorKey", w(Bitboard(p.MirrorKey())), q.MirrorKey()},
		{"Possible", w(p.Possible()), q.Possible()},
		{"WinningCells", w(p.WinningCells()), q.WinningCells()},
		{"OpponentWinningCells", w(p.OpponentWinningCells()), q.OpponentWinningCells()},
		{"NonLosingMoves", w(p.NonLosingMoves()), q.NonLosingMoves()},
		{"Won", p.Won(), q.Won()},
		{"Over", p.Over(), q.Over()},
		{"CanStillWin", p.CanStillWin(), q.CanStillWin()},
		{"OpponentCanStillWin", p.OpponentCanStillWin(), q.OpponentCanStillWin()},
		{"String", p.String(), q.String()},
	} {
		if c.a != c.b {
			return fmt.Errorf("%s: Position64 %v, Position128 %v", c.name, c.a, c.b)
		}
	}
	k, m, s := p.CanonicalKey()
	k2, m2, s2 := q.CanonicalKey()
	if w(Bitboard(k)) != k2 || m != m2 || s != s2 {
		return fmt.Errorf("CanonicalKey: Position64 %#x %t %t, Position128 %#x %t %t", k, m, s, k2, m2, s2)
	}
	back, err := q.g.FromKey(q.Key())
	if err != nil || back != q {
		return fmt.Errorf("FromKey(Key) = %v, %v", back, err)
	}
	return rulesAgree(p, func(alpha int) (int, bool) { return q.ClaimevenBound(alpha) },
		func(beta int) (int, bool, Bits128) { return q.ClaimevenReplyBound(beta) },
		func(beta int) (int, bool) { return q.OddThreatBound(beta) })
}

// rulesAgree compares p's rules with another engine's at every window.
func rulesAgree[B comparable](p Position64, claimeven func(int) (int, bool), reply func(int) (int, bool, B), odd func(int) (int, bool)) error {
	for v := -p.g.MaxScore(); v <= p.g.MaxScore(); v++ {
		b1, ok1 := p.ClaimevenBound(v)
		b2, ok2 := claimeven(v)
		if b1 != b2 || ok1 != ok2 {
			return fmt.Errorf("ClaimevenBound(%d): %d %t and %d %t", v, b1, ok1, b2, ok2)
		}
		r1, rok1, a1 := p.ClaimevenReplyBound(v)
		r2, rok2, a2 := reply(v)
		if r1 != r2 || rok1 != rok2 || fmt.Sprintf("%#x", a1) != fmt.Sprintf("%#x", Bitboard(low(a2))) {
			return fmt.Errorf("ClaimevenReplyBound(%d): %d %t %#x and %d %t %v", v, r1, rok1, a1, r2, rok2, a2)
		}
		o1, ook1 := p.OddThreatBound(v)
		o2, ook2 := odd(v)
		if o1 != o2 || ook1 != ook2 {
			return fmt.Errorf("OddThreatBound(%d): %d %t and %d %t", v, o1, ook1, o2, ook2)
		}
	}
	return nil
}

// low returns the low word of a bitboard of either engine.
func low(b any) uint64 {
	switch b := b.(type) {
	case Bitboard:
		return uint64(b)
	case Bits128:
		if b.Hi != 0 {
			return ^uint64(0) // never a 64-bit board's: differs
		}
		return b.Lo
	}
	panic("not a bitboard")
}

// patternBoard returns the position whose columns are all filled to
// height fill (even), the cell of column c and row r holding the first
// player's stone where c/2 + r is even: two rows at a time, each column
// holds one stone of each player, and the pattern holds no four (in a
// row the owners go in pairs, in a column they alternate, and along a
// diagonal they go in pairs too). The first player is to move.
func patternBoard(g *Grid, fill int) Board {
	b := g.Empty()
	var cur64, mask64 Bitboard
	var cur128, mask128 Bits128
	for c := range g.Width {
		for r := range fill {
			bit := c*(g.Height+1) + r
			mask64 |= 1 << (bit & 63)
			mask128 = mask128.Or(Of128(1).Shl(uint(bit)))
			if (c/2+r)%2 == 0 {
				cur64 |= 1 << (bit & 63)
				cur128 = cur128.Or(Of128(1).Shl(uint(bit)))
			}
		}
	}
	b.p = Position128{g: g.g128, current: cur128, mask: mask128, stones: g.Width * fill}
	if g.g64 != nil && (b.Position64().current != cur64 || b.Position64().mask != mask64) {
		panic("patternBoard: Position64's bits differ from Position128's")
	}
	return b
}

// TestMayMeetMirror: MayMeetMirror is false exactly where some stone and
// the stone in its mirror cell are of different sides, cell by cell, at
// every position of games of random moves on 7x6 and on boards of one
// and two words; and on a few positions by hand.
func TestMayMeetMirror(t *testing.T) {
	for _, tc := range []struct {
		moves string
		want  bool
	}{
		{"", true}, {"4", true}, {"44", true}, {"17", false}, {"11", true}, {"1771", false}, {"1177", true}, {"1717", false}, {"4453", false}, {"3355", true}, {"35", false},
	} {
		p, err := Parse(tc.moves)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.MayMeetMirror(); got != tc.want {
			t.Errorf("%q: MayMeetMirror() = %v; want %v", tc.moves, got, tc.want)
		}
	}
	// byCells is MayMeetMirror's answer cell by cell.
	byCells := func(width, height int, cell func(col, row int) int) bool {
		for col := range width {
			for row := range height {
				a, b := cell(col, row), cell(width-1-col, row)
				if a != 0 && b != 0 && a != b {
					return false
				}
			}
		}
		return true
	}
	r := rand.New(rand.NewPCG(51, 1))
	for range 200 {
		var p Position
		for !p.Over() {
			if got, want := p.MayMeetMirror(), byCells(Width, Height, p.Cell); got != want {
				t.Fatalf("7x6 %v: MayMeetMirror() = %v; want %v", p, got, want)
			}
			p.Play(randomColumn(r, p.CanPlay, Width))
		}
	}
	for _, size := range []string{"5x4", "9x5", "8x7", "8x8", "10x6", "4x31"} {
		z, _ := ParseSize(size)
		g, _ := NewGeometry128(z.Width, z.Height)
		g64, err64 := NewGeometry64(z.Width, z.Height)
		for range 50 {
			p := g.Empty()
			var p64 Position64
			if err64 == nil {
				p64 = g64.Empty()
			}
			for !p.Over() {
				want := byCells(z.Width, z.Height, p.Cell)
				if got := p.MayMeetMirror(); got != want {
					t.Fatalf("%v %v: MayMeetMirror() = %v; want %v", z, p, got, want)
				}
				if err64 == nil && p64.MayMeetMirror() != want {
					t.Fatalf("%v %v: Position64 MayMeetMirror() = %v; want %v", z, p64, !want, want)
				}
				col := randomColumn(r, p.CanPlay, z.Width)
				p.Play(col)
				if err64 == nil {
					p64.Play(col)
				}
			}
		}
	}
}

// randomColumn returns a column of width that canPlay allows, drawn by r.
func randomColumn(r *rand.Rand, canPlay func(int) bool, width int) int {
	col := r.IntN(width)
	for !canPlay(col) {
		col = r.IntN(width)
	}
	return col
}
