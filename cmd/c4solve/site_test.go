package main

import (
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"c4solve/internal/browsertest"
)

// TestSiteFiles: c4solve site writes the five files of the site, its page
// that of serve with the element naming the module and the time limit.
func TestSiteFiles(t *testing.T) {
	dir := buildSite(t)
	for _, name := range []string{"index.html", "c4solve.wasm", "wasm_exec.js", "c4solve.mjs", "worker.js"} {
		if st, err := os.Stat(filepath.Join(dir, name)); err != nil || st.Size() == 0 {
			t.Errorf("the site has no %s, or an empty one: %v", name, err)
		}
	}
	page, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if want := `<meta name="c4solve-engine" content="./c4solve.mjs" data-timeout="3" data-table-mib="64" data-workers="1">`; !strings.Contains(string(page), want) {
		t.Errorf("the site's index.html has no %s", want)
	}
	for _, tc := range []struct{ args, want string }{
		{"", "want -o DIR"},
		{"-o x -tt 0", "-tt 0: want 1 to 2048 MiB"},
		{"-o x -workers 17", "-workers 17: want 1 to 16"},
		{"-o x -timeout -1s", "-timeout -1s: want 0 (no limit) or more"},
	} {
		code, _, stderr := runCmd(context.Background(), "", append([]string{"site"}, strings.Fields(tc.args)...)...)
		if code != exitBad || !strings.Contains(stderr, tc.want) {
			t.Errorf("c4solve site %s: exit %d, %q; want 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
	// Outside the source tree there is no engine to build.
	out := t.TempDir()
	t.Chdir(out)
	code, _, stderr := runCmd(context.Background(), "", "site", "-o", "s")
	if code != exitBad || !strings.Contains(stderr, "run this in the clone of c4solve") {
		t.Errorf("c4solve site outside the source tree: exit %d, %q; want 2 and what to do", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "s")); err == nil {
		t.Error("c4solve site outside the source tree made its folder")
	}
}

// site is the folder of the site built for the tests, once.
var site struct {
	dir string
	err error
}

// buildSite returns the folder of a site built by c4solve site -timeout 3s
// (a go build for WebAssembly: tens of seconds the first time), or skips
// the test where there is no go command.
func buildSite(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: the site's build takes tens of seconds")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to build the engine for WebAssembly")
	}
	if site.dir == "" && site.err == nil {
		dir, err := os.MkdirTemp("", "c4solve-site")
		site.dir, site.err = dir, err
		if err == nil {
			if code, _, stderr := runCmd(context.Background(), "", "site", "-timeout", "3s", "-o", dir); code != 0 {
				site.err = fmt.Errorf("c4solve site: exit %d: %s", code, stderr)
			}
		}
	}
	if site.err != nil {
		t.Fatal(site.err)
	}
	return site.dir
}

// TestSiteInBrowser serves the site's folder with a plain file server (no
// c4solve handler) and in headless Chromium, on a window 1200 and one 390
// pixels wide: /?pos=4453 shows the seven exact scores; a game against
// the perfect player on 7x6 and one on 6x5, played to its end, then
// reviewed; an 8x8 link at 20 stones gets the perfect player's move
// within the site's limit of 3 s.
func TestSiteInBrowser(t *testing.T) {
	dir := buildSite(t)
	ts := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer ts.Close()
	for _, width := range []int64{1200, 390} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			ctx := browsertest.Start(t, 2*time.Minute)
			const readScores = `Array.from(document.querySelectorAll("#scores .score")).map(
				e => e.dataset.score === undefined ? 0 : Number(e.dataset.score))`
			err := chromedp.Do(ctx,
				chromedp.EmulateViewport(width, 844),
				chromedp.Navigate(ts.URL+"/?pos=4453"),
				chromedp.WaitVisible(`#scores .score[data-col="7"][data-score]`),
			)
			if err != nil {
				t.Fatalf("opening /?pos=4453: %v", err)
			}
			if got, want := browsertest.Evaluate[[]int](t, ctx, readScores), []int{-5, -5, -2, -3, -4, -2, -2}; !slices.Equal(got, want) {
				t.Fatalf("/?pos=4453 shows scores %v; want %v", got, want)
			}
			for _, size := range []string{"7x6", "6x5"} {
				playGame(t, ctx, ts.URL, size)
			}

			// An 8x8 position that takes more than 3 s to solve: the
			// perfect player's move comes within the limit, from the best
			// found (its note says so).
			const link = "/?size=8x8&pos=43638532538262247725"
			start := time.Now()
			err = chromedp.Do(ctx,
				chromedp.Navigate(ts.URL+link),
				chromedp.WaitVisible(`#board .col[data-col="8"]`),
				// Red (the first player) is to move: the perfect player
				// plays first.
				chromedp.Evaluate[chromedp.Void](`document.getElementById("engineFirst").click()`),
				chromedp.Evaluate[chromedp.Void](`document.getElementById("engine").click()`),
				chromedp.Poll[chromedp.Void](`moves.length === 21`),
			)
			if err != nil {
				t.Fatalf("%s, the perfect player to move: %v (%s)", link, err, pageState(t, ctx))
			}
			if took := time.Since(start); took > 20*time.Second {
				t.Errorf("%s: the perfect player's move took %v; want it within the 3 s limit and the page's load", link, took)
			}
		})
	}
}

// TestSiteAnalyzeSplit: in headless Chromium, c4solve.mjs with two workers
// (configure({workers: 2})), which share an analysis's moves, answers
// analyze as the command does (its -analyze -pv -json lines of
// testdata/web: score, scores, best, pv), a bad position with the
// service's error, and, past a time limit of 1 s on an 8x8 position of 4
// stones, the bounds found in the service's fields.
func TestSiteAnalyzeSplit(t *testing.T) {
	ts := moduleServer(t)
	ctx := browsertest.Start(t, 2*time.Minute)
	openModule(t, ctx, ts.URL, 2, 0)
	type answer struct {
		Pos    string `json:"pos"`
		Score  *int   `json:"score"`
		Scores []*int `json:"scores"`
		Best   []int  `json:"best"`
		PV     string `json:"pv"`
		Error  string `json:"error"`
	}
	for _, set := range []struct{ file, size string }{{"analyze7x6.jsonl", ""}, {"analyze6x5.jsonl", "6x5"}} {
		for _, line := range fileLines(t, "../../testdata/web/"+set.file) {
			var want answer
			if err := json.Unmarshal([]byte(line), &want); err != nil {
				t.Fatal(err)
			}
			got := browsertest.Await[answer](t, ctx, fmt.Sprintf(`m.request("GET", "analyze?pos=%s&size=%s").then(r => JSON.parse(r.body))`, want.Pos, set.size))
			if !reflect.DeepEqual(got, want) {
				t.Errorf("analyze of %s on %s, two workers: %+v; the command's -analyze -pv: %+v", want.Pos, cmp.Or(set.size, "7x6"), got, want)
			}
		}
	}
	bad := browsertest.Await[answer](t, ctx, `m.request("GET", "analyze?pos=48").then(r => JSON.parse(r.body))`)
	if bad.Error != `pos "48": position 2: '8' is not a column 1-7` {
		t.Errorf(`analyze of "48", two workers: error %q; want the service's`, bad.Error)
	}

	openModule(t, ctx, ts.URL, 2, 1)
	start := time.Now()
	stopped := browsertest.Await[struct {
		Incomplete   bool
		Lower, Upper int
		Lows, Highs  []*int
		BestFound    int `json:"best_found"`
		Note         string
	}](t, ctx, `m.request("GET", "analyze?size=8x8&pos=4554").then(r => JSON.parse(r.body))`)
	if took := time.Since(start); !stopped.Incomplete || len(stopped.Lows) != 8 || len(stopped.Highs) != 8 ||
		stopped.Lower > stopped.Upper || stopped.BestFound < 1 || stopped.BestFound > 8 || stopped.Note != "not proved in 1 s" || took > 10*time.Second {
		t.Errorf("analyze of 4554 on 8x8 in 1 s, two workers: %+v, in %v; want the bounds found, as the service's", stopped, took)
	}
}

// pageState returns what the page shows: its moves, status and error.
func pageState(t *testing.T, ctx context.Context) string {
	return browsertest.Evaluate[string](t, ctx, `"moves " + JSON.stringify(moves) + ", status " +
		JSON.stringify(document.getElementById("status").textContent) + ", error " + JSON.stringify(document.getElementById("error").textContent)`)
}

// moduleServer serves the site's folder and module.html, a page that
// imports c4solve.mjs as window.m, configured with the workers and the
// time limit of its query (?workers=N&timeout=SECONDS).
func moduleServer(t *testing.T) *httptest.Server {
	dir := buildSite(t)
	const page = `<!doctype html><script type="module">
import * as m from "./c4solve.mjs";
const q = new URLSearchParams(location.search);
m.configure({workers: Number(q.get("workers")), timeoutSeconds: Number(q.get("timeout"))});
window.m = m;
</script>`
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServer(http.Dir(dir)))
	mux.HandleFunc("/module.html", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, page) })
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return ts
}

// openModule opens moduleServer's page at url with workers and a time limit
// of timeout seconds (0: none).
func openModule(t *testing.T, ctx context.Context, url string, workers, timeout int) {
	t.Helper()
	err := chromedp.Do(ctx, chromedp.Navigate(fmt.Sprintf("%s/module.html?workers=%d&timeout=%d", url, workers, timeout)),
		chromedp.Poll[chromedp.Void](`window.m !== undefined`))
	if err != nil {
		t.Fatal(err)
	}
}

// playGame plays on the board size a game against the perfect player to
// its end, clicking the first column not full each turn, then reviews it
// and checks that the review lists every move.
func playGame(t *testing.T, ctx context.Context, url, size string) {
	t.Helper()
	err := chromedp.Do(ctx,
		chromedp.Navigate(url+"/?size="+size),
		chromedp.WaitVisible(`#scores .score[data-col="1"][data-score]`),
	)
	if err != nil {
		t.Fatalf("opening /?size=%s: %v", size, err)
	}
	if !browsertest.Evaluate[bool](t, ctx, `document.getElementById("engine").checked`) {
		browsertest.Evaluate[any](t, ctx, `document.getElementById("engine").click()`)
	}
	for turn := 0; ; turn++ {
		if browsertest.Evaluate[bool](t, ctx, `document.getElementById("status").textContent.includes("New game")`) {
			break
		}
		if turn > 60 {
			t.Fatalf("%s: the game is not over after 60 turns", size)
		}
		before := browsertest.Evaluate[int](t, ctx, `moves.length`)
		err := chromedp.Do(ctx,
			// Our move: the first column not full, once the page takes one.
			chromedp.Poll[chromedp.Void](`!document.getElementById("board").classList.contains("locked")`),
			chromedp.Evaluate[chromedp.Void](`Array.from(document.querySelectorAll("#board .col")).find(c => !/red|yellow/.test(c.lastElementChild.className)).click()`),
			// Its answer, unless our move ended the game.
			chromedp.Poll[chromedp.Void](fmt.Sprintf(`moves.length >= %d + 2 ||
				document.getElementById("status").textContent.includes("New game")`, before), chromedp.WithPollingInterval(50*time.Millisecond)),
		)
		if err != nil {
			t.Fatalf("%s, turn %d: %v (%s)", size, turn+1, err, pageState(t, ctx))
		}
	}
	game := browsertest.Evaluate[string](t, ctx, `document.getElementById("pos").textContent`)
	err = chromedp.Do(ctx,
		chromedp.Evaluate[chromedp.Void](`document.getElementById("reviewGame").click()`),
		chromedp.Poll[chromedp.Void](fmt.Sprintf(`document.querySelectorAll("#review li").length === %d`, len(game))),
	)
	if err != nil {
		t.Fatalf("%s: reviewing the game %s: %v", size, game, err)
	}
}

var webBench = flag.Bool("webbench", false, "measure the static site in Chromium: the time to the first answer, and nodes/s (TestSiteSpeed)")

// TestSiteSpeed, with -webbench, measures the site in headless Chromium:
// the time from a cold load of /?pos=4453 (no cache) to its scores shown,
// then web/bench.mjs's solves (no book, a cleared table each) of the first
// 20 positions of testdata/random8.txt and of testdata/sizes/fresh/8x8.txt's
// first 5, in the page's worker; it logs what c4solve bench -nobook
// -threads 1 prints for the same, to compare (docs/web.md).
func TestSiteSpeed(t *testing.T) {
	if !*webBench {
		t.Skip("without -webbench")
	}
	dir := buildSite(t)
	b, err := os.ReadFile("../../web/bench.mjs")
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, "bench.mjs"), b, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer ts.Close()
	ctx := browsertest.Start(t, 10*time.Minute)
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: true}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err = chromedp.Do(ctx,
		chromedp.Navigate(ts.URL+"/?pos=4453"),
		chromedp.WaitVisible(`#scores .score[data-col="7"][data-score]`),
	)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("a cold load of /?pos=4453 to its scores shown: %v", time.Since(start).Round(time.Millisecond))
	// Then moves of the book's positions: a click to the new position's
	// scores shown, timed in the page.
	for _, col := range []int{3, 4, 4, 5} {
		took := browsertest.Await[float64](t, ctx, fmt.Sprintf(`new Promise(done => {
			const start = performance.now(), before = moves;
			document.querySelector('#board .col[data-col="%d"]').click();
			const wait = () => moves !== before && document.querySelectorAll("#scores .score[data-score]").length > 0 ?
				done(performance.now() - start) : requestAnimationFrame(wait);
			requestAnimationFrame(wait);
		})`, col))
		t.Logf("after a click on column %d, the scores of %s shown in %.0f ms", col, browsertest.Evaluate[string](t, ctx, "moves"), took)
	}
	for _, set := range []struct{ file, size string }{{"../../testdata/random8.txt", ""}, {"../../testdata/sizes/fresh/8x8.txt", "8x8"}} {
		lines := fileLines(t, set.file)
		n := 20
		if set.size != "" {
			n = 5
		}
		lines = lines[:n]
		expr := fmt.Sprintf(`import("./bench.mjs").then(m => m.bench(%s, {size: %q}))`, jsonOf(t, lines), set.size)
		r, err := chromedp.Run(ctx, chromedp.Evaluate[struct {
			Positions, Wrong int
			Nodes, Seconds   float64
		}](expr, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatal(err)
		}
		if r.Wrong != 0 {
			t.Errorf("%s: %d wrong scores in Chromium", set.file, r.Wrong)
		}
		t.Logf("Chromium, %s, first %d: mean %.4f s, mean nodes %.0f, %.2f M nodes/s", set.file, n, r.Seconds/float64(n), r.Nodes/float64(n), r.Nodes/r.Seconds/1e6)
	}

	// Analyses with one worker and with two sharing the moves, in pages of
	// their own.
	ms := moduleServer(t)
	for _, set := range []struct {
		file, size string
		n          int
	}{{"../../testdata/benchmarks/Test_L1_R2", "", 10}, {"../../testdata/sizes/fresh/8x8.txt", "8x8", 3}} {
		var positions []string
		for _, l := range fileLines(t, set.file)[:set.n] {
			positions = append(positions, strings.Fields(l)[0])
		}
		for _, workers := range []int{1, 2} {
			openModule(t, ctx, ms.URL, workers, 0)
			secs := browsertest.Await[float64](t, ctx, fmt.Sprintf(`(async () => {
				const start = performance.now();
				for (const pos of %s) await m.analyze(pos, {size: %q});
				return (performance.now() - start) / 1000;
			})()`, jsonOf(t, positions), set.size))
			t.Logf("Chromium, analyze of %s's first %d, %d worker(s): %.2f s (%.3f s a position)", set.file, set.n, workers, secs, secs/float64(set.n))
		}
	}
	t.Logf("navigator.hardwareConcurrency: %d", browsertest.Evaluate[int](t, ctx, "navigator.hardwareConcurrency"))
}

func fileLines(t *testing.T, name string) []string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return slices.DeleteFunc(strings.Split(string(b), "\n"), func(l string) bool { return l == "" })
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
