// Package position is the engine's Connect-Four positions: pairs of
// bitboards, their geometry and their rules, on the standard 7x6 board and
// on any board of at most 128 bits. Package board is its door for users;
// the search (package solver) plays on its positions directly.
//
// The representation is the one described by John Tromp for Fhourstones and
// by Pascal Pons in "Solving Connect 4: how to build a perfect AI"
// (blog.gamesolver.org, part 6, "Bitboard"): one bit per cell, Height+1
// bits per column (the cells and a sentinel bit on top), so that shifts by
// 1, Height+1, Height and Height+2 walk vertically, horizontally and along
// both diagonals without wrapping from one column into the next. A position
// keeps the stones of the side to move and the mask of occupied cells; the
// opponent's stones are their exclusive or.
//
// Key returns position+mask, which adds one bit above the top stone of each
// column and is therefore unique for every position of its board (Pons,
// part 7, "Transposition table"). It fits Width*(Height+1) bits: 49 on 7x6.
//
// # One source, four engines
//
// The position and its rules are written once, in position.tmpl.go, and
// generated (internal/gen, as the standard library's sort package generates
// its variants) as Position, for 7x6, whose Geometry's methods are
// constants; Position64, for any board of at most 64 bits, on a
// Geometry64 worked out once from the size; Position128, for any board
// of at most 128 bits, on Bits128, two words whose methods stand for the
// operators; and PositionPacked, for the boards over 64 bits of at most 64
// cells (Packs: 8x8, 9x7, 10x6, 11x5, 12x5, 13x4 ...), in one word
// without sentinel bits, which the search plays them on. Package board's Grid and Board, for the code that
// handles every size alike, hold a Position128.
//
// position knows nothing of search: it answers questions about one position
// (legal moves, wins, threats, keys, the static rules of Allis' claimeven
// and odd threats) and parses and prints move strings.
package position

// The one go:generate directive of the module: it writes the variants of
// every template, this package's and solver's (internal/gen).
//go:generate go run ../gen -root ../..
