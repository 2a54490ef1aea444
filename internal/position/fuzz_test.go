package position_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"c4solve/board"
	"c4solve/internal/position"
)

// FuzzColumns checks that Columns never panics, that what it accepts
// round-trips through FormatColumns and is a legal game, and that what it
// rejects it rejects at the first character at fault.
func FuzzColumns(f *testing.F) {
	for _, s := range []string{
		"", "4", "4453", "44455554221", "448", "0", "4 4", "4é", "\xff",
		"4444444", "1212121", "12121213", "12121218", drawGame, drawGame + "1",
		strings.Repeat("1234567", 6), strings.Repeat("4", 43), strings.Repeat("x", 43),
		"2252576253462244111563365343671351441",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cols, err := columns(s)
		p, perr := position.Parse(s)
		if (err == nil) != (perr == nil) {
			t.Fatalf("Columns(%q) error %v but Parse(%q) error %v", s, err, s, perr)
		}
		if err != nil {
			checkRejected(t, s, err)
			return
		}

		if got := board.FormatColumns(cols, false); got != s {
			t.Fatalf("FormatColumns(Columns(%q)) = %q", s, got)
		}
		if len(cols) != len(s) || p.Stones() != len(s) {
			t.Fatalf("Columns(%q) = %d columns, Parse(%q).Stones() = %d; want %d", s, len(cols), s, p.Stones(), len(s))
		}
		var ref refBoard
		var q position.Position
		for i, c := range cols {
			if c < 0 || c >= position.Width || !ref.canPlay(c) {
				t.Fatalf("Columns(%q)[%d] = %d, not a legal column", s, i, c)
			}
			if ref.hasFour(ref.lastMover()) {
				t.Fatalf("Columns(%q) accepted move %d after the game was won", s, i+1)
			}
			ref.play(c)
			q.Play(c)
		}
		if p != q {
			t.Fatalf("Parse(%q) has key %#x; want %#x, the key of playing its columns", s, p.Key(), q.Key())
		}
		if got, want := p.Won(), ref.hasFour(ref.lastMover()); got != want {
			t.Fatalf("Parse(%q).Won() = %t; want %t", s, got, want)
		}
	})
}

// standardGrid is the 7x6 board's grid; columns is its Columns.
var standardGrid, _ = board.NewGrid(board.Standard)

func columns(s string) ([]int, error) { return standardGrid.Columns(s, false) }

// checkRejected checks the error for a string that Columns rejected.
func checkRejected(t *testing.T, s string, err error) {
	t.Helper()
	var pe *board.ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("Columns(%q) error %T (%v); want *board.ParseError", s, err, err)
	}
	if want := fmt.Sprintf("position %d: ", pe.Pos); !strings.HasPrefix(err.Error(), want) || pe.Reason == "" {
		t.Fatalf("Columns(%q) error %q; want %q and a reason", s, err, want)
	}
	if pe.Pos < 1 || pe.Pos > len(s) {
		t.Fatalf("Columns(%q) error Pos = %d; want 1 to %d", s, pe.Pos, len(s))
	}
	// Everything before the offending character is a legal game, and the
	// offending character alone makes the error.
	if _, err := columns(s[:pe.Pos-1]); err != nil {
		t.Fatalf("Columns(%q) error at %d, but Columns(%q) already fails: %v", s, pe.Pos, s[:pe.Pos-1], err)
	}
	if _, err2 := columns(s[:pe.Pos]); err2 == nil || err2.Error() != err.Error() {
		t.Fatalf("Columns(%q) error %v, but Columns(%q) error %v", s, err, s[:pe.Pos], err2)
	}
}
