package posfile_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"c4solve/board"
	"c4solve/internal/position"
	"c4solve/posfile"
)

func TestParseLine(t *testing.T) {
	tests := []struct {
		text     string
		ok       bool
		moves    string
		expected int
		hasScore bool
	}{
		{"", false, "", 0, false},
		{"   ", false, "", 0, false},
		{"\t\r", false, "", 0, false},
		{"# a comment", false, "", 0, false},
		{"#4453 -2", false, "", 0, false},
		{"  # indented comment", false, "", 0, false},
		{"4453", true, "4453", 0, false},
		{"4453 -2", true, "4453", -2, true},
		{"  4453\t-2 \r", true, "4453", -2, true},
		{"4455 18", true, "4455", 18, true},
		{"4453 -18", true, "4453", -18, true},
		{"4453 0", true, "4453", 0, true},
		{"4453 +3", true, "4453", 3, true},
		{"1212121 5", true, "1212121", 5, true}, // over, but a legal game: the solver rejects it
		// The lines c4solve prints read back: the empty board, -pv's line,
		// MISMATCH, a stopped solve's bounds, -analyze's scores (the best).
		{`"" 1`, true, `""`, 1, true},
		{`"" 1 44444432655555323332267623526661117777711`, true, `""`, 1, true},
		{"4453 -2 MISMATCH", true, "4453", -2, true},
		{"44 incomplete -18 <= score <= 18", true, "44", 0, false},
		{"4453 -5 -5 -2 -3 -4 -2 -2", true, "4453", -2, true},
		{"444444 -1 0 1 full 1 0 -1", true, "444444", 1, true},
		{"4453 -5 -5 -2 -3 -4 -2 -2 344446655755522122226666171111777733", true, "4453", -2, true},
		{`{"pos":"4453","score":-2,"scores":[-5,-5,-2,-3,-4,-2,-2],"best":[3,6,7],"nodes":7,"seconds":0.000029}`, true, "4453", -2, true},
		{`{"pos":"\"\"","score":1,"nodes":0,"seconds":0}`, true, `""`, 1, true},
		{`{"pos":"44","lower":-18,"upper":18,"incomplete":true,"nodes":9,"seconds":0.1}`, true, "44", 0, false},
	}
	for _, tt := range tests {
		l, ok, err := posfile.Format{}.ParseLine(7, tt.text)
		if err != nil {
			t.Errorf("ParseLine(7, %q) error %v; want none", tt.text, err)
			continue
		}
		if ok != tt.ok {
			t.Errorf("ParseLine(7, %q) ok = %t; want %t", tt.text, ok, tt.ok)
			continue
		}
		if !ok {
			if l != (posfile.Line{}) {
				t.Errorf("ParseLine(7, %q) = %+v for a skipped line; want the zero Line", tt.text, l)
			}
			continue
		}
		want := posfile.Line{Num: 7, Moves: tt.moves, Expected: tt.expected, HasScore: tt.hasScore}
		p, _ := position.Parse(tt.moves)
		if g := l.Board.Grid(); g == nil || g.Size != board.Standard || l.Board.Key() != (board.Key{Lo: p.Key()}) {
			t.Errorf("ParseLine(7, %q): Board %v; want the 7x6 board of %v", tt.text, l.Board, p)
		}
		l.Board = board.Board{} // its grid, the zero Format's
		if l != want {
			t.Errorf("ParseLine(7, %q) = %+v; want %+v", tt.text, l, want)
		}
	}
}

func TestParseLineErrors(t *testing.T) {
	tests := []struct {
		text     string
		wantErr  string
		parsePos int // the board.ParseError position, 0 if none
	}{
		{"4453 x", `line 12: score "x" is not a whole number from -18 to 18`, 0},
		{"4453 2.5", `line 12: score "2.5" is not a whole number from -18 to 18`, 0},
		{"4453 19", `line 12: score "19" is not a whole number from -18 to 18`, 0},
		{"4453 -19", `line 12: score "-19" is not a whole number from -18 to 18`, 0},
		{"4453 -2 extra", "line 12: 3 fields; want moves and an optional score (or a line c4solve printed)", 0},
		{"4453 -2 # comment", "line 12: 4 fields; want moves and an optional score (or a line c4solve printed)", 0},
		{"4453 -2 44", "line 12: 3 fields; want moves and an optional score (or a line c4solve printed)", 0}, // a line that does not end the game
		{"4453 -2 -2 -2 -2 -2 -2", "line 12: 7 fields; want moves and an optional score (or a line c4solve printed)", 0},
		{"4453 -5 -5 -2 -3 -4 -2 -19", `line 12: score "-19" is not a whole number from -18 to 18`, 0},
		{"448", "line 12: position 3: '8' is not a column 1-7", 3},
		{"448 -2", "line 12: position 3: '8' is not a column 1-7", 3},
		{"4453#", "line 12: position 5: '#' is not a column 1-7", 5},
		{"4444444 0", "line 12: position 7: column 4 is full", 7},
		{"12121213", "line 12: position 8: the game was already won by move 7", 8},
		{"-2", "line 12: position 1: '-' is not a column 1-7", 1},
		{`{"file":"f","positions":1}`, `line 12: a JSON object but not one of c4solve -json's: want "pos" and an optional "score"`, 0},
		{`{"pos":"448","score":1}`, "line 12: position 3: '8' is not a column 1-7", 3},
	}
	for _, tt := range tests {
		l, ok, err := posfile.Format{}.ParseLine(12, tt.text)
		if err == nil {
			t.Errorf("ParseLine(12, %q) = %+v, %t, no error; want %q", tt.text, l, ok, tt.wantErr)
			continue
		}
		if ok || l != (posfile.Line{}) {
			t.Errorf("ParseLine(12, %q) = %+v, %t with an error; want the zero Line, false", tt.text, l, ok)
		}
		if got := err.Error(); got != tt.wantErr {
			t.Errorf("ParseLine(12, %q) error %q; want %q", tt.text, got, tt.wantErr)
		}
		var le *posfile.LineError
		if !errors.As(err, &le) || le.Num != 12 {
			t.Errorf("ParseLine(12, %q) error %#v; want a *posfile.LineError with Num 12", tt.text, err)
		}
		var pe *board.ParseError
		switch {
		case tt.parsePos == 0 && errors.As(err, &pe):
			t.Errorf("ParseLine(12, %q) error wraps %v; want no *board.ParseError", tt.text, pe)
		case tt.parsePos != 0 && !errors.As(err, &pe):
			t.Errorf("ParseLine(12, %q) error %v does not wrap a *board.ParseError", tt.text, err)
		case tt.parsePos != 0 && pe.Pos != tt.parsePos:
			t.Errorf("ParseLine(12, %q) error wraps Pos %d; want %d", tt.text, pe.Pos, tt.parsePos)
		}
	}
}

func TestScan(t *testing.T) {
	in := "4453 -2\n\n# comment\n448\n4455 18\n4 5 6\n44\n"
	var lines []int
	var bad []string
	err := posfile.Format{}.Scan(strings.NewReader(in), func(l posfile.Line) bool {
		lines = append(lines, l.Num)
		return true
	}, func(e *posfile.LineError) {
		bad = append(bad, e.Error())
	})
	if err != nil {
		t.Fatalf("Scan error %v", err)
	}
	if want := []int{1, 5, 7}; !slices.Equal(lines, want) {
		t.Errorf("Scan read lines %v; want %v", lines, want)
	}
	wantBad := []string{
		"line 4: position 3: '8' is not a column 1-7",
		"line 6: 3 fields; want moves and an optional score (or a line c4solve printed)",
	}
	if !slices.Equal(bad, wantBad) {
		t.Errorf("Scan bad lines %q; want %q", bad, wantBad)
	}

	// fn returning false stops the scan.
	lines = nil
	err = posfile.Format{}.Scan(strings.NewReader(in), func(l posfile.Line) bool {
		lines = append(lines, l.Num)
		return l.Num < 5
	}, func(*posfile.LineError) {})
	if err != nil || !slices.Equal(lines, []int{1, 5}) {
		t.Errorf("Scan stopping at line 5 read %v, error %v; want [1 5], nil", lines, err)
	}
}

// TestScanLineEnds: a line ends with LF, CR LF or a CR alone, read one
// byte at a time too (a CR LF split between two reads); a file with CR
// line ends read as one line, whose second field was blamed as a score.
func TestScanLineEnds(t *testing.T) {
	want := []string{"1:4453 -2", "2:4455 18", "4:44"}
	for _, in := range []string{
		"4453 -2\n4455 18\n\n44",
		"4453 -2\r\n4455 18\r\n\r\n44\r\n",
		"4453 -2\r4455 18\r\r44\r",
		"4453 -2\r4455 18\r\n\r44",
	} {
		for _, r := range []io.Reader{strings.NewReader(in), iotest.OneByteReader(strings.NewReader(in))} {
			var got []string
			err := posfile.Format{}.Scan(r, func(l posfile.Line) bool {
				if l.HasScore {
					got = append(got, fmt.Sprintf("%d:%s %d", l.Num, l.Moves, l.Expected))
				} else {
					got = append(got, fmt.Sprintf("%d:%s", l.Num, l.Moves))
				}
				return true
			}, func(e *posfile.LineError) { got = append(got, e.Error()) })
			if err != nil || !slices.Equal(got, want) {
				t.Errorf("Scan(%q) read %q, error %v; want %q", in, got, err, want)
			}
		}
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good")
	if err := os.WriteFile(good, []byte("# two positions\n4453 -2\n\n4455\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ls, err := (posfile.Format{}).ReadFile(good, 0)
	if err != nil || len(ls) != 2 || ls[0].Moves != "4453" || ls[0].Expected != -2 || ls[1].Num != 4 || ls[1].HasScore {
		t.Errorf("ReadFile(good, 0) = %+v, %v; want 4453 -2 on line 2 and 4455 on line 4", ls, err)
	}
	if ls, err := (posfile.Format{}).ReadFile(good, 1); err != nil || len(ls) != 1 {
		t.Errorf("ReadFile(good, 1) = %d lines, %v; want 1", len(ls), err)
	}
	bad := filepath.Join(dir, "bad")
	if err := os.WriteFile(bad, []byte("4453 -2\n48\n4455\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := (posfile.Format{}).ReadFile(bad, 0); err == nil || !strings.Contains(err.Error(), bad+":2: position 2: '8'") {
		t.Errorf("ReadFile(bad, 0): %v; want the file, line 2 and the character", err)
	}
	if _, err := (posfile.Format{}).ReadFile(filepath.Join(dir, "none"), 0); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadFile(none): %v; want a file that does not exist", err)
	}
}

// TestScanBounds: a line too long to be a position is reported and
// skipped, the lines after it still read; input with NUL bytes is refused;
// a UTF-8 byte order mark before the first line is skipped.
func TestScanBounds(t *testing.T) {
	scan := func(in string) (moves []string, bad []string, err error) {
		err = posfile.Format{}.Scan(strings.NewReader(in), func(l posfile.Line) bool {
			moves = append(moves, l.Moves)
			return true
		}, func(e *posfile.LineError) { bad = append(bad, e.Error()) })
		return moves, bad, err
	}
	long := strings.Repeat("4", 3*posfile.MaxLineBytes)
	moves, bad, err := scan("4453\n" + long + "\n4455 18\n# " + long + "\n1\n")
	if err != nil || !slices.Equal(moves, []string{"4453", "4455", "1"}) ||
		!slices.Equal(bad, []string{"line 2: longer than 4096 bytes"}) {
		t.Errorf("Scan with long lines: %q, bad %q, %v; want 4453 4455 1, line 2 bad and line 4, a comment, skipped", moves, bad, err)
	}
	if moves, _, err := scan("4453\n" + strings.Repeat("\x00", 3*posfile.MaxLineBytes)); err == nil ||
		!strings.Contains(err.Error(), "line 2: a NUL byte") || !slices.Equal(moves, []string{"4453"}) {
		t.Errorf("Scan of NUL bytes: %q, %v; want 4453 and an error for line 2", moves, err)
	}
	if moves, bad, err := scan("\ufeff4453 -2\n\ufeff4455\n"); err != nil || !slices.Equal(moves, []string{"4453"}) || len(bad) != 1 {
		t.Errorf("Scan with byte order marks: %q, bad %q, %v; want the first skipped, the second refused", moves, bad, err)
	}
}

// TestPublishedSets: the repository's copy of the six published sets is
// whole: 1000 lines each, every one a position with its score.
func TestPublishedSets(t *testing.T) {
	for _, set := range []string{"Test_L3_R1", "Test_L2_R1", "Test_L2_R2", "Test_L1_R1", "Test_L1_R2", "Test_L1_R3"} {
		ls, err := (posfile.Format{}).ReadFile("../testdata/benchmarks/"+set, 0)
		if err != nil {
			t.Fatal(err)
		}
		scored := 0
		for _, l := range ls {
			if l.HasScore {
				scored++
			}
		}
		if len(ls) != 1000 || scored != 1000 {
			t.Errorf("testdata/benchmarks/%s: %d positions, %d with a score; want 1000 of each", set, len(ls), scored)
		}
	}
}

func TestContradicts(t *testing.T) {
	scored := posfile.Line{Expected: -5, HasScore: true}
	for _, tt := range []struct {
		l     posfile.Line
		score int
		weak  bool
		want  bool
	}{
		{scored, -5, false, false},
		{scored, -4, false, true},
		{scored, -1, true, false}, // the sign of -5
		{scored, 0, true, true},
		{scored, -5, true, true}, // a weak score is -1, 0 or 1
		{posfile.Line{}, 7, false, false},
	} {
		if got := tt.l.Contradicts(tt.score, tt.weak); got != tt.want {
			t.Errorf("%+v.Contradicts(%d, weak %v) = %v; want %v", tt.l, tt.score, tt.weak, got, tt.want)
		}
	}
}

// The empty board is written "", and a blank line is blank however long.
func TestEmptyBoardAndLongBlankLines(t *testing.T) {
	l, ok, err := posfile.Format{}.ParseLine(3, `"" 1`)
	if err != nil || !ok || l.Board.Stones() != 0 || l.Board.Grid().Size != board.Standard || l.Moves != `""` || !l.HasScore || l.Expected != 1 {
		t.Errorf(`ParseLine(3, "\"\" 1") = %+v, %v, %v; want the empty board, score 1`, l, ok, err)
	}
	input := strings.Repeat(" ", 3*posfile.MaxLineBytes) + "\n" + strings.Repeat("\t", posfile.MaxLineBytes+1) + "\n4453 -2\n" + strings.Repeat("4", posfile.MaxLineBytes+1) + "\n"
	var got []string
	var bad []int
	err = posfile.Format{}.Scan(strings.NewReader(input), func(l posfile.Line) bool {
		got = append(got, l.Moves)
		return true
	}, func(e *posfile.LineError) { bad = append(bad, e.Num) })
	if err != nil || !slices.Equal(got, []string{"4453"}) || !slices.Equal(bad, []int{4}) {
		t.Errorf("Scan of two long blank lines, a position and a long line: %v, positions %v, bad lines %v; want [4453] and [4]", err, got, bad)
	}
}
