package server_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"c4solve/internal/browsertest"
	"c4solve/server"
)

// TestPageInBrowser opens /?pos=4453 in headless Chromium, reads the seven
// scores, plays column 3, and checks that the perfect player answers with
// a best move and that the new position's scores are shown.
func TestPageInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	ts := newServer(t, server.Config{})
	ctx := browsertest.Start(t, time.Minute)

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
	if browsertest.Evaluate[bool](t, ctx, `document.getElementById("engine").checked`) {
		t.Error("/?pos=4453: \"perfect player answers\" is ticked; want a link's position to start without it")
	}
	browsertest.Evaluate[any](t, ctx, `document.getElementById("engine").click()`)
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
