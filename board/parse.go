package board

import "c4solve/internal/position"

// ParseError reports a move string that is not a legal game (Grid.Parse,
// Grid.Columns): Pos is the 1-based position in the string of the
// offending character, Reason what is wrong with it. Its Error reads
// "position 3: '8' is not a column 1-7".
type ParseError = position.ParseError
