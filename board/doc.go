// Package board implements a 7x6 Connect-Four position as a pair of
// bitboards.
//
// The representation is the one described by John Tromp for Fhourstones and
// by Pascal Pons in "Solving Connect 4: how to build a perfect AI"
// (blog.gamesolver.org, part 6, "Bitboard"): one bit per cell, seven bits per
// column (six cells and a sentinel bit on top), so that shifts by 1, 7, 6
// and 8 walk vertically, horizontally and along both diagonals without
// wrapping from one column into the next. A position keeps the stones of the
// side to move and the mask of occupied cells; the opponent's stones are
// their exclusive or.
//
// Key returns position+mask, which adds one bit above the top stone of each
// column and is therefore unique for every position of the 7x6 board (Pons,
// part 7, "Transposition table"). It fits in 49 bits.
//
// board knows nothing of search: it answers questions about one position
// (legal moves, wins, threats, keys) and parses and prints move strings.
package board
