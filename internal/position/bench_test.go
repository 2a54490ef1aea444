package position_test

import (
	"math/rand/v2"
	"testing"

	"c4solve/internal/position"
)

// benchPositions returns n positions of 10 to 35 stones from random games
// that are still on, the kind of positions a search evaluates.
func benchPositions(n int) []position.Position {
	rng := rand.New(rand.NewPCG(7, 8))
	var ps []position.Position
	for len(ps) < n {
		var p position.Position
		stones := 10 + rng.IntN(26)
		for p.Stones() < stones && !p.Won() {
			if col := rng.IntN(position.Width); p.CanPlay(col) {
				p.Play(col)
			}
		}
		if !p.Won() {
			ps = append(ps, p)
		}
	}
	return ps
}

// BenchmarkStaticBounds times the static rules the search applies at every
// node: CanStillWin for both sides and the two claimeven rules.
func BenchmarkStaticBounds(b *testing.B) {
	ps := benchPositions(1024)
	b.ReportAllocs()
	var sink int
	for i := 0; b.Loop(); i++ {
		p := ps[i%len(ps)]
		if p.CanStillWin() {
			sink++
		}
		if p.OpponentCanStillWin() {
			sink++
		}
		if v, ok := p.ClaimevenBound(-position.ClaimevenWinScore); ok {
			sink += v
		} else if v, ok, _ := p.ClaimevenReplyBound(position.ClaimevenWinScore); ok {
			sink += v
		}
	}
	_ = sink
}
