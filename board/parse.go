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
// the empty board. It checks that the moves make a legal game: every column
// digit valid, no move into a full column or after the game was won, at most
// 42 moves. Errors are *ParseError.
func ParseMoves(s string) ([]int, error) {
	cols := make([]int, 0, min(len(s), Cells))
	var p Position
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '1' || c > '0'+Width {
			what := fmt.Sprintf("%q", rune(c))
			if c >= 0x80 {
				what = fmt.Sprintf("byte 0x%02x", c)
			}
			return nil, &ParseError{i + 1, fmt.Sprintf("%s is not a column 1-%d", what, Width)}
		}
		col := int(c - '1')
		if i == Cells {
			return nil, &ParseError{i + 1, fmt.Sprintf("more than %d moves", Cells)}
		}
		if p.Won() {
			return nil, &ParseError{i + 1, fmt.Sprintf("the game was already won by move %d", i)}
		}
		if !p.CanPlay(col) {
			return nil, &ParseError{i + 1, fmt.Sprintf("column %d is full", col+1)}
		}
		p.Play(col)
		cols = append(cols, col)
	}
	return cols, nil
}

// Parse returns the position reached by the move string s (see ParseMoves).
func Parse(s string) (Position, error) {
	cols, err := ParseMoves(s)
	if err != nil {
		return Position{}, err
	}
	var p Position
	for _, c := range cols {
		p.Play(c)
	}
	return p, nil
}

// FormatMoves writes 0-based columns as a move string, the inverse of
// ParseMoves.
func FormatMoves(cols []int) string {
	b := make([]byte, len(cols))
	for i, c := range cols {
		b[i] = byte('1' + c)
	}
	return string(b)
}
