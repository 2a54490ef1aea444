package solver_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"c4solve/internal/position"
)

// TestClaimevenBounds checks the claimeven rules the search prunes with
// against plain alpha-beta, on random positions of 26 or more stones:
// ClaimevenBound bounds the score from above, ClaimevenReplyBound from
// below. Each bound they can give (0, and a loss or a win by the 21st,
// 20th or 19th stone) must be met, and each of the graded ones must be the
// exact score of some position. Each way a rule applies must be met too:
// with four or more columns of odd height (after the reply, for
// ClaimevenReplyBound), and where the first player's claimeven cells hold
// a line of four that the second player's line precedes.
func TestClaimevenBounds(t *testing.T) {
	want := 40 // applications of each bound by each rule
	if testing.Short() {
		want = 10
	}
	rng := rand.New(rand.NewPCG(3, 4))
	// applied[r][v]: bound v (0 to 3, a loss or a win) given by rule r
	// (0: ClaimevenBound, 1: ClaimevenReplyBound); tight: those exact.
	var applied, tight [2][4]int
	// ways[r]: applications of rule r with many odd columns, and (rule 0)
	// with a line of four the first player's cells hold (claimevenWays).
	var ways [2][2]int
	done := func() bool {
		for r := range applied {
			if slices.Min(applied[r][:]) < want || ways[r][0] < want {
				return false
			}
		}
		return ways[0][1] >= want
	}
	for tries := 0; !done(); tries++ {
		if tries == 100000*want {
			t.Fatalf("after %d positions, the rules gave bounds 0, 1, 2, 3 %v times, in the rarer ways %v; want %d each",
				tries, applied, ways, want)
		}
		p, ok := randomPosition(rng, 26+rng.IntN(10))
		if !ok || p.CanWinNext() {
			continue
		}
		rule := p.Stones() % 2
		var b int
		if rule == 1 {
			b, ok, _ = p.ClaimevenReplyBound(position.ClaimevenWinScore)
		} else {
			b, ok = p.ClaimevenBound(-position.ClaimevenWinScore)
		}
		if !ok {
			continue
		}
		// Tried whatever the bound, until each way is met often enough.
		manyOdd, firstLine := claimevenWays(p)
		if (!manyOdd || ways[rule][0] >= want) && (!firstLine || rule == 1 || ways[rule][1] >= want) &&
			applied[rule][abs(b)] >= want {
			continue
		}
		applied[rule][abs(b)]++
		if manyOdd {
			ways[rule][0]++
		}
		if firstLine && rule == 0 {
			ways[rule][1]++
		}
		// The null-window questions "score > b?" and "score >= b?".
		above, atLeast := alphaBeta(p, b, b+1) > b, alphaBeta(p, b-1, b) >= b
		switch {
		case rule == 1 && !atLeast:
			t.Errorf("%v: score below ClaimevenReplyBound %d", p, b)
		case rule == 0 && above:
			t.Errorf("%v: score above ClaimevenBound %d", p, b)
		case atLeast && !above:
			tight[rule][abs(b)]++
		}
	}
	for r := range tight {
		for v := 1; v < 4; v++ {
			if tight[r][v] == 0 {
				t.Errorf("rule %d: no bound of %d among %d was the exact score", r, v, want)
			}
		}
	}
	t.Logf("bounds 0, 1, 2, 3 exact: ClaimevenBound %v, ClaimevenReplyBound %v of %d each", tight[0], tight[1], want)
}

// TestOddThreatBound checks the first player's odd-threat rule against
// plain alpha-beta, on random positions of 26 or more stones with the
// first player to move: each lower bound it gives (a win by the 21st or the
// 20th stone) must be met, and must be the exact score of some position.
func TestOddThreatBound(t *testing.T) {
	want := 40 // applications of each bound
	if testing.Short() {
		want = 10
	}
	rng := rand.New(rand.NewPCG(5, 6))
	var applied, tight [3]int
	for tries := 0; min(applied[1], applied[2]) < want; tries++ {
		if tries == 100000*want {
			t.Fatalf("after %d positions, the rule gave bounds 1, 2 %v times; want %d each", tries, applied[1:], want)
		}
		p, ok := randomPosition(rng, 26+2*rng.IntN(5))
		if !ok || p.CanWinNext() {
			continue
		}
		b, ok := p.OddThreatBound(position.ClaimevenWinScore)
		if !ok || applied[b] >= want {
			continue
		}
		applied[b]++
		above, atLeast := alphaBeta(p, b, b+1) > b, alphaBeta(p, b-1, b) >= b
		switch {
		case !atLeast:
			t.Errorf("%v: score below OddThreatBound %d", p, b)
		case !above:
			tight[b]++
		}
	}
	for b := 1; b <= 2; b++ {
		if tight[b] == 0 {
			t.Errorf("no bound of %d among %d was the exact score", b, want)
		}
	}
	t.Logf("bounds 1, 2 exact: %v of %d each", tight[1:], want)
}

// claimevenWays tells how the claimeven rules meet p, counted from its
// cells one by one: manyOdd, whether four or more columns have odd height
// (five or more, with the second player to move: four after its reply);
// firstLine, whether the first player's stones, the free cells of the 1st,
// 3rd and 5th rows and the next cells of the columns of odd height hold a
// line of four.
func claimevenWays(p position.Position) (manyOdd, firstLine bool) {
	var cells [position.Width][position.Height]bool // the first player's claims
	odd := 0
	for col := range position.Width {
		h := p.Height(col)
		odd += h % 2
		for row := range position.Height {
			who := p.Cell(col, row)
			cells[col][row] = who == 1 || who == 0 && (row%2 == 0 || row == h)
		}
	}
	for col := range position.Width {
		for row := range position.Height {
			for _, d := range [][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}} {
				k := 0
				for ; k < 4; k++ {
					c, r := col+k*d[0], row+k*d[1]
					if c >= position.Width || r < 0 || r >= position.Height || !cells[c][r] {
						break
					}
				}
				firstLine = firstLine || k == 4
			}
		}
	}
	return odd >= 4+p.Stones()%2, firstLine
}

// alphaBeta returns the score of p, which must not be over, within the
// window (alpha, beta), as fail-hard alpha-beta with no table: a value of
// alpha or below means score <= alpha, beta or above score >= beta.
func alphaBeta(p position.Position, alpha, beta int) int {
	n := p.Stones()
	if n == position.Cells {
		return 0
	}
	if p.CanWinNext() {
		return (position.Cells + 1 - n) / 2
	}
	for _, col := range [position.Width]int{3, 2, 4, 1, 5, 0, 6} {
		if !p.CanPlay(col) {
			continue
		}
		c := p
		c.Play(col)
		alpha = max(alpha, -alphaBeta(c, -beta, -alpha))
		if alpha >= beta {
			return beta
		}
	}
	return alpha
}

func abs(x int) int { return max(x, -x) }
