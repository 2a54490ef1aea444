// Package board is a Connect-Four board of any size, for the code that
// handles positions: a Grid is a board's size (7x6, Standard, or any
// other whose bitboard fits 128 bits), and a Board a position on it, reached
// by parsing a move string (Grid.Parse) or playing columns (Board.Play).
// A Board answers what a game needs: legal moves, wins, the end of the
// game, its key (unique for every position of its board) and its mirror
// image's, and drawing.
//
// Scores follow Pascal Pons' convention (WeakScore, Size.MaxScore), and
// columns are named '1' to '9', then 'a' on (ColumnName).
//
// The search plays the same positions on the engine's own representation
// (internal/position, generated for each kind of board), which board's
// Board holds as two words a bitboard whatever the size.
package board
