package server_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"c4solve/board"
	"c4solve/book"
	"c4solve/internal/browsertest"
	"c4solve/server"
)

// TestPageColumnNames: the page names the columns of every board as the
// boards' moves are written: 1 to 9, then a, b, ... (it said "1 to 9,
// then a to a," at 10x6).
func TestPageColumnNames(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	ts := newServer(t, server.Config{TableMiB: 8})
	ctx := browsertest.Start(t, time.Minute)
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/?size=5x4"), chromedp.WaitVisible(`#scores .score[data-col="5"][data-score]`)); err != nil {
		t.Fatalf("opening /?size=5x4: %v", err)
	}
	for _, tc := range []struct {
		w    int
		want string
	}{
		{5, "1 to 5"}, {9, "1 to 9"}, {10, "1 to 9, then a,"}, {11, "1 to 9, then a to b,"},
		{12, "1 to 9, then a to c,"}, {25, "1 to 9, then a to p,"},
	} {
		// The sentence as setSize writes it, with no solve of the board.
		got := browsertest.Evaluate[string](t, ctx, fmt.Sprintf(`(setSize(%d, 4), document.getElementById("colrange").textContent)`, tc.w))
		if got != tc.want {
			t.Errorf("a board %d wide: the columns are %q; want %q", tc.w, got, tc.want)
		}
	}
}

// TestPageOtherSizes plays the page on other boards: a link's board and
// position (/?size=5x4&pos=33) drawn W x H with the server's scores, a
// move and the perfect player's reply kept in the address, another board
// chosen on the page, a server whose default board is another, a link
// whose board is none, and "solving… (N s)" while a slow answer is
// awaited.
func TestPageOtherSizes(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	ts := newServer(t, server.Config{TableMiB: 8})
	ctx := browsertest.Start(t, time.Minute)
	const readScores = `Array.from(document.querySelectorAll("#scores .score")).map(
		e => e.dataset.score === undefined ? null : Number(e.dataset.score))`
	err := chromedp.Do(ctx,
		chromedp.Navigate(ts.URL+"/?size=5x4&pos=33"),
		chromedp.WaitVisible(`#scores .score[data-col="5"][data-score]`),
	)
	if err != nil {
		t.Fatalf("opening /?size=5x4&pos=33: %v", err)
	}
	shape := browsertest.Evaluate[[]int](t, ctx, `Array.from(document.querySelectorAll("#board .col")).map(c => c.querySelectorAll(".cell").length)`)
	scores := browsertest.Evaluate[[]*int](t, ctx, readScores)
	var want server.SolveAnswer
	get(t, ts, "/solve?size=5x4&pos=33", &want)
	if !slices.Equal(shape, []int{4, 4, 4, 4, 4}) || !slices.Equal(values(scores), nonFullOrZero(want.Score)) {
		t.Errorf("/?size=5x4&pos=33: columns of %v cells, scores %v; want 5 columns of 4, the scores of /solve, %v", shape, values(scores), want.Score)
	}

	// A move, the perfect player's reply (once asked for), and the address
	// that keeps both.
	browsertest.Evaluate[any](t, ctx, `document.getElementById("engine").click()`)
	err = chromedp.Do(ctx,
		// Clicked from the page's script: ticking the box redraws the
		// board, and chromedp.Click, which finds the node first, then
		// failed now and then with "Could not find node with given id".
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#board .col[data-col="1"]').click()`),
		chromedp.Poll[chromedp.Void](`document.getElementById("pos").textContent.length === 4 &&
			document.querySelectorAll("#scores .score[data-score]").length > 0`),
	)
	if err != nil {
		t.Fatalf("playing column 1 on 5x4: %v", err)
	}
	pos := browsertest.Evaluate[string](t, ctx, `document.getElementById("pos").textContent`)
	if url := browsertest.Evaluate[string](t, ctx, "location.href"); pos[:3] != "331" || url != ts.URL+"/?size=5x4&pos="+pos {
		t.Errorf("after column 1 on 5x4: position %q at %s; want 331 and the reply, at /?size=5x4&pos=%s", pos, url, pos)
	}
	var before server.SolveAnswer
	get(t, ts, "/solve?size=5x4&pos=331", &before)
	if reply := int(pos[3] - '1'); before.Score[reply] != slices.Max(nonFull(before.Score)) {
		t.Errorf("the perfect player answered 331 on 5x4 with column %d, scored %d; the best is %d", reply+1, before.Score[reply], slices.Max(nonFull(before.Score)))
	}

	// Another board chosen on the page: a new game on it.
	browsertest.Evaluate[any](t, ctx, `(s => { s.value = "6x4"; s.dispatchEvent(new Event("change")); })(document.getElementById("size"))`)
	if err := chromedp.Do(ctx, chromedp.WaitVisible(`#scores .score[data-col="6"][data-score]`)); err != nil {
		t.Fatalf("choosing 6x4: %v", err)
	}
	url := browsertest.Evaluate[string](t, ctx, "location.href")
	cols := browsertest.Evaluate[int](t, ctx, `document.querySelectorAll("#board .col").length`)
	verdict := browsertest.Evaluate[string](t, ctx, `document.getElementById("verdict").textContent`)
	// 6x4 is won by the second player with its last stone, the 12th.
	if url != ts.URL+"/?size=6x4" || cols != 6 || verdict != "With perfect play Yellow wins, with its 12th stone." {
		t.Errorf("6x4 chosen: %d columns at %s, %q; want 6 at /?size=6x4, Yellow's win with its 12th stone", cols, url, verdict)
	}

	// A link whose board is none: the server's reason, the address kept.
	err = chromedp.Do(ctx,
		chromedp.Navigate(ts.URL+"/?size=3x9&pos=1"),
		chromedp.Poll[chromedp.Void](`document.getElementById("error").textContent.length > 0`),
	)
	if err != nil {
		t.Fatalf("/?size=3x9&pos=1: %v", err)
	}
	msg := browsertest.Evaluate[string](t, ctx, `document.getElementById("error").textContent`)
	if url := browsertest.Evaluate[string](t, ctx, "location.href"); !strings.Contains(msg, "size 3x9: each side must be 4 or more") || url != ts.URL+"/?size=3x9&pos=1" {
		t.Errorf("/?size=3x9&pos=1: %q at %s; want the server's reason, the address kept", msg, url)
	}

	// A server whose default board is 5x4: its page plays 5x4.
	z, _ := board.ParseSize("5x4")
	five := newServer(t, server.Config{Size: z, TableMiB: 8})
	if err := chromedp.Do(ctx, chromedp.Navigate(five.URL+"/"), chromedp.WaitVisible(`#scores .score[data-col="5"][data-score]`)); err != nil {
		t.Fatalf("the page of a server of 5x4: %v", err)
	}
	if url := browsertest.Evaluate[string](t, ctx, "location.href"); url != five.URL+"/?size=5x4" {
		t.Errorf("the page of a server of 5x4 is at %s; want /?size=5x4", url)
	}

	// While the server thinks, the page says so, and for how long.
	bk, err := book.Default()
	if err != nil {
		t.Fatal(err)
	}
	h, err := server.New(server.Config{TableMiB: 16, Books: withBook(nil, board.Standard, bk), Full: server.DefaultFull})
	if err != nil {
		t.Fatal(err)
	}
	// /analyze answers once the page has shown it (a channel, not a
	// sleep: the page counts the seconds, and the answer must not come
	// before it does).
	shown := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/analyze" {
			select {
			case <-shown:
			case <-r.Context().Done():
				return
			}
		}
		h.ServeHTTP(w, r)
	}))
	defer slow.Close()
	err = chromedp.Do(ctx,
		chromedp.Navigate(slow.URL+"/?size=6x5&pos=3"),
		chromedp.Poll[chromedp.Void](`/solving… \(\d s\)$/.test(document.getElementById("status").textContent)`),
	)
	close(shown)
	if err == nil {
		err = chromedp.Do(ctx, chromedp.WaitVisible(`#scores .score[data-col="6"][data-score]`))
	}
	if err != nil {
		t.Fatalf("/?size=6x5&pos=3, answered once the page said it is solving: %v", err)
	}
}

// TestPageLargeBoardMoves: on 8x8, whose positions the server cannot
// solve within its time limit, the perfect player still answers each
// move, stopped by the limit (the best move found, said so), and the
// board takes the human's next move: the page never stays locked.
func TestPageLargeBoardMoves(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	const limit = 3 * time.Second
	// serve's defaults on this machine but the time limit (10 s by
	// default, which the test would wait for at each move): a solver a
	// CPU, each of as many threads, 64 requests waiting at most.
	ts := newServer(t, server.Config{TableMiB: 64, Timeout: limit, Solvers: runtime.NumCPU(), Threads: runtime.NumCPU(), Queue: 64})
	ctx := browsertest.Start(t, time.Minute)
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/?size=8x8"), chromedp.WaitVisible(`#board .col[data-col="8"]`)); err != nil {
		t.Fatal(err)
	}
	for i, col := range []int{4, 5} {
		err := chromedp.Do(ctx,
			chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector('#board .col[data-col="%d"]').click()`, col)),
			chromedp.Poll[chromedp.Void](fmt.Sprintf(`document.getElementById("pos").textContent.length === %d &&
				!document.getElementById("board").classList.contains("locked")`, 2*(i+1))),
		)
		if err != nil {
			t.Fatalf("move %d on 8x8: %v", i+1, err)
		}
		if st := browsertest.Evaluate[string](t, ctx, `document.getElementById("status").textContent`); !strings.Contains(st, "not proved") {
			t.Errorf("move %d on 8x8: status %q; want it to say the move is the best found, not proved", i+1, st)
		}
	}
}
