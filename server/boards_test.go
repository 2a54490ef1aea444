package server_test

import (
	"context"
	"encoding/json"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"c4solve/board"
	"c4solve/book"
	"c4solve/server"
	"c4solve/solver"
)

// exactScores returns /solve's scores of the position moves of the board
// of size z, each move's from a solve of its child (or a win at once),
// Full for a full column.
func exactScores(t *testing.T, z board.Size, moves string) []int {
	t.Helper()
	g, err := board.NewGrid(z)
	if err != nil {
		t.Fatal(err)
	}
	p, err := g.Parse(moves, false)
	if err != nil {
		t.Fatal(err)
	}
	s := testSolver(t, g, 4, 1)
	scores := make([]int, z.Width)
	for col := range scores {
		switch {
		case !p.CanPlay(col):
			scores[col] = server.DefaultFull
		case p.IsWinningMove(col):
			scores[col] = z.WinNextScore(p.Stones())
		default:
			c := p
			c.Play(col)
			r, err := s.Solve(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			scores[col] = -r.Score
		}
	}
	return scores
}

// seven is /solve?pos=4453's answer, the public service's bytes.
const seven = `{"pos":"4453","score":[-5,-5,-2,-3,-4,-2,-2]}`

// TestSizes: one server answers positions of several boards, each named
// by size= or width= and height=, with the exact score of each move; 7x6
// as before, byte for byte; one board's table kept of two (the other's
// released and made again); and the default board for requests that
// name none.
func TestSizes(t *testing.T) {
	ts := newServer(t, server.Config{Solvers: 1, Boards: 1, TableMiB: 4})
	tests := []struct {
		query string // after /solve?
		size  string
		moves string
	}{
		{"pos=45&size=5x4", "5x4", "45"},
		{"pos=45&width=5&height=4", "5x4", "45"},
		{"width=5&pos=45&height=4&_=17", "5x4", "45"},
		{"pos=45&size=5X4", "5x4", "45"},
		{"pos=&size=4x5", "4x5", ""},
		{"pos=3333&size=5x4", "5x4", "3333"}, // column 3 full
		{"pos=2&size=6x4", "6x4", "2"},
		{"pos=45&size=5x4", "5x4", "45"},                                                   // back to 5x4: its table made again
		{"pos=1a1a1a2345678923456789&size=10x4", "10x4", "1a1a1a2345678923456789"},         // columns past 9
		{"pos=123456789abcdd123456789abc&size=13x4", "13x4", "123456789abcdd123456789abc"}, // 65 bits, 52 cells: engine80
	}
	for _, tc := range tests {
		z, err := board.ParseSize(tc.size)
		if err != nil {
			t.Fatal(err)
		}
		want := exactScores(t, z, tc.moves)
		var a server.SolveAnswer
		resp := get(t, ts, "/solve?"+tc.query, &a)
		if resp.StatusCode != 200 || a.Pos != tc.moves || !slices.Equal(a.Score, want) {
			t.Errorf("/solve?%s: %d %+v; want 200 %q %v", tc.query, resp.StatusCode, a, tc.moves, want)
		}
		var an server.AnalyzeAnswer
		resp = get(t, ts, "/analyze?"+tc.query, &an)
		if resp.StatusCode != 200 || len(an.Scores) != z.Width || an.Score == nil || *an.Score != slices.Max(nonFull(want)) {
			t.Errorf("/analyze?%s: %d %+v; want 200, %d scores, the best %d", tc.query, resp.StatusCode, an, z.Width, slices.Max(nonFull(want)))
		}
	}
	// 7x6, named or not, answers as the public service, byte for byte.
	for _, query := range []string{"pos=4453", "pos=4453&size=7x6", "pos=4453&width=7&height=6"} {
		var raw json.RawMessage
		if get(t, ts, "/solve?"+query, &raw); string(raw) != seven {
			t.Errorf("/solve?%s: %s; want %s", query, raw, seven)
		}
	}

	// A server of another default board answers it to requests that name
	// none, and 7x6 to those that name it.
	z, _ := board.ParseSize("5x4")
	ts = newServer(t, server.Config{Size: z, TableMiB: 4})
	var a server.SolveAnswer
	if get(t, ts, "/solve?pos=45", &a); !slices.Equal(a.Score, exactScores(t, z, "45")) {
		t.Errorf("/solve?pos=45 with the default board 5x4: %v; want %v", a.Score, exactScores(t, z, "45"))
	}
	var raw json.RawMessage
	if get(t, ts, "/solve?pos=4453&size=7x6", &raw); string(raw) != seven {
		t.Errorf("/solve?pos=4453&size=7x6 with the default board 5x4: %s; want %s", raw, seven)
	}
}

// TestSizeErrors: a size that is none, or that the solver does not take,
// is a 400 that says why, on /solve and /analyze, as is a position that
// is not one of the board named; and a board whose scores reach the
// server's score of a full column.
func TestSizeErrors(t *testing.T) {
	ts := newServer(t, server.Config{})
	tests := []struct{ query, want string }{
		{"pos=1&size=3x4", "size 3x4: each side must be 4 or more"},
		{"pos=1&size=10x12", "size 10x12: needs 130 bits, at most 128 are supported"},
		{"pos=1&size=26x4", "size 26x4: too large: at most 25 columns and 31 rows"},
		{"pos=1&size=8", `size "8": want WIDTHxHEIGHT, as 8x5`},
		{"pos=1&size=", `size "": want WIDTHxHEIGHT, as 8x5`},
		{"pos=1&width=8", "width= and height= go together"},
		{"pos=1&height=5", "width= and height= go together"},
		{"pos=1&width=eight&height=5", `width "eight", height "5": want whole numbers`},
		{"pos=1&width=3&height=5", "size 3x5: each side must be 4 or more"},
		{"pos=1&size=8x5&width=8&height=5", "give size=WxH or width=W&height=H, not both"},
		{"pos=1&size=8x5&size=8x5", "give each once at most"},
		{"pos=6&size=5x4", `pos "6": position 1: '6' is not a column 1-5 of the 5x4 board`},
		{"pos=11111&size=5x4", "column 1 is full"},
		{"size=5x4", "no pos parameter"},
	}
	for _, tc := range tests {
		for _, path := range []string{"/solve?", "/analyze?"} {
			var e struct{ Error string }
			resp := get(t, ts, path+tc.query, &e)
			if resp.StatusCode != 400 || !strings.Contains(e.Error, tc.want) {
				t.Errorf("%s%s: %d %q; want 400 and %q", path, tc.query, resp.StatusCode, e.Error, tc.want)
			}
		}
	}
	if _, err := server.New(server.Config{Full: 10}); err == nil || !strings.Contains(err.Error(), "size 7x6: its scores run from -18 to 18, and this server scores a full column 10") {
		t.Errorf("New with Full 10 on 7x6: %v; want the default board's scores reach Full", err)
	}
	ts = newServer(t, server.Config{Size: board.Size{Width: 5, Height: 4}, Full: 10})
	var e struct{ Error string }
	if resp := get(t, ts, "/solve?pos=&size=8x5", &e); resp.StatusCode != 400 || !strings.Contains(e.Error, "size 8x5: its scores run from -17 to 17, and this server scores a full column 10") {
		t.Errorf("/solve?pos=&size=8x5 with Full 10: %d %q; want 400, the board's scores reach Full", resp.StatusCode, e.Error)
	}
	if resp := get(t, ts, "/solve?pos=&size=7x6", &e); resp.StatusCode != 400 || !strings.Contains(e.Error, "size 7x6: its scores run from -18 to 18") {
		t.Errorf("/solve?pos=&size=7x6 with Full 10: %d %q; want 400, 7x6's scores reach Full as any board's", resp.StatusCode, e.Error)
	}
	if resp := get(t, ts, "/solve?pos=&size=5x4", &e); resp.StatusCode != 200 {
		t.Errorf("/solve?pos=&size=5x4 with Full 10: %d %q; want 200 (scores -7 to 7)", resp.StatusCode, e.Error)
	}
}

// TestSizedBook: a request of a board whose book is loaded is answered
// from it (the scores as searched, in fewer nodes); another board's
// requests are searched.
func TestSizedBook(t *testing.T) {
	z, _ := board.ParseSize("5x4")
	bk, err := book.Generate(context.Background(), book.Options{Size: z, Depth: 6, TableMiB: 4})
	if err != nil {
		t.Fatal(err)
	}
	with := newServer(t, server.Config{Books: map[board.Size]solver.Book{z: bk}, TableMiB: 4})
	without := newServer(t, server.Config{TableMiB: 4})
	for _, pos := range []string{"", "3", "45"} {
		var a, b server.AnalyzeAnswer
		get(t, with, "/analyze?size=5x4&pos="+pos, &a)
		get(t, without, "/analyze?size=5x4&pos="+pos, &b)
		if a.Score == nil || b.Score == nil || *a.Score != *b.Score || !slices.EqualFunc(a.Scores, b.Scores, func(x, y *int) bool { return (x == nil) == (y == nil) && (x == nil || *x == *y) }) {
			t.Errorf("/analyze?size=5x4&pos=%s: with the book %+v, without %+v; want the same scores", pos, a, b)
		}
		if a.Nodes >= b.Nodes {
			t.Errorf("/analyze?size=5x4&pos=%s: %d nodes with the book, %d without; want fewer with it", pos, a.Nodes, b.Nodes)
		}
	}
	var a server.SolveAnswer
	if resp := get(t, with, "/solve?size=4x5&pos=", &a); resp.StatusCode != 200 || !slices.Equal(a.Score, exactScores(t, board.Size{Width: 4, Height: 5}, "")) {
		t.Errorf("/solve?size=4x5&pos= beside a book of 5x4: %d %v", resp.StatusCode, a.Score)
	}
}

// TestEvictionUnderLoad: the boards' pools are made, lent, released
// and made again while requests of many boards run at once, and
// none of their tables is freed under a solve (serve died of the first
// five requests below: a solver whose table had been freed was lent
// again). First the sequence that killed it, then three rounds of the
// large boards at once, then clients that ask for boards at random, two
// boards kept (so that most requests release one). The large boards'
// requests end early, by the server's time limit in the first sequence,
// by the client's going away after that; every other answer is the exact
// one, and the server answers exactly afterwards. Run it with -race.
func TestEvictionUnderLoad(t *testing.T) {
	ts := newServer(t, server.Config{Solvers: 2, Threads: 2, Boards: 2, TableMiB: 8, Queue: 64, Timeout: 10 * time.Second})
	// The small boards' positions, with their exact scores.
	small := map[string][]string{"4x4": {"", "2"}, "5x4": {"", "45"}, "4x5": {"", "1"}, "6x4": {"", "2"}, "5x5": {"", "3"}, "6x5": {"3443"}}
	want := map[string][]int{}
	for size, positions := range small {
		z, _ := board.ParseSize(size)
		for _, moves := range positions {
			want[size+" "+moves] = exactScores(t, z, moves)
		}
	}
	large := []string{"8x8", "8x5", "9x7", "10x6"} // not solved in a second from the start
	check := func(size, moves string) {
		ctx := context.Background()
		exact, known := want[size+" "+moves]
		if !known {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, 200*time.Millisecond)
			defer cancel()
		}
		query := "/solve?" + url.Values{"pos": {moves}, "size": {size}}.Encode()
		req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+query, nil)
		resp, err := http.DefaultClient.Do(req)
		switch {
		case err != nil && !known && ctx.Err() != nil:
			return // gone, as the client meant to
		case err != nil:
			t.Errorf("%s: %v", query, err)
			return
		}
		defer resp.Body.Close()
		var a server.SolveAnswer
		if err := json.NewDecoder(resp.Body).Decode(&a); err != nil && (known || ctx.Err() == nil) {
			t.Errorf("%s: %v", query, err)
			return
		}
		switch {
		case known && (resp.StatusCode != 200 || !slices.Equal(a.Score, exact)):
			t.Errorf("%s: %d %v; want 200 %v", query, resp.StatusCode, a.Score, exact)
		case !known && resp.StatusCode != 200 && resp.StatusCode != 503:
			t.Errorf("%s: %d; want 200, or 503 for a solve over the time limit", query, resp.StatusCode)
		}
	}
	// The sequence of the report, serve -timeout 3s: 6x5, 8x8, 8x5, then
	// two of 8x8 at once.
	slow := newServer(t, server.Config{Solvers: 2, Threads: 2, Boards: 2, TableMiB: 8, Timeout: 200 * time.Millisecond})
	for _, q := range []string{"pos=&size=6x5", "pos=&size=8x8", "pos=45&size=8x5", "pos=&size=8x8", "pos=1&size=8x8"} {
		if resp := get(t, slow, "/solve?"+q, new(json.RawMessage)); resp.StatusCode != 200 && resp.StatusCode != 503 {
			t.Errorf("-timeout 200ms: /solve?%s: %d; want 200 or 503", q, resp.StatusCode)
		}
	}
	var a server.SolveAnswer
	if get(t, slow, "/solve?pos=2&size=4x4", &a); !slices.Equal(a.Score, want["4x4 2"]) {
		t.Errorf("-timeout 200ms: /solve?pos=2&size=4x4 after the sequence: %v; want %v", a.Score, want["4x4 2"])
	}
	var wg sync.WaitGroup
	// Three rounds of the large boards and 6x4 at once.
	for range 3 {
		for _, size := range append([]string{"6x4"}, large...) {
			wg.Go(func() { check(size, "") })
		}
		wg.Wait()
	}
	// Clients that ask for boards at random.
	sizes := append(slices.Sorted(maps.Keys(small)), large...)
	for c := range 6 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(c), 48))
			for range 12 {
				size := sizes[rng.IntN(len(sizes))]
				moves := ""
				if positions := small[size]; positions != nil {
					moves = positions[rng.IntN(len(positions))]
				}
				check(size, moves)
			}
		})
	}
	wg.Wait()
	check("6x5", "3443")
	check("4x4", "2")
}

// TestTableKept: a board's table is kept from request to request, so
// that the same position asked again is answered from it in far fewer
// nodes; with one board kept, a request of another board releases it,
// and the position asked a third time is searched cold again, in as
// many nodes as the first time.
func TestTableKept(t *testing.T) {
	ts := newServer(t, server.Config{Solvers: 1, Threads: 1, Boards: 1, TableMiB: 4})
	nodes := func(query string) uint64 {
		t.Helper()
		var an server.AnalyzeAnswer
		if resp := get(t, ts, "/analyze?"+query, &an); resp.StatusCode != 200 {
			t.Fatalf("/analyze?%s: %d", query, resp.StatusCode)
		}
		return an.Nodes
	}
	cold := nodes("size=6x4&pos=")
	again := nodes("size=6x4&pos=")
	nodes("size=4x5&pos=")
	released := nodes("size=6x4&pos=")
	if again*10 > cold || released != cold {
		t.Errorf("/analyze?size=6x4&pos= cold, again, after 4x5's with one board kept: %d, %d, %d nodes; want the second a tenth of the first at most, the third as the first", cold, again, released)
	}
}

// TestBoardsCycle: clients that ask for more boards than are kept, more
// at once than are kept, get the exact answers: a request of a board not
// kept, with each kept board's solves under way, waits for one of them
// to be done, and no table is freed under a solve (which would answer
// 500). A request of a large board that its client leaves, while it
// solves or while it waits, changes nothing of that. Run it with -race.
func TestBoardsCycle(t *testing.T) {
	ts := newServer(t, server.Config{Solvers: 3, Threads: 1, Boards: 1, TableMiB: 4, Queue: 64})
	small := map[string]string{"4x4": "2", "5x4": "45", "4x5": "1", "6x4": "2", "7x6": "4453"}
	want := map[string][]int{}
	for size, moves := range small {
		z, _ := board.ParseSize(size)
		want[size] = exactScores(t, z, moves)
	}
	sizes := append(slices.Sorted(maps.Keys(small)), "8x8")
	var wg sync.WaitGroup
	for c := range 6 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(c), 51))
			for range 8 {
				size := sizes[rng.IntN(len(sizes))]
				query := "/solve?" + url.Values{"pos": {small[size]}, "size": {size}}.Encode()
				ctx, cancel := context.WithCancel(context.Background())
				if size == "8x8" {
					ctx, cancel = context.WithTimeout(ctx, 100*time.Millisecond)
				}
				req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+query, nil)
				resp, err := http.DefaultClient.Do(req)
				var a server.SolveAnswer
				status := 0
				if err == nil {
					status = resp.StatusCode
					err = json.NewDecoder(resp.Body).Decode(&a)
					resp.Body.Close()
				}
				switch {
				case size == "8x8" && err == nil:
					t.Errorf("%s: %d; want the client gone before an answer", query, status)
				case size != "8x8" && (err != nil || status != 200 || !slices.Equal(a.Score, want[size])):
					t.Errorf("%s: %d %v %v; want 200 %v", query, status, a.Score, err, want[size])
				}
				cancel()
			}
		})
	}
	wg.Wait()
}

// TestSizedServer answers positions of another board, its default: a
// score for each of its columns, Full for a full one, /analyze with a
// line of perfect play that ends the game, errors naming the board, and
// the page, its address made to name the board.
func TestSizedServer(t *testing.T) {
	z, err := board.ParseSize("5x4")
	if err != nil {
		t.Fatal(err)
	}
	g, err := board.NewGrid(z)
	if err != nil {
		t.Fatal(err)
	}
	ts := newServer(t, server.Config{Size: z, Solvers: 2, TableMiB: 8})
	want := make([]int, 5)
	s := testSolver(t, g, 4, 1)
	b, _ := g.Parse("3333", false)
	an, err := s.Analyze(context.Background(), b, false)
	if err != nil {
		t.Fatal(err)
	}
	for col := range want {
		want[col] = an.Scores[col]
		if !an.Legal[col] {
			want[col] = server.DefaultFull
		}
	}
	var a server.SolveAnswer
	if resp := get(t, ts, "/solve?pos=3333", &a); resp.StatusCode != 200 || a.Pos != "3333" || !slices.Equal(a.Score, want) || want[2] != server.DefaultFull {
		t.Errorf("/solve?pos=3333 on 5x4: %d %+v; want 200 %v, column 3 full", resp.StatusCode, a, want)
	}
	var aa server.AnalyzeAnswer
	if resp := get(t, ts, "/analyze?pos=", &aa); resp.StatusCode != 200 || aa.Score == nil || *aa.Score != 0 || len(aa.Scores) != 5 || len(aa.PV) != 20 {
		t.Errorf("/analyze?pos= on 5x4: %d %+v; want 200, a draw, 5 scores, a line to the full board", resp.StatusCode, aa)
	}
	var e struct{ Error string }
	if resp := get(t, ts, "/solve?pos=36", &e); resp.StatusCode != 400 || !strings.Contains(e.Error, `'6' is not a column 1-5 of the 5x4 board`) {
		t.Errorf("/solve?pos=36 on 5x4: %d %q; want 400 naming the column and board", resp.StatusCode, e.Error)
	}
	if resp := get(t, ts, "/?pos=33", nil); resp.StatusCode != 200 || resp.Request.URL.RequestURI() != "/?size=5x4&pos=33" {
		t.Errorf("/?pos=33 on 5x4: %d at %s; want 200, the page at /?size=5x4&pos=33", resp.StatusCode, resp.Request.URL.RequestURI())
	}
}
