package solver

import (
	"c4solve/internal/settings"
	"sync"
)

// rootBounds is the range of the root score that the workers of a solve
// narrow together. It is safe for concurrent use.
type rootBounds struct {
	mu     sync.Mutex
	lo, hi int
	first  int // the probe to ask first (see set); written before the workers start
}

// rootView is what Progress reports of an analysis or a line of perfect
// play under way, whose searches are of the position's children, not of
// the position asked about: the bounds that its moves' ranges give that
// position's score, the best of theirs, and the nodes of the searches
// that have ended. The bounds are safe to read while the searches run;
// mu guards nodes.
type rootView struct {
	known        int         // the best score of the moves scored with no search; below any score for none
	moves        []moveRange // the moves searched, whose ranges bound their scores
	lower, upper int         // the range the scores are clipped to (weak: -1 and 1)

	mu    sync.Mutex
	nodes uint64
}

// moveRange is the range rb of the score of a move's child, whose static
// bounds are [least, most] and whose range is clipped below at lower (as
// rootBounds.result takes them).
type moveRange struct {
	rb                 *rootBounds
	least, most, lower int
}

// bounds returns the bounds established so far on the best score of the
// moves of v, each the negation of its child's.
func (v *rootView) bounds() (lower, upper int) {
	lower, upper = v.known, v.known
	for _, m := range v.moves {
		r, _ := m.rb.result(m.least, m.most, m.lower, 0)
		lower, upper = max(lower, -r.Upper), max(upper, -r.Lower)
	}
	return min(max(lower, v.lower), v.upper), min(max(upper, v.lower), v.upper)
}

// noFirst is set's first when the solve has no probe to ask first: no
// range holds it.
const noFirst = -1 << 20

// set starts the range at [lo, hi], with first, when the range holds it,
// the probe asked before the others (see probe): the score when it is
// likely lo, which one probe then proves.
func (rb *rootBounds) set(lo, hi, first int) {
	rb.mu.Lock()
	defer rb.mu.Unlock()
	rb.lo, rb.hi, rb.first = lo, hi, first
}

// probe returns the probe to ask in the range [lo, hi): the solve's first
// while the range holds it, then nextProbe's.
func (rb *rootBounds) probe(lo, hi int, gallop settings.Gallop) int {
	if lo <= rb.first && rb.first < hi {
		return rb.first
	}
	return nextProbe(lo, hi, gallop)
}

func (rb *rootBounds) get() (lo, hi int) {
	rb.mu.Lock()
	defer rb.mu.Unlock()
	return rb.lo, rb.hi
}

// result is the Result of a solve of a position whose static bounds are
// [least, most] and whose range, clipped below at lower, rb is once the
// workers stop, and whether the range closed: the score if it did, else
// the bounds found (the solve was interrupted), within the static ones.
func (rb *rootBounds) result(least, most, lower int, nodes uint64) (Result, bool) {
	lo, hi := rb.get()
	if lo < hi {
		return Result{Lower: max(lo, least), Upper: min(hi, most), Nodes: nodes}, false
	}
	// With a clipped range (weak solves) the range may close with hi < lo:
	// the score lies beyond the clipped end, on the side of the bound that
	// is a proven fact.
	sc := hi
	if hi < lo && hi >= lower {
		sc = lo
	}
	return Result{Score: sc, Lower: sc, Upper: sc, Nodes: max(nodes, 1)}, true
}

// update records the answer r of the probe "score > probe?": r <= probe
// means score <= r, anything else score >= r.
func (rb *rootBounds) update(probe, r int) {
	rb.mu.Lock()
	defer rb.mu.Unlock()
	if r <= probe {
		rb.hi = min(rb.hi, r)
	} else {
		rb.lo = max(rb.lo, r)
	}
}

// helperProbe is the probe of helper id (1 and up) where the first worker
// asks "score > v?" in the range [lo, hi): the question next to v that the
// first worker would ask next, so that the helper answers it meanwhile.
// Once v is an end of the range beside settings.MtdCenter, probes walk away from
// the center (nextProbe), and the helper asks the one beyond v; while the
// range holds the center on both sides of v, odd helpers ask above v and
// even ones below. A helper with no question left beside v asks v too.
func helperProbe(lo, hi, v, id int) int {
	up := lo >= settings.MtdCenter || hi-1 > settings.MtdCenter && id%2 == 1
	if up && v+1 < hi {
		return v + 1
	}
	if v-1 >= lo {
		return v - 1
	}
	if v+1 < hi {
		return v + 1
	}
	return v
}

// nextProbe picks the value v of the next null-window probe "score > v?" in
// the range [lo, hi), lo < hi. As in Pons' solver, it is the middle of the
// range, moved halfway out to the range's end on its side of zero: a probe
// far from zero is cheap (a quick win or loss is refuted by a shallow
// search), and scores are near zero more often than not. The other orders
// measured (docs/performance.md) gain on one set what they lose on another.
//
// Once the range is at most settings.MtdWidth wide, the cheap probes are done, and
// every probe left is near the score: the probe is then the value of the
// range nearest settings.MtdCenter, so that a score near it, the most common, is
// closed in on from both sides by two probes, and another walks to it one
// step at a time (as MTD(f) does from a first guess: Plaat, Schaeffer,
// Pijls and de Bruin, "Best-first fixed-depth minimax algorithms", 1996),
// where bisection would probe around it; and a probe above the score,
// which must refute every move, costs more than one as far below it.
//
// A walk may gallop (see settings.Gallop): away from settings.MtdCenter, it doubles its
// distance from it with each step while the range is more than
// settings.GallopWidth wide, "> 0", "> 1", "> 3", "> 7", ... up and "> -2",
// "> -4", "> -8", ... down, as an exponential search does. On boards
// whose scores lie far from zero, the proofs of the small wins that a walk
// asks first can cost more than the proof of the large one: on an 8x8
// position of score 10 (21 stones), "> 3" to "> 7" took 15 of its 19.8
// million nodes, where "> 8" took 0.13 million (docs/performance.md).
func nextProbe(lo, hi int, gallop settings.Gallop) int {
	if hi-lo <= settings.MtdWidth {
		if gallop != settings.GallopNone && hi-lo > settings.GallopWidth {
			if lo > settings.MtdCenter {
				return min(2*lo-settings.MtdCenter-1, hi-1)
			}
			if hi <= settings.MtdCenter && gallop == settings.GallopBoth {
				return max(2*hi-settings.MtdCenter-1, lo)
			}
		}
		return min(max(settings.MtdCenter, lo), hi-1)
	}
	med := lo + (hi-lo)/2
	if med <= 0 && lo/2 < med {
		med = lo / 2
	} else if med >= 0 && hi/2 > med {
		med = hi / 2
	}
	return med
}
