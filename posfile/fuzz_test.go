package posfile_test

import (
	"errors"
	"strconv"
	"testing"

	"c4solve/board"
	"c4solve/internal/position"
	"c4solve/posfile"
)

// FuzzParseLine: ParseLine never panics; a bad line's error is a
// *LineError of the line's number; a good line's position is its moves',
// and the line written back in the benchmark format parses the same.
func FuzzParseLine(f *testing.F) {
	for _, s := range []string{"", "# c", "4453", "4453 -2", "4453 -2 x", "  4453\t-2  ", "4448", "4453 99",
		"1212121", "4453 +2", "4453 -0", "\ufeff4453", "44 53", "7422341735647741166133573473242566 1", `"" 1`, `""`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		l, ok, err := posfile.Format{}.ParseLine(7, text)
		if err != nil {
			var le *posfile.LineError
			if !errors.As(err, &le) || le.Num != 7 || ok {
				t.Fatalf("ParseLine(7, %q) = ok %v, error %v (%T); want a *LineError of line 7", text, ok, err, err)
			}
			return
		}
		if !ok {
			return // blank or a comment
		}
		moves := l.Moves
		if moves == posfile.EmptyBoard {
			moves = ""
		}
		p, perr := position.Parse(moves)
		if perr != nil || (board.Key{Lo: p.Key()}) != l.Board.Key() || l.Num != 7 {
			t.Fatalf("ParseLine(7, %q) = %+v; Parse(%q) = %v, %v", text, l, l.Moves, p, perr)
		}
		back := l.Moves
		if l.HasScore {
			if l.Expected < position.MinScore || l.Expected > position.MaxScore {
				t.Fatalf("ParseLine(7, %q): score %d out of range", text, l.Expected)
			}
			back += " " + strconv.Itoa(l.Expected)
		}
		l2, ok2, err2 := posfile.Format{}.ParseLine(7, back)
		if err2 != nil || !ok2 || l2 != l {
			t.Fatalf("ParseLine(7, %q) = %+v, but its line %q parses as %+v, %v, %v", text, l, back, l2, ok2, err2)
		}
	})
}
