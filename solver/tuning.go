package solver

import "time"

// The search's tuning constants, each measured against its neighbours;
// the figures are in docs/performance.md and the commit messages. Those
// that differ by engine (helpersSpread, gallop, drawRule) are declared
// with the engine, a row of internal/gen's table of engines, and
// generated into zvariants.go with their measurements.

// etcEmpty: nodes with more empty cells try enhanced transposition
// cutoffs (see enhancedCutoff). Nearer the leaves the children's entries
// cost more to look up than the subtrees they save (on 7x6, below 28
// stones against 26 and 30: docs/performance.md).
const etcEmpty = 14

// replyRuleBeta is the highest beta at which staticBounds tries the
// claimeven reply rule (position.Position.ClaimevenReplyBound), the costliest static
// rule: its bound of 3, a four by the second player's 19th stone, is rare,
// and the nodes it saves cost less than the rule (against 3, the rule's
// highest bound: 0.4-1.8% more expanded nodes, 3-7% less time on
// Test_L1_R2, about 2.5% on random 7-stone positions: docs/performance.md).
const replyRuleBeta = 2

// tableMoveScore is the ordering score of the table's move: above any
// orderScore, shifted by tieBits, plus a tiebreak.
const tableMoveScore = 1 << 16

// tieBits is the room below an orderScore for a tiebreak (Geometry.CellLines' numbers, at most 13).
const tieBits = 4

// helperNodes is how many nodes the first worker searches alone before
// the others join (see runWorkers), a multiple of the poll interval, the
// grain of the check: solves of about a millisecond gain nothing from a
// helper (docs/performance.md).
const helperNodes = 4 * pollInterval

// pollInterval is how many nodes pass between two looks at the context:
// often enough to stop within a millisecond, rarely enough to cost nothing.
const pollInterval = 1 << 12

// Positions of leafEmpty empty cells or fewer (20 stones or more on 7x6)
// are stored in a small table of
// each worker's own, LeafTableMiB large, rather than in the shared one.
// Their subtrees are small and their entries are looked up soon after they
// are stored, if ever, so a table that stays in the core's cache serves
// them as well as a large one, and the probe of a position near the leaves
// (most positions searched) costs a cache hit instead of a trip to memory.
// The shared table keeps the positions nearer the root, whose entries save
// the most work and which the workers gain from sharing. The size matches
// the 2 MiB level-2 cache of a core of the machines measured; 20 stones
// measured best (docs/performance.md).
//
// The first sharedPlies plies below the root use the shared table whatever
// their stones, so that the workers share the top of a small search
// (Test_L2_R2's positions have 20 stones or more).
const (
	leafEmpty    = 22
	sharedPlies  = 6
	LeafTableMiB = 2
)

// busyDepth is how many plies below the root workers avoid each other's
// subtrees: deeper, subtrees are too small to be worth the bookkeeping
// (measured: docs/performance.md).
const busyDepth = 10

// mtdWidth is the width of the root's range below which nextProbe walks
// from mtdCenter: the probes far from the score that bisection asks first
// are cheap, and once the range is this narrow every probe left is near
// the score (docs/performance.md).
const mtdWidth = 20

// gallopWidth is the width of the root's range at or below which a
// galloping walk (see nextProbe) steps by one again: once a step has gone
// past the score, the range left is that narrow, and the probes of the
// walk from its bottom are those nearest the score.
const gallopWidth = 4

// mtdCenter is the first guess nextProbe walks from once the range is
// narrow: the first question near the score is "score > 0?". A probe
// above the score costs more than one as far below it (it must refute
// every move, where one below needs one good move): on 80 random
// positions of 7 stones, 16.0 million expanded nodes for the probes one
// above the score against 6.3 for those two below, and starting the walk
// at 1 asked each draw "> 1?", 0.8 million nodes apiece
// (docs/performance.md).
const mtdCenter = 0

// spreadNodes is the budget of nodes a worker of the first round of an
// analysis with a time limit (see Engine.spread) searches each move for,
// doubled at each round after: about 20 ms of 8x8 at one thread (6
// million nodes a second on 18 stones), so that a round of 8 moves takes
// about 0.2 s, and the rounds of a second have searched every move
// twice. The one value measured (commit message).
const spreadNodes = 1 << 17

// spreadFirst is the share of an analysis's time limit for which its
// moves are solved as without a limit, before those still open are
// searched in rounds (Engine.spread). Rounds from the start searched 20%
// to 50% more nodes on 7x6 positions of 8 stones that finish well within
// the limit (as the server's /solve and /analyze solve them, at 2
// threads: 4 of random8.txt, 61 million nodes against 47); those solve in the first
// third just as without a limit, and a position that takes longer still
// has two thirds of the time for every move's bounds. A variable so
// that tests may spread from the start.
var spreadFirst = 1.0 / 3

// agingLends is how many Solvers a busy pool lends between two new
// generations of its table: entries of long ago go first, while the solves
// under way rarely see their own entries aged.
const agingLends = 256

// DefaultTableFileNodes is TableFile.Nodes unless set, and
// DefaultTableFileFlush TableFile.FlushEvery. Killed at 10%, 50% and 90%
// of a long 8x8 solve (docs/sizes.md, "What a kill loses"), its reruns
// searched the least with these: larger subtrees or writes every 2 s kept
// less, smaller subtrees no more in a file four times larger, and a write
// a quarter second costs nothing next to the search.
const (
	DefaultTableFileNodes = 1 << 14
	DefaultTableFileFlush = 250 * time.Millisecond
)
