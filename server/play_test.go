package server_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"c4solve/board"
	"c4solve/server"
)

// TestReview: /review of a whole game of 5x4 (over: the last move wins)
// scores each move as /solve scores the position before it, classes it as
// documented, and names the turning points; a bad game is a 400 that says
// where.
func TestReview(t *testing.T) {
	ts := newServer(t, server.Config{})
	const game = "25421521523" // won by its last move
	var rv server.ReviewAnswer
	if resp := get(t, ts, "/review?size=5x4&pos="+game, &rv); resp.StatusCode != 200 || rv.Pos != game || len(rv.Moves) != len(game) {
		t.Fatalf("/review of %s: %d, %+v", game, resp.StatusCode, rv)
	}
	var turning []int
	for i, m := range rv.Moves {
		var sc server.SolveAnswer
		get(t, ts, "/solve?size=5x4&pos="+game[:i], &sc)
		best := -100
		for _, s := range sc.Score {
			if s != server.DefaultFull {
				best = max(best, s)
			}
		}
		col := int(game[i] - '0')
		played := sc.Score[col-1]
		if m.Column != col || m.Score != best || m.Played != played || m.Loss != best-played || m.Player != 1+i%2 {
			t.Errorf("move %d: %+v; want column %d, score %d, played %d", i+1, m, col, best, played)
		}
		want := "best"
		switch from, to := board.WeakScore(best), board.WeakScore(played); {
		case played == best:
		case from == to:
			want = "inaccuracy"
		case from == 1 && to == -1:
			want = "blunder"
		default:
			want = "mistake"
		}
		if m.Class.String() != want {
			t.Errorf("move %d: class %v; want %s (score %d, played %d)", i+1, m.Class, want, best, played)
		}
		if want == "mistake" || want == "blunder" {
			turning = append(turning, i+1)
		}
	}
	if !slices.Equal(rv.TurningPoints, turning) && len(rv.TurningPoints)+len(turning) > 0 {
		t.Errorf("turning points %v; want %v", rv.TurningPoints, turning)
	}
	var e struct{ Error string }
	if resp := get(t, ts, "/review?size=5x4&pos=254215215231", &e); resp.StatusCode != 400 || !strings.Contains(e.Error, "position 12") {
		t.Errorf("/review of a move after the end: %d %q; want 400 at position 12", resp.StatusCode, e.Error)
	}
}

// TestMove: /move's perfect player plays a best move, exact; a weaker
// level's move is the same for the same seed; bad levels and seeds are
// refused; on a board it cannot solve in time, the answer comes within
// the time limit, the best move found, said so.
func TestMove(t *testing.T) {
	ts := newServer(t, server.Config{Timeout: time.Second, TableMiB: 64})
	var m server.MoveAnswer
	if get(t, ts, "/move?pos=", &m); m.Column != 4 || !m.Exact || m.Score == nil || *m.Score != 1 || m.Level != 10 {
		t.Errorf("/move?pos=: %+v; want column 4, exact, score 1, level 10", m)
	}
	var first server.MoveAnswer
	get(t, ts, "/move?pos=4453&level=2&seed=9", &first)
	for range 5 {
		if get(t, ts, "/move?pos=4453&level=2&seed=9", &m); m.Column != first.Column {
			t.Fatalf("/move?pos=4453&level=2&seed=9: column %d, then %d; want the same", first.Column, m.Column)
		}
	}
	for _, q := range []string{"level=0", "level=11", "level=x", "seed=-1"} {
		var e struct{ Error string }
		if resp := get(t, ts, "/move?pos=4&"+q, &e); resp.StatusCode != 400 || e.Error == "" {
			t.Errorf("/move?pos=4&%s: %d %q; want 400", q, resp.StatusCode, e.Error)
		}
	}
	start := time.Now()
	resp := get(t, ts, "/move?size=8x8&pos=45", &m)
	if took := time.Since(start); resp.StatusCode != 200 || m.Exact || !strings.Contains(m.Note, "not proved") || m.Column < 1 || m.Column > 8 || took > 3*time.Second {
		t.Errorf("/move on 8x8 with a 1 s limit: %d %+v in %v; want the best found, not proved, within the limit", resp.StatusCode, m, took)
	}
}
