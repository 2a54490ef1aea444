package main

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"c4solve/board"
	"c4solve/posfile"
	"c4solve/review"
)

// reviewJSON is a line of review -json.
type reviewJSON struct {
	Game  string `json:"game"`
	Moves []struct {
		Ply, Player, Column, Score, Played, Drop, Loss int
		Class                                          string
		Best                                           []int
	} `json:"moves"`
	Players [2]struct {
		Moves, Best, Inaccuracies, Mistakes, Blunders int
		Accuracy                                      *float64
	} `json:"players"`
	TurningPoints []int `json:"turning_points"`
	Incomplete    bool  `json:"incomplete"`
}

// analyzeJSON is a line of -analyze -json.
type analyzeJSON struct {
	Scores []*int `json:"scores"`
	Best   []int  `json:"best"`
}

// TestReviewAgainstAnalyze: review -json's scores of each move of a game
// of 5x4 (whole, from the empty board) and of 7x6 (in the book) are those
// of -analyze of the position before it, and the classes, counts and
// turning points follow from them.
func TestReviewAgainstAnalyze(t *testing.T) {
	for _, tc := range []struct{ size, game string }{
		{"5x4", "3321144523"},
		{"7x6", "4433221"},
	} {
		code, out, errOut := runCmd(context.Background(), "", "review", "-size", tc.size, "-json", tc.game)
		var rv reviewJSON
		if err := json.Unmarshal([]byte(out), &rv); code != 0 || err != nil {
			t.Fatalf("review -size %s %s: exit %d, %v, stderr %q", tc.size, tc.game, code, err, errOut)
		}
		if rv.Game != tc.game || len(rv.Moves) != len(tc.game) || rv.Incomplete {
			t.Fatalf("review %s: game %q, %d moves, incomplete %t; want %d moves", tc.game, rv.Game, len(rv.Moves), rv.Incomplete, len(tc.game))
		}
		var counts [2][4]int
		var turning []int
		for i, m := range rv.Moves {
			code, out, errOut := runCmd(context.Background(), "", "-size", tc.size, "-analyze", "-json", "--", posfile.Spell(tc.game[:i]))
			var an analyzeJSON
			if err := json.Unmarshal([]byte(out), &an); code != 0 || err != nil {
				t.Fatalf("-analyze %q: exit %d, %v, stderr %q", tc.game[:i], code, err, errOut)
			}
			col := int(tc.game[i] - '0')
			best := *an.Scores[an.Best[0]-1]
			played := *an.Scores[col-1]
			class, k := "best", 0
			from, to := board.WeakScore(best), board.WeakScore(played)
			switch {
			case played == best:
			case from == 1 && to == -1:
				class, k = "blunder", 3
			case from != to || best-played >= review.LargeDrop:
				class, k = "mistake", 2
			default:
				class, k = "inaccuracy", 1
			}
			if m.Ply != i+1 || m.Player != 1+i%2 || m.Column != col || m.Score != best || m.Played != played ||
				m.Drop != best-played || m.Loss != m.Drop || m.Class != class || !slices.Equal(m.Best, an.Best) {
				t.Fatalf("review %s move %d: %+v; want column %d, score %d, played %d, class %s, best %v", tc.game, i+1, m, col, best, played, class, an.Best)
			}
			counts[i%2][k]++
			if from != to {
				turning = append(turning, i+1)
			}
		}
		for p, pl := range rv.Players {
			c := counts[p]
			if pl.Best != c[0] || pl.Inaccuracies != c[1] || pl.Mistakes != c[2] || pl.Blunders != c[3] || pl.Moves != c[0]+c[1]+c[2]+c[3] ||
				pl.Accuracy == nil || *pl.Accuracy != float64(int(1000*float64(c[0])/float64(pl.Moves)+0.5))/10 {
				t.Errorf("review %s player %d: %+v; want counts %v", tc.game, p+1, pl, c)
			}
		}
		if !slices.Equal(rv.TurningPoints, turning) && len(turning)+len(rv.TurningPoints) > 0 {
			t.Errorf("review %s: turning points %v; want %v", tc.game, rv.TurningPoints, turning)
		}
	}
}

// TestReviewInput: games from standard input, one a line; a bad line is
// reported with its number and the others are reviewed; the text names
// the classes and the turning points.
func TestReviewInput(t *testing.T) {
	code, out, errOut := runCmd(context.Background(), "3321144523\n3388\n33\n", "review", "-size", "5x4")
	if code != exitBad || !strings.Contains(errOut, "line 2: position 3: '8' is not a column 1-5 of the 5x4 board") {
		t.Fatalf("review of 3 lines, the 2nd bad: exit %d, stderr %q; want 2 and line 2's error", code, errOut)
	}
	for _, want := range []string{"game 3321144523\n ply player column score played drop class      best\n", "game 33\n",
		"player 1: 5 moves", "player 2: 5 moves", "turning points:"} {
		if !strings.Contains(out, want) {
			t.Errorf("review output lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, "game ") != 2 {
		t.Errorf("review output: %d games; want 2:\n%s", strings.Count(out, "game "), out)
	}
}

// TestReviewJSONEmptyBoard: review -json writes the game of no moves as
// JSON writes the empty board's pos (posfile.Unspell), the empty string, whether
// it came as an argument or as a line of standard input ("" both).
func TestReviewJSONEmptyBoard(t *testing.T) {
	const want = `{"game":"","moves":[],"players":[{"moves":0,"best":0,"inaccuracies":0,"mistakes":0,"blunders":0,"accuracy":null},` +
		`{"moves":0,"best":0,"inaccuracies":0,"mistakes":0,"blunders":0,"accuracy":null}],"turning_points":[]}` + "\n"
	if code, out, errOut := runCmd(context.Background(), "", "review", "-json", ""); code != 0 || out != want || errOut != "" {
		t.Errorf("review -json \"\": exit %d, stderr %q, output\n%s\nwant\n%s", code, errOut, out, want)
	}
	if code, out, errOut := runCmd(context.Background(), "\"\"\n", "review", "-json"); code != 0 || out != want || errOut != "" {
		t.Errorf("review -json of the line \"\": exit %d, stderr %q, output\n%s\nwant\n%s", code, errOut, out, want)
	}
}

// TestReviewText: the text of two real games of 7x6, exact: the drop of
// each move, its class by result and by drop (614432115's plies 4 to 8
// keep the result and drop 15 to 17: mistakes, no turning point;
// 1124266553's plies 3 and 5 change it and drop 1: mistakes and turning
// points), the best columns separated by commas, each count with its
// noun's number, a player with no move said so, as the JSON's null
// accuracy, and a review cut short said so on standard output too.
func TestReviewText(t *testing.T) {
	const want = `game 614432115
 ply player column score played drop class      best
   1      1      6     1     -1    2 blunder    4
   2      2      1     1     -3    4 blunder    5
   3      1      4     3      3    0 best       4,6
   4      2      4    -3    -18   15 mistake    5
   5      1      3    18      1   17 mistake    5
   6      2      2    -1    -18   17 mistake    5
   7      1      1    18      2   16 mistake    5
   8      2      1    -2    -17   15 mistake    5
   9      1      5    17     17    0 best       5
player 1: 5 moves, 2 best, 0 inaccuracies, 2 mistakes, 1 blunder; accuracy 40.0%
player 2: 4 moves, 0 best, 0 inaccuracies, 3 mistakes, 1 blunder; accuracy 0.0%
turning points: ply 1 (player 1, column 6: win to loss); ply 2 (player 2, column 1: win to loss)
game 1124266553
 ply player column score played drop class      best
   1      1      1     1     -2    3 blunder    4
   2      2      1     2     -1    3 blunder    2,4
   3      1      2     1      0    1 mistake    4,6
   4      2      4     0      0    0 best       2,3,4
   5      1      2     0     -1    1 mistake    4
   6      2      6     1     -2    3 blunder    2
   7      1      6     2    -17   19 blunder    2,5
   8      2      5    17     17    0 best       5
   9      1      5   -17    -17    0 best       1,2,3,4,5,6,7
  10      2      3    17     17    0 best       3,7
player 1: 5 moves, 1 best, 0 inaccuracies, 2 mistakes, 2 blunders; accuracy 20.0%
player 2: 5 moves, 3 best, 0 inaccuracies, 0 mistakes, 2 blunders; accuracy 60.0%
turning points: ply 1 (player 1, column 1: win to loss); ply 2 (player 2, column 1: win to loss); ply 3 (player 1, column 2: win to draw); ply 5 (player 1, column 2: draw to loss); ply 6 (player 2, column 6: win to loss); ply 7 (player 1, column 6: win to loss)
game 4
 ply player column score played drop class      best
   1      1      4     1      1    0 best       4
player 1: 1 move, 1 best, 0 inaccuracies, 0 mistakes, 0 blunders; accuracy 100.0%
player 2: no moves
turning points: none
game ""
 ply player column score played drop class      best
player 1: no moves
player 2: no moves
turning points: none
`
	code, out, errOut := runCmd(context.Background(), "", "review", "614432115", "1124266553", "4", "")
	if code != 0 || out != want || errOut != "" {
		t.Errorf("review 614432115 1124266553 4 \"\": exit %d, stderr %q, output\n%s\nwant\n%s", code, errOut, out, want)
	}
	const wantJSON = `{"game":"4","moves":[{"ply":1,"player":1,"column":4,"score":1,"played":1,"drop":0,"loss":0,"class":"best","best":[4]}],` +
		`"players":[{"moves":1,"best":1,"inaccuracies":0,"mistakes":0,"blunders":0,"accuracy":100},{"moves":0,"best":0,"inaccuracies":0,"mistakes":0,"blunders":0,"accuracy":null}],"turning_points":[]}
{"game":"","moves":[],"players":[{"moves":0,"best":0,"inaccuracies":0,"mistakes":0,"blunders":0,"accuracy":null},{"moves":0,"best":0,"inaccuracies":0,"mistakes":0,"blunders":0,"accuracy":null}],"turning_points":[]}
`
	if code, out, errOut := runCmd(context.Background(), "", "review", "-json", "4", ""); code != 0 || out != wantJSON || errOut != "" {
		t.Errorf("review -json 4 \"\": exit %d, stderr %q, output\n%s\nwant\n%s", code, errOut, out, wantJSON)
	}
	const wantOne = `game 3
 ply player column score played drop class      best
   1      1      3     1      0    1 mistake    4
player 1: 1 move, 0 best, 0 inaccuracies, 1 mistake, 0 blunders; accuracy 0.0%
player 2: no moves
turning point: ply 1 (player 1, column 3: win to draw)
`
	if code, out, errOut := runCmd(context.Background(), "", "review", "3"); code != 0 || out != wantOne || errOut != "" {
		t.Errorf("review 3: exit %d, stderr %q, output\n%s\nwant\n%s", code, errOut, out, wantOne)
	}
	// 8x5's first move takes seconds to analyse: the review stops before it.
	const wantCut = `game 4
 ply player column score played drop class      best
player 1: no moves
player 2: no moves
turning points: none
incomplete: 0 of 1 move reviewed
`
	const wantErr = "c4solve review: argument 1 4: 0 of 1 move reviewed: stopped at the time limit (-timeout)\n"
	if code, out, errOut := runCmd(context.Background(), "", "review", "-size", "8x5", "-timeout", "1ms", "4"); code != exitIncomplete || out != wantCut || errOut != wantErr {
		t.Errorf("review -size 8x5 -timeout 1ms 4: exit %d, stderr %q, output\n%s\nwant exit %d, stderr %q, output\n%s", code, errOut, out, exitIncomplete, wantErr, wantCut)
	}
}
