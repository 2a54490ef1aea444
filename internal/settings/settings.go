// Package settings holds every tunable of c4solve, as Steininger's
// settings.h holds his: the sizes of the tables, how they grow, the
// search's constants, each engine's own, and the defaults of the command
// and the server, one line each with the measurement behind it.
// docs/performance.md gives the measurements' tables, the commits that
// made them, and what was tried and rejected. The sizes the tables' bit
// layouts fix (a bucket's slots, the epoch's bits) are internal/tables'
// own.
package settings

import "time"

// The tables' sizes and growth.
const (
	// DefaultTableMiB is the shared table's size where none is given:
	// large enough that the hardest published positions rarely overwrite
	// useful entries, small enough for a 2-core machine with 24 GiB to
	// run a few solvers at once.
	DefaultTableMiB = 512
	// BookTableMiB is the size of the table of a book generation given
	// none: small, for a library caller who did not size one.
	BookTableMiB = 64
	// MinFitMiB is the smallest size a default size is cut down to where
	// it does not fit the process's memory (ttable.Limit.Fit).
	MinFitMiB = 16
	// LeafTableMiB is the size of each search goroutine's own table (see
	// LeafEmpty): the 2 MiB level-2 cache of a core of the machines
	// measured (30 of Test_L1_R3: 1 MiB from 22 stones 344 ms, 4 MiB from
	// 26 382 ms, against 315).
	LeafTableMiB = 2
	// GrowStartMiB is the part of a growing table a solve starts with:
	// every page the table grows into costs its first touch (6x6 at -tt
	// 1024: 2.45 s, 1.65 s of it faulting pages in, against 1.2 s; from 8
	// MiB 7x5 within the noise).
	GrowStartMiB = 32
	// GrowStores is how many stores of a search an entry of the part of
	// the table in use takes before the part doubles. Every growth loses
	// the entries whose bucket moves, so a table grows only as far as the
	// stores call for, not by the nodes searched (9x4's empty board, 9.6 s
	// against 6.5).
	GrowStores = 1
	// ClearParts is the number of parts a worker's own table is cleared
	// in, one at a time, stopping where the solve ends (a 1.9 ms solve
	// took 2.13 ms at 2 threads while its helper cleared 2 MiB whole).
	ClearParts = 64
)

// The search's constants, each measured against its neighbours.
const (
	// EtcEmpty: nodes with more empty cells try enhanced transposition
	// cutoffs. Nearer the leaves the children's entries cost more to
	// look up than the subtrees they save (on 7x6, below 28 stones
	// against 26 and 30).
	EtcEmpty = 14
	// ReplyRuleBeta is the highest beta at which the claimeven reply rule,
	// the costliest static rule, is tried: its bound of 3, a four by the
	// second player's 19th stone, is rare, and the nodes it saves cost
	// less than the rule (against 3: 0.4-1.8% more expanded nodes, 3-7%
	// less time on Test_L1_R2, about 2.5% on random 7-stone positions).
	ReplyRuleBeta = 2
	// LeafEmpty: positions of LeafEmpty empty cells or fewer (20 stones
	// or more on 7x6) are stored in the worker's own table of
	// LeafTableMiB, not the shared one: their subtrees are small and
	// their entries are looked up soon after they are stored, if ever, so
	// a table that stays in the core's cache serves them as well as a
	// large one, at a cache hit's cost (from 18 / 20 / 22 / 26 / 30
	// stones, 30 of Test_L1_R3 323 / 315 / 313 / 337 / 447 ms). Boards
	// of WideColumns columns or more take WideLeafEmpty (LeafEmptyOf).
	LeafEmpty = 22
	// WideLeafEmpty is LeafEmpty on boards of WideColumns columns or
	// more, whose subtrees of 22 empty cells, of more moves a node,
	// outgrow the worker's table: at one thread, -tt 64, mean of two runs
	// against 22 (18 / 16), testdata/sizes' random10x6 -6 / -4%, random12x5
	// -8 / -16%, random13x4 -2 / -5%, random11x5 -3 / -3%; 10x4's empty
	// board 797 M -> 552 M expanded at one thread (16), 122.5 -> 92.8 s
	// at two. On narrower boards: random8x8 +13 / +14%, random9x7 +5 /
	// +2%, his 9x5 opening_L2:100 -10 / -5%; 9x4, 6x7 and 7x5 lose
	// (docs/performance.md).
	WideLeafEmpty = 16
	// WideColumns is the fewest columns of a board that takes
	// WideLeafEmpty: 9x7 and 8x8 lose by 16, 10x6 gains.
	WideColumns = 10
	// SharedPlies: the first SharedPlies plies below the root use the
	// shared table whatever their stones, so that the workers share the
	// top of a small search (Test_L2_R2's positions have 20 stones or
	// more; 4 / 6 / 8 / 10 / 12 at 2 threads, Test_L2_R2:300 1.68 / 1.51
	// / 1.58 / 1.60 / 1.67 ms).
	SharedPlies = 6
	// BusyDepth is how many plies below the root workers avoid each
	// other's subtrees: deeper, subtrees are too small to be worth the
	// bookkeeping (Test_L1_R2:100, 2 threads: 95 ms at 6 or 10 against
	// 127 ms with no exclusion; 16 no better).
	BusyDepth = 10
	// MtdWidth is the width of the root's range below which the probes
	// walk from MtdCenter, rather than bisect: the probes far from the
	// score that bisection asks first are cheap, and once the range is
	// this narrow every probe left is near the score (with MtdCenter,
	// from 12 and 1: f7both -12% expanded nodes).
	MtdWidth = 20
	// MtdCenter is the first guess the walk starts from: "score > 0?". A
	// probe above the score costs more than one as far below it (80
	// random positions of 7 stones: 16.0 million expanded nodes for the
	// probes one above the score against 6.3 for those two below), and
	// from 1 each draw asked "> 1?", 0.8 million nodes apiece.
	MtdCenter = 0
	// GallopWidth is the width of the root's range at or below which a
	// galloping walk (Engine.Gallop) steps by one again: once a step has
	// gone past the score, the range left is that narrow.
	GallopWidth = 4
	// PollInterval is how many nodes pass between two looks at the
	// context: often enough to stop within a millisecond, rarely enough
	// to cost nothing measurable.
	PollInterval = 1 << 12
	// HelperNodes is how many nodes the first worker searches alone
	// before the others join, a multiple of PollInterval: solves of about
	// a millisecond gain nothing from a helper (against 4,096, 2 threads:
	// Test_L1_R1:200 0.227-0.234 against 0.244-0.275 ms).
	HelperNodes = 4 * PollInterval
	// SpreadNodes is the budget of nodes a worker of the first round of
	// an analysis with a time limit searches each move for, doubled at
	// each round after: about 20 ms of 8x8 at one thread, so that a round
	// of 8 moves takes about 0.2 s. The one value measured.
	SpreadNodes = 1 << 17
	// SpreadFirst is the share of an analysis's time limit for which its
	// moves are solved as without a limit, before those still open are
	// searched in rounds. Rounds from the start searched 20% to 50% more
	// nodes on 7x6 positions of 8 stones that finish well within the
	// limit (4 of random8.txt at 2 threads: 61 million nodes against 47).
	SpreadFirst = 1.0 / 3
	// AgingLends is how many solvers a busy pool lends between two new
	// generations of its table: entries of long ago go first, while the
	// solves under way rarely see their own entries aged.
	AgingLends = 256
	// TableFileNodes is the least work of an entry a table file keeps,
	// and TableFileFlush how often it is written. Killed at 10%, 50% and
	// 90% of a long 8x8 solve, its reruns searched the least with these:
	// larger subtrees or writes every 2 s kept less, smaller subtrees no
	// more in a file four times larger (docs/sizes.md, "What a kill
	// loses").
	TableFileNodes = 1 << 14
	TableFileFlush = 250 * time.Millisecond
)

// Engine is the tuning of one engine of the search, a row of Engines.
type Engine struct {
	// HelpersSpread: a helper worker asks the probe beside the first
	// worker's rather than the same one.
	HelpersSpread bool
	// Gallop: which ways the root's walk of probes gallops away from
	// MtdCenter.
	Gallop Gallop
	// DrawRule: the moves are searched for one that leaves the opponent
	// no line of four where the window asks for a draw at most.
	DrawRule bool
}

// Gallop is which ways a walk of probes gallops: doubling its step each
// probe, rather than one at a time.
type Gallop int

// The ways of Gallop.
const (
	GallopNone Gallop = iota // a step of one each way
	GallopUp                 // up only
	GallopBoth               // up and down
)

// Engines is each engine's tuning, by the suffix of its name in package
// solver, the most bits of its keys: "" 7x6's, "49" that of the other
// boards of at most 49 bits, "64", "80" (boards of at most 64 cells over
// 64 bits) and "128".
//
// HelpersSpread: on 7x6 the neighbours measured as good as or better
// (Test_L1_R2:40, 2 threads: 28.6-31.5 -> 26.6-27.6 ms), and on boards
// over 64 bits (10x6 at 16 stones, 2 threads: 4.7 s against 6.7 s; 9x7
// at 20: 4.6 against 4.3); on the boards of at most 64 bits, two threads
// asking the same probe, kept apart by the busy table alone, measured
// faster: 7x5's empty board 0.73-1.05 s -> 0.52-0.54 s, 6x7's 8.47-9.11 s
// -> 6.17-7.20 s, 6x6's 0.74 -> 0.60 s, 8x5's 14.3-14.5 s -> 12.8-13.1 s,
// 9x5's opening_L2 196 -> 174 ms.
//
// Gallop, mean expanded nodes at one thread against the walk by one:
// 7x6, whose scores lie near zero: none; galloping both ways costs
// 1.6-2.3% (fresh7j and fresh8j, 40 positions each). Boards of at most 49
// bits: up only; galloping down costs the empty 9x4 board (score -1) 11%,
// its probe "> -3" one the walk does not need, and 6x6's 14%. The other
// boards: both ways; random8x8 -25% (-21% up only), random10x6 -2.3%,
// random9x7 -0.4%, his 9x5 files' first 200 of opening_L2 -11% (-9% up
// only), midgame_L2 -2.8% (-0.2%).
//
// DrawRule: on the boards but 7x6 it saves 4-7% of the expanded nodes
// (9x4's empty board 20.47 M -> 18.97 M); on 7x6 1-2% (Test_L1_R3:30 2.63
// M -> 2.59 M), and fresh8g's 40 positions, side by side, alternated
// twice, took 0.194 and 0.125 s with it against 0.111 and 0.115 s
// without.
var Engines = map[string]Engine{
	"":    {HelpersSpread: true, Gallop: GallopNone, DrawRule: false},
	"49":  {HelpersSpread: false, Gallop: GallopUp, DrawRule: true},
	"64":  {HelpersSpread: false, Gallop: GallopBoth, DrawRule: true},
	"80":  {HelpersSpread: true, Gallop: GallopBoth, DrawRule: true},
	"128": {HelpersSpread: true, Gallop: GallopBoth, DrawRule: true},
}

// The command's and the server's defaults.
const (
	// ThreadsPerCPU is how many search goroutines a CPU may have (-threads,
	// -solvers): far more goroutines than cores only slow the search
	// down, and each adds a table.
	ThreadsPerCPU = 4
	// MaxBatch and MaxBody are the limits of a batch (POST /solve, POST
	// /analyze) where the server's configuration sets none: a body of 1
	// MiB holds 10,000 positions of 7x6 of up to 42 moves with room to
	// spare.
	MaxBatch = 10_000
	MaxBody  = 1 << 20
	// ProgressEvery is how often long work says where it is on standard
	// error when that is not a terminal: one line each time, so that work
	// shorter than that says nothing; ProgressDelay how long a solve runs
	// before a bar is shown on a terminal: quick solves show none.
	ProgressEvery = 10 * time.Second
	ProgressDelay = time.Second
	// PastLimitIdle is how long standard input is read on past -timeout
	// while no line comes: a stream that never ends must not keep the
	// command.
	PastLimitIdle = time.Second
)

// LeafEmptyOf is LeafEmpty on a board of width columns: WideLeafEmpty on
// boards of WideColumns columns or more.
func LeafEmptyOf(width int) int {
	if width >= WideColumns {
		return WideLeafEmpty
	}
	return LeafEmpty
}
