package server_test

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"c4solve/board"
	"c4solve/internal/browsertest"
	"c4solve/server"
)

// TestPageAnalysisBoard checks the page as a learner uses it, at a
// desktop's width and a phone's: a shared link keeps its position and
// address (the perfect player waits for a move made on the page); a bad
// link shows the server's reason and keeps its address; nothing overflows
// the width; each score sits over its column; the winner's four is
// marked; the result is said in words, with the line of perfect play; and
// the icon is inline (no request for /favicon.ico).
func TestPageAnalysisBoard(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	ts := newServer(t, server.Config{})
	ctx := browsertest.Start(t, time.Minute)
	for _, size := range [][2]int64{{1200, 900}, {390, 844}} {
		w, h := size[0], size[1]
		// The shared link of a position with the perfect player to move.
		err := chromedp.Do(ctx,
			chromedp.EmulateViewport(w, h),
			chromedp.Navigate(ts.URL+"/?pos=44534"),
			chromedp.WaitVisible(`#scores .score[data-col="7"][data-score]`),
			chromedp.Sleep(500*time.Millisecond), // time for a reply, if one were made
		)
		if err != nil {
			t.Fatalf("%dx%d: /?pos=44534: %v", w, h, err)
		}
		url := browsertest.Evaluate[string](t, ctx, "location.href")
		pos := browsertest.Evaluate[string](t, ctx, `document.getElementById("pos").textContent`)
		if url != ts.URL+"/?pos=44534" || pos != "44534" {
			t.Errorf("%dx%d: the shared link /?pos=44534 shows %q at %s; want its position and address kept", w, h, pos, url)
		}
		if browsertest.Evaluate[bool](t, ctx, `document.getElementById("move").classList.contains("off")`) {
			t.Errorf("%dx%d: /?pos=44534, the perfect player to move: no button to let it move", w, h)
		}
		// The box says what the page does: a link's position waits, so
		// "perfect player answers" is not ticked.
		if browsertest.Evaluate[bool](t, ctx, `document.getElementById("engine").checked`) {
			t.Errorf("%dx%d: /?pos=44534 waits for a move, yet \"perfect player answers\" is ticked", w, h)
		}
		// What a score means is said above the scores, within the window.
		legend := browsertest.Evaluate[[]float64](t, ctx, `[document.getElementById("legend").getBoundingClientRect().bottom,
			document.getElementById("scores").getBoundingClientRect().top, window.innerHeight]`)
		if legend[0] > legend[1] || legend[0] > legend[2] {
			t.Errorf("%dx%d: the scores' legend ends at %.0f px, the scores start at %.0f, the window at %.0f; want it above them, in the window", w, h, legend[0], legend[1], legend[2])
		}
		boardTop := browsertest.Evaluate[float64](t, ctx, `document.getElementById("board").getBoundingClientRect().top`)
		// A finished game offers no move: the board stays where it was.
		err = chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/?pos=4455667"), chromedp.WaitVisible(`#board .cell.win`))
		if err != nil {
			t.Fatalf("%dx%d: /?pos=4455667: %v", w, h, err)
		}
		if top := browsertest.Evaluate[float64](t, ctx, `document.getElementById("board").getBoundingClientRect().top`); top != boardTop ||
			!browsertest.Evaluate[bool](t, ctx, `document.getElementById("move").classList.contains("off")`) {
			t.Errorf("%dx%d: the board's top is %.0f px with the move button, %.0f without; want the button's place kept", w, h, boardTop, top)
		}
		if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/?pos=44534"), chromedp.WaitVisible(`#scores .score[data-col="7"][data-score]`)); err != nil {
			t.Fatalf("%dx%d: /?pos=44534: %v", w, h, err)
		}
		if browsertest.Evaluate[bool](t, ctx, "document.documentElement.scrollWidth > window.innerWidth") {
			t.Errorf("%dx%d: the page is wider than the window", w, h)
		}
		offsets := browsertest.Evaluate[[]float64](t, ctx, `Array.from(document.querySelectorAll("#scores .score")).map((s, i) => {
			const a = s.getBoundingClientRect(), b = document.querySelectorAll("#board .col")[i].getBoundingClientRect();
			return (a.left + a.right) / 2 - (b.left + b.right) / 2; })`)
		if len(offsets) != 7 {
			t.Errorf("%dx%d: %d score labels; want 7", w, h, len(offsets))
		}
		for i, d := range offsets {
			if d < -2 || d > 2 {
				t.Errorf("%dx%d: the score of column %d is %.1f px off its column's centre; want within 2", w, h, i+1, d)
			}
		}
		verdict := browsertest.Evaluate[string](t, ctx, `document.getElementById("verdict").textContent`)
		pv := browsertest.Evaluate[string](t, ctx, `document.getElementById("pv").textContent`)
		if !regexp.MustCompile(`^With perfect play (Red|Yellow) wins, with its \d+(st|nd|rd|th) stone\.$|^With perfect play the game is a draw\.$`).MatchString(verdict) ||
			!regexp.MustCompile(`^[1-7]+$`).MatchString(pv) {
			t.Errorf("%dx%d: verdict %q, line of perfect play %q; want the result in words and a line of moves", w, h, verdict, pv)
		}
		if icon := browsertest.Evaluate[string](t, ctx, `document.querySelector("link[rel=icon]").href.slice(0, 5)`); icon != "data:" {
			t.Errorf("%dx%d: the icon is %q...; want an inline data: URL", w, h, icon)
		}
	}

	// The button lets the perfect player move from the link's position.
	// (A click by script: chromedp's Click waits for ever on a button
	// whose hidden attribute was removed after the page loaded.)
	if st := browsertest.Evaluate[string](t, ctx, `document.getElementById("status").textContent`); !strings.Contains(st, "you play both sides") {
		t.Errorf("/?pos=44534: status %q; want it to say the human plays both sides", st)
	}
	browsertest.Evaluate[any](t, ctx, `document.getElementById("move").click()`)
	err := chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`document.getElementById("pos").textContent.length === 6`))
	if err != nil {
		t.Fatalf("/?pos=44534, Perfect player: move: %v", err)
	}

	// Bad links: the server's reason, and the address kept.
	for _, tc := range []struct{ pos, want string }{
		{"4448", `'8' is not a column 1-7`},
		{"1111111", "column 1 is full"},
	} {
		err := chromedp.Do(ctx,
			chromedp.Navigate(ts.URL+"/?pos="+tc.pos),
			chromedp.Poll[chromedp.Void](`document.getElementById("error").textContent.length > 0`),
		)
		if err != nil {
			t.Fatalf("/?pos=%s: %v", tc.pos, err)
		}
		url := browsertest.Evaluate[string](t, ctx, "location.href")
		msg := browsertest.Evaluate[string](t, ctx, `document.getElementById("error").textContent`)
		if !strings.Contains(msg, tc.want) || url != ts.URL+"/?pos="+tc.pos {
			t.Errorf("/?pos=%s: message %q at %s; want it to say %q and the address kept", tc.pos, msg, url, tc.want)
		}
		// The error instead of a board: no board, scores or status that
		// are not the link's.
		shown := browsertest.Evaluate[[]bool](t, ctx, `["board", "scores", "status"].map(id => document.getElementById(id).offsetParent !== null)`)
		if shown[0] || shown[1] || shown[2] {
			t.Errorf("/?pos=%s: board, scores, status shown: %v; want the error alone", tc.pos, shown)
		}
	}

	// A won game: the four marked, the winner said.
	if err = chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/?pos=4455667"), chromedp.WaitVisible(`#board .cell.win`)); err != nil {
		t.Fatalf("/?pos=4455667: %v", err)
	}
	wins := browsertest.Evaluate[int](t, ctx, `document.querySelectorAll("#board .cell.win").length`)
	status := browsertest.Evaluate[string](t, ctx, `document.getElementById("status").textContent`)
	if wins != 4 || !strings.HasPrefix(status, "Red wins with its 4th stone") || !strings.HasSuffix(status, "New game to play again.") {
		t.Errorf("/?pos=4455667: %d cells marked, status %q; want 4 and Red's win", wins, status)
	}
	// A new game says which side the human plays.
	err = chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(`#scores .score[data-col="7"][data-score]`))
	if err != nil {
		t.Fatalf("/: %v", err)
	}
	if st := browsertest.Evaluate[string](t, ctx, `document.getElementById("status").textContent`); st != "Red to move (you: click a column)." {
		t.Errorf("/: status %q; want it to say the human plays Red", st)
	}
}

// TestPageWaitsAndFails: a server busy with other requests (503) is said
// to be busy, plainly (no server flag), with a button that tries again;
// the board takes no clicks while the perfect player is to move; Undo
// after the perfect player's opening move gives the human the first move.
func TestPageWaitsAndFails(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	ctx := browsertest.Start(t, time.Minute)
	// One solver, no queue, no book: the empty board's analysis holds the
	// solver for minutes, and the page's request finds it busy.
	busy := newServer(t, server.Config{Books: withBook(nil, board.Standard, noBook{}), Solvers: 1})
	hold, release := context.WithCancel(context.Background())
	defer release()
	go func() {
		// Asked again while it finds the solver busy: a request below may
		// hold the solver at the moment this one arrives.
		for {
			req, _ := http.NewRequestWithContext(hold, http.MethodGet, busy.URL+"/solve?pos=", nil)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return
			}
			resp.Body.Close()
			if resp.StatusCode != 503 {
				return
			}
		}
	}()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		resp, err := http.Get(busy.URL + "/solve?pos=737534232264") // milliseconds
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == 503 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the solver was never busy")
		}
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(busy.URL+"/?pos=4453"), chromedp.Poll[chromedp.Void](`!document.getElementById("retry").hidden`)); err != nil {
		t.Fatalf("a 503: %v", err)
	}
	if msg := browsertest.Evaluate[string](t, ctx, `document.getElementById("error").textContent`); msg != "The solver is busy with other requests; try again in a moment." {
		t.Errorf("a busy server's 503 shows %q; want it to say the solver is busy, plainly", msg)
	}
	release()

	ts := newServer(t, server.Config{})
	err := chromedp.Do(ctx,
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(`#scores .score[data-col="4"][data-score]`),
		chromedp.Click("#engineFirst"),
		chromedp.Poll[chromedp.Void](`document.getElementById("pos").textContent === "4" &&
			document.querySelectorAll("#scores .score[data-score]").length === 7`),
	)
	if err != nil {
		t.Fatalf("the perfect player's opening move: %v", err)
	}
	if browsertest.Evaluate[bool](t, ctx, `document.getElementById("board").classList.contains("locked")`) {
		t.Error("after the perfect player's move the board is locked; want the human's turn")
	}
	err = chromedp.Do(ctx, chromedp.Click("#undo"), chromedp.Sleep(300*time.Millisecond),
		chromedp.Poll[chromedp.Void](`document.querySelectorAll("#scores .score[data-score]").length === 7`))
	if err != nil {
		t.Fatalf("Undo: %v", err)
	}
	pos := browsertest.Evaluate[string](t, ctx, `document.getElementById("pos").textContent`)
	first := browsertest.Evaluate[bool](t, ctx, `document.getElementById("engineFirst").checked`)
	if !strings.HasPrefix(pos, "none yet") || first {
		t.Errorf("Undo after the perfect player's opening move: position %q, it plays first %t; want the empty board, the human first", pos, first)
	}
	// With the perfect player to move (it plays first, not yet played),
	// the board is locked.
	err = chromedp.Do(ctx, chromedp.Click("#engine"), chromedp.Click("#engineFirst"))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Click("#engine")); err != nil {
		t.Fatal(err)
	}
	if !browsertest.Evaluate[bool](t, ctx, `document.getElementById("board").classList.contains("locked") || document.getElementById("pos").textContent === "4"`) {
		t.Error("with the perfect player to move, the board takes clicks")
	}
}

// noBook is a book that knows no position, so that the server searches.
type noBook struct{}

func (noBook) Lookup(board.Board) (int, bool) { return 0, false }
func (noBook) Depth() int                     { return -1 }

// TestPageLargeBoardAnalysis: on 8x8, whose positions the server cannot
// solve within its time limit, the page shows calmly what the analysis
// established in the time (it showed "The solver is busy or took too
// long" and "Try again" after every move, and never offered a move):
// each move's bounds, the best move found outlined, "Not proved in 2 s"
// and what the bounds decide, no error; "Perfect player: move" plays
// /move's best found, said so, and the next position is shown the same.
func TestPageLargeBoardAnalysis(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	ts := newServer(t, server.Config{TableMiB: 16, Timeout: 2 * time.Second, Solvers: 2, Queue: 8})
	ctx := browsertest.Start(t, time.Minute)
	const shown = `document.querySelectorAll("#scores .score[data-low]").length === 8 && document.getElementById("verdict").textContent !== ""`
	calm := func(what string, pos string) {
		t.Helper()
		got := browsertest.Evaluate[[]string](t, ctx, `[document.getElementById("pos").textContent, document.getElementById("error").textContent,
			String(document.getElementById("retry").hidden), document.getElementById("verdict").textContent, document.getElementById("pv").textContent,
			String(document.getElementById("move").disabled || document.getElementById("move").classList.contains("off")),
			String(document.querySelectorAll("#scores .score.found").length),
			Array.from(document.querySelectorAll("#scores .score")).map(s => s.textContent).join(" ")]`)
		if got[0] != pos || got[1] != "" || got[2] != "true" || !strings.HasPrefix(got[3], "Not proved in 2 s") ||
			got[4] != "(not found: not proved in 2 s)" || got[5] != "false" || got[6] != "1" ||
			!regexp.MustCompile(`^((-?\d+|≥-?\d+|≤-?\d+|-?\d+…-?\d+|\?) ){7}(-?\d+|≥-?\d+|≤-?\d+|-?\d+…-?\d+|\?)$`).MatchString(got[7]) {
			t.Errorf("%s: position, error, retry hidden, verdict, line, move button off, best found outlined, bounds: %q;"+
				" want %s, no error, \"Not proved in 2 s\", the move offered, one best found, a bound over each column", what, got, pos)
		}
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/?size=8x8&pos=45"), chromedp.Poll[chromedp.Void](shown)); err != nil {
		t.Fatalf("/?size=8x8&pos=45: %v (error shown: %q)", err, browsertest.Evaluate[string](t, ctx, `document.getElementById("error").textContent`))
	}
	calm("/?size=8x8&pos=45", "45")
	browsertest.Evaluate[any](t, ctx, `document.getElementById("move").click()`)
	err := chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`document.getElementById("pos").textContent.length === 3 && `+shown))
	if err != nil {
		t.Fatalf("/?size=8x8&pos=45, Perfect player: move: %v (error shown: %q)", err, browsertest.Evaluate[string](t, ctx, `document.getElementById("error").textContent`))
	}
	calm("after Perfect player: move", browsertest.Evaluate[string](t, ctx, `document.getElementById("pos").textContent`))
	if st := browsertest.Evaluate[string](t, ctx, `document.getElementById("status").textContent`); !strings.Contains(st, "the perfect player played") || !strings.Contains(st, "best found in") {
		t.Errorf("after Perfect player: move on 8x8: status %q; want it to say the move is the best found, not proved", st)
	}
}
