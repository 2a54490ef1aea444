package position_test

import (
	"errors"
	"strings"
	"testing"

	"c4solve/board"
	"c4solve/internal/position"
)

// drawGame is a full 42-move game in which nobody makes four, found by
// filling the board at random; TestParseDraw checks it on refBoard.
const drawGame = "547125662261271266215743771576315353334444"

func TestParseErrors(t *testing.T) {
	tests := []struct {
		in      string
		pos     int
		wantErr string
	}{
		{"448", 3, "position 3: '8' is not a column 1-7"},
		{"0", 1, "position 1: '0' is not a column 1-7"},
		{"4409", 3, "position 3: '0' is not a column 1-7"},
		{"44a", 3, "position 3: 'a' is not a column 1-7"},
		{"X", 1, "position 1: 'X' is not a column 1-7"},
		{"4 4", 2, "position 2: ' ' is not a column 1-7"},
		{" 44", 1, "position 1: ' ' is not a column 1-7"},
		{"44\n", 3, "position 3: '\\n' is not a column 1-7"},
		{"-1", 1, "position 1: '-' is not a column 1-7"},
		{"4\x00", 2, "position 2: '\\x00' is not a column 1-7"},
		{"4é", 2, "position 2: byte 0xc3 is not a column 1-7"},
		{"\xff", 1, "position 1: byte 0xff is not a column 1-7"},
		{"4444444", 7, "position 7: column 4 is full"},
		{"1111111", 7, "position 7: column 1 is full"},
		{"7777777", 7, "position 7: column 7 is full"},
		{"12121213", 8, "position 8: the game was already won by move 7"},
		{"121212121", 8, "position 8: the game was already won by move 7"},
		{"44556677", 8, "position 8: the game was already won by move 7"},
		// A bad digit is reported before the game being over.
		{"12121218", 8, "position 8: '8' is not a column 1-7"},
		{drawGame + "1", 43, "position 43: more than 42 moves"},
		// Errors come in the order of the string, whatever its length.
		{strings.Repeat("8", 43), 1, "position 1: '8' is not a column 1-7"},
		{strings.Repeat("4", 100), 7, "position 7: column 4 is full"},
		{drawGame + "8", 43, "position 43: '8' is not a column 1-7"},
	}
	for _, tt := range tests {
		p, err := position.Parse(tt.in)
		if err == nil {
			t.Errorf("Parse(%q) = %d moves, no error; want %q", tt.in, p.Stones(), tt.wantErr)
			continue
		}
		if got := err.Error(); got != tt.wantErr {
			t.Errorf("Parse(%q) error %q; want %q", tt.in, got, tt.wantErr)
		}
		var pe *position.ParseError
		if !errors.As(err, &pe) {
			t.Errorf("Parse(%q) error %T; want *position.ParseError", tt.in, err)
		} else if pe.Pos != tt.pos {
			t.Errorf("Parse(%q) error Pos = %d; want %d", tt.in, pe.Pos, tt.pos)
		}
		if p != (position.Position{}) {
			t.Errorf("Parse(%q) with an error = position with key %#x; want the zero Position", tt.in, p.Key())
		}
		cols, err2 := standardGrid.Columns(tt.in, false)
		if err2 == nil || err2.Error() != err.Error() || cols != nil {
			t.Errorf("Columns(%q) = %v, %v; want nil, %q", tt.in, cols, err2, tt.wantErr)
		}
	}
}

func TestParseValid(t *testing.T) {
	tests := []struct {
		in    string
		moves int
		won   bool
	}{
		{"", 0, false},
		{"4", 1, false},
		{"4453", 4, false},
		{"444444", 6, false},
		{"1212121", 7, true},
		{"4455667", 7, true},
		{drawGame, 42, false},
	}
	for _, tt := range tests {
		p, err := position.Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q) error %v; want none", tt.in, err)
			continue
		}
		if got := p.Stones(); got != tt.moves {
			t.Errorf("Parse(%q).Stones() = %d; want %d", tt.in, got, tt.moves)
		}
		if got := p.Won(); got != tt.won {
			t.Errorf("Parse(%q).Won() = %t; want %t", tt.in, got, tt.won)
		}
		cols, err := standardGrid.Columns(tt.in, false)
		if err != nil || len(cols) != tt.moves {
			t.Errorf("Columns(%q) = %v, %v; want %d columns", tt.in, cols, err, tt.moves)
		}
		if got := board.FormatColumns(cols, false); got != tt.in {
			t.Errorf("FormatColumns(Columns(%q)) = %q", tt.in, got)
		}
	}
	if p, _ := position.Parse(""); p != (position.Position{}) {
		t.Errorf("Parse(\"\") has key %#x; want the zero Position (the empty board)", p.Key())
	}
}

// TestParseDraw checks on refBoard that drawGame fills the board without
// four in a row, and that Parse agrees.
func TestParseDraw(t *testing.T) {
	var ref refBoard
	for i := 0; i < len(drawGame); i++ {
		col := int(drawGame[i] - '1')
		if !ref.canPlay(col) {
			t.Fatalf("drawGame move %d: column %d is full", i+1, col+1)
		}
		ref.play(col)
		if ref.hasFour(ref.lastMover()) {
			t.Fatalf("drawGame move %d: player %d has four", i+1, ref.lastMover())
		}
	}
	p, err := position.Parse(drawGame)
	if err != nil {
		t.Fatalf("Parse(%q) error %v", drawGame, err)
	}
	if p.Stones() != position.Cells || p.Won() || !p.Over() || p.Possible() != 0 {
		t.Errorf("Parse(%q): Stones() = %d, Won() = %t, Over() = %t, Possible() = %#x; want 42, false, true, 0",
			drawGame, p.Stones(), p.Won(), p.Over(), p.Possible())
	}
	for col := 0; col < position.Width; col++ {
		if p.CanPlay(col) {
			t.Errorf("Parse(%q).CanPlay(%d) = true; want false", drawGame, col)
		}
	}
}
