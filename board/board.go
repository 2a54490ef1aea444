package board

import (
	"fmt"
	"math/bits"
	"strings"
)

// Board dimensions.
const (
	Width  = 7
	Height = 6
	// Cells is the number of cells, and so the most moves a game can last.
	Cells = Width * Height
	// colBits is the number of bits per column: Height cells plus one
	// sentinel bit that keeps shifts from carrying into the next column.
	colBits = Height + 1
)

// Bitboard is a set of cells, one bit per cell.
//
// Bit col*7+row is the cell in column col (0 is the leftmost) and row row
// (0 is the bottom). Bit 6 of each column is a sentinel that never holds a
// stone; bits 49 to 63 are unused.
//
//	row   col: 0  1  2  3  4  5  6
//	 6 (sentinel) 6 13 20 27 34 41 48
//	 5            5 12 19 26 33 40 47
//	 4            4 11 18 25 32 39 46
//	 3            3 10 17 24 31 38 45
//	 2            2  9 16 23 30 37 44
//	 1            1  8 15 22 29 36 43
//	 0 (bottom)   0  7 14 21 28 35 42
type Bitboard uint64

// Count returns the number of cells in b.
func (b Bitboard) Count() int { return bits.OnesCount64(uint64(b)) }

const (
	// BottomRow has the bottom cell of every column.
	BottomRow Bitboard = 1 | 1<<7 | 1<<14 | 1<<21 | 1<<28 | 1<<35 | 1<<42
	// Playable has every cell of the board, and no sentinel.
	Playable Bitboard = BottomRow * (1<<Height - 1)
)

// Column returns the cells of column col (0-based), sentinel excluded.
func Column(col int) Bitboard { return (1<<Height - 1) << (col * colBits) }

func topCell(col int) Bitboard    { return 1 << (Height - 1 + col*colBits) }
func bottomCell(col int) Bitboard { return 1 << (col * colBits) }

// Position is a Connect-Four position: the stones of the side to move, the
// occupied cells, and the number of moves played. The zero value is the
// empty board with the first player to move. A Position is a small value:
// copy it to keep it, and share it freely between goroutines.
type Position struct {
	current Bitboard // stones of the side to move
	mask    Bitboard // occupied cells
	stones  int
}

// Moves returns the number of stones on the board.
func (p Position) Stones() int { return p.stones }

// Mask returns the occupied cells.
func (p Position) Mask() Bitboard { return p.mask }

// Current returns the stones of the side to move.
func (p Position) Current() Bitboard { return p.current }

// Opponent returns the stones of the side that moved last.
func (p Position) Opponent() Bitboard { return p.current ^ p.mask }

// CanPlay reports whether column col (0-based) has room for a stone.
func (p Position) CanPlay(col int) bool { return p.mask&topCell(col) == 0 }

// Play drops a stone of the side to move into column col (0-based). The
// column must have room (see CanPlay).
func (p *Position) Play(col int) {
	p.PlayMove((p.mask + bottomCell(col)) & Column(col))
}

// PlayMove plays the move given as the single cell where the stone lands,
// one of the cells of Possible.
func (p *Position) PlayMove(move Bitboard) {
	p.current ^= p.mask
	p.mask |= move
	p.stones++
}

// Possible returns the cells where a stone can be dropped now: the lowest
// free cell of every column that is not full.
func (p Position) Possible() Bitboard { return (p.mask + BottomRow) & Playable }

// IsWinningMove reports whether playing column col (0-based) makes four in
// a row for the side to move. The column must have room.
func (p Position) IsWinningMove(col int) bool {
	return p.WinningCells()&p.Possible()&Column(col) != 0
}

// CanWinNext reports whether the side to move can win with its next stone.
func (p Position) CanWinNext() bool { return p.WinningCells()&p.Possible() != 0 }

// WinningCells returns the free cells, playable now or not, that would
// complete four in a row for the side to move: its threats.
func (p Position) WinningCells() Bitboard { return winningCells(p.current, p.mask) }

// OpponentWinningCells returns the free cells that would complete four in a
// row for the side that moved last.
func (p Position) OpponentWinningCells() Bitboard {
	return winningCells(p.current^p.mask, p.mask)
}

// ThreatsAfter returns the threats (see WinningCells) the side to move would
// have after playing move, a cell of Possible.
func (p Position) ThreatsAfter(move Bitboard) Bitboard {
	return winningCells(p.current|move, p.mask|move)
}

// NonLosingMoves returns the cells of Possible after which the opponent
// cannot win at once. It is empty when every move loses at once: the
// opponent has two threats to block, or each move uncovers one. It assumes
// the side to move cannot win at once itself (see CanWinNext).
func (p Position) NonLosingMoves() Bitboard {
	return p.NonLosingMovesAgainst(p.OpponentWinningCells())
}

// NonLosingMovesAgainst is NonLosingMoves given the opponent's threats, as
// OpponentWinningCells returns them, for a caller that already has them.
func (p Position) NonLosingMovesAgainst(threats Bitboard) Bitboard {
	possible := p.Possible()
	if forced := possible & threats; forced != 0 {
		if forced&(forced-1) != 0 {
			return 0 // two threats: only one can be blocked
		}
		possible = forced
	}
	// Never play directly below an opponent's threat.
	return possible &^ (threats >> 1)
}

// Won reports whether the side that moved last has four in a row.
func (p Position) Won() bool { return hasFour(p.current ^ p.mask) }

// Over reports whether the game has ended: the last move won or the board
// is full.
func (p Position) Over() bool { return p.stones == Cells || p.Won() }

// CanStillWin reports whether the side to move has a line of four cells
// with none of the opponent's stones: without one it can never win.
func (p Position) CanStillWin() bool { return hasFour(Playable &^ p.Opponent()) }

// OpponentCanStillWin is CanStillWin for the side that moved last.
func (p Position) OpponentCanStillWin() bool { return hasFour(Playable &^ p.current) }

// ClaimevenBound applies Allis' claimeven rule to a position where the
// first player is to move and every column holds an even number of stones.
// The second player can then answer every move directly on top of it, so
// the first player only ever gets cells on the 1st, 3rd and 5th rows from
// the bottom, and the second player gets all the empty cells on the 2nd,
// 4th and 6th. If the first player's stones and those odd-row cells hold no
// line of four, it cannot win (bound 0); if moreover the second player's
// stones and the even-row cells hold one, the second player completes it
// before the board fills (bound -1), and sooner where the line's free cells
// lie low (bound -2 or -3: see claimedWinTime).
//
// Columns of odd height come in pairs (the stones are even), and their
// next cells lie on even rows. The second player answers a stone on top of
// one of them with one on top of another, which leaves both even, and
// claimeven otherwise. With two such columns, A and B with next cells a
// and b, the first player gets a or b besides the odd-row cells, whichever
// it likes, and the second player the other; with four or six, the rule
// credits the first player with all their next cells and the second player
// with none.
//
// A line of four the first player could make does not count where the
// second player completes one of its own first: where every free cell of a
// line of the second player's lies below a free cell of the first
// player's line, in its column, the first player's line cannot be full
// before the second player's is (see blocked).
//
// It returns the bound on the score of the side to move and whether the
// rule applies. A search needs no bound below alpha: where the rule gives
// one, the bound returned is at most alpha, not necessarily the lowest
// (pass -ClaimevenWinScore for the lowest).
func (p Position) ClaimevenBound(alpha int) (int, bool) {
	if p.stones%2 != 0 {
		return 0, false // second player to move
	}
	free := Playable &^ p.mask
	first, second := p.current|free&^oddRows, p.Opponent()|free&oddRows
	if alpha < 0 && !hasFour(second) {
		return 0, false // a bound of 0 at best: not enough
	}
	a, b := claimevenSplit(p.Possible() & oddRows)
	if !splitBlocked(first, second, free, a, b) {
		return 0, false
	}
	return -claimedWinTime(second, free, a, b, -alpha), true
}

// claimevenSplit returns the next cells of the columns of odd height,
// tops, as ClaimevenBound shares them out: for two columns, a and b, the
// one the first player takes and the other; for four or six, a holds them
// all (b 0); for none, both 0.
func claimevenSplit(tops Bitboard) (a, b Bitboard) {
	if tops.Count() == 2 {
		return tops & -tops, tops & (tops - 1)
	}
	return tops, 0
}

// ClaimevenReplyBound applies ClaimevenBound one move ahead, to a position
// where the second player is to move: after any reply the first player is
// to move, and if ClaimevenBound then bounds its score by b, the side to
// move scores at least -b. A reply on top of a column of odd height leaves
// it even; one in a column of even height takes a cell the first player
// would have claimed and makes the column odd. It returns the best such
// lower bound over the replies and whether the rule applies to any. As
// with ClaimevenBound's alpha, it looks no further once it has a bound of
// beta or more (pass ClaimevenWinScore for the best).
//
// It also returns the replies after which ClaimevenBound may give a bound:
// after the others it gives none, whatever its alpha, so that a search
// can leave it untried there. The set may hold replies after which it
// gives none too (all of them where the rule's quick tests end it early).
func (p Position) ClaimevenReplyBound(beta int) (bound int, ok bool, applies Bitboard) {
	if p.stones%2 == 0 {
		return 0, false, Playable
	}
	// After the reply the opponent is the first player, to move, and its
	// cells and ours are those of ClaimevenBound whichever reply it is.
	free := Playable &^ p.mask
	first, second := p.Opponent()|free&^oddRows, p.current|free&oddRows
	moves := p.Possible()
	if beta > 0 && !hasFour(second|moves) {
		return 0, false, moves // no reply gives more than 0: not enough
	}
	// Whatever the reply, the first player has at least the cells of
	// first&^moves and we at most those of second|moves, as if they
	// were played: where even that does not block the first player, no
	// reply does (the common case).
	if !blocked(first&^moves, second|moves, free&^moves) {
		return 0, false, 0
	}
	tops := moves & oddRows // the next cells of the odd columns
	found, best := false, 0
	for rest := moves; rest != 0; rest &= rest - 1 {
		m := rest & -rest
		f, s, t := first, second, tops&^m
		if m&oddRows == 0 {
			f, s, t = first&^m, second|m, tops|m<<1
		}
		a, b := claimevenSplit(t)
		if !splitBlocked(f, s, free&^m, a, b) {
			continue
		}
		applies |= m
		found, best = true, max(best, claimedWinTime(s, free&^m, a, b, beta))
		if best >= beta {
			applies |= rest // the replies not tried
			break
		}
	}
	return best, found, applies
}

// splitBlocked reports whether blocked holds whichever of a and b (as
// claimevenSplit shares them; b 0 for none) the first player takes, the
// second player taking the other.
func splitBlocked(first, second, free, a, b Bitboard) bool {
	return blocked(first|a, second&^a, free) && (b == 0 || blocked(first|b, second&^b, free))
}

// blocked reports whether the first player, playing only cells of first
// while the second player takes every free cell of second as it comes,
// never completes four: every line of four in first has below its free
// cells, in their columns, all the free cells of some line of four in
// second. Cells fill from the bottom, so the first player's line is never
// full before the second player's, which wins first.
func blocked(first, second, free Bitboard) bool {
	// The common cases first: no line for the first player, or none for
	// the second to precede it with.
	if !hasFour(first) {
		return true
	}
	if !hasFour(second) {
		return false
	}
	filled := second &^ free
	// A vertical line: the cells below its top cell.
	for s := first & (first >> 1) & (first >> 2) & (first >> 3); s != 0; s &= s - 1 {
		start := s & -s
		if !hasFour(filled | second&(start<<3-columnBottom(start))) {
			return false
		}
	}
	// The others have one cell in each of four columns: the cells below
	// them are the line less the bottoms of the columns.
	for _, d := range [...]uint{colBits, colBits - 1, colBits + 1} {
		for s := first & (first >> d) & (first >> (2 * d)) & (first >> (3 * d)); s != 0; s &= s - 1 {
			start := s & -s
			line := start | start<<d | start<<(2*d) | start<<(3*d)
			if !hasFour(filled | second&(line-columnBottom(start)*fourColumns)) {
				return false
			}
		}
	}
	return true
}

// fourColumns has the bottom cells of the first four columns.
const fourColumns Bitboard = 1 | 1<<colBits | 1<<(2*colBits) | 1<<(3*colBits)

// columnBottom returns the bottom cell of the column of the cell c.
func columnBottom(c Bitboard) Bitboard { return columnOf(c) & BottomRow }

// OddThreatBound is the first player's counterpart of claimeven, for a
// position where the first player is to move: a threat on an odd row (the
// 1st, 3rd or 5th from the bottom) of a column C wins when the second
// player can be made to fill C from below. The first player plays one stone
// m so that C is the one column of odd height: in C when every column is
// even, or on top of the other column when C and one other are odd. Then it
// answers every stone directly on top of it: in the even columns the second
// player gets the odd rows and the first player the even ones, and in C the
// second player the even rows and the first player the odd ones, the
// threat's cell t among them. The answer is always possible, but for the
// top cell of C, which comes after t. So if the second player's stones and
// the cells it gets, less those above t (reached only once t is filled),
// hold no line of four, it never wins, the board fills, and the first
// player wins with t at the latest: by its 20th stone for t on the 3rd row
// (at most 39 stones are on the board when it is filled), its 21st on the
// 5th.
//
// It returns the lower bound on the score of the side to move, 1 or 2, and
// whether the rule applies; it looks no further once it has a bound of
// beta or more.
func (p Position) OddThreatBound(beta int) (int, bool) {
	if p.stones%2 != 0 {
		return 0, false // second player to move
	}
	moves := p.Possible()
	oddTops := moves & oddRows // the next cells of the columns of odd height
	if k := oddTops.Count(); k > 2 {
		return 0, false
	} else if k == 2 {
		moves = oddTops // m goes on top of the odd column that is not C
	}
	// Any t is among the cells on odd rows that complete four with the
	// first player's stones and all the moves (most positions have none).
	ts := winningCells(p.current|moves, p.mask) &^ moves &^ oddRows
	found, best := false, 0
	for rest := moves; rest != 0 && ts != 0; rest &= rest - 1 {
		m := rest & -rest
		c := columnOf(m) // column C: m's, or the other odd column's
		if oddTops != 0 {
			c = columnOf(oddTops &^ m)
		}
		if ts&c == 0 {
			continue
		}
		mask := p.mask | m
		free := Playable &^ mask
		// The first player's threats in C on odd rows (even bit rows), the
		// lowest first: it is the one filled first.
		threats := winningCells(p.current|m, mask) & c &^ oddRows
		if threats == 0 {
			continue
		}
		t := threats & -threats
		second := p.current ^ p.mask | free&^c&^oddRows | free&c&oddRows
		if hasFour(second &^ (c &^ (t<<1 - 1))) { // less the cells above t
			continue
		}
		b := 1 // t on the 5th row
		if t&rowsBelow4 != 0 {
			b = 2 // on the 3rd (the 1st is below C's next cell)
		}
		found, best = true, max(best, b)
		if best >= beta {
			break
		}
	}
	return best, found
}

// columnOf returns the cells of the column of the cell c.
func columnOf(c Bitboard) Bitboard {
	return Column(bits.TrailingZeros64(uint64(c)) / colBits)
}

// ClaimevenWinScore is the best score the claimeven rules give the second
// player: a four completed by its 19th stone at the latest (claimedWinTime).
const ClaimevenWinScore = 3

// claimedWinTime scores how late the second player completes four under
// claimeven, against any play of the first: 3 (ClaimevenWinScore), 2 or 1
// when it wins by its 19th, 20th or 21st stone at the latest, 0 when it has
// no four to claim.
// second is the second player's stones and the free cells it claims, free
// the free cells; a and b are as in ClaimevenBound (0 for none), the first
// player getting either. It looks no further once it has found a time of
// enough or more.
//
// When the second player fills the last free cell of a line of four, the
// cells above it are still free: with that cell on row r (1-based), at most
// 42 - (6 - r) = 36 + r stones are on the board. The free cells the second
// player claims lie on the even rows 2, 4 and 6, so a line whose free cells
// all lie on row 2 completes by the 38th stone, the second player's 19th,
// and one whose free cells lie on rows 2 and 4 by the 40th.
func claimedWinTime(second, free, a, b Bitboard, enough int) int {
	switch {
	case !claimsFour(second, a, b): // the common case, first
		return 0
	case enough <= 1 || !claimsFour(second&^(free&^rowsBelow4), a, b):
		return 1
	case enough <= 2 || !claimsFour(second&^(free&^rowsBelow2), a, b):
		return 2
	}
	return ClaimevenWinScore
}

// claimsFour reports whether the cells s hold four in a row whichever of a
// and b (0 for none) the opponent takes.
func claimsFour(s, a, b Bitboard) bool {
	return hasFour(s&^a) && (b == 0 || hasFour(s&^b))
}

// rowsBelow2 and rowsBelow4 have the cells of the two and the four bottom
// rows.
const (
	rowsBelow2 Bitboard = BottomRow * 0b11
	rowsBelow4 Bitboard = BottomRow * 0b1111
)

// oddRows has the cells of rows 1, 3 and 5 (0-based): the 2nd, 4th and 6th
// from the bottom.
const oddRows Bitboard = BottomRow * 0b101010

// hasFour reports whether s holds four in a row.
func hasFour(s Bitboard) bool {
	return fourAlong(s, 1) || fourAlong(s, colBits) || fourAlong(s, colBits-1) || fourAlong(s, colBits+1)
}

// fourAlong reports whether s holds four in a row along the direction of
// shift d.
func fourAlong(s Bitboard, d uint) bool {
	m := s & (s >> d)
	return m&(m>>(2*d)) != 0
}

// winningCells returns the free cells that complete four in a row for the
// stones s, given the occupied cells mask. For each direction d it finds the
// cells with three of s in a line through them: three on one side, or two on
// one side and one on the other. Written out by direction, since this is the
// hottest function of the search.
func winningCells(s, mask Bitboard) Bitboard {
	// Vertical: only three below can make four.
	r := (s << 1) & (s << 2) & (s << 3)
	r |= lineCells(s, colBits)   // horizontal
	r |= lineCells(s, colBits-1) // diagonal, down to the right
	r |= lineCells(s, colBits+1) // diagonal, up to the right
	return r & Playable &^ mask
}

// lineCells returns the cells that complete four of s along the direction
// of shift d.
func lineCells(s Bitboard, d uint) Bitboard {
	pair := (s << d) & (s << (2 * d)) // the two cells before are s
	r := pair & ((s << (3 * d)) | (s >> d))
	pair = (s >> d) & (s >> (2 * d)) // the two cells after are s
	return r | pair&((s>>(3*d))|(s<<d))
}

// Key returns a number that identifies the position: two different
// positions never share a key. It is below 2^49.
func (p Position) Key() uint64 { return uint64(p.current + p.mask) }

// FromKey returns the position whose Key is key. It fails for a number that
// is no position's key: one with bits beyond the board, or whose stones do
// not alternate in count (the side to move has as many stones as the other
// side, or one fewer). It does not check that the position could arise in
// a game: stones in a column may be in any order, and both sides may have
// four in a row.
func FromKey(key uint64) (Position, error) {
	if key >= 1<<(Width*colBits) {
		return Position{}, fmt.Errorf("key %#x: beyond the board's %d bits", key, Width*colBits)
	}
	var p Position
	for col := range Width {
		v := key >> (col * colBits) & (1<<colBits - 1)
		// A column of h stones holds 2^h - 1 + (its side-to-move stones),
		// a value in [2^h - 1, 2^(h+1) - 2].
		h := bits.Len64(v+1) - 1
		if h > Height {
			return Position{}, fmt.Errorf("key %#x: column %d is not a column of stones", key, col+1)
		}
		colMask := uint64(1)<<h - 1
		p.mask |= Bitboard(colMask << (col * colBits))
		p.current |= Bitboard((v - colMask) << (col * colBits))
		p.stones += h
	}
	if p.current.Count() != p.stones/2 {
		return Position{}, fmt.Errorf("key %#x: %d stones of the side to move among %d", key, p.current.Count(), p.stones)
	}
	return p, nil
}

// MirrorKey returns the key of the position reflected left to right.
// Key is the sum of two bitboards whose columns never carry into each other,
// so reflecting the key column by column reflects the position.
func (p Position) MirrorKey() uint64 { return mirror(p.Key()) }

// mirror swaps column c and column 6-c of a bitboard.
func mirror(k uint64) uint64 {
	const c = 1<<colBits - 1
	return (k&c)<<(6*colBits) | (k&(c<<colBits))<<(4*colBits) |
		(k&(c<<(2*colBits)))<<(2*colBits) | k&(c<<(3*colBits)) |
		(k>>(2*colBits))&(c<<(2*colBits)) | (k>>(4*colBits))&(c<<colBits) |
		(k>>(6*colBits))&c
}

// CanonicalKey returns the smaller of Key and MirrorKey, one key for a
// position and its mirror image, which have the same score; whether it is
// the mirror's (a move stored with it is then mirrored too); and whether
// the two are equal, the position being its own mirror image.
func (p Position) CanonicalKey() (key uint64, mirrored, symmetric bool) {
	k, m := p.Key(), p.MirrorKey()
	return min(k, m), m < k, k == m
}

// Mirror returns the position reflected left to right.
func (p Position) Mirror() Position {
	return Position{
		current: Bitboard(mirror(uint64(p.current))),
		mask:    Bitboard(mirror(uint64(p.mask))),
		stones:  p.stones,
	}
}

// Height returns the number of stones in column col (0-based).
func (p Position) Height(col int) int { return (p.mask & Column(col)).Count() }

// Cell returns who holds the cell at column col and row row (both 0-based,
// row 0 at the bottom): 0 if empty, 1 for the first player, 2 for the second.
func (p Position) Cell(col, row int) int {
	bit := Bitboard(1) << (col*colBits + row)
	switch {
	case p.mask&bit == 0:
		return 0
	case (p.current&bit != 0) == (p.stones%2 == 0):
		return 1 // the first player is to move after an even number of moves
	default:
		return 2
	}
}

// String draws the board, top row first: 'x' for the first player's stones,
// 'o' for the second's, '.' for an empty cell, and the column numbers 1 to 7
// below.
func (p Position) String() string {
	return p.Draw(func(who int) string { return ".xo"[who : who+1] })
}

// Draw draws the board as String does, each cell as cell gives it for who
// holds it: 0 nobody, 1 the first player, 2 the second. The cells of a row
// are apart by a space, so cell should give one character's width.
func (p Position) Draw(cell func(who int) string) string {
	return draw(Width, Height, p.Cell, cell)
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

// Line returns moves (0-based columns) that reach p from the empty board,
// each played in turn with no four before the last, or false when no game
// reaches p (a position from FromKey may be none). The moves are found
// backwards, taking back a top stone of the side that moved last, so a
// position of few stones costs microseconds; one of many, with many ways
// back that all fail, may cost far more.
func (p Position) Line() ([]int, bool) {
	if hasFour(p.current) { // the side to move has four: it did not just move
		return nil, false
	}
	line := make([]int, p.stones)
	dead := make(map[uint64]bool) // keys of positions no game reaches
	var back func(q Position) bool
	back = func(q Position) bool {
		if q.stones == 0 {
			return true
		}
		if dead[q.Key()] {
			return false
		}
		last := q.current ^ q.mask // the stones of the side that moved last
		for col := range Width {
			h := q.Height(col)
			if h == 0 {
				continue
			}
			top := Bitboard(1) << (col*colBits + h - 1)
			if last&top == 0 {
				continue
			}
			prev := Position{current: last ^ top, mask: q.mask ^ top, stones: q.stones - 1}
			if hasFour(prev.current) || hasFour(prev.Opponent()) {
				continue // the game was over before this stone
			}
			line[prev.stones] = col
			if back(prev) {
				return true
			}
		}
		dead[q.Key()] = true
		return false
	}
	if !back(p) {
		return nil, false
	}
	return line, true
}
