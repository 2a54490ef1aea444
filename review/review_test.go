package review_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"testing"

	"c4solve/board"
	"c4solve/book"
	"c4solve/review"
	"c4solve/solver"
)

// scoreOf returns the exact score of p, which is not over, solved alone:
// from the book or a win at once where they answer (solver.Known), else
// by a search of its own.
func scoreOf(t *testing.T, s *solver.Solver, p board.Board, bk solver.Book) int {
	t.Helper()
	r, ok, err := solver.Known(p, bk)
	if !ok && err == nil {
		r, err = s.Solve(context.Background(), p)
	}
	if err != nil {
		t.Fatalf("solving %v: %v", p, err)
	}
	return r.Score
}

// TestGameAgainstSolves: on random games of 7x6 (with the built-in book)
// and of 8x5 (reviewed from their 12th stone on: 8x5's openings take
// seconds each), every score of a review is the score of its position
// solved alone, every class follows from the scores as documented, and
// the counts and turning points add up. With C4_REVIEW_ACCEPTANCE set,
// 50 games of 7x6 and 20 of 8x5, all from the empty board (minutes).
func TestGameAgainstSolves(t *testing.T) {
	def, err := book.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		size         string
		games, start int
		bk           solver.Book
	}{{"7x6", 10, 0, def}, {"8x5", 4, 12, nil}} {
		if os.Getenv("C4_REVIEW_ACCEPTANCE") != "" { // issue 51's: 50 games of 7x6, 20 of 8x5, from the empty board
			tc.games, tc.start = map[string]int{"7x6": 50, "8x5": 20}[tc.size], 0
		}
		z, _ := board.ParseSize(tc.size)
		g, err := board.NewGrid(z)
		if err != nil {
			t.Fatal(err)
		}
		games := tc.games
		if testing.Short() && os.Getenv("C4_REVIEW_ACCEPTANCE") == "" {
			games /= 2
		}
		s, check := testSolver(t, g, 64, 2), testSolver(t, g, 64, 1)
		if tc.bk != nil {
			s.UseBook(tc.bk)
		}
		r := rand.New(rand.NewPCG(51, uint64(g.Width)))
		for done := 0; done < games; {
			cols := g.RandomGame(r)
			if len(cols) <= tc.start {
				continue
			}
			start := g.Empty()
			for _, col := range cols[:tc.start] {
				start.Play(col)
			}
			rv, err := review.Game(context.Background(), s, start, cols[tc.start:])
			if err != nil || len(rv.Moves) != len(cols)-tc.start {
				t.Fatalf("%s %s: %d moves reviewed, %v; want %d", tc.size, board.FormatColumns(cols, false), len(rv.Moves), err, len(cols)-tc.start)
			}
			checkReview(t, start, rv, cols[tc.start:], func(p board.Board) int { return scoreOf(t, check, p, tc.bk) })
			done++
		}
	}
}

// TestClassByDrop: two real games of 7x6, reviewed from the empty board
// (the book's openings, the rest solved at once). In 614432115 no move
// after the second changes the result, and each drops 15 to 17 points
// (ply 6 turns a loss with the winner's last stone, -1, into one with its
// 4th, -18): each is a mistake, and no turning point. In 1124266553 ply 3
// (a win to a draw) and ply 5 (a draw to a loss) drop 1 point each, and
// are mistakes and turning points by their result; blunders, win to
// loss, stay blunders.
func TestClassByDrop(t *testing.T) {
	def, err := book.Default()
	if err != nil {
		t.Fatal(err)
	}
	g, err := board.NewGrid(board.Standard)
	if err != nil {
		t.Fatal(err)
	}
	s := testSolver(t, g, 16, 1)
	s.UseBook(def)
	const B, M, X = review.Best, review.Mistake, review.Blunder
	for _, tc := range []struct {
		game    string
		drops   []int
		classes []review.Class
		turning []int // plies
		players [2]review.Player
	}{
		{"614432115", []int{2, 4, 0, 15, 17, 17, 16, 15, 0}, []review.Class{X, X, B, M, M, M, M, M, B}, []int{1, 2},
			[2]review.Player{{Moves: 5, Best: 2, Mistakes: 2, Blunders: 1}, {Moves: 4, Mistakes: 3, Blunders: 1}}},
		{"1124266553", []int{3, 3, 1, 0, 1, 3, 19, 0, 0, 0}, []review.Class{X, X, M, B, M, X, X, B, B, B}, []int{1, 2, 3, 5, 6, 7},
			[2]review.Player{{Moves: 5, Best: 1, Mistakes: 2, Blunders: 2}, {Moves: 5, Best: 3, Blunders: 2}}},
	} {
		cols, err := g.Columns(tc.game, false)
		if err != nil {
			t.Fatal(err)
		}
		rv, err := review.Game(context.Background(), s, g.Empty(), cols)
		if err != nil {
			t.Fatalf("review %s: %v", tc.game, err)
		}
		var drops []int
		var classes []review.Class
		for _, m := range rv.Moves {
			drops, classes = append(drops, m.Drop), append(classes, m.Class)
		}
		if !slices.Equal(drops, tc.drops) || !slices.Equal(classes, tc.classes) || !slices.Equal(rv.TurningPoints, tc.turning) || rv.Players != tc.players {
			t.Errorf("review %s: drops %v, classes %v, turning points %v, players %+v; want %v, %v, %v, %+v",
				tc.game, drops, classes, rv.TurningPoints, rv.Players, tc.drops, tc.classes, tc.turning, tc.players)
		}
	}
}

// TestAccuracy: the percentage of best moves, and none for a player with
// no move, null in the player's JSON.
func TestAccuracy(t *testing.T) {
	for _, tc := range []struct {
		p    review.Player
		want float64
		ok   bool
	}{{review.Player{}, 0, false}, {review.Player{Moves: 3, Best: 1, Mistakes: 2}, 100.0 / 3, true}, {review.Player{Moves: 1, Best: 1}, 100, true}} {
		if got, ok := tc.p.Accuracy(); got != tc.want || ok != tc.ok {
			t.Errorf("%+v.Accuracy() = %v, %t; want %v, %t", tc.p, got, ok, tc.want, tc.ok)
		}
	}
	r := review.Review{Players: [2]review.Player{{Moves: 3, Best: 1, Mistakes: 2}}}
	b, err := json.Marshal(r.Players)
	const want = `[{"moves":3,"best":1,"inaccuracies":0,"mistakes":2,"blunders":0,"accuracy":33.3},{"moves":0,"best":0,"inaccuracies":0,"mistakes":0,"blunders":0,"accuracy":null}]`
	if err != nil || string(b) != want {
		t.Errorf("players' JSON: %s, %v; want %s", b, err, want)
	}
}

// TestJSON: a review's JSON numbers columns from 1, writes the drop twice
// ("drop" and "loss"), turning points as plies and no nodes, and reads
// back as the review.
func TestJSON(t *testing.T) {
	r := review.Review{
		Moves: []review.Move{
			{Ply: 3, Player: 1, Column: 0, Score: 1, Played: -1, Drop: 2, Best: []int{2, 3}, Class: review.Blunder},
			{Ply: 4, Player: 2, Column: 4, Score: 1, Played: 1, Best: []int{4}},
		},
		Players:       [2]review.Player{{Moves: 1, Blunders: 1}, {Moves: 1, Best: 1}},
		TurningPoints: []int{3},
		Nodes:         1234,
	}
	const want = `{"moves":[{"ply":3,"player":1,"column":1,"score":1,"played":-1,"drop":2,"loss":2,"class":"blunder","best":[3,4]},` +
		`{"ply":4,"player":2,"column":5,"score":1,"played":1,"drop":0,"loss":0,"class":"best","best":[5]}],` +
		`"players":[{"moves":1,"best":0,"inaccuracies":0,"mistakes":0,"blunders":1,"accuracy":0},{"moves":1,"best":1,"inaccuracies":0,"mistakes":0,"blunders":0,"accuracy":100}],` +
		`"turning_points":[3]}`
	b, err := json.Marshal(r)
	if err != nil || string(b) != want {
		t.Fatalf("json.Marshal(%+v) = %s, %v; want %s", r, b, err, want)
	}
	var back review.Review
	r.Nodes = 0
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, r) {
		t.Errorf("json.Unmarshal(%s) = %+v, %v; want %+v", b, back, err, r)
	}
}

// checkReview checks rv, the review of the moves cols from start,
// against score, the exact score of a position.
func checkReview(t *testing.T, start board.Board, rv review.Review, cols []int, score func(board.Board) int) {
	t.Helper()
	var players [2]review.Player
	var turning []int
	p, g := start, start.Grid()
	for i, m := range rv.Moves {
		game := board.FormatColumns(cols[:i+1], false)
		ply := start.Stones() + i + 1
		want := review.Move{Ply: ply, Player: 2 - ply%2, Column: cols[i], Score: score(p)}
		child := p
		child.Play(cols[i])
		if child.Won() {
			want.Played = g.WinNextScore(p.Stones())
		} else if !child.Over() {
			want.Played = -score(child)
		}
		for col := range g.Width {
			if !p.CanPlay(col) {
				continue
			}
			c := p
			c.Play(col)
			sc := 0
			if c.Won() {
				sc = g.WinNextScore(p.Stones())
			} else if !c.Over() {
				sc = -score(c)
			}
			if sc == want.Score {
				want.Best = append(want.Best, col)
			}
		}
		want.Drop = want.Score - want.Played
		switch from, to := board.WeakScore(want.Score), board.WeakScore(want.Played); {
		case want.Drop == 0:
			want.Class = review.Best
		case from == 1 && to == -1:
			want.Class = review.Blunder
		case from != to || want.Drop >= review.LargeDrop:
			want.Class = review.Mistake
		default:
			want.Class = review.Inaccuracy
		}
		if m.Ply != want.Ply || m.Player != want.Player || m.Column != want.Column || m.Score != want.Score ||
			m.Played != want.Played || m.Drop != want.Drop || m.Class != want.Class || !slices.Equal(m.Best, want.Best) {
			t.Fatalf("%v: move %+v; want %+v", game, m, want)
		}
		if board.WeakScore(want.Score) != board.WeakScore(want.Played) {
			turning = append(turning, ply)
		}
		pl := &players[1-ply%2]
		pl.Moves++
		switch m.Class {
		case review.Best:
			pl.Best++
		case review.Inaccuracy:
			pl.Inaccuracies++
		case review.Mistake:
			pl.Mistakes++
		case review.Blunder:
			pl.Blunders++
		}
		p = child
	}
	if rv.Players != players || !slices.Equal(rv.TurningPoints, turning) {
		t.Fatalf("%v: players %+v, turning points %v; want %+v, %v", board.FormatColumns(cols, false), rv.Players, rv.TurningPoints, players, turning)
	}
}

// testSolver returns solver.New's solver of g, and fails t where the
// table's memory cannot be had.
func testSolver(t testing.TB, g *board.Grid, mib, threads int) *solver.Solver {
	t.Helper()
	s, err := solver.New(g, mib, threads)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
