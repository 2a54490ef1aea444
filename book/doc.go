// Package book makes, stores and reads opening books: the exact scores of
// every Connect-Four position of at most a given number of stones.
//
// Positions with few stones take the longest to solve, and a search only
// ever reaches positions with more stones than its root, so a book answers
// exactly the positions a search cannot make quick. The idea is as old as
// the solved game: John Tromp's database of all 8-ply positions (1995)
// let searches from 8 stones on settle the rest, and Pascal Pons' solver
// (github.com/PascalPons/connect4) reads a book of partial keys.
//
// Generate computes a book bottom-up: it searches only the positions of
// exactly the book's depth (package solver), on several goroutines that
// share one transposition table, and backs every shallower score up from
// its children (negamax over the book, one ply each). The positions of
// the deepest level are solved in families of siblings, one after the
// other on a warm table, and can be split into shards of whole families
// (by a go-farm hash of the parent) solved by independent processes and
// joined by Merge; a checkpoint file lets an interrupted run resume.
// Books of every board of up to 128 bits are made so, on the board's
// board.Grid, each position solved by a solver.Solver lent by a
// solver.Pool. A book holds its canonical keys as two words
// (board.Key); in the file, the keys of a board of at most 64 bits
// take one word (format version 1), a wider board's two (version 2).
//
// A book holds each position once, under the smaller of its key and its
// mirror image's key (mirror images have the same score). The file format,
// described at the top of book.go, is versioned and checksummed with
// go-farm's Fingerprint64, and Decode checks everything it reads: a bad
// file is refused with a message, never read as a wrong score.
package book
