package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"c4solve/board"
	"c4solve/book"
	"c4solve/internal/position"
	"c4solve/internal/settings"
	"c4solve/server"
)

var loadThreads = flag.Int("loadthreads", runtime.NumCPU(), "search goroutines of each solve in TestLoad")

var loadTime = flag.Duration("load", 3*time.Second, "how long TestLoad runs its clients")

// TestLoad runs 32 clients over loopback for -load, each asking /solve for
// random positions of the published sets, and checks every answer: the
// best column's score is the position's published score, and no column
// scores more. It logs the latencies.
func TestLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	type line struct {
		moves string
		score int
	}
	var lines []line
	for _, set := range []string{"Test_L3_R1", "Test_L2_R1", "Test_L2_R2"} {
		f, err := os.Open("../testdata/benchmarks/" + set)
		if err != nil {
			t.Fatalf("the benchmark files: %v", err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var l line
			if _, err := fmt.Sscan(sc.Text(), &l.moves, &l.score); err != nil {
				t.Fatal(err)
			}
			lines = append(lines, l)
		}
		f.Close()
	}
	bk, err := book.Default()
	if err != nil {
		t.Fatal(err)
	}
	ts := newServer(t, server.Config{TableMiB: 64, Books: withBook(nil, board.Standard, bk), Solvers: runtime.NumCPU(), Threads: *loadThreads,
		Queue: 64, Timeout: 10 * time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), *loadTime)
	defer cancel()
	var mu sync.Mutex
	var lat []time.Duration
	var wg sync.WaitGroup
	for c := range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(c), 1))
			for ctx.Err() == nil {
				l := lines[rng.IntN(len(lines))]
				start := time.Now()
				resp, err := http.Get(ts.URL + "/solve?pos=" + url.QueryEscape(l.moves))
				if err != nil {
					t.Error(err)
					return
				}
				var a server.SolveAnswer
				err = json.NewDecoder(resp.Body).Decode(&a)
				resp.Body.Close()
				d := time.Since(start)
				best := -100
				for _, sc := range a.Score {
					if sc != server.DefaultFull {
						best = max(best, sc)
					}
				}
				if err != nil || resp.StatusCode != 200 || a.Pos != l.moves || best != l.score {
					t.Errorf("/solve?pos=%s: %d %+v %v; want the best score %d", l.moves, resp.StatusCode, a, err, l.score)
					return
				}
				mu.Lock()
				lat = append(lat, d)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(lat) == 0 {
		t.Fatal("no answer")
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	t.Logf("%d answers in %v from 32 clients: p50 %v, p99 %v, max %v",
		len(lat), *loadTime, lat[len(lat)/2], lat[len(lat)*99/100], lat[len(lat)-1])
}

var (
	games     = flag.Int("games", 2, "games TestRandomGames plays")
	gamesSeed = flag.Uint64("games-seed", 11, "TestRandomGames: the seed of the random player's moves")
)

// TestRandomGames plays -games games of a random player against the
// perfect player, through /solve from the empty board, with the built-in
// book and a cold table, checks that the perfect player never loses
// (it starts the odd games, and wins them), and logs the median and the
// slowest answer for each number of stones. -games-seed draws other games.
func TestRandomGames(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	// As c4solve serve by default: a solver and a search goroutine per
	// CPU, a table of settings.DefaultTableMiB.
	ts := newServer(t, server.Config{TableMiB: settings.DefaultTableMiB, Solvers: runtime.NumCPU(), Threads: runtime.NumCPU(), Timeout: time.Minute})
	took := make([][]time.Duration, position.Cells)
	rng := rand.New(rand.NewPCG(*gamesSeed, 12))
	for g := range *games {
		moves := ""
		engine := g % 2 // the side the perfect player plays: 0 starts
		p := position.Position{}
		for !p.Over() {
			start := time.Now()
			var a server.SolveAnswer
			if resp := get(t, ts, "/solve?pos="+moves, &a); resp.StatusCode != 200 {
				t.Fatalf("/solve?pos=%s: %d", moves, resp.StatusCode)
			}
			took[p.Stones()] = append(took[p.Stones()], time.Since(start))
			col := -1
			if p.Stones()%2 == engine {
				for _, c := range []int{3, 2, 4, 1, 5, 0, 6} {
					if a.Score[c] != server.DefaultFull && (col < 0 || a.Score[c] > a.Score[col]) {
						col = c
					}
				}
			} else {
				for col < 0 || !p.CanPlay(col) {
					col = rng.IntN(position.Width)
				}
			}
			moves += string(rune('1' + col))
			p.Play(col)
		}
		if p.Won() && (p.Stones()-1)%2 != engine {
			t.Errorf("game %d, %s: the random player won", g+1, moves)
		}
	}
	var sb strings.Builder
	for n, ds := range took {
		if len(ds) > 0 {
			slices.Sort(ds)
			fmt.Fprintf(&sb, "\n  %2d stones: %2d answers, median %v, max %v", n, len(ds),
				ds[len(ds)/2].Round(time.Microsecond), ds[len(ds)-1].Round(time.Microsecond))
		}
	}
	t.Logf("answers by stones over %d games:%s", *games, sb.String())
}

var (
	latencyStones = flag.String("latency", "", "TestColdLatency: the stone counts to measure, as 7,8,9,10 (none: skip)")
	latencyN      = flag.Int("latency-n", 40, "TestColdLatency: positions a stone count")
	latencySeed   = flag.Uint64("latency-seed", 1, "TestColdLatency: the seed of the random positions (board.Grid.RandomPositions)")
	latencyOut    = flag.String("latency-out", "", "TestColdLatency: write each answer's moves as \"moves score\" lines to this file, to check with another solver (compare/check_scores.sh)")
)

// TestColdLatency measures what a caller waits for /solve, as serve's
// defaults answer it (a solver and a search goroutine per CPU, a table of
// settings.DefaultTableMiB, the built-in book), cold: a fresh server for each
// stone count, asked about random positions of real play one after the
// other. It logs the median and the slowest answer a stone count, and
// with -latency-out writes every move's position and score, which
// compare/check_scores.sh checks with a reference solver:
//
//	go test ./server -run TestColdLatency -latency 7,8,9,10 -latency-seed 77 -latency-out /tmp/answers.txt -v
func TestColdLatency(t *testing.T) {
	if *latencyStones == "" {
		t.Skip("no -latency stone counts")
	}
	var out *bufio.Writer
	if *latencyOut != "" {
		f, err := os.Create(*latencyOut)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		out = bufio.NewWriter(f)
		defer out.Flush()
	}
	for _, field := range strings.Split(*latencyStones, ",") {
		var stones int
		if _, err := fmt.Sscan(field, &stones); err != nil {
			t.Fatalf("-latency %q: %v", *latencyStones, err)
		}
		var positions []string
		if err := standard7x6.RandomPositions(*latencySeed, stones, *latencyN, func(m string) bool {
			positions = append(positions, m)
			return true
		}); err != nil {
			t.Fatal(err)
		}
		ts := newServer(t, server.Config{TableMiB: settings.DefaultTableMiB, Solvers: runtime.NumCPU(), Threads: runtime.NumCPU(), Timeout: time.Minute})
		var took []time.Duration
		for _, moves := range positions {
			start := time.Now()
			var a server.SolveAnswer
			if resp := get(t, ts, "/solve?pos="+moves, &a); resp.StatusCode != 200 {
				t.Fatalf("/solve?pos=%s: %d", moves, resp.StatusCode)
			}
			took = append(took, time.Since(start))
			if d := took[len(took)-1]; d > 500*time.Millisecond {
				t.Logf("   %s: %v", moves, d.Round(time.Millisecond))
			}
			if out == nil {
				continue
			}
			p, _ := position.Parse(moves)
			for col, sc := range a.Score {
				if c := p; sc != server.DefaultFull && !p.IsWinningMove(col) {
					c.Play(col)
					if !c.Over() {
						fmt.Fprintf(out, "%s%d %d\n", moves, col+1, -sc) // the child's score, for its side to move
					}
				}
			}
		}
		ts.Close()
		slices.Sort(took)
		t.Logf("%2d stones: %d positions (seed %d), median %v, max %v, over 1 s %d", stones, len(took), *latencySeed,
			took[len(took)/2].Round(time.Millisecond), took[len(took)-1].Round(time.Millisecond),
			len(took)-sort.Search(len(took), func(i int) bool { return took[i] > time.Second }))
	}
}
