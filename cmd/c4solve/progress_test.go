package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"c4solve/board"
	"c4solve/posfile"
	"c4solve/solver"
)

// TestProgressLog: every long job whose standard error is not a terminal
// says where it is there, a line every progressEvery (made short here),
// each line as the job's log format says; with -quiet it says nothing.
// Before, all of them ran in silence off a terminal (book generate logged
// a line a minute, and only when a position was done).
func TestProgressLog(t *testing.T) {
	defer func(d time.Duration) { progressEvery = d }(progressEvery)
	progressEvery = 20 * time.Millisecond
	dir := t.TempDir()
	file := filepath.Join(dir, "6x5.txt")
	if err := os.WriteFile(file, []byte("\"\" 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bk := filepath.Join(dir, "b.c4book")
	// A line says the item under way, and its search's nodes and bounds,
	// from when the item began. The items done count the last one too: a
	// tick can fall between its end and the log's (CI saw "1 of 1 game
	// reviewed" once).
	const took, search = `(\d+m)?\d+s`, `: \d+ nodes, -?\d+ <= score <= -?\d+)?`
	q := regexp.QuoteMeta
	for _, tc := range []struct {
		name  string
		args  []string
		stdin string
		line  string // each line of the log, a regular expression
	}{
		{"solve, arguments", []string{"-nobook", "-threads", "1", "-size", "6x5", `""`}, "",
			`c4solve: ` + took + `: [01] of 1 position done(; argument 1 "" under way` + search},
		{"solve, standard input", []string{"-nobook", "-threads", "1", "-size", "6x5"}, "\"\"\n",
			`c4solve: ` + took + `: (0 positions|1 position) done(; line 1 "" under way` + search},
		{"verify", []string{"verify", "-nobook", "-threads", "1", "-size", "6x5", file}, "",
			`c4solve verify: ` + took + `: (0 positions|1 position) done(; ` + q(file) + `:1 "" under way` + search},
		{"bench", []string{"bench", "-nobook", "-threads", "1", "-tt", "16", "-size", "6x5", file}, "",
			`c4solve bench: ` + took + `: ` + q(file) + `, 1 threads, 16 MiB: [01] of 1 position solved(; ` + q(file) + `:1 "" under way` + search},
		{"review", []string{"review", "-threads", "1", "-size", "6x5", "33"}, "",
			`c4solve review: ` + took + `: [01] of 1 game reviewed(; argument 1 33, move [12] of 2 under way` + search},
		{"book generate", []string{"book", "generate", "-nobook", "-threads", "1", "-size", "6x5", "-depth", "2", "-o", bk}, "",
			`c4solve book generate: (` + took + ` so far, listing the positions of the book|18 positions to solve, a line of progress every 20ms|` +
				`\d+ of 18 positions \(\d+\.\d%\), (none solved yet, ` + took + ` so far|\d+ an hour, ` + took + ` so far, about ` + took + ` left))`},
		{"book verify", []string{"book", "verify", "-n", "4", "-seed", "1", "-threads", "1", "-tt", "16"}, "",
			`c4solve book verify: ` + took + `: [0-4] of 4 positions checked(; position [1-4] under way` + search},
	} {
		line := regexp.MustCompile(`^(` + tc.line + `)$`)
		code, out, errOut := runCmd(context.Background(), tc.stdin, tc.args...)
		lines := strings.Split(strings.TrimSuffix(errOut, "\n"), "\n")
		// A line at least, and but for book generate's, the item under way
		// said in one at least: each job runs for many periods.
		ok := code == 0 && out != "" && lines[0] != "" && strings.Contains(errOut, "under way") == (tc.args[1] != "generate")
		for _, l := range lines {
			ok = ok && line.MatchString(l)
		}
		if !ok {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want 0 and lines each of %s", tc.name, code, out, errOut, line)
		}
		// -quiet: the same results, and nothing on stderr.
		args := append([]string{}, tc.args...)
		at := 0
		if args[0] == "book" {
			at = 2
		} else if !strings.HasPrefix(args[0], "-") {
			at = 1
		}
		args = append(args[:at], append([]string{"-quiet"}, args[at:]...)...)
		code, qout, errOut := runCmd(context.Background(), tc.stdin, args...)
		if code != 0 || qout == "" || errOut != "" {
			t.Errorf("%s -quiet: exit %d, stdout %q, stderr %q; want 0 and nothing on stderr", tc.name, code, qout, errOut)
		}
	}
}

// TestAnalyzeProgressBounds: the progress of -analyze shows the bounds
// established so far on the position's score, each at least as wide as
// those printed when -timeout stops it, and never a range not begun
// (0 <= score <= 0, before: for the whole search of -size 8x5 -analyze
// 45, whose bounds at the end are 2 <= score <= 17 or closer).
func TestAnalyzeProgressBounds(t *testing.T) {
	defer func(d time.Duration) { progressDelay = d }(progressDelay)
	progressDelay = 20 * time.Millisecond
	z, _ := board.ParseSize("8x5")
	g, err := board.NewGrid(z)
	if err != nil {
		t.Fatal(err)
	}
	b, err := g.Parse("45", false)
	if err != nil {
		t.Fatal(err)
	}
	for _, threads := range []int{1, 2} {
		var out, errOut bytes.Buffer
		c := &command{opt: options{analyze: true}, s: testSolver(t, g, 16, threads), stdout: &out, stderr: &errOut, terminal: true}
		ctx, cancel := context.WithTimeout(context.Background(), 800*time.Millisecond)
		c.solveLine(ctx, "argument 1", posfile.Line{Moves: "45", Board: b})
		cancel()
		var lo, hi int
		if _, err := fmt.Sscanf(out.String(), "45 incomplete %d <= score <= %d", &lo, &hi); err != nil {
			t.Fatalf("%d threads: -size 8x5 -analyze -timeout 800ms 45: stdout %q; want its bounds", threads, out.String())
		}
		shown := regexp.MustCompile(`(-?\d+) <= score <= (-?\d+)`).FindAllStringSubmatch(errOut.String(), -1)
		if len(shown) == 0 {
			t.Fatalf("%d threads: stderr %q; want the progress", threads, errOut.String())
		}
		for _, m := range shown {
			l, _ := strconv.Atoi(m[1])
			h, _ := strconv.Atoi(m[2])
			if l > lo || h < hi {
				t.Fatalf("%d threads: progress showed %s; the bounds at the end are %d <= score <= %d", threads, m[0], lo, hi)
			}
		}
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
