package board

import "fmt"

// ParseError reports a move string that is not a legal game. Pos is the
// 1-based position in the string of the offending character.
type ParseError struct {
	Pos    int
	Reason string
}

func (e *ParseError) Error() string { return fmt.Sprintf("position %d: %s", e.Pos, e.Reason) }
