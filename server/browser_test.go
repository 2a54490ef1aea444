package server_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"c4solve/board"
	"c4solve/book"
	"c4solve/review"
	"c4solve/server"
)

// chromium returns the path of a Chromium or Chrome binary, or skips the
// test when there is none.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	t.Skip("no Chromium: install it (Debian: apt-get install chromium) to test the page in a browser")
	return ""
}

// TestPageInBrowser opens /?pos=4453 in headless Chromium, reads the seven
// scores, plays column 3, and checks that the perfect player answers with
// a best move and that the new position's scores are shown.
func TestPageInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	ts := newServer(t, server.Config{})
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium(t)), chromedp.NoSandbox, chromedp.Flag("disable-dev-shm-usage", true))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 60*time.Second)
	defer cancel()

	const readScores = `Array.from(document.querySelectorAll("#scores .score")).map(
		e => e.dataset.score === undefined ? null : Number(e.dataset.score))`
	err := chromedp.Do(ctx,
		chromedp.Navigate(ts.URL+"/?pos=4453"),
		chromedp.WaitVisible(`#scores .score[data-col="7"][data-score]`),
	)
	scores, err2 := chromedp.Run(ctx, chromedp.Evaluate[[]*int](readScores))
	if err = errors.Join(err, err2); err != nil {
		t.Fatalf("opening /?pos=4453: %v", err)
	}
	if got, want := values(scores), []int{-5, -5, -2, -3, -4, -2, -2}; !slices.Equal(got, want) {
		t.Fatalf("/?pos=4453 shows scores %v; want %v", got, want)
	}

	// A link's position starts with the perfect player answering nothing:
	// tick the box, then play.
	if evaluate[bool](t, ctx, `document.getElementById("engine").checked`) {
		t.Error("/?pos=4453: \"perfect player answers\" is ticked; want a link's position to start without it")
	}
	evaluate[any](t, ctx, `document.getElementById("engine").click()`)
	err = chromedp.Do(ctx,
		// Clicked from the page's script: ticking the box redraws the
		// board, and chromedp.Click, which finds the node first, then
		// failed now and then with "Could not find node with given id".
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#board .col[data-col="3"]').click()`),
		// The perfect player answers, and the scores of the position after
		// its move appear.
		chromedp.Poll[chromedp.Void](`document.getElementById("pos").textContent.length === 6 &&
			document.querySelectorAll("#scores .score[data-score]").length > 0`),
	)
	pos, err2 := chromedp.Run(ctx, chromedp.Text("#pos"))
	scores, err3 := chromedp.Run(ctx, chromedp.Evaluate[[]*int](readScores))
	url, err4 := chromedp.Run(ctx, chromedp.Location())
	if err = errors.Join(err, err2, err3, err4); err != nil {
		t.Fatalf("playing column 3: %v", err)
	}
	if len(pos) != 6 || pos[:5] != "44533" {
		t.Fatalf("after a click on column 3 the page shows position %q; want 44533 and the reply", pos)
	}
	if url != ts.URL+"/?pos="+pos {
		t.Errorf("the address is %s; want it to hold the position, %s/?pos=%s", url, ts.URL, pos)
	}
	// The reply is a best move of 44533.
	var before server.SolveAnswer
	get(t, ts, "/solve?pos=44533", &before)
	if reply := int(pos[5] - '1'); before.Score[reply] != slices.Max(nonFull(before.Score[:])) {
		t.Errorf("the perfect player answered 44533 with column %d, scored %d; the best is %d",
			reply+1, before.Score[reply], slices.Max(nonFull(before.Score[:])))
	}
	var after server.SolveAnswer
	get(t, ts, "/solve?pos="+pos, &after)
	if got := values(scores); !slices.Equal(got, nonFullOrZero(after.Score[:])) {
		t.Errorf("/?pos=%s shows scores %v; /solve answers %v", pos, got, after.Score)
	}
}

// values returns the scores shown, 0 for a column without one.
func values(scores []*int) []int {
	var v []int
	for _, s := range scores {
		if s == nil {
			v = append(v, 0)
		} else {
			v = append(v, *s)
		}
	}
	return v
}

func nonFull(scores []int) []int {
	var v []int
	for _, s := range scores {
		if s != server.DefaultFull {
			v = append(v, s)
		}
	}
	return v
}

func nonFullOrZero(scores []int) []int {
	v := slices.Clone(scores)
	for i, s := range v {
		if s == server.DefaultFull {
			v[i] = 0
		}
	}
	return v
}

// browser starts headless Chromium for a test, with a minute to run.
func browser(t *testing.T) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium(t)), chromedp.NoSandbox, chromedp.Flag("disable-dev-shm-usage", true))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	ctx, cancel = context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// evaluate returns the value of a JavaScript expression in the page.
func evaluate[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

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
	ctx := browser(t)
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
		url := evaluate[string](t, ctx, "location.href")
		pos := evaluate[string](t, ctx, `document.getElementById("pos").textContent`)
		if url != ts.URL+"/?pos=44534" || pos != "44534" {
			t.Errorf("%dx%d: the shared link /?pos=44534 shows %q at %s; want its position and address kept", w, h, pos, url)
		}
		if evaluate[bool](t, ctx, `document.getElementById("move").classList.contains("off")`) {
			t.Errorf("%dx%d: /?pos=44534, the perfect player to move: no button to let it move", w, h)
		}
		// The box says what the page does: a link's position waits, so
		// "perfect player answers" is not ticked.
		if evaluate[bool](t, ctx, `document.getElementById("engine").checked`) {
			t.Errorf("%dx%d: /?pos=44534 waits for a move, yet \"perfect player answers\" is ticked", w, h)
		}
		// What a score means is said above the scores, within the window.
		legend := evaluate[[]float64](t, ctx, `[document.getElementById("legend").getBoundingClientRect().bottom,
			document.getElementById("scores").getBoundingClientRect().top, window.innerHeight]`)
		if legend[0] > legend[1] || legend[0] > legend[2] {
			t.Errorf("%dx%d: the scores' legend ends at %.0f px, the scores start at %.0f, the window at %.0f; want it above them, in the window", w, h, legend[0], legend[1], legend[2])
		}
		boardTop := evaluate[float64](t, ctx, `document.getElementById("board").getBoundingClientRect().top`)
		// A finished game offers no move: the board stays where it was.
		err = chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/?pos=4455667"), chromedp.WaitVisible(`#board .cell.win`))
		if err != nil {
			t.Fatalf("%dx%d: /?pos=4455667: %v", w, h, err)
		}
		if top := evaluate[float64](t, ctx, `document.getElementById("board").getBoundingClientRect().top`); top != boardTop ||
			!evaluate[bool](t, ctx, `document.getElementById("move").classList.contains("off")`) {
			t.Errorf("%dx%d: the board's top is %.0f px with the move button, %.0f without; want the button's place kept", w, h, boardTop, top)
		}
		if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/?pos=44534"), chromedp.WaitVisible(`#scores .score[data-col="7"][data-score]`)); err != nil {
			t.Fatalf("%dx%d: /?pos=44534: %v", w, h, err)
		}
		if evaluate[bool](t, ctx, "document.documentElement.scrollWidth > window.innerWidth") {
			t.Errorf("%dx%d: the page is wider than the window", w, h)
		}
		offsets := evaluate[[]float64](t, ctx, `Array.from(document.querySelectorAll("#scores .score")).map((s, i) => {
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
		verdict := evaluate[string](t, ctx, `document.getElementById("verdict").textContent`)
		pv := evaluate[string](t, ctx, `document.getElementById("pv").textContent`)
		if !regexp.MustCompile(`^With perfect play (Red|Yellow) wins, with its \d+(st|nd|rd|th) stone\.$|^With perfect play the game is a draw\.$`).MatchString(verdict) ||
			!regexp.MustCompile(`^[1-7]+$`).MatchString(pv) {
			t.Errorf("%dx%d: verdict %q, line of perfect play %q; want the result in words and a line of moves", w, h, verdict, pv)
		}
		if icon := evaluate[string](t, ctx, `document.querySelector("link[rel=icon]").href.slice(0, 5)`); icon != "data:" {
			t.Errorf("%dx%d: the icon is %q...; want an inline data: URL", w, h, icon)
		}
	}

	// The button lets the perfect player move from the link's position.
	// (A click by script: chromedp's Click waits for ever on a button
	// whose hidden attribute was removed after the page loaded.)
	if st := evaluate[string](t, ctx, `document.getElementById("status").textContent`); !strings.Contains(st, "you play both sides") {
		t.Errorf("/?pos=44534: status %q; want it to say the human plays both sides", st)
	}
	evaluate[any](t, ctx, `document.getElementById("move").click()`)
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
		url := evaluate[string](t, ctx, "location.href")
		msg := evaluate[string](t, ctx, `document.getElementById("error").textContent`)
		if !strings.Contains(msg, tc.want) || url != ts.URL+"/?pos="+tc.pos {
			t.Errorf("/?pos=%s: message %q at %s; want it to say %q and the address kept", tc.pos, msg, url, tc.want)
		}
		// The error instead of a board: no board, scores or status that
		// are not the link's.
		shown := evaluate[[]bool](t, ctx, `["board", "scores", "status"].map(id => document.getElementById(id).offsetParent !== null)`)
		if shown[0] || shown[1] || shown[2] {
			t.Errorf("/?pos=%s: board, scores, status shown: %v; want the error alone", tc.pos, shown)
		}
	}

	// A won game: the four marked, the winner said.
	if err = chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/?pos=4455667"), chromedp.WaitVisible(`#board .cell.win`)); err != nil {
		t.Fatalf("/?pos=4455667: %v", err)
	}
	wins := evaluate[int](t, ctx, `document.querySelectorAll("#board .cell.win").length`)
	status := evaluate[string](t, ctx, `document.getElementById("status").textContent`)
	if wins != 4 || !strings.HasPrefix(status, "Red wins with its 4th stone") || !strings.HasSuffix(status, "New game to play again.") {
		t.Errorf("/?pos=4455667: %d cells marked, status %q; want 4 and Red's win", wins, status)
	}
	// A new game says which side the human plays.
	err = chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(`#scores .score[data-col="7"][data-score]`))
	if err != nil {
		t.Fatalf("/: %v", err)
	}
	if st := evaluate[string](t, ctx, `document.getElementById("status").textContent`); st != "Red to move (you: click a column)." {
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
	ctx := browser(t)
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
	if msg := evaluate[string](t, ctx, `document.getElementById("error").textContent`); msg != "The solver is busy with other requests; try again in a moment." {
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
	if evaluate[bool](t, ctx, `document.getElementById("board").classList.contains("locked")`) {
		t.Error("after the perfect player's move the board is locked; want the human's turn")
	}
	err = chromedp.Do(ctx, chromedp.Click("#undo"), chromedp.Sleep(300*time.Millisecond),
		chromedp.Poll[chromedp.Void](`document.querySelectorAll("#scores .score[data-score]").length === 7`))
	if err != nil {
		t.Fatalf("Undo: %v", err)
	}
	pos := evaluate[string](t, ctx, `document.getElementById("pos").textContent`)
	first := evaluate[bool](t, ctx, `document.getElementById("engineFirst").checked`)
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
	if !evaluate[bool](t, ctx, `document.getElementById("board").classList.contains("locked") || document.getElementById("pos").textContent === "4"`) {
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
	ctx := browser(t)
	const shown = `document.querySelectorAll("#scores .score[data-low]").length === 8 && document.getElementById("verdict").textContent !== ""`
	calm := func(what string, pos string) {
		t.Helper()
		got := evaluate[[]string](t, ctx, `[document.getElementById("pos").textContent, document.getElementById("error").textContent,
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
		t.Fatalf("/?size=8x8&pos=45: %v (error shown: %q)", err, evaluate[string](t, ctx, `document.getElementById("error").textContent`))
	}
	calm("/?size=8x8&pos=45", "45")
	evaluate[any](t, ctx, `document.getElementById("move").click()`)
	err := chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`document.getElementById("pos").textContent.length === 3 && `+shown))
	if err != nil {
		t.Fatalf("/?size=8x8&pos=45, Perfect player: move: %v (error shown: %q)", err, evaluate[string](t, ctx, `document.getElementById("error").textContent`))
	}
	calm("after Perfect player: move", evaluate[string](t, ctx, `document.getElementById("pos").textContent`))
	if st := evaluate[string](t, ctx, `document.getElementById("status").textContent`); !strings.Contains(st, "the perfect player played") || !strings.Contains(st, "best found in") {
		t.Errorf("after Perfect player: move on 8x8: status %q; want it to say the move is the best found, not proved", st)
	}
}

// TestPageColumnNames: the page names the columns of every board as the
// boards' moves are written: 1 to 9, then a, b, ... (it said "1 to 9,
// then a to a," at 10x6).
func TestPageColumnNames(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	ts := newServer(t, server.Config{TableMiB: 8})
	ctx := browser(t)
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
		got := evaluate[string](t, ctx, fmt.Sprintf(`(setSize(%d, 4), document.getElementById("colrange").textContent)`, tc.w))
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
	ctx := browser(t)
	const readScores = `Array.from(document.querySelectorAll("#scores .score")).map(
		e => e.dataset.score === undefined ? null : Number(e.dataset.score))`
	err := chromedp.Do(ctx,
		chromedp.Navigate(ts.URL+"/?size=5x4&pos=33"),
		chromedp.WaitVisible(`#scores .score[data-col="5"][data-score]`),
	)
	if err != nil {
		t.Fatalf("opening /?size=5x4&pos=33: %v", err)
	}
	shape := evaluate[[]int](t, ctx, `Array.from(document.querySelectorAll("#board .col")).map(c => c.querySelectorAll(".cell").length)`)
	scores := evaluate[[]*int](t, ctx, readScores)
	var want server.SolveAnswer
	get(t, ts, "/solve?size=5x4&pos=33", &want)
	if !slices.Equal(shape, []int{4, 4, 4, 4, 4}) || !slices.Equal(values(scores), nonFullOrZero(want.Score)) {
		t.Errorf("/?size=5x4&pos=33: columns of %v cells, scores %v; want 5 columns of 4, the scores of /solve, %v", shape, values(scores), want.Score)
	}

	// A move, the perfect player's reply (once asked for), and the address
	// that keeps both.
	evaluate[any](t, ctx, `document.getElementById("engine").click()`)
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
	pos := evaluate[string](t, ctx, `document.getElementById("pos").textContent`)
	if url := evaluate[string](t, ctx, "location.href"); pos[:3] != "331" || url != ts.URL+"/?size=5x4&pos="+pos {
		t.Errorf("after column 1 on 5x4: position %q at %s; want 331 and the reply, at /?size=5x4&pos=%s", pos, url, pos)
	}
	var before server.SolveAnswer
	get(t, ts, "/solve?size=5x4&pos=331", &before)
	if reply := int(pos[3] - '1'); before.Score[reply] != slices.Max(nonFull(before.Score)) {
		t.Errorf("the perfect player answered 331 on 5x4 with column %d, scored %d; the best is %d", reply+1, before.Score[reply], slices.Max(nonFull(before.Score)))
	}

	// Another board chosen on the page: a new game on it.
	evaluate[any](t, ctx, `(s => { s.value = "6x4"; s.dispatchEvent(new Event("change")); })(document.getElementById("size"))`)
	if err := chromedp.Do(ctx, chromedp.WaitVisible(`#scores .score[data-col="6"][data-score]`)); err != nil {
		t.Fatalf("choosing 6x4: %v", err)
	}
	url := evaluate[string](t, ctx, "location.href")
	cols := evaluate[int](t, ctx, `document.querySelectorAll("#board .col").length`)
	verdict := evaluate[string](t, ctx, `document.getElementById("verdict").textContent`)
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
	msg := evaluate[string](t, ctx, `document.getElementById("error").textContent`)
	if url := evaluate[string](t, ctx, "location.href"); !strings.Contains(msg, "size 3x9: each side must be 4 or more") || url != ts.URL+"/?size=3x9&pos=1" {
		t.Errorf("/?size=3x9&pos=1: %q at %s; want the server's reason, the address kept", msg, url)
	}

	// A server whose default board is 5x4: its page plays 5x4.
	z, _ := board.ParseSize("5x4")
	five := newServer(t, server.Config{Size: z, TableMiB: 8})
	if err := chromedp.Do(ctx, chromedp.Navigate(five.URL+"/"), chromedp.WaitVisible(`#scores .score[data-col="5"][data-score]`)); err != nil {
		t.Fatalf("the page of a server of 5x4: %v", err)
	}
	if url := evaluate[string](t, ctx, "location.href"); url != five.URL+"/?size=5x4" {
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

// TestPageReviewAndLevel: the page reviews the game on the board, each
// move not best marked on its stone with its class as /review classes it,
// the turning points named; a level chosen on the page is kept in its
// address, and a link's level is the page's.
func TestPageReviewAndLevel(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	ts := newServer(t, server.Config{TableMiB: 8})
	ctx := browser(t)
	const game = "25421521523" // 5x4, a whole game, won by its last move
	var want server.ReviewAnswer
	get(t, ts, "/review?size=5x4&pos="+game, &want)
	err := chromedp.Do(ctx,
		chromedp.Navigate(ts.URL+"/?size=5x4&pos="+game),
		chromedp.WaitVisible(`#board .col[data-col="5"]`),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("reviewGame").click()`),
		chromedp.Poll[chromedp.Void](`document.querySelectorAll("#review li").length === 11`),
	)
	if err != nil {
		t.Fatalf("reviewing %s on 5x4: %v", game, err)
	}
	classes := evaluate[[]string](t, ctx, `Array.from(document.querySelectorAll("#review li")).map(li => li.className)`)
	marked := evaluate[int](t, ctx, `document.querySelectorAll("#board .cell[data-class]").length`)
	turning := evaluate[string](t, ctx, `document.getElementById("turning").textContent`)
	notBest := 0
	for i, m := range want.Moves {
		if classes[i] != m.Class.String() {
			t.Errorf("move %d shown as %q; /review says %v", i+1, classes[i], m.Class)
		}
		if m.Class != review.Best {
			notBest++
		}
	}
	if marked != notBest {
		t.Errorf("%d stones marked; want %d, the moves not best", marked, notBest)
	}
	if len(want.TurningPoints) == 0 || !strings.HasPrefix(turning, fmt.Sprintf("Turning points: move %d,", want.TurningPoints[0])) {
		t.Errorf("turning points shown %q; /review's %v", turning, want.TurningPoints)
	}

	// A level chosen on the page goes in the address; a link's level is
	// the page's.
	err = chromedp.Do(ctx,
		chromedp.SetValue("#level", "3"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("level").dispatchEvent(new Event("change"))`),
	)
	if url := evaluate[string](t, ctx, "location.href"); err != nil || !strings.HasSuffix(url, "&level=3") {
		t.Errorf("level 3 chosen: %v, address %s; want it to end in &level=3", err, url)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/?pos=44&level=7"), chromedp.WaitVisible(`#scores .score[data-col="7"][data-score]`)); err != nil {
		t.Fatal(err)
	}
	if v := evaluate[string](t, ctx, `document.getElementById("level").value`); v != "7" {
		t.Errorf("/?pos=44&level=7 shows level %s; want 7", v)
	}
}

// TestPageReviewText: the page's review says each player's accuracy and
// counts with each noun's number, "no moves" for the second player of a
// one-move game (whose accuracy /review answers null), and each move not
// best with its drop, exact.
func TestPageReviewText(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	ts := newServer(t, server.Config{TableMiB: 8})
	ctx := browser(t)
	for _, tc := range []struct {
		game, head string
		moves      []string
	}{
		{"3", "Review. Red: accuracy 100% (1 move: 1 best, 0 inaccuracies, 0 mistakes, 0 blunders); Yellow: no moves.",
			[]string{"Red 3: best"}},
		// 5x4's 14341414: ply 5 keeps the loss and drops 1, ply 7 keeps
		// it and drops 5 (review.LargeDrop).
		{"14341414", "Review. Red: accuracy 0% (4 moves: 0 best, 1 inaccuracy, 3 mistakes, 0 blunders); Yellow: accuracy 75% (4 moves: 3 best, 0 inaccuracies, 1 mistake, 0 blunders).",
			[]string{
				"Red 1: mistake, drop 1: -1 where 2 3 4 scored 0",
				"Yellow 4: mistake, drop 1: 0 where 2 scored 1",
				"Red 3: mistake, drop 1: -1 where 4 scored 0",
				"Yellow 4: best",
				"Red 1: inaccuracy, drop 1: -2 where 2 3 scored -1",
				"Yellow 4: best",
				"Red 1: mistake, drop 5: -7 where 4 scored -2",
				"Yellow 4: best",
			}},
	} {
		err := chromedp.Do(ctx,
			chromedp.Navigate(ts.URL+"/?size=5x4&pos="+tc.game),
			chromedp.WaitVisible(`#board .col[data-col="5"]`),
			chromedp.Evaluate[chromedp.Void](`document.getElementById("reviewGame").click()`),
			chromedp.Poll[chromedp.Void](fmt.Sprintf(`document.querySelectorAll("#review li").length === %d`, len(tc.game))),
		)
		if err != nil {
			t.Fatalf("reviewing %s on 5x4: %v", tc.game, err)
		}
		if head := evaluate[string](t, ctx, `document.querySelector("#review p").textContent`); head != tc.head {
			t.Errorf("review of %s on 5x4 says\n%q; want\n%q", tc.game, head, tc.head)
		}
		if moves := evaluate[[]string](t, ctx, `Array.from(document.querySelectorAll("#review li")).map(li => li.textContent)`); !slices.Equal(moves, tc.moves) {
			t.Errorf("review of %s on 5x4 lists\n%q; want\n%q", tc.game, moves, tc.moves)
		}
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
	ctx := browser(t)
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
		if st := evaluate[string](t, ctx, `document.getElementById("status").textContent`); !strings.Contains(st, "not proved") {
			t.Errorf("move %d on 8x8: status %q; want it to say the move is the best found, not proved", i+1, st)
		}
	}
}
