// Package solver computes exact game-theoretic scores of Connect-Four
// positions.
//
// # Scores
//
// Scores follow Pascal Pons' convention, defined once in package board
// (board.Size.MaxScore, board.Size.WinNextScore): from the point of view
// of the side to move, 0 is a draw; a win is 22 minus the number of stones the winner
// has played when the game ends, so winning sooner scores more; a loss is
// the negative of the same value for the opponent. On the 7x6 board scores
// lie in [-18, 18]; the empty board scores +1.
//
// # Search
//
// The search is negamax with alpha-beta pruning in the form of principal
// variation search (Reinefeld, "An improvement to the Scout tree search
// algorithm", ICCA Journal 6(4), 1983, NegaScout): the first child gets the
// full window, the others a null window, and a child that fails high inside
// the window is searched again. The root score is found as in Pons (part 8,
// "Iterative deepening and null window"): by a sequence of null-window
// probes, each answering "is the score above v?", that narrow the range
// [lower, upper] until it closes: by bisection while the range is wide,
// then by a walk from 0, as MTD(f) walks from a guess (Plaat, Schaeffer,
// Pijls and de Bruin, "Best-first fixed-depth minimax algorithms", 1996).
// A weak solve (SolveWeak) narrows the range [-1, 1] only: it asks whether
// the score is above 0, and then perhaps whether it is above -1.
//
// Every node knows from the number of stones a static range for its score
// (nobody can win before their next stone, nor after the board is full) and
// narrows it with bounds from the shared transposition table (package
// ttable), keyed by the position or its mirror image, whichever key is
// smaller: mirror images have the same score. A node that cannot be cut off
// by its own entry tries the entries of its children first (enhanced
// transposition cutoff, Plaat, Schaeffer, Pijls and de Bruin, "Nearly
// optimal minimax tree search?", 1994): one child's upper bound may prove a
// fail high, and all the children's lower bounds together a fail low. A
// child whose side to move has a single move that does not lose at once
// has no entry of its own (see below); its grandchild's is used.
//
// Positions of 20 stones or more are kept in a small table of each
// worker's own (2 MiB, the size of a core's level-2 cache) instead of the
// shared one: they are most of the nodes, their subtrees are small, and
// their entries are wanted soon after they are stored, so a probe that
// stays in the core's cache saves more than a large table's longer memory
// beats (internal/settings holds the threshold and its measurements).
//
// Moves are ordered by the threats (cells where four would be completed)
// they leave, weighing most those right above a column's next free cell,
// then, where the root's opponent is to move, by the lines of four through
// the cell, then center first; the move the table remembers as best goes
// first. Immediate wins end the search before it starts; a forced block is
// the only move tried, played through without a table entry of its own, so
// the table holds only positions with a choice; moves that let the opponent
// win at once are never tried (Allis, "A knowledge-based approach of
// Connect-Four", 1988, and Pons, part 9, "Anticipate direct losing moves").
//
// Static bounds cut nodes before any move: the number of stones bounds
// how soon either side can win; a side with no open line of four cannot
// win; Allis' claimeven rule bounds the score of the first player to move
// where every column has an even height (by 0, or by -1 to -3 where the
// second player's follow-up completes a four), and applied one move ahead,
// after each reply of the second player to move, bounds that player's
// score from below (after Steininger's solver's even-cells strategy);
// Allis' odd threats are the first player's counterpart (the rules are
// internal/position's). A forced block applies only the first bound and
// leaves the rules to the position after it. Before any move is searched,
// a move whose opponent has a single parry is seen to win two stones later
// where after the parry two of our threats stand stacked above a playable
// cell, or every playable cell but our move's lies right below a threat of
// ours.
//
// # Parallel search
//
// A Solver runs its workers under errgroup (golang.org/x/sync) on the same
// root, sharing the table and the root's score range: lazy SMP, as in the
// chess engines that popularised it (see "Lazy SMP" on the Chess
// Programming Wiki). The first worker searches alone until it has searched
// a few thousand nodes (internal/settings), so that small solves start no goroutine; the
// others join it then, each asking the probe next to the first worker's,
// the one it would ask next. Near the root a worker defers the moves whose
// subtrees another worker is searching to a second pass, when their
// results are likely in the table (Weill, "The ABDADA distributed minimax
// search algorithm", 1996). A worker drops a probe whose question the
// others have settled; once the range is closed, every worker finds so
// at its next poll, every few thousand nodes, and returns: no worker
// cancels another. Every bound any worker stores is proven, so the score
// never depends on the number of workers.
//
// Analyze, which solves the moves of a position, solves them side by side
// instead, one worker each, center first; a worker with no move left to
// start helps on the one the fewest workers search. With a time limit (a
// deadline on its context), the moves still open after the first third of
// the time are searched in rounds for the rest of it (see Solver.Analyze);
// a search cut by its budget leaves its entries in the table for the next
// round. A position solved within the first third is solved node for node
// as without a limit. Where the book knows the position but not its
// children, the book's score bounds every child's, and each child's first
// probe asks whether it is the best move. Solves side by side gain more
// from the cores than lazy SMP gives one solve.
//
// # Every board
//
// The search is written once, in templates of one layer each (the engine
// and its root in engine.tmpl.go, the search of a worker in search.tmpl.go,
// the workers in worker.tmpl.go, the analysis in analysis.tmpl.go, the line
// of perfect play in pv.tmpl.go), and generated (internal/gen) for the 7x6
// board (on positions whose dimensions are constants the compiler folds),
// for every other board of at most 49 bits and of at most 64 (both on
// bitboards of one word), for the boards over 64 bits of at most 64 cells
// (one word without sentinel bits) and for every board of at most 128 bits
// (bitboards of two words; the positions of every variant are
// internal/position's): one search, with every rule, lazy SMP and the
// workers' own tables at every size. The boards of at most 49 bits keep
// their positions in a table of one-word entries, as 7x6 does (see
// ttable): a key's check beside its bounds, three times as many in the
// same memory as the entries of the boards over 49 bits, which keep whole
// keys of one or two words. Solver picks the engine of a board's size, for
// the code that handles every size alike. Solvers that share one table and
// solve at once (book generation, the server, a Batch's solves side by
// side) come from a Pool.
package solver

// The generated files (zengine*.go, zsearch*.go, zworker*.go,
// zanalysis*.go, zpv*.go) are written by internal/position's go:generate
// directive, which writes every package's variants at once.
