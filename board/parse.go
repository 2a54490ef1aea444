package board

import "fmt"

// ParseError reports a move string that is not a legal game. Pos is the
// 1-based position in the string of the offending character.
type ParseError struct {
	Pos    int
	Reason string
}

func (e *ParseError) Error() string { return fmt.Sprintf("position %d: %s", e.Pos, e.Reason) }

// ParseMoves reads a move string, one digit 1-7 per move naming a column
// (1 is the leftmost), and returns the columns 0-based. The empty string is
// the empty board. It checks that the moves make a legal game, as Parse
// does. Errors are *ParseError.
func ParseMoves(s string) ([]int, error) {
	if _, err := Parse(s); err != nil {
		return nil, err
	}
	cols := make([]int, len(s))
	for i := range len(s) {
		cols[i] = int(s[i] - '1')
	}
	return cols, nil
}

// Parse returns the position reached by the move string s, one digit 1-7
// per move naming a column (1 is the leftmost; "" is the empty board). It
// checks that the moves make a legal game: every column digit valid, no
// move into a full column or after the game was won, at most 42 moves
// (Geometry.Parse). Errors are *ParseError.
func Parse(s string) (Position, error) { return Geometry{}.Parse(s, false) }

// FormatMoves writes 0-based columns as a move string, the inverse of
// ParseMoves.
func FormatMoves(cols []int) string {
	b := make([]byte, len(cols))
	for i, c := range cols {
		b[i] = byte('1' + c)
	}
	return string(b)
}
