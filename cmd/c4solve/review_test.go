package main

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"c4solve/board"
	"c4solve/posfile"
)

// reviewJSON is a line of review -json.
type reviewJSON struct {
	Game  string `json:"game"`
	Moves []struct {
		Ply, Player, Column, Score, Played, Loss int
		Class                                    string
		Best                                     []int
	} `json:"moves"`
	Players [2]struct {
		Moves, Best, Inaccuracies, Mistakes, Blunders int
		Accuracy                                      float64
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
			switch from, to := board.WeakScore(best), board.WeakScore(played); {
			case played == best:
			case from == to:
				class, k = "inaccuracy", 1
			case from == 1 && to == -1:
				class, k = "blunder", 3
			default:
				class, k = "mistake", 2
			}
			if m.Ply != i+1 || m.Player != 1+i%2 || m.Column != col || m.Score != best || m.Played != played ||
				m.Loss != best-played || m.Class != class || !slices.Equal(m.Best, an.Best) {
				t.Fatalf("review %s move %d: %+v; want column %d, score %d, played %d, class %s, best %v", tc.game, i+1, m, col, best, played, class, an.Best)
			}
			counts[i%2][k]++
			if k >= 2 {
				turning = append(turning, i+1)
			}
		}
		for p, pl := range rv.Players {
			c := counts[p]
			if pl.Best != c[0] || pl.Inaccuracies != c[1] || pl.Mistakes != c[2] || pl.Blunders != c[3] || pl.Moves != c[0]+c[1]+c[2]+c[3] ||
				pl.Accuracy != float64(int(1000*float64(c[0])/float64(pl.Moves)+0.5))/10 {
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
	for _, want := range []string{"game 3321144523\n ply player column score played loss class      best\n", "game 33\n",
		"player 1: 5 moves", "player 2: 5 moves", "turning points:"} {
		if !strings.Contains(out, want) {
			t.Errorf("review output lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, "game ") != 2 {
		t.Errorf("review output: %d games; want 2:\n%s", strings.Count(out, "game "), out)
	}
}
