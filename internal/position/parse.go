package position

import "fmt"

// ParseError reports a move string that is not a legal game. Pos is the
// 1-based position in the string of the offending character.
type ParseError struct {
	Pos    int
	Reason string
}

func (e *ParseError) Error() string { return fmt.Sprintf("position %d: %s", e.Pos, e.Reason) }

// Parse returns the position reached by the move string s, one digit 1-7
// per move naming a column (1 is the leftmost; "" is the empty board). It
// checks that the moves make a legal game: every column digit valid, no
// move into a full column or after the game was won, at most 42 moves
// (Geometry.Parse). Errors are *ParseError.
func Parse(s string) (Position, error) { return Geometry{}.Parse(s, false) }

// FromKey returns the 7x6 position whose Key is key (Geometry.FromKey).
func FromKey(key uint64) (Position, error) { return Geometry{}.FromKey(key) }
