// Package posfile reads position files in the format of Pascal Pons'
// benchmark sets ("Solving Connect 4", blog.gamesolver.org, part 2, "Test
// protocol"): one position a line, its moves as 1-based columns,
// optionally followed by one space-separated expected score; blank lines
// and lines starting with '#' are skipped. The empty board, which has no
// moves, is written "" (two double quotes), as on a command line. The
// lines c4solve prints read back too: a score with a line of play or
// MISMATCH after it, a stopped solve's bounds (no score), -analyze's
// scores of every move (the position's score is the best of them), and
// -json's objects.
package posfile

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"c4solve/board"
)

// Line is one position read from a file.
type Line struct {
	Num      int         // 1-based line number
	Moves    string      // the move string as written
	Board    board.Board // the position, on the Format's board
	Expected int         // the expected score, if HasScore
	HasScore bool        // whether the line carried an expected score
}

// Format says how the lines name positions: the board's grid (nil: the
// standard 7x6), and whether its columns are numbered from 0
// (Steininger's test files) rather than 1. Scores may reach the grid's
// MaxScore.
type Format struct {
	Grid  *board.Grid
	From0 bool
}

// Contradicts reports whether score, a solve's of the line's position,
// contradicts the line's expected score: differs from it, or, for a weak
// score (the sign alone), from its sign. A line without a score
// contradicts none.
func (l Line) Contradicts(score int, weak bool) bool {
	want := l.Expected
	if weak {
		want = board.WeakScore(want)
	}
	return l.HasScore && score != want
}

// EmptyBoard is how a line writes the empty board, which has no moves.
const EmptyBoard = `""`

// Spell returns moves as a line writes them: EmptyBoard for none, so that
// the line reads back as the same position.
func Spell(moves string) string {
	if moves == "" {
		return EmptyBoard
	}
	return moves
}

// Unspell is Spell's inverse: the moves of a position as a line or a
// query writes them, "" for EmptyBoard. It is how JSON writes them too:
// the empty board's pos is the empty string.
func Unspell(moves string) string {
	if moves == EmptyBoard {
		return ""
	}
	return moves
}

// standardGrid is the grid of the zero Format, 7x6's.
var standardGrid, _ = board.NewGrid(board.Standard)

// grid returns f's grid: standardGrid for none.
func (f Format) grid() *board.Grid { return cmp.Or(f.Grid, standardGrid) }

// Position returns the line of the position that moves names, as a line
// or a command-line argument writes it (EmptyBoard or "" for the empty
// board), on f's board: Moves as given, and the Board. Its errors are the
// board package's *ParseError.
func (f Format) Position(moves string) (Line, error) {
	b, err := f.grid().Parse(Unspell(moves), f.From0)
	return Line{Moves: moves, Board: b}, err
}

// playsOut reports whether line, after moves (as the line's position
// writes them), is a line of play that ends the game, as -pv prints one.
func (f Format) playsOut(moves, line string) bool {
	b, err := f.grid().Parse(moves+line, f.From0)
	return err == nil && b.Over()
}

// LineError is a line that could not be read, with its 1-based number.
type LineError struct {
	Num   int
	Moves string // the moves as written, where Err is about them; else ""
	Err   error
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Num, e.Err) }

func (e *LineError) Unwrap() error { return e.Err }

// ParseLine parses the text of line number num, on f's board. It returns
// ok false, and no error, for a blank or comment line.
func (f Format) ParseLine(num int, text string) (l Line, ok bool, err error) {
	text = strings.TrimSpace(text)
	if text == "" || text[0] == '#' {
		return Line{}, false, nil
	}
	if text[0] == '{' {
		return f.parseJSONLine(num, text)
	}
	fields := strings.Fields(text)
	if l, err = f.Position(fields[0]); err != nil {
		return Line{}, false, &LineError{Num: num, Moves: fields[0], Err: err}
	}
	l.Num = num
	moves := Unspell(l.Moves)
	maxScore, width := f.grid().MaxScore(), f.grid().Width
	score := func(field string) (int, error) {
		sc, err := strconv.Atoi(field)
		if err != nil || sc < -maxScore || sc > maxScore {
			return 0, fmt.Errorf("score %q is not a whole number from %d to %d", field, -maxScore, maxScore)
		}
		return sc, nil
	}
	rest := fields[1:]
	if len(rest) > 1 && rest[len(rest)-1] == "MISMATCH" {
		rest = rest[:len(rest)-1]
	}
	switch {
	case len(rest) == 0:
	case len(rest) == 1, len(rest) == 2 && f.playsOut(moves, rest[1]):
		// "MOVES SCORE", or with -pv "MOVES SCORE LINE".
		if l.Expected, err = score(rest[0]); err != nil {
			return Line{}, false, &LineError{Num: num, Err: err}
		}
		l.HasScore = true
	case rest[0] == "incomplete" && len(rest) == 6:
		// A stopped solve's line, "MOVES incomplete L <= score <= U": no score.
	case len(rest) == width, len(rest) == width+1 && f.playsOut(moves, rest[width]):
		// -analyze's line, each move's score ("full" for a full column),
		// maybe with -pv's line: the position's score is the best of them.
		best := -maxScore - 1
		for _, field := range rest[:width] {
			if field == "full" {
				continue
			}
			sc, err := score(field)
			if err != nil {
				return Line{}, false, &LineError{Num: num, Err: err}
			}
			best = max(best, sc)
		}
		if best < -maxScore {
			return Line{}, false, &LineError{Num: num, Err: errors.New("every column full: no move to score")}
		}
		l.Expected, l.HasScore = best, true
	default:
		return Line{}, false, &LineError{Num: num, Err: fmt.Errorf("%d fields; want moves and an optional score (or a line c4solve printed)", len(fields))}
	}
	return l, true, nil
}

// parseJSONLine parses a line of c4solve -json's: an object whose "pos"
// is the position, as a line writes it, and whose "score", if any, is its
// expected score (a stopped solve's has none).
func (f Format) parseJSONLine(num int, text string) (Line, bool, error) {
	var r struct {
		Pos   *string `json:"pos"`
		Score *int    `json:"score"`
	}
	if err := json.Unmarshal([]byte(text), &r); err != nil || r.Pos == nil || strings.ContainsAny(*r.Pos, " \t") {
		return Line{}, false, &LineError{Num: num, Err: errors.New(`a JSON object but not one of c4solve -json's: want "pos" and an optional "score"`)}
	}
	line := Spell(*r.Pos)
	if r.Score != nil {
		line += " " + strconv.Itoa(*r.Score)
	}
	return f.ParseLine(num, line)
}

// Scan calls fn for each position line of r, on f's board, and bad for
// each line that is not one, in order, and returns the first read error.
// It stops early when fn returns false. A line longer than MaxLineBytes
// is reported to bad, but for a comment, which is skipped however long.
func (f Format) Scan(r io.Reader, fn func(Line) bool, bad func(*LineError)) error {
	return ScanLines(r, func(num int, text string, tooLong bool) bool {
		if tooLong { // too long to be a position
			if !strings.HasPrefix(strings.TrimSpace(text), "#") {
				bad(&LineError{Num: num, Err: fmt.Errorf("longer than %d bytes", MaxLineBytes)})
			}
			return true
		}
		l, ok, err := f.ParseLine(num, text)
		switch {
		case err != nil:
			bad(err.(*LineError))
		case ok:
			return fn(l)
		}
		return true
	})
}

// ScanLines calls fn with each line of r, numbered from 1, without its
// line ending, until the input ends, a read fails (the error returned), a
// NUL byte shows that the input is not text (an error), or fn returns
// false. A line ends with LF, CR LF or a CR alone (the old Mac OS's
// files). A line longer than MaxLineBytes comes with tooLong and its
// first bytes only: the rest is skipped, never held in memory. A UTF-8
// byte order mark at the start is dropped.
func ScanLines(r io.Reader, fn func(num int, text string, tooLong bool) bool) error {
	br := bufio.NewReaderSize(&crReader{r: r}, MaxLineBytes)
	for num := 1; ; num++ {
		line, err := br.ReadSlice('\n')
		text, tooLong, blank := string(line), errors.Is(err, bufio.ErrBufferFull), true
		for { // each piece of the line, the first and those skipped
			if bytes.IndexByte(line, 0) >= 0 {
				return fmt.Errorf("line %d: a NUL byte: the input is not text", num)
			}
			blank = blank && len(bytes.TrimSpace(line)) == 0
			if !errors.Is(err, bufio.ErrBufferFull) {
				break
			}
			line, err = br.ReadSlice('\n')
		}
		if tooLong && blank { // a blank line, however long, is blank
			text, tooLong = "\n", false
		}
		if num == 1 {
			text = strings.TrimPrefix(text, "\ufeff") // a UTF-8 byte order mark
		}
		if (len(text) > 0 || tooLong) && !fn(num, strings.TrimRight(text, "\r\n"), tooLong) {
			return nil
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// crReader is r with each CR that ends a line, alone or before an LF,
// read as an LF: the line ends of ScanLines made one.
type crReader struct {
	r      io.Reader
	lastCR bool // the last byte read was a CR: an LF after it is dropped
}

func (c *crReader) Read(p []byte) (int, error) {
	for {
		n, err := c.r.Read(p)
		k := 0
		for _, b := range p[:n] {
			switch {
			case b == '\n' && c.lastCR: // the LF of a CR LF, whose CR ended the line
			case b == '\r':
				p[k] = '\n'
				k++
			default:
				p[k] = b
				k++
			}
			c.lastCR = b == '\r'
		}
		if k > 0 || err != nil || n == 0 {
			return k, err
		}
		// Only the LF of a CR LF was read: read on, so that a caller
		// is never given 0 bytes without an error for it.
	}
}

// MaxLineBytes bounds the length of a line Scan reads: a position is at
// most 124 moves (the cells of the largest board, 4x31) and a score; a longer line is reported as bad, and its
// bytes beyond the bound are never held in memory.
const MaxLineBytes = 4096
