package board

import (
	"fmt"
	"math/rand/v2"
)

// RandomPositions returns n distinct positions of the given number of
// stones, each reached by uniformly random legal moves from the empty
// board, as move strings ("4453"). They are the positions a game in
// progress asks about, unlike the published sets, which were picked for
// their difficulty. A position is left out, and another drawn, when the
// game ended on the way (a four was made) or its side to move can win at
// once (no search needed); two positions that are each other's mirror image
// count as one, since a solver sees them as one. The same seed gives the
// same positions.
//
// It fails when the positions run out before n are found (few exist of
// fewer than 4 stones, none of more than Cells).
func RandomPositions(seed uint64, stones, n int) ([]string, error) {
	if stones < 0 || stones >= Cells {
		return nil, fmt.Errorf("%d stones: want 0 to %d", stones, Cells-1)
	}
	rng := rand.New(rand.NewPCG(seed, 0x63347361))
	seen := make(map[uint64]bool, n)
	var out []string
	// Draws that give a repeat or a rejected position are bounded, so that
	// asking for more positions than exist ends with an error.
	for tries := 0; len(out) < n; tries++ {
		if tries >= 1000*n+1000 {
			return out, fmt.Errorf("only %d distinct positions of %d stones found in %d draws", len(out), stones, tries)
		}
		p, cols, ok := randomGame(rng, stones)
		if !ok || p.CanWinNext() {
			continue
		}
		key, _, _ := p.CanonicalKey()
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, FormatMoves(cols))
	}
	return out, nil
}

// randomGame plays stones uniformly random legal moves from the empty
// board. It reports false when a move on the way made four.
func randomGame(rng *rand.Rand, stones int) (Position, []int, bool) {
	var p Position
	cols := make([]int, 0, stones)
	for range stones {
		var legal [Width]int
		k := 0
		for c := range Width {
			if p.CanPlay(c) {
				legal[k] = c
				k++
			}
		}
		c := legal[rng.IntN(k)]
		if p.IsWinningMove(c) {
			return p, nil, false
		}
		p.Play(c)
		cols = append(cols, c)
	}
	return p, cols, true
}
