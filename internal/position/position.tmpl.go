//go:build ignore

// The Connect-Four position of every board size, written once:
// internal/gen instantiates it as Position (7x6, its geometry constants:
// zposition.go), Position64 (any board of at most 64 bits:
// zposition64.go), Position128 (at most 128 bits: zposition128.go) and
// PositionPacked (at most 64 cells, in one word without sentinel bits:
// zpositionPacked.go), each with its own Bitboard and Geometry. Where
// packed, a bit above a column's top cell is the next column's bottom
// cell: what the sentinel bits do (stop a carry, keep a line of four from
// running across two columns) is done there by masks, the code under
// "if packed", a constant the compiler drops elsewhere. Edit this file, then run
// go generate ./... ; CI fails when the generated files differ from it.

package position

import (
	"fmt"
	"math/bits"
)

// Position is a Connect-Four position: the stones of the side to move, the
// occupied cells, and the number of moves played, on the board of its
// geometry g. A Position is a small value: copy it to keep it, and share
// it freely between goroutines. The zero value of the 7x6 Position is the
// empty board with the first player to move; get the empty board of
// another from its Geometry's Empty.
type Position struct {
	g       Geometry
	current Bitboard // stones of the side to move
	mask    Bitboard // occupied cells
	stones  int
}

// Empty returns the empty board of the geometry.
func (g Geometry) Empty() Position { return Position{g: g} }

// Geometry returns the position's board.
func (p Position) Geometry() Geometry { return p.g }

// Stones returns the number of stones on the board.
func (p Position) Stones() int { return p.stones }

// Mask returns the occupied cells.
func (p Position) Mask() Bitboard { return p.mask }

// Current returns the stones of the side to move.
func (p Position) Current() Bitboard { return p.current }

// Opponent returns the stones of the side that moved last.
func (p Position) Opponent() Bitboard { return p.current ^ p.mask }

// CanPlay reports whether column col (0-based) has room for a stone.
func (p Position) CanPlay(col int) bool { return p.mask&p.g.topCell(col) == 0 }

// Play drops a stone of the side to move into column col (0-based). The
// column must have room (see CanPlay).
func (p *Position) Play(col int) {
	p.PlayMove((p.mask + p.g.bottomCell(col)) & p.g.Column(col))
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
func (p Position) Possible() Bitboard { return p.g.NextCells(p.mask) }

// IsWinningMove reports whether playing column col (0-based) makes four in
// a row for the side to move. The column must have room.
func (p Position) IsWinningMove(col int) bool {
	return p.WinningCells()&p.Possible()&p.g.Column(col) != 0
}

// CanWinNext reports whether the side to move can win with its next stone.
func (p Position) CanWinNext() bool { return p.WinningCells()&p.Possible() != 0 }

// WinningCells returns the free cells, playable now or not, that would
// complete four in a row for the side to move: its threats.
func (p Position) WinningCells() Bitboard { return p.g.winningCells(p.current, p.mask) }

// OpponentWinningCells returns the free cells that would complete four in
// a row for the side that moved last.
func (p Position) OpponentWinningCells() Bitboard {
	return p.g.winningCells(p.current^p.mask, p.mask)
}

// ThreatsAfter returns the threats (see WinningCells) the side to move would
// have after playing move, a cell of Possible.
func (p Position) ThreatsAfter(move Bitboard) Bitboard {
	return p.g.winningCells(p.current|move, p.mask|move)
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
	return possible &^ p.g.Below(threats)
}

// Won reports whether the side that moved last has four in a row.
func (p Position) Won() bool { return p.g.hasFour(p.current ^ p.mask) }

// Over reports whether the game has ended: the last move won or the board
// is full.
func (p Position) Over() bool { return p.stones == p.g.Cells() || p.Won() }

// CanStillWin reports whether the side to move has a line of four cells
// with none of the opponent's stones: without one it can never win.
func (p Position) CanStillWin() bool { return p.g.hasFour(p.g.Playable() &^ p.Opponent()) }

// OpponentCanStillWin is CanStillWin for the side that moved last.
func (p Position) OpponentCanStillWin() bool { return p.g.hasFour(p.g.Playable() &^ p.current) }

// ClaimevenBound applies Allis' claimeven rule to the side to move, A,
// where every column has an even number of free cells: the other side, B,
// can then answer every move directly on top of it, which is always
// possible, the free cells of a column coming in pairs; so A only ever gets
// the lower cell of each pair and B the upper, up to the top row: B claims
// the cells of the claimed rows (on 7x6 and every board of even
// height, the 2nd, 4th, ... from the bottom; on a board of odd height the
// 1st, 3rd, ..., the top row among them, and the columns must hold an odd
// number of stones). If A's stones and the cells it gets hold no line of
// four, it cannot win (bound 0); if moreover B's stones and the cells it
// claims hold one, B completes it before the board fills (bound -1), and
// sooner where the line's free cells lie low (see
// Geometry.ClaimevenWinScore).
//
// Columns of an odd number of free cells come in pairs (the stones have the parity of Geometry.ClaimParity), and their next cells lie on B's rows. B
// answers a stone on top of one of them with one on top of another, which
// leaves both of an even number, and claimeven otherwise. With two such
// columns, X and Y with next cells a and b, A gets a or b besides its
// cells, whichever it likes, and B the other; with four or more, the rule
// credits A with all their next cells and B with none.
//
// A line of four A could make does not count where B completes one of its
// own first: where every free cell of a line of B's lies below a free cell
// of A's line, in its column, A's line cannot be full before B's is (see
// blocked).
//
// Nothing here depends on the width, and the height only through the
// parity of its rows, which Geometry.ClaimParity gives: the argument
// holds on every board.
//
// It returns the bound on the score of the side to move and whether the
// rule applies. A search needs no bound below alpha: where the rule gives
// one, the bound returned is at most alpha, not necessarily the lowest
// (pass -ClaimevenWinScore for the lowest).
func (p Position) ClaimevenBound(alpha int) (int, bool) {
	g := p.g
	if p.stones%2 != g.ClaimParity() {
		return 0, false // the columns of odd free cells are odd in number
	}
	free := g.Playable() &^ p.mask
	first, second := p.current|free&^g.claimRows(), p.Opponent()|free&g.claimRows()
	if alpha < 0 && !g.hasFour(second) {
		return 0, false // a bound of 0 at best: not enough
	}
	a, b := claimevenSplit(p.Possible() & g.claimRows())
	if !g.splitBlocked(first, second, free, a, b) {
		return 0, false
	}
	return -g.claimedWinTime(second, free, a, b, -alpha), true
}

// claimevenSplit returns the next cells of the columns of odd height,
// tops, as ClaimevenBound shares them out: for two columns, a and b, the
// one the first player takes and the other; for four or more, a holds
// them all (b 0); for none, both 0.
func claimevenSplit(tops Bitboard) (a, b Bitboard) {
	if tops.Count() == 2 {
		return tops & -tops, tops & (tops - 1)
	}
	return tops, 0
}

// ClaimevenReplyBound applies ClaimevenBound one move ahead, to a position
// where B, as ClaimevenBound names the sides, is to move: after any reply
// A is to move, and if ClaimevenBound then bounds its score by b, the side
// to move scores at least -b. A reply on top of a column of an odd number
// of free cells leaves it even; one in a column of an even number takes a
// cell A would have claimed and makes the column odd. It returns the best such
// lower bound over the replies and whether the rule applies to any. As
// with ClaimevenBound's alpha, it looks no further once it has a bound of
// beta or more (pass ClaimevenWinScore for the best).
//
// It also returns the replies after which ClaimevenBound may give a bound:
// after the others it gives none, whatever its alpha, so that a search
// can leave it untried there. The set may hold replies after which it
// gives none too (all of them where the rule's quick tests end it early).
func (p Position) ClaimevenReplyBound(beta int) (bound int, ok bool, applies Bitboard) {
	g := p.g
	if p.stones%2 == g.ClaimParity() {
		return 0, false, g.Playable()
	}
	// After the reply the opponent is the first player, to move, and its
	// cells and ours are those of ClaimevenBound whichever reply it is.
	free := g.Playable() &^ p.mask
	first, second := p.Opponent()|free&^g.claimRows(), p.current|free&g.claimRows()
	moves := p.Possible()
	if beta > 0 && !g.hasFour(second|moves) {
		return 0, false, moves // no reply gives more than 0: not enough
	}
	// Whatever the reply, the first player has at least the cells of
	// first&^moves and we at most those of second|moves, as if they
	// were played: where even that does not block the first player, no
	// reply does (the common case).
	if !g.blocked(first&^moves, second|moves, free&^moves) {
		return 0, false, 0
	}
	tops := moves & g.claimRows() // the next cells of the odd columns
	found, best := false, 0
	for rest := moves; rest != 0; rest &= rest - 1 {
		m := rest & -rest
		f, s, t := first, second, tops&^m
		if m&g.claimRows() == 0 {
			f, s, t = first&^m, second|m, tops|m<<1
		}
		a, b := claimevenSplit(t)
		if !g.splitBlocked(f, s, free&^m, a, b) {
			continue
		}
		applies |= m
		found, best = true, max(best, g.claimedWinTime(s, free&^m, a, b, beta))
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
func (g Geometry) splitBlocked(first, second, free, a, b Bitboard) bool {
	return g.blocked(first|a, second&^a, free) && (b == 0 || g.blocked(first|b, second&^b, free))
}

// blocked reports whether the first player, playing only cells of first
// while the second player takes every free cell of second as it comes,
// never completes four: every line of four in first has below its free
// cells, in their columns, all the free cells of some line of four in
// second. Cells fill from the bottom, so the first player's line is never
// full before the second player's, which wins first.
func (g Geometry) blocked(first, second, free Bitboard) bool {
	// The common cases first: no line for the first player, or none for
	// the second to precede it with.
	if !g.hasFour(first) {
		return true
	}
	if !g.hasFour(second) {
		return false
	}
	filled := second &^ free
	// A vertical line: the cells below its top cell.
	s := first & (first >> 1) & (first >> 2) & (first >> 3)
	if packed {
		s &= g.lowStarts()
	}
	for ; s != 0; s &= s - 1 {
		start := s & -s
		if !g.hasFour(filled | second&(start<<3-g.columnBottom(start))) {
			return false
		}
	}
	// The others have one cell in each of four columns: the cells below
	// them are the line less the bottoms of the columns.
	cb := g.colBits()
	for i, d := range [...]uint{cb, cb - 1, cb + 1} {
		m := first & (first >> d)
		s := m & (m >> d >> d)
		if packed {
			s &= [...]Bitboard{g.Playable(), g.highStarts(), g.lowStarts()}[i]
		}
		for ; s != 0; s &= s - 1 {
			start := s & -s
			line := start | start<<d | start<<(2*d) | start<<(3*d)
			below := g.fourColumns() << g.columnStart(start)
			if !g.hasFour(filled | second&(line-below)) {
				return false
			}
		}
	}
	return true
}

// columnBottom returns the bottom cell of the column of the cell c.
func (g Geometry) columnBottom(c Bitboard) Bitboard { return g.columnOf(c) & g.Bottom() }

// OddThreatBound is the counterpart of claimeven for the side to move, A,
// where ClaimevenBound would bound it (the parity of Geometry.ClaimParity): a threat of A's on a row of its own (not a claimed row) in a column C wins
// when B can be made to fill C from below. A plays one stone m so that C
// is the one column of an odd number of free cells: in C when every column
// has an even number, or on top of the other column when C and one other
// have an odd number. Then A answers every stone directly on top of it: in
// the other columns B gets the lower cell of each pair and A the upper, the claimed rows, and in C, whose next cell is on B's rows, B the cells of the claimed rows and A the others, the threat's cell t among them. The
// answer is always possible, but for the top cell of C, which comes after
// t. So if B's stones and the cells it gets, less those above t (reached
// only once t is filled), hold no line of four, it never wins, the board
// fills, and A wins with t at the latest: with t on row r (1-based), the
// Height-r cells above it are free when it is filled, so A wins on move
// Cells-(Height-r) at the latest, a score of at least 1 + (Height-r)/2
// rounded down: 2 for t on the 3rd row of 7x6, 1 on its 5th. As for
// claimeven, only the parity of the rows matters: the argument holds on
// every board.
//
// It returns the lower bound on the score of the side to move, 1 to
// OddThreatMax, and whether the rule applies; it looks no further once it
// has a bound of beta or more.
func (p Position) OddThreatBound(beta int) (int, bool) {
	g := p.g
	if p.stones%2 != g.ClaimParity() {
		return 0, false // the columns of odd free cells are odd in number
	}
	moves := p.Possible()
	oddTops := moves & g.claimRows() // the next cells of the columns of odd free cells
	if k := oddTops.Count(); k > 2 {
		return 0, false
	} else if k == 2 {
		moves = oddTops // m goes on top of the odd column that is not C
	}
	// Any t is among the cells on odd rows that complete four with the
	// first player's stones and all the moves (most positions have none).
	ts := g.winningCells(p.current|moves, p.mask) &^ moves &^ g.claimRows()
	found, best := false, 0
	for rest := moves; rest != 0 && ts != 0; rest &= rest - 1 {
		m := rest & -rest
		c := g.columnOf(m) // column C: m's, or the other odd column's
		if oddTops != 0 {
			c = g.columnOf(oddTops &^ m)
		}
		if ts&c == 0 {
			continue
		}
		mask := p.mask | m
		free := g.Playable() &^ mask
		// A's threats in C on its own rows, the lowest first: it is the
		// one filled first.
		threats := g.winningCells(p.current|m, mask) & c &^ g.claimRows()
		if threats == 0 {
			continue
		}
		t := threats & -threats
		second := p.current ^ p.mask | free&^c&^g.claimRows() | free&c&g.claimRows()
		if g.hasFour(second &^ (c &^ (t<<1 - 1))) { // less the cells above t
			continue
		}
		// t is on the 0-based row r0 = r-1, of the other parity than
		// Height: a score of (Height-r0)/2.
		b := (g.Height() - t.TrailingZeros()%int(g.colBits())) / 2
		found, best = true, max(best, b)
		if best >= beta {
			break
		}
	}
	return best, found
}

// columnOf returns the cells of the column of the cell c.
func (g Geometry) columnOf(c Bitboard) Bitboard {
	return g.Column(0) << g.columnStart(c)
}

// claimedWinTime scores how late B, as ClaimevenBound names the sides,
// completes four under claimeven, against any play of A: from
// ClaimevenWinScore down to 1 for a four by its last stone, and 0 when it
// has no four to claim. second is B's stones and the free cells it
// claims, free the free cells; a and b are as in ClaimevenBound (0 for
// none), A getting either. It looks no further once it has found a time
// of enough or more.
//
// When B fills the last free cell of a line of four, the cells above it
// are still free: with that cell on row r (1-based), at most
// Cells-(Height-r) stones are on the board, a score of at least
// 1 + (Height-r)/2, rounded down. So a line whose free cells all lie on
// the k bottom rows scores at least 1 + (Height-k)/2: on 7x6, 3 for the
// 2nd row, the 38th stone, 2 for the 4th, 1 for the 6th.
func (g Geometry) claimedWinTime(second, free, a, b Bitboard, enough int) int {
	if !claimsFour(g, second, a, b) { // the common case, first
		return 0
	}
	t := 1
	for t < enough && t < g.ClaimevenWinScore() && claimsFour(g, second&^(free&^g.rowsBelow(g.Height()-2*t)), a, b) {
		t++
	}
	return t
}

// claimsFour reports whether the cells s hold four in a row whichever of a
// and b (0 for none) the opponent takes.
func claimsFour(g Geometry, s, a, b Bitboard) bool {
	return g.hasFour(s&^a) && (b == 0 || g.hasFour(s&^b))
}

// hasFour reports whether s holds four in a row.
func (g Geometry) hasFour(s Bitboard) bool {
	cb := g.colBits()
	if packed {
		return fourFrom(s, 1, g.lowStarts()) || fourAlong(s, cb) ||
			fourFrom(s, cb-1, g.highStarts()) || fourFrom(s, cb+1, g.lowStarts())
	}
	return fourAlong(s, 1) || fourAlong(s, cb) || fourAlong(s, cb-1) || fourAlong(s, cb+1)
}

// fourFrom is fourAlong for the fours that start on cells of starts, the
// bottom or left cell of each.
func fourFrom(s Bitboard, d uint, starts Bitboard) bool {
	m := s & (s >> d)
	return m&(m>>d>>d)&starts != 0
}

// fourAlong reports whether s holds four in a row along the direction of
// shift d.
func fourAlong(s Bitboard, d uint) bool {
	m := s & (s >> d)
	return m&(m>>d>>d) != 0 // by d twice: see lineCells
}

// winningCells returns the free cells that complete four in a row for the
// stones s, given the occupied cells mask. For each direction d it finds the
// cells with three of s in a line through them: three on one side, or two on
// one side and one on the other. Written out by direction, since this is the
// hottest function of the search.
func (g Geometry) winningCells(s, mask Bitboard) Bitboard {
	cb := g.colBits()
	if packed {
		// A line may not cross from the top row of a column to the
		// bottom of the next: vertical fours end above the 3 bottom rows,
		// and each step of a diagonal keeps off the top (or bottom) row.
		notTop, notBottom := g.Playable()&^g.topRow(), g.Playable()&^g.Bottom()
		r := (s << 1) & (s << 2) & (s << 3) & g.highStarts()
		r |= lineCells(s, cb)
		r |= stepCells(s, cb-1, notBottom, notTop) // diagonal, down to the right
		r |= stepCells(s, cb+1, notTop, notBottom) // diagonal, up to the right
		return r & g.Playable() &^ mask
	}
	// Vertical: only three below can make four.
	r := (s << 1) & (s << 2) & (s << 3)
	r |= lineCells(s, cb)   // horizontal
	r |= lineCells(s, cb-1) // diagonal, down to the right
	r |= lineCells(s, cb+1) // diagonal, up to the right
	return r & g.Playable() &^ mask
}

// lineCells returns the cells that complete four of s along the direction
// of shift d. The shifts by 2d and 3d are made by d again and again: the
// same count each time, where the engines of other boards shift by a
// variable (7x6's constants fold back to single shifts).
func lineCells(s Bitboard, d uint) Bitboard {
	b1 := s << d // the cell before is s
	b2 := b1 << d
	a1 := s >> d // the cell after is s
	a2 := a1 >> d
	r := b1 & b2 & ((b2 << d) | a1) // the two cells before are s
	return r | a1&a2&((a2>>d)|b1)   // the two cells after are s
}

// stepCells is lineCells on a packed board, where a step of d from a
// cell of from lands on its neighbour in the line, and a step back from
// a cell of to.
func stepCells(s Bitboard, d uint, from, to Bitboard) Bitboard {
	b1 := (s & from) << d
	b2 := (b1 & from) << d
	a1 := (s & to) >> d
	a2 := (a1 & to) >> d
	r := b1 & b2 & ((b2&from)<<d | a1)
	return r | a1&a2&((a2&to)>>d|b1)
}

// Key returns a number that identifies the position: two different
// positions never share a key. It is current+mask, which adds one bit
// above the top stone of each column (Pons, part 7, "Transposition
// table"), and so fits Width*(Height+1) bits (a packed key: see
// KeyPacked).
func (p Position) Key() Key { return p.g.key(p.current, p.mask) }

// FromKey returns the position whose Key is key. It fails for a number that
// is no position's key: one with bits beyond the board, or whose stones do
// not alternate in count (the side to move has as many stones as the other
// side, or one fewer). It does not check that the position could arise in
// a game: stones in a column may be in any order, and both sides may have
// four in a row.
func (g Geometry) FromKey(key Key) (Position, error) {
	if !g.keyFits(key) {
		return Position{}, fmt.Errorf("key %#x: beyond the board's %d bits", key, g.Width()*(g.Height()+1))
	}
	p := g.Empty()
	cb := int(g.colBits())
	for col := range g.Width() {
		v := g.keyColumn(key, col)
		// A column of h stones holds 2^h - 1 + (its side-to-move stones),
		// a value in [2^h - 1, 2^(h+1) - 2].
		h := bits.Len64(v+1) - 1
		if h > g.Height() {
			return Position{}, fmt.Errorf("key %#x: column %d is not a column of stones", key, col+1)
		}
		colMask := uint64(1)<<h - 1
		p.mask |= Bitboard(colMask) << (col * cb)
		p.current |= Bitboard(v-colMask) << (col * cb)
		p.stones += h
	}
	if p.current.Count() != p.stones/2 {
		return Position{}, fmt.Errorf("key %#x: %d stones of the side to move among %d", key, p.current.Count(), p.stones)
	}
	if packed && p.Key() != key {
		return Position{}, fmt.Errorf("key %#x: its full columns are not those of its stones", key)
	}
	return p, nil
}

// MirrorKey returns the key of the position reflected left to right.
// Key is the sum of two bitboards whose columns never carry into each other,
// so reflecting the key column by column reflects the position (a packed
// key, whose columns carry, is made of the two reflected).
func (p Position) MirrorKey() Key { return p.g.mirrorKey(p.current, p.mask) }

// CanonicalKey returns the smaller of Key and MirrorKey, one key for a
// position and its mirror image, which have the same score; whether it is
// the mirror's (a move stored with it is then mirrored too); and whether
// the two are equal, the position being its own mirror image.
func (p Position) CanonicalKey() (key Key, mirrored, symmetric bool) {
	// A select, not a branch: which key is the smaller is a coin toss
	// the processor cannot predict, and the 7x6 code becomes a
	// conditional move.
	k, m := p.Key(), p.MirrorKey()
	mirrored = p.g.keyLess(m, k)
	key = k
	if mirrored {
		key = m
	}
	return key, mirrored, k == m
}

// MayMeetMirror reports whether a position reached from p by moves may be
// the mirror image of another one reached from p, or its own: whether no
// stone of p faces one of the other side's across the middle of the
// board. Positions reached from p hold p's stones, and their mirror
// images the reflections of them; where a stone and its reflection are
// of different sides, no position holds both.
func (p Position) MayMeetMirror() bool {
	return p.g.mirror(p.current)&(p.current^p.mask) == 0
}

// Mirror returns the position reflected left to right.
func (p Position) Mirror() Position {
	return Position{g: p.g, current: p.g.mirror(p.current), mask: p.g.mirror(p.mask), stones: p.stones}
}

// Height returns the number of stones in column col (0-based).
func (p Position) Height(col int) int { return (p.mask & p.g.Column(col)).Count() }

// Cell returns who holds the cell at column col and row row (both 0-based,
// row 0 at the bottom): 0 if empty, 1 for the first player, 2 for the second.
func (p Position) Cell(col, row int) int {
	bit := Bitboard(1) << (col*int(p.g.colBits()) + row)
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
// 'o' for the second's, '.' for an empty cell, and the column names below
// (ColumnName).
func (p Position) String() string {
	return p.Draw(func(who int) string { return ".xo"[who : who+1] })
}

// Draw draws the board as String does, each cell as cell gives it for who
// holds it: 0 nobody, 1 the first player, 2 the second. The cells of a row
// are apart by a space, so cell should give one character's width.
func (p Position) Draw(cell func(who int) string) string {
	return draw(p.g.Width(), p.g.Height(), p.Cell, cell)
}

// Parse returns the position reached by the move string s on the board:
// one character per move naming a column, '1' to '9' and then 'a' on
// (ColumnName), or with from0 '0' to '9' and then 'a' on (Steininger's
// test files). It checks that the moves make a legal game: every column
// valid, no move into a full column or after the game was won, at most
// Cells moves. Errors are *ParseError.
func (g Geometry) Parse(s string, from0 bool) (Position, error) {
	p := g.Empty()
	for i := 0; i < len(s); i++ {
		col := ColumnOf(s[i], from0)
		if col < 0 || col >= g.Width() {
			return Position{}, &ParseError{i + 1, notAColumn(s[i], g.Width(), g.Height(), from0)}
		}
		if i == g.Cells() {
			return Position{}, &ParseError{i + 1, fmt.Sprintf("more than %d moves", g.Cells())}
		}
		if p.Won() {
			return Position{}, &ParseError{i + 1, fmt.Sprintf("the game was already won by move %d", i)}
		}
		if !p.CanPlay(col) {
			return Position{}, &ParseError{i + 1, fmt.Sprintf("column %c is full", s[i])} // named as s names it
		}
		p.Play(col)
	}
	return p, nil
}

// Line returns moves (0-based columns) that reach p from the empty board,
// each played in turn with no four before the last, or false when no game
// reaches p (a position from FromKey may be none). The moves are found
// backwards, taking back a top stone of the side that moved last, so a
// position of few stones costs microseconds; one of many, with many ways
// back that all fail, may cost far more.
func (p Position) Line() ([]int, bool) {
	g := p.g
	if g.hasFour(p.current) { // the side to move has four: it did not just move
		return nil, false
	}
	line := make([]int, p.stones)
	dead := make(map[Key]bool) // keys of positions no game reaches
	var back func(q Position) bool
	back = func(q Position) bool {
		if q.stones == 0 {
			return true
		}
		if dead[q.Key()] {
			return false
		}
		last := q.current ^ q.mask // the stones of the side that moved last
		for col := range g.Width() {
			h := q.Height(col)
			if h == 0 {
				continue
			}
			top := Bitboard(1) << (col*int(g.colBits()) + h - 1)
			if last&top == 0 {
				continue
			}
			prev := Position{g: g, current: last ^ top, mask: q.mask ^ top, stones: q.stones - 1}
			if g.hasFour(prev.current) || g.hasFour(prev.Opponent()) {
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
