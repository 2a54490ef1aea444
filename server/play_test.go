package server_test

import (
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"c4solve/board"
	"c4solve/review"
	"c4solve/server"
)

// TestReview: /review of whole games of 5x4 (over: the last move wins)
// scores each move as /solve scores the position before it, classes it as
// docs/review.md says (by the result it throws away and, within the same
// result, by its drop: review.LargeDrop or more a mistake), and names the
// turning points, the moves that change the result; a bad game is a 400
// that says where.
func TestReview(t *testing.T) {
	ts := newServer(t, server.Config{})
	for _, tc := range []struct {
		game string
		// sameResultMistakes are the plies that keep the result and drop
		// review.LargeDrop or more: mistakes by their drop alone.
		sameResultMistakes []int
	}{
		{"25421521523", nil},
		{"14341414", []int{7}}, // ply 7: -2 to -7, a loss 5 stones sooner
	} {
		game := tc.game
		var rv server.ReviewAnswer
		if resp := get(t, ts, "/review?size=5x4&pos="+game, &rv); resp.StatusCode != 200 || rv.Pos != game || len(rv.Moves) != len(game) {
			t.Fatalf("/review of %s: %d, %+v", game, resp.StatusCode, rv)
		}
		turning, bigDrops := []int{}, []int(nil)
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
			if m.Ply != i+1 || m.Column != col-1 || m.Score != best || m.Played != played || m.Drop != best-played || m.Player != 1+i%2 {
				t.Errorf("%s move %d: %+v; want column %d (0-based), score %d, played %d, drop %d", game, i+1, m, col-1, best, played, best-played)
			}
			want := "best"
			from, to := board.WeakScore(best), board.WeakScore(played)
			switch {
			case played == best:
			case from == 1 && to == -1:
				want = "blunder"
			case from != to || best-played >= review.LargeDrop:
				want = "mistake"
			default:
				want = "inaccuracy"
			}
			if m.Class.String() != want {
				t.Errorf("%s move %d: class %v; want %s (score %d, played %d)", game, i+1, m.Class, want, best, played)
			}
			if from != to {
				turning = append(turning, i+1)
			} else if best-played >= review.LargeDrop {
				bigDrops = append(bigDrops, i+1)
			}
		}
		if !slices.Equal(rv.TurningPoints, turning) {
			t.Errorf("%s: turning points %v; want %v", game, rv.TurningPoints, turning)
		}
		if !slices.Equal(bigDrops, tc.sameResultMistakes) {
			t.Errorf("%s: plies that keep the result and drop %d or more %v; want %v", game, review.LargeDrop, bigDrops, tc.sameResultMistakes)
		}
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
	// The limit stops the search: the move is the best found, said so.
	resp := get(t, ts, "/move?size=8x8&pos=45", &m)
	if resp.StatusCode != 200 || m.Exact || !strings.Contains(m.Note, "not proved") || m.Column < 1 || m.Column > 8 {
		t.Errorf("/move on 8x8 with a 1 s limit: %d %+v; want the best found, not proved", resp.StatusCode, m)
	}
}

// TestReviewDoc: docs/serve.md's paragraph on /review names every field
// of its answer (ReviewAnswer, by its JSON names), the class rule's
// drops as review.LargeDrop makes them, with a link to docs/review.md,
// the null accuracy of a player with no moves, and the turning points as
// the moves that change the result.
func TestReviewDoc(t *testing.T) {
	doc, err := os.ReadFile("../docs/serve.md")
	if err != nil {
		t.Fatal(err)
	}
	_, para, ok := strings.Cut(string(doc), "\n`GET /review?pos=MOVES`")
	if !ok {
		t.Fatal("docs/serve.md has no paragraph that starts with `GET /review?pos=MOVES`")
	}
	para, _, _ = strings.Cut(para, "\n\n")
	para = strings.Join(strings.Fields(para), " ")
	var names []string
	var walk func(reflect.Type)
	walk = func(ty reflect.Type) {
		for f := range ty.Fields() {
			ft := f.Type
			for ft.Kind() == reflect.Slice || ft.Kind() == reflect.Array || ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != "" && name != "-" {
				names = append(names, name)
			}
			if ft.Kind() == reflect.Struct {
				walk(ft)
			}
		}
	}
	walk(reflect.TypeFor[server.ReviewAnswer]())
	for _, name := range names {
		if !strings.Contains(para, "`"+name+"`") {
			t.Errorf("docs/serve.md's /review paragraph does not name the field `%s`", name)
		}
	}
	for _, want := range []string{
		"[review.md](review.md)",
		fmt.Sprintf("the same result with a drop of %d or more (`review.LargeDrop`)", review.LargeDrop),
		fmt.Sprintf("the same result with a drop of 1 to %d;", review.LargeDrop-1),
		"`null` for a player with no moves",
		"the plies of the moves that change the result",
	} {
		if !strings.Contains(para, want) {
			t.Errorf("docs/serve.md's /review paragraph lacks %q:\n%s", want, para)
		}
	}
}
