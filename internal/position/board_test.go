package position_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"c4solve/board"
	"c4solve/internal/position"
)

// refBoard is the plain Connect-Four board the bitboard is checked against:
// a grid of cells and loops, no bit tricks. cells[col][row] is 0 for an
// empty cell, 1 for the first player's stone and 2 for the second's; row 0
// is the bottom.
type refBoard struct {
	cells   [position.Width][position.Height]int8
	heights [position.Width]int
	moves   int
}

// toMove returns the player to move, 1 or 2.
func (r *refBoard) toMove() int8 { return int8(r.moves%2 + 1) }

// lastMover returns the player who moved last, 1 or 2.
func (r *refBoard) lastMover() int8 { return 3 - r.toMove() }

func (r *refBoard) canPlay(col int) bool { return r.heights[col] < position.Height }

// play drops a stone of the side to move into col, which must have room.
func (r *refBoard) play(col int) {
	r.cells[col][r.heights[col]] = r.toMove()
	r.heights[col]++
	r.moves++
}

// onBoard reports whether (col, row) is a cell.
func onBoard(col, row int) bool {
	return col >= 0 && col < position.Width && row >= 0 && row < position.Height
}

// completesFour reports whether a stone of who at (col, row), the cell
// itself taken as who's whatever it holds, lies in four of who in a row.
func (r *refBoard) completesFour(col, row int, who int8) bool {
	dirs := [4][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}}
	for _, d := range dirs {
		n := 1
		for c, w := col+d[0], row+d[1]; onBoard(c, w) && r.cells[c][w] == who; c, w = c+d[0], w+d[1] {
			n++
		}
		for c, w := col-d[0], row-d[1]; onBoard(c, w) && r.cells[c][w] == who; c, w = c-d[0], w-d[1] {
			n++
		}
		if n >= 4 {
			return true
		}
	}
	return false
}

// hasFour reports whether who has four in a row.
func (r *refBoard) hasFour(who int8) bool {
	for col := 0; col < position.Width; col++ {
		for row := 0; row < position.Height; row++ {
			if r.cells[col][row] == who && r.completesFour(col, row, who) {
				return true
			}
		}
	}
	return false
}

// openLine reports whether some line of four cells holds none of the
// stones of who's opponent.
func (r *refBoard) openLine(who int8) bool {
	dirs := [4][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}}
	for col := 0; col < position.Width; col++ {
		for row := 0; row < position.Height; row++ {
			for _, d := range dirs {
				open := true
				for k := 0; k < 4; k++ {
					c, w := col+k*d[0], row+k*d[1]
					open = open && onBoard(c, w) && r.cells[c][w] != 3-who
				}
				if open {
					return true
				}
			}
		}
	}
	return false
}

// winningMove reports whether the side to move makes four by playing col,
// which must have room.
func (r *refBoard) winningMove(col int) bool {
	return r.completesFour(col, r.heights[col], r.toMove())
}

// cellBit returns the Bitboard bit of (col, row), as documented on
// position.Bitboard.
func cellBit(col, row int) position.Bitboard { return 1 << (col*(position.Height+1) + row) }

// winningCells returns every empty cell, playable now or not, where a stone
// of who would make four in a row.
func (r *refBoard) winningCells(who int8) position.Bitboard {
	var b position.Bitboard
	for col := 0; col < position.Width; col++ {
		for row := r.heights[col]; row < position.Height; row++ {
			if r.completesFour(col, row, who) {
				b |= cellBit(col, row)
			}
		}
	}
	return b
}

// possible returns the lowest empty cell of every column with room.
func (r *refBoard) possible() position.Bitboard {
	var b position.Bitboard
	for col := 0; col < position.Width; col++ {
		if r.canPlay(col) {
			b |= cellBit(col, r.heights[col])
		}
	}
	return b
}

// nonLosingMoves returns, by brute force, the cells of the legal moves
// after which the opponent has no move that makes four at once.
func (r *refBoard) nonLosingMoves() position.Bitboard {
	var b position.Bitboard
	for col := 0; col < position.Width; col++ {
		if !r.canPlay(col) {
			continue
		}
		after := *r
		after.play(col)
		safe := true
		for reply := 0; reply < position.Width; reply++ {
			if after.canPlay(reply) && after.winningMove(reply) {
				safe = false
				break
			}
		}
		if safe {
			b |= cellBit(col, r.heights[col])
		}
	}
	return b
}

// stones returns the cells holding who's stones.
func (r *refBoard) stones(who int8) position.Bitboard {
	var b position.Bitboard
	for col := 0; col < position.Width; col++ {
		for row := 0; row < position.Height; row++ {
			if r.cells[col][row] == who {
				b |= cellBit(col, row)
			}
		}
	}
	return b
}

// fromMoves builds the bitboard position by playing cols.
func fromMoves(cols []int) position.Position {
	var p position.Position
	for _, c := range cols {
		p.Play(c)
	}
	return p
}

// TestPerft counts the distinct positions at each ply from the empty board,
// won positions counted but not extended: OEIS A212693.
func TestPerft(t *testing.T) {
	want := []int{1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275, 558186}
	maxPly := 8
	if !testing.Short() {
		maxPly = 9
	}
	level := map[uint64]position.Position{0: {}}
	for ply := 0; ply <= maxPly; ply++ {
		if got := len(level); got != want[ply] {
			t.Fatalf("positions at ply %d = %d; want %d", ply, got, want[ply])
		}
		if ply == maxPly {
			break
		}
		next := make(map[uint64]position.Position, want[ply+1])
		for _, p := range level {
			if p.Won() {
				continue
			}
			for col := 0; col < position.Width; col++ {
				if !p.CanPlay(col) {
					continue
				}
				q := p
				q.Play(col)
				next[q.Key()] = q
			}
		}
		level = next
	}
}

// TestAgainstReference plays random games on the bitboard and on refBoard
// side by side and compares every question the bitboard answers after
// every move.
func TestAgainstReference(t *testing.T) {
	games := 2000
	if testing.Short() {
		games = 300
	}
	rng := rand.New(rand.NewPCG(1, 2))
	byKey := make(map[uint64][position.Width][position.Height]int8)
	byCells := make(map[[position.Width][position.Height]int8]uint64)
	closed := 0 // positions where the side to move has no open line left
	for g := range games {
		var (
			p    position.Position
			ref  refBoard
			cols []int
		)
		for {
			var legal []int
			for col := 0; col < position.Width; col++ {
				if ref.canPlay(col) {
					legal = append(legal, col)
				}
			}
			col := legal[rng.IntN(len(legal))]
			p.Play(col)
			ref.play(col)
			cols = append(cols, col)
			name := board.FormatColumns(cols, false)
			if !compare(t, name, p, &ref, cols) {
				t.Fatalf("game %d: stopping at the first difference", g)
			}

			key := p.Key()
			if cells, ok := byKey[key]; ok && cells != ref.cells {
				t.Fatalf("Parse(%q).Key() = %#x, the key of a different position seen before", name, key)
			}
			byKey[key] = ref.cells
			if k, ok := byCells[ref.cells]; ok && k != key {
				t.Fatalf("Parse(%q).Key() = %#x; the same position had key %#x before", name, key, k)
			}
			byCells[ref.cells] = key
			if !p.CanStillWin() {
				closed++
			}

			if ref.hasFour(ref.lastMover()) || ref.moves == position.Cells {
				break
			}
		}
	}
	t.Logf("%d games, %d distinct positions, %d with no open line", games, len(byKey), closed)
	if closed == 0 {
		t.Error("no position without an open line for the side to move: CanStillWin untested")
	}
}

// compare checks p against ref, the same position reached by cols, and
// reports whether they agree.
func compare(t *testing.T, name string, p position.Position, ref *refBoard, cols []int) bool {
	t.Helper()
	ok := true
	errorf := func(format string, args ...any) {
		t.Helper()
		t.Errorf("Parse(%q)."+format, append([]any{name}, args...)...)
		ok = false
	}

	if got := p.Stones(); got != ref.moves {
		errorf("Stones() = %d; want %d", got, ref.moves)
	}
	for col := 0; col < position.Width; col++ {
		if got, want := p.CanPlay(col), ref.canPlay(col); got != want {
			errorf("CanPlay(%d) = %t; want %t", col, got, want)
		}
		if got := p.Height(col); got != ref.heights[col] {
			errorf("Height(%d) = %d; want %d", col, got, ref.heights[col])
		}
		for row := 0; row < position.Height; row++ {
			if got, want := p.Cell(col, row), int(ref.cells[col][row]); got != want {
				errorf("Cell(%d, %d) = %d; want %d", col, row, got, want)
			}
		}
	}
	if got, want := p.Mask(), ref.stones(1)|ref.stones(2); got != want {
		errorf("Mask() = %#x; want %#x", got, want)
	}
	if got, want := p.Current(), ref.stones(ref.toMove()); got != want {
		errorf("Current() = %#x; want %#x", got, want)
	}
	if got, want := p.Opponent(), ref.stones(ref.lastMover()); got != want {
		errorf("Opponent() = %#x; want %#x", got, want)
	}

	won := ref.hasFour(ref.lastMover())
	if got := p.Won(); got != won {
		errorf("Won() = %t; want %t", got, won)
	}
	if got, want := p.Over(), won || ref.moves == position.Cells; got != want {
		errorf("Over() = %t; want %t", got, want)
	}
	if ref.hasFour(ref.toMove()) {
		errorf("reference board: the side to move already has four") // the game went on past a win
	}

	canWin := false
	for col := 0; col < position.Width; col++ {
		if !ref.canPlay(col) {
			continue
		}
		want := ref.winningMove(col)
		canWin = canWin || want
		if got := p.IsWinningMove(col); got != want {
			errorf("IsWinningMove(%d) = %t; want %t", col, got, want)
		}
	}
	if got := p.CanWinNext(); got != canWin {
		errorf("CanWinNext() = %t; want %t", got, canWin)
	}

	if got, want := p.WinningCells(), ref.winningCells(ref.toMove()); got != want {
		errorf("WinningCells() = %#x; want %#x", got, want)
	}
	if got, want := p.OpponentWinningCells(), ref.winningCells(ref.lastMover()); got != want {
		errorf("OpponentWinningCells() = %#x; want %#x", got, want)
	}
	if got, want := p.CanStillWin(), ref.openLine(ref.toMove()); got != want {
		errorf("CanStillWin() = %t; want %t", got, want)
	}
	if got, want := p.OpponentCanStillWin(), ref.openLine(ref.lastMover()); got != want {
		errorf("OpponentCanStillWin() = %t; want %t", got, want)
	}
	if got, want := p.Possible(), ref.possible(); got != want {
		errorf("Possible() = %#x; want %#x", got, want)
	}
	for col := 0; col < position.Width; col++ {
		if !ref.canPlay(col) {
			continue
		}
		after := *ref
		after.play(col)
		move := cellBit(col, ref.heights[col])
		if got, want := p.ThreatsAfter(move), after.winningCells(ref.toMove()); got != want {
			errorf("ThreatsAfter(%#x) = %#x; want %#x", move, got, want)
		}
	}
	if !canWin {
		if got, want := p.NonLosingMoves(), ref.nonLosingMoves(); got != want {
			errorf("NonLosingStones() = %#x; want %#x", got, want)
		}
		threats := ref.winningCells(ref.lastMover())
		if got, want := p.NonLosingMovesAgainst(threats), ref.nonLosingMoves(); got != want {
			errorf("NonLosingMovesAgainst(%#x) = %#x; want %#x", threats, got, want)
		}
	}

	if parsed, err := position.Parse(name); err != nil {
		errorf("error %v", err)
	} else if parsed != p {
		errorf("Key() = %#x (parsed); want %#x (played move by move)", parsed.Key(), p.Key())
	}
	if k := p.Key(); k >= 1<<49 {
		errorf("Key() = %#x; want below 2^49", k)
	}

	mirrored := make([]int, len(cols))
	for i, c := range cols {
		mirrored[i] = position.Width - 1 - c
	}
	want := fromMoves(mirrored)
	if got := p.Mirror(); got != want {
		errorf("Mirror() has key %#x; want the position of %q, key %#x",
			got.Key(), board.FormatColumns(mirrored, false), want.Key())
	}
	if got := p.MirrorKey(); got != want.Key() {
		errorf("MirrorKey() = %#x; want %#x", got, want.Key())
	}
	if got := p.Mirror().Mirror(); got != p {
		errorf("Mirror().Mirror() has key %#x; want %#x", got.Key(), p.Key())
	}
	k, m, s := p.CanonicalKey()
	mk, mm, ms := want.CanonicalKey()
	if k != min(p.Key(), want.Key()) || mk != k || m != (want.Key() < p.Key()) || mm != (p.Key() < want.Key()) ||
		s != (p == want) || ms != s {
		errorf("CanonicalKey() = %#x, %v, %v, of the mirror image %#x, %v, %v; want the smaller key of the two, which, and whether they are one",
			k, m, s, mk, mm, ms)
	}
	return ok
}

// TestBitboardCount checks Count and the documented bit layout of 7x6's
// generated geometry.
func TestBitboardCount(t *testing.T) {
	var g position.Geometry
	if want := position.Bitboard(1 | 1<<7 | 1<<14 | 1<<21 | 1<<28 | 1<<35 | 1<<42); g.Bottom() != want {
		t.Errorf("Bottom() = %#x; want %#x, bit 0 of each column of 7 bits", g.Bottom(), want)
	}
	tests := []struct {
		name string
		b    position.Bitboard
		want int
	}{
		{"empty", 0, 0},
		{"Bottom()", g.Bottom(), position.Width},
		{"Playable()", g.Playable(), position.Cells},
		{"Column(3)", g.Column(3), position.Height},
		{"all bits", ^position.Bitboard(0), 64},
	}
	for _, tt := range tests {
		if got := tt.b.Count(); got != tt.want {
			t.Errorf("%s.Count() = %d; want %d", tt.name, got, tt.want)
		}
	}
	var cols position.Bitboard
	for col := 0; col < position.Width; col++ {
		if c := g.Column(col); c&cols != 0 || c&^g.Playable() != 0 {
			t.Errorf("Column(%d) = %#x overlaps another column or leaves the board", col, c)
		}
		cols |= g.Column(col)
	}
	if cols != g.Playable() {
		t.Errorf("union of Column(0..6) = %#x; want Playable() = %#x", cols, g.Playable())
	}
}

// TestKnownPositions checks a few positions whose answers are easy to see.
func TestKnownPositions(t *testing.T) {
	tests := []struct {
		moves      string
		canWinNext bool
		won        bool
		winning    string // columns 1-7 of the winning moves
	}{
		{"", false, false, ""},
		{"4453", false, false, ""},
		{"121212", true, false, "1"},         // three in column 1
		{"1212121", true, true, "2"},         // four in column 1; the loser has three in column 2
		{"414243", true, false, "4"},         // three in column 4
		{"41424", false, false, ""},          // the second player has nothing
		{"445566", true, false, "37"},        // open three on the bottom row
		{"1223343454", true, false, "4"},     // diagonal 1-4 wants column 4 row 4
		{"12233434544", false, true, ""},     // and gets it
		{"4455667", true, true, "7"},         // bottom row 4-7; the loser has row 2 4-6
		{"1234567", false, false, ""},        // one stone per column
		{"12345671234567", false, false, ""}, // two alternating rows
	}
	for _, tt := range tests {
		p, err := position.Parse(tt.moves)
		if err != nil {
			t.Errorf("Parse(%q) error %v", tt.moves, err)
			continue
		}
		if got := p.CanWinNext(); got != tt.canWinNext {
			t.Errorf("Parse(%q).CanWinNext() = %t; want %t", tt.moves, got, tt.canWinNext)
		}
		if got := p.Won(); got != tt.won {
			t.Errorf("Parse(%q).Won() = %t; want %t", tt.moves, got, tt.won)
		}
		got := ""
		for col := 0; col < position.Width; col++ {
			if p.CanPlay(col) && p.IsWinningMove(col) {
				got += fmt.Sprint(col + 1)
			}
		}
		if got != tt.winning {
			t.Errorf("Parse(%q) winning columns = %q; want %q", tt.moves, got, tt.winning)
		}
	}
}

// TestString checks the diagram of a position with stones of both players.
func TestString(t *testing.T) {
	tests := []struct {
		moves string
		want  string
	}{
		{"", ". . . . . . .\n. . . . . . .\n. . . . . . .\n. . . . . . .\n. . . . . . .\n. . . . . . .\n1 2 3 4 5 6 7\n"},
		{"4453", ". . . . . . .\n. . . . . . .\n. . . . . . .\n. . . . . . .\n. . . o . . .\n. . o x x . .\n1 2 3 4 5 6 7\n"},
		{"1111117", "o . . . . . .\nx . . . . . .\no . . . . . .\nx . . . . . .\no . . . . . .\nx . . . . . x\n1 2 3 4 5 6 7\n"},
	}
	for _, tt := range tests {
		p, err := position.Parse(tt.moves)
		if err != nil {
			t.Fatalf("Parse(%q) error %v", tt.moves, err)
		}
		if got := p.String(); got != tt.want {
			t.Errorf("Parse(%q).String() =\n%s\nwant\n%s", tt.moves, got, tt.want)
		}
	}
}

// TestZeroValue checks that the zero Position is the empty board with the
// first player to move.
func TestZeroValue(t *testing.T) {
	var p position.Position
	if p.Stones() != 0 || p.Mask() != 0 || p.Won() || p.Over() || p.CanWinNext() {
		t.Errorf("Position{}: Stones() = %d, Mask() = %#x, Won() = %t, Over() = %t, CanWinNext() = %t; want the empty board",
			p.Stones(), p.Mask(), p.Won(), p.Over(), p.CanWinNext())
	}
	if got := p.Possible(); got != p.Geometry().Bottom() {
		t.Errorf("Position{}.Possible() = %#x; want Bottom() %#x", got, p.Geometry().Bottom())
	}
	p.Play(3)
	if got := p.Cell(3, 0); got != 1 {
		t.Errorf("Position{} after Play(3): Cell(3, 0) = %d; want 1 (the first player)", got)
	}
}

func TestFromKey(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 500 {
		var p position.Position
		for p.Stones() < position.Cells {
			col := rng.IntN(position.Width)
			if !p.CanPlay(col) {
				continue
			}
			p.Play(col)
			for _, q := range []position.Position{p, p.Mirror()} {
				got, err := position.FromKey(q.Key())
				if err != nil {
					t.Fatalf("FromKey(%#x) of\n%v: %v", q.Key(), q, err)
				}
				if got != q {
					t.Fatalf("FromKey(%#x) = \n%v, want\n%v", q.Key(), got, q)
				}
			}
		}
	}
	for _, key := range []uint64{
		1 << 49,  // beyond the board
		127,      // column 1 holds 2^7 - 1: seven stones
		2,        // one stone, of the side to move: the counts do not alternate
		1 | 1<<7, // two stones, both the opponent's
	} {
		if _, err := position.FromKey(key); err == nil {
			t.Errorf("FromKey(%#x) succeeded, want an error", key)
		}
	}
}

// Line finds moves that reach a position of a game, from its key alone,
// and none for positions no game reaches.
func TestLine(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 2000 {
		var p position.Position
		for n := rng.IntN(position.Cells + 1); p.Stones() < n && !p.Won(); {
			if col := rng.IntN(position.Width); p.CanPlay(col) {
				p.Play(col)
			}
		}
		q, err := position.FromKey(p.Key())
		if err != nil {
			t.Fatal(err)
		}
		line, ok := q.Line()
		if !ok {
			t.Fatalf("no line to\n%v", p)
		}
		var r position.Position
		for i, col := range line {
			if r.Won() || !r.CanPlay(col) {
				t.Fatalf("line %v to\n%v: move %d (column %d) is not legal", line, p, i+1, col+1)
			}
			r.Play(col)
		}
		if r.Key() != p.Key() {
			t.Fatalf("line %v reaches\n%v, not\n%v", line, r, p)
		}
	}
	for _, tt := range []struct {
		name  string
		moves string
	}{
		// The first player won with its 7th stone, and the second played on.
		{"a move after a four", "12121213"},
		// The second player has two fours: taking back any stone leaves one.
		{"two fours of one side", "1212123234345454"},
	} {
		var p position.Position
		for _, c := range tt.moves {
			p.Play(int(c - '1')) // Play does not check for a game over
		}
		if line, ok := p.Line(); ok {
			t.Errorf("%s (%s): line %v, want none", tt.name, tt.moves, line)
		}
	}
}

// TestClaimevenReplyApplies checks the replies ClaimevenReplyBound says
// ClaimevenBound may bound after: after any other reply, ClaimevenBound
// gives no bound at any alpha. It counts the replies ruled out and those
// left to ClaimevenBound, so that both are seen at work.
func TestClaimevenReplyApplies(t *testing.T) {
	var ruledOut, tried, applied int
	for stones := 25; stones <= 37; stones += 2 {
		err := standardGrid.RandomPositions(uint64(stones), stones, 400, func(moves string) bool {
			p, err := position.Parse(moves)
			if err != nil {
				t.Fatal(err)
			}
			for beta := -1; beta <= position.ClaimevenWinScore+1; beta++ {
				_, _, applies := p.ClaimevenReplyBound(beta)
				for rest := p.Possible(); rest != 0; rest &= rest - 1 {
					m := rest & -rest
					tried++
					if applies&m != 0 {
						applied++
						continue
					}
					ruledOut++
					c := p
					c.PlayMove(m)
					for alpha := -position.ClaimevenWinScore; alpha <= position.ClaimevenWinScore; alpha++ {
						if b, ok := c.ClaimevenBound(alpha); ok {
							t.Fatalf("%s: ClaimevenReplyBound(%d) rules out the reply at %#x, but after it ClaimevenBound(%d) = %d", moves, beta, uint64(m), alpha, b)
						}
					}
				}
			}
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if ruledOut < tried/4 || applied < 100 {
		t.Errorf("of %d replies, %d ruled out and %d left to ClaimevenBound; want both common", tried, ruledOut, applied)
	}
	t.Logf("of %d replies, %d ruled out, %d left to ClaimevenBound", tried, ruledOut, applied)
}

// TestVariantsAgainstPosition plays random games on the 7x6 board as
// Position, Position64 and Position128 side by side: keys, canonical keys, winning cells, non-losing
// moves, wins and the end of the game agree at every move.
func TestVariantsAgainstPosition(t *testing.T) {
	g64, err := position.NewGeometry64(7, 6)
	if err != nil {
		t.Fatal(err)
	}
	g128, err := position.NewGeometry128(7, 6)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(32, 1))
	for game := 0; game < 2000; game++ {
		var p position.Position
		q, b := g64.Empty(), g128.Empty()
		var moves []int
		for !p.Over() {
			if b.Key() != (position.Bits128{Lo: p.Key()}) || q.Key() != p.Key() || q.Possible() != p.Possible() || q.WinningCells() != p.WinningCells() ||
				q.OpponentWinningCells() != p.OpponentWinningCells() || b.Over() != p.Over() || b.Stones() != p.Stones() {
				t.Fatalf("after %s: Position64, Position128 and Position differ", fmt.Sprint(moves))
			}
			key, mirrored, symmetric := b.CanonicalKey()
			pk, pm, ps := p.CanonicalKey()
			if key.Lo != pk || mirrored != pm && key != b.Key() || symmetric != ps {
				t.Fatalf("after %s: CanonicalKey = %#x, %t; Position's %#x, %t", fmt.Sprint(moves), key, mirrored, pk, pm)
			}
			if !p.CanWinNext() && q.NonLosingMoves() != p.NonLosingMoves() {
				t.Fatalf("after %s: NonLosingMoves = %#x; Position's %#x", fmt.Sprint(moves), q.NonLosingMoves(), p.NonLosingMoves())
			}
			col := r.IntN(position.Width)
			for !p.CanPlay(col) {
				col = r.IntN(position.Width)
			}
			if b.IsWinningMove(col) != p.IsWinningMove(col) {
				t.Fatalf("after %s: IsWinningMove(%d) differs", fmt.Sprint(moves), col)
			}
			p.Play(col)
			q.Play(col)
			b.Play(col)
			moves = append(moves, col)
		}
		if !b.Over() || b.Won() != p.Won() {
			t.Fatalf("%s: Over %t, Won %t; Position's Won %t", fmt.Sprint(moves), b.Over(), b.Won(), p.Won())
		}
	}
}
