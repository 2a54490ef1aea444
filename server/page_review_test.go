package server_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"c4solve/internal/browsertest"
	"c4solve/review"
	"c4solve/server"
)

// TestPageReviewAndLevel: the page reviews the game on the board, each
// move not best marked on its stone with its class as /review classes it,
// the turning points named; a level chosen on the page is kept in its
// address, and a link's level is the page's.
func TestPageReviewAndLevel(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	ts := newServer(t, server.Config{TableMiB: 8})
	ctx := browsertest.Start(t, time.Minute)
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
	classes := browsertest.Evaluate[[]string](t, ctx, `Array.from(document.querySelectorAll("#review li")).map(li => li.className)`)
	marked := browsertest.Evaluate[int](t, ctx, `document.querySelectorAll("#board .cell[data-class]").length`)
	turning := browsertest.Evaluate[string](t, ctx, `document.getElementById("turning").textContent`)
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
	if url := browsertest.Evaluate[string](t, ctx, "location.href"); err != nil || !strings.HasSuffix(url, "&level=3") {
		t.Errorf("level 3 chosen: %v, address %s; want it to end in &level=3", err, url)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(ts.URL+"/?pos=44&level=7"), chromedp.WaitVisible(`#scores .score[data-col="7"][data-score]`)); err != nil {
		t.Fatal(err)
	}
	if v := browsertest.Evaluate[string](t, ctx, `document.getElementById("level").value`); v != "7" {
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
	ctx := browsertest.Start(t, time.Minute)
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
		if head := browsertest.Evaluate[string](t, ctx, `document.querySelector("#review p").textContent`); head != tc.head {
			t.Errorf("review of %s on 5x4 says\n%q; want\n%q", tc.game, head, tc.head)
		}
		if moves := browsertest.Evaluate[[]string](t, ctx, `Array.from(document.querySelectorAll("#review li")).map(li => li.textContent)`); !slices.Equal(moves, tc.moves) {
			t.Errorf("review of %s on 5x4 lists\n%q; want\n%q", tc.game, moves, tc.moves)
		}
	}
}
