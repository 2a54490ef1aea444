package board

import (
	"fmt"
	"math/rand/v2"
)

// RandomPositions draws n distinct positions of the grid's board of the
// given number of stones, each reached by uniformly random legal moves from the empty
// board, and passes each to yield as a move string ("4453") as soon as it
// is drawn; it stops early when yield returns false. They are the positions
// a game in progress asks about, unlike the published sets, which were
// picked for their difficulty. A position is left out, and another drawn,
// when the game ended on the way (a four was made) or its side to move can
// win at once (no search needed); two positions that are each other's
// mirror image count as one, since a solver sees them as one. The same seed
// gives the same positions.
//
// It fails at once when n is more than MaxRandomPositions, or, for up to 8 stones, more than such positions exist (CountRandom); and
// it fails when a million draws in a row give no new position, which
// means that few are left to find: the positions that exist are counted
// beforehand on 7x6 only. Columns are named by ColumnName.
func (g *Grid) RandomPositions(seed uint64, stones, n int, yield func(moves string) bool) error {
	switch {
	case stones < 0 || stones >= g.Cells():
		return fmt.Errorf("%d stones: want 0 to %d", stones, g.Cells()-1)
	case n > MaxRandomPositions:
		return fmt.Errorf("%d positions: at most %d a run (ask for more with other seeds)", n, MaxRandomPositions)
	case g.Size == Standard && stones <= countedStones:
		if exist := CountRandom(stones); n > exist {
			return fmt.Errorf("%d positions of %s asked for: only %s", n, count(stones, "stone", "stones"), count(exist, "distinct position exists", "distinct positions exist"))
		}
	}
	rng := rand.New(rand.NewPCG(seed, 0x63347361))
	seen := make(map[uint64]bool, min(n, 1<<16)) // canonical keys: mirror images are one
draws:
	for found, failed := 0, 0; found < n; {
		if failed >= maxFailedDraws {
			return fmt.Errorf("%s of %s found: %d draws in a row found no other", count(found, "distinct position", "distinct positions"), count(stones, "stone", "stones"), failed)
		}
		b := g.Empty()
		cols := make([]int, 0, stones)
		for range stones {
			c := b.randomMove(rng)
			if b.IsWinningMove(c) {
				failed++
				continue draws
			}
			b.Play(c)
			cols = append(cols, c)
		}
		if b.CanWinNext() || seen[b.hash()] {
			failed++
			continue
		}
		seen[b.hash()] = true
		found, failed = found+1, 0
		if !yield(FormatColumns(cols, false)) {
			return nil
		}
	}
	return nil
}

// RandomGame returns the columns of a game of uniformly random legal
// moves from the empty board, played to its end: a four or a full board.
func (g *Grid) RandomGame(rng *rand.Rand) []int {
	var cols []int
	for b := g.Empty(); !b.Over(); {
		c := b.randomMove(rng)
		b.Play(c)
		cols = append(cols, c)
	}
	return cols
}

// randomMove returns a column drawn uniformly among b's legal moves; b
// must have one.
func (b Board) randomMove(rng *rand.Rand) int {
	var legal [MaxWidth]int
	k := 0
	for c := range b.g.Width {
		if b.CanPlay(c) {
			legal[k] = c
			k++
		}
	}
	return legal[rng.IntN(k)]
}

// MaxRandomPositions bounds RandomPositions' n: the positions drawn are
// remembered, to draw none twice, and a bound keeps that memory small
// (tens of MiB).
const MaxRandomPositions = 1_000_000

// maxFailedDraws is how many draws in a row may find no new position
// before RandomPositions gives up: a second or so.
const maxFailedDraws = 1_000_000

// countedStones is the most stones CountRandom counts quickly (54,859
// games of 8 stones, fewer positions).
const countedStones = 8

// CountRandom returns how many distinct positions RandomPositions can
// draw of the given number of stones: no four made on the way, no win at
// once for the side to move, mirror images once. It enumerates them: up to
// 8 stones it takes milliseconds, each stone more about three times as
// long.
func CountRandom(stones int) int {
	g, _ := NewGrid(Standard)
	level := map[Key]Board{{}: g.Empty()}
	for range stones {
		next := make(map[Key]Board, 4*len(level))
		for _, b := range level {
			for col := range g.Width {
				if !b.CanPlay(col) || b.IsWinningMove(col) {
					continue
				}
				c := b
				c.Play(col)
				k, _, _ := c.CanonicalKey()
				next[k] = c
			}
		}
		level = next
	}
	n := 0
	for _, b := range level {
		if !b.CanWinNext() {
			n++
		}
	}
	return n
}

// count writes n and the noun, singular for 1: "1 stone", "2 stones".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
