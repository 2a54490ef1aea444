package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"c4solve/board"
	"c4solve/posfile"
)

// TestSize solves positions of other boards with -size: plain, -analyze,
// -pv, -json, standard input, 0-based columns, and -size 7x6, which is
// the standard board's search; bad sizes and moves are refused with where
// and why.
func TestSize(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		stdin string
		args  []string
		code  int
		out   string // exact
		err   string // contained
	}{
		{"", []string{"-size", "4x4", ""}, 0, "\"\" 0\n", ""},
		{"", []string{"-size", "6x4", ""}, 0, "\"\" -1\n", ""},
		// 5x4: column 3 first, then each reply; a full column prints "full".
		{"", []string{"-size", "5x4", "-analyze", "3"}, 0, "3 0 0 0 0 0\n", ""},
		{"", []string{"-size", "4x4", "-analyze", "1111"}, 0, "1111 full 0 0 0\n", ""},
		{"", []string{"-size", "4x4", "-json", "1111"}, 0, `{"pos":"1111","score":0,"nodes":`, ""},
		{"", []string{"-size", "9x5", "12345678912345678"}, 0, "", ""},
		{"", []string{"-size", "10x4", "-weak", "1a1a1a"}, 0, "1a1a1a 1\n", ""}, // column 1's fourth stone wins
		{"3 0\n", []string{"-size", "5x4"}, 0, "3 0\n", ""},
		{"3 1\n", []string{"-size", "5x4"}, 1, "3 0 MISMATCH\n", ""},
		{"", []string{"-size", "5x4", "-from0", "2"}, 0, "2 0\n", ""},
		{"", []string{"-size", "7x6", "4453"}, 0, "4453 -2\n", ""},
		{"", []string{"-size", "7x6", "-from0", "3342"}, 0, "3342 -2\n", ""},
		{"", []string{"-size", "8x5", "19"}, 2, "", `argument 1 "19": position 2: '9' is not a column 1-8 of the 8x5 board`},
		{"", []string{"-size", "26x4", "1"}, 2, "", "size 26x4: too large: at most 25 columns and 31 rows, and 128 bits"},
		{"", []string{"-size", "10x12", "1"}, 2, "", "size 10x12: needs 130 bits, at most 128 are supported"},
		{"", []string{"-size", "3x9", "1"}, 2, "", "size 3x9: each side must be 4 or more"},
		{"", []string{"-size", "8x5", "-book", "x.c4book", "1"}, 2, "", "-book x.c4book: no such file or directory"},
		{"1111 0\n88\n", []string{"-size", "4x4"}, 2, "1111 0\n", "line 2: position 1: '8' is not a column 1-4 of the 4x4 board"},
		{"", []string{"-size", "5x4", "1212121"}, 2, "", "the game is already over"},
		{"", []string{"-size", "5x4", "-threads", "2", "3"}, 0, "3 0\n", ""},
	}
	for _, tt := range tests {
		code, out, errOut := runCmd(ctx, tt.stdin, tt.args...)
		name := strings.Join(tt.args, " ")
		if code != tt.code {
			t.Errorf("%s: exit %d; want %d (stderr %q)", name, code, tt.code, errOut)
		}
		if tt.out != "" && !strings.HasPrefix(out, tt.out) && out != tt.out {
			t.Errorf("%s: stdout %q; want %q", name, out, tt.out)
		}
		if !strings.Contains(errOut, tt.err) {
			t.Errorf("%s: stderr %q; want it to say %q", name, errOut, tt.err)
		}
	}
}

// TestSizePV: -pv on another board prints a line that ends the game with
// the score: 6x4's second player wins with its last stone.
func TestSizePV(t *testing.T) {
	code, out, errOut := runCmd(context.Background(), "", "-size", "6x4", "-pv", "")
	f := strings.Fields(out)
	if code != 0 || len(f) != 3 || f[0] != `""` || f[1] != "-1" || len(f[2]) != 24 {
		t.Fatalf("-size 6x4 -pv: exit %d, %q (%s); want \"\" -1 and a line of 24 moves", code, out, errOut)
	}
}

// TestVerifySize verifies a file of another board, 0-based as
// Steininger's (its line "01" has the score of "12" solved 1-based), and
// reports a wrong score.
func TestVerifySize(t *testing.T) {
	_, out12, _ := runCmd(context.Background(), "", "-size", "5x4", "12")
	sc := strings.TrimPrefix(strings.TrimSpace(out12), "12 ")
	dir := t.TempDir()
	file := writeFile(t, dir, "s.txt", "2 0\n\"\" 0\n01 "+sc+"\n")
	code, out, errOut := runCmd(context.Background(), "", "verify", "-size", "5x4", "-from0", file)
	if code != 0 || !strings.Contains(out, "positions=3 mismatches=0") {
		t.Errorf("verify -size 5x4 -from0: exit %d, %q %q; want 3 positions, 0 mismatches", code, out, errOut)
	}
	writeFile(t, dir, "s.txt", "2 1\n")
	code, out, _ = runCmd(context.Background(), "", "verify", "-size", "5x4", "-from0", file)
	if code != 1 || !strings.Contains(out, "MISMATCH "+file+":1 2 expected=1 got=0") {
		t.Errorf("verify of a wrong score: exit %d, %q; want 1 and the MISMATCH line", code, out)
	}
}

// TestBenchSize measures a file of another board at each thread count,
// with the speed-up over one thread, and with a book of that board; a
// book of another board is refused.
func TestBenchSize(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "s.txt", "\"\" 0\n3 0\n")
	code, out, errOut := runCmd(context.Background(), "", "bench", "-size", "5x4", "-threads", "1,2", file)
	rows := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(rows) != 4 || !strings.Contains(rows[2], "| 1 | 64 | cold | strong | none | 2 | 0 |") ||
		!strings.Contains(rows[3], "| 2 | 64 | cold | strong | none | 2 | 0 |") {
		t.Errorf("bench -size 5x4 -threads 1,2: exit %d, %q (%s); want a row of 2 positions at 1 thread and one at 2, no book", code, out, errOut)
	}
	bk5, bk7 := filepath.Join(dir, "5x4.c4book"), filepath.Join(dir, "7x6.c4book")
	for _, args := range [][]string{{"-size", "5x4", "-depth", "3", "-o", bk5}, {"-from", "44444433333322", "-depth", "14", "-o", bk7}} {
		if code, _, errOut := runCmd(context.Background(), "", append([]string{"book", "generate"}, args...)...); code != 0 {
			t.Fatalf("book generate %v: exit %d, %s", args, code, errOut)
		}
	}
	code, out, errOut = runCmd(context.Background(), "", "bench", "-size", "5x4", "-threads", "1", "-book", bk5, file)
	if rows := strings.Split(strings.TrimSpace(out), "\n"); code != 0 || len(rows) != 3 || !strings.Contains(rows[2], "| 1 | 64 | cold | strong | "+bk5+" | 2 | 0 |") {
		t.Errorf("bench -size 5x4 -book %s: exit %d, %q (%s); want a row with the book", bk5, code, out, errOut)
	}
	code, _, errOut = runCmd(context.Background(), "", "bench", "-size", "5x4", "-book", bk7, file)
	if want := "a book of the 7x6 board, and -size is 5x4"; code != 2 || !strings.Contains(errOut, want) {
		t.Errorf("bench -size 5x4 -book %s: exit %d, %q; want 2 and %q", bk7, code, errOut, want)
	}
}

// TestPlaySize plays on other boards: the board drawn with its columns
// named, the engine's moves, a hint, and the prompt naming the columns.
func TestPlaySize(t *testing.T) {
	code, out, errOut := runCmd(context.Background(), "5\nh\nq\n", "play", "-size", "5x4")
	for _, want := range []string{"\n. . . . .\n", "\n1 2 3 4 5\n", "your move (1-5, u undo, h hint, q quit): ", "c4solve plays ", "hint: the score of each column: 1:", `quit at "5`} {
		if !strings.Contains(out, want) {
			t.Errorf("play -size 5x4 <<< 5 h q: exit %d, stdout %q (%s); want it to hold %q", code, out, errOut, want)
		}
	}
	code, out, _ = runCmd(context.Background(), "q\n", "play", "-size", "10x4", "12345678912345678")
	if code != 0 || !strings.Contains(out, "1 2 3 4 5 6 7 8 9 a\n") || !strings.Contains(out, "your move (1-9, a, u undo") {
		t.Errorf("play -size 10x4: exit %d, stdout %q; want columns 1-9, a", code, out)
	}
	// A column past c, typed: it was looked up among 1-9 and a-c only.
	code, out, errOut = runCmd(context.Background(), "k\nq\n", "play", "-size", "20x4", "-timeout", "1s", "1k")
	if code != 0 || !strings.Contains(out, `quit at "1kk`) {
		t.Errorf("play -size 20x4 1k <<< k q: exit %d, stdout %q, stderr %q; want the game to go on with k", code, out, errOut)
	}
}

// TestSizeProgress: a solve, an analysis and play's move on another
// board show their progress on a terminal, as on 7x6 (progressDelay made
// short: the 6x5 board's empty position takes about 0.15 s).
func TestSizeProgress(t *testing.T) {
	defer func(d time.Duration) { progressDelay = d }(progressDelay)
	progressDelay = 5 * time.Millisecond
	z, _ := board.ParseSize("6x5")
	g, err := board.NewGrid(z)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		opt  options
		run  func(c *command)
	}{
		{"-size 6x5 \"\"", options{}, func(c *command) { c.solveLine(context.Background(), "argument 1", posfile.Line{Board: g.Empty()}) }},
		{"-size 6x5 -analyze \"\"", options{analyze: true}, func(c *command) { c.solveLine(context.Background(), "argument 1", posfile.Line{Board: g.Empty()}) }},
		{"play -size 6x5 -first engine", options{}, func(c *command) {
			g := &game{c: c, p: g.Empty()}
			g.analyze(context.Background(), g.p)
		}},
	} {
		var out, errOut bytes.Buffer
		c := &command{opt: tc.opt, s: testSolver(t, g, 16, 1), stdout: &out, stderr: &errOut, terminal: true}
		tc.run(c)
		// Nothing may write after the solve's end: no goroutine of the
		// display (nor of its bar) is left to.
		if left := running("main.(*command).showProgress", "schollz/progressbar"); len(left) > 0 {
			t.Errorf("%s: %d goroutines of the progress display left after the solve ended, the first:\n%s", tc.name, len(left), left[0])
		}
		if !regexp.MustCompile(`\d+ nodes .* M nodes/s  -?\d+ <= score <= -?\d+`).MatchString(errOut.String()) || c.status != exitOK {
			t.Errorf("%s on a terminal: status %d, stderr %q; want the progress (nodes, nodes/s, bounds)", tc.name, c.status, errOut.String())
		}
	}
}

// TestServeSize starts serve -size 5x4 with a book of 4x5 and asks it
// positions: five scores with no size named, four of 4x5 from the book,
// seven of 7x6 from the built-in book; two books of one board or a -full
// inside 5x4's scores is refused.
func TestServeSize(t *testing.T) {
	book45 := filepath.Join(t.TempDir(), "4x5.c4book")
	if code, _, errOut := runCmd(context.Background(), "", "book", "generate", "-size", "4x5", "-depth", "3", "-o", book45); code != 0 {
		t.Fatalf("book generate -size 4x5: exit %d, %s", code, errOut)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve", "-size", "5x4", "-addr", "127.0.0.1:0", "-tt", "16", "-book", book45}, strings.NewReader(""), &stdout, &stderr)
	}()
	base := listeningOn(t, &stderr)
	for _, tc := range []struct{ query, want string }{
		{"solve?pos=3333", `^\{"pos":"3333","score":\[-?\d+,-?\d+,100,-?\d+,-?\d+\]\}\n$`},
		{"solve?pos=4453&size=7x6", `^\{"pos":"4453","score":\[-5,-5,-2,-3,-4,-2,-2\]\}\n$`},
		{"analyze?pos=22&width=4&height=5", `^\{"pos":"22","score":0,"scores":\[-2,0,-2,-2\],"best":\[2\],"pv":"\w{18}","nodes":\d+,`},
	} {
		resp, err := http.Get(base + tc.query)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !regexp.MustCompile(tc.want).Match(body) {
			t.Errorf("serve -size 5x4: GET /%s: %q; want %s", tc.query, body, tc.want)
		}
	}
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("serve -size 5x4: exit %d, stderr %q", code, stderr.String())
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "-book", book45, "-book", book45}, "-book " + book45 + " and -book " + book45 + ": two books of the 4x5 board; give one"},
		{[]string{"serve", "-book", book45, "-nobook"}, "-book and -nobook contradict each other"},
		{[]string{"serve", "-size", "5x4", "-full", "7"}, "-full 7: a score a move can have (-7 to 7)"},
	} {
		if code, _, errOut := runCmd(context.Background(), "", tc.args...); code != exitBad || !strings.Contains(errOut, tc.want) {
			t.Errorf("c4solve %v: exit %d, stderr %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}

// TestBookSize makes a book of 5x4, whole and in two shards merged (the
// same file), reads its header, verifies and samples it, solves from it
// with -size 5x4, and refuses it for 7x6 and for another size.
func TestBookSize(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := dir + "/b.c4book"
	code, out, errOut := runCmd(ctx, "", "book", "generate", "-size", "5x4", "-depth", "4", "-threads", "2", "-o", file)
	if code != 0 || !strings.HasPrefix(out, "book="+file+" board=5x4 depth=4 positions=") {
		t.Fatalf("book generate -size 5x4: exit %d, %q %q", code, out, errOut)
	}
	var parts []string
	for _, k := range []string{"1/2", "2/2"} {
		part := dir + "/part" + k[:1]
		if code, out, errOut := runCmd(ctx, "", "book", "generate", "-size", "5x4", "-depth", "4", "-shard", k, "-o", part); code != 0 {
			t.Fatalf("book generate -size 5x4 -shard %s: exit %d, %q %q", k, code, out, errOut)
		}
		parts = append(parts, part)
	}
	merged := dir + "/merged.c4book"
	if code, out, errOut := runCmd(ctx, "", append([]string{"book", "merge", "-o", merged}, parts...)...); code != 0 {
		t.Fatalf("book merge of 5x4 parts: exit %d, %q %q", code, out, errOut)
	}
	if a, b := mustRead(t, file), mustRead(t, merged); !bytes.Equal(a, b) {
		t.Errorf("the merged book of 5x4 differs from the whole run's")
	}
	if code, out, _ = runCmd(ctx, "", "book", "info", file); code != 0 || !strings.Contains(out, " version=1 board=5x4 depth=4 ") {
		t.Errorf("book info: exit %d, %q; want version=1 board=5x4 depth=4", code, out)
	}
	if code, out, _ = runCmd(ctx, "", "book", "verify", "-n", "1000", "-seed", "3", file); code != 0 || !strings.HasPrefix(out, "book="+file+" board=5x4 checksum=ok checked=") || !strings.Contains(out, " mismatches=0 ") {
		t.Errorf("book verify of 5x4: exit %d, %q; want every entry checked, no mismatch", code, out)
	}
	code, out, _ = runCmd(ctx, "", "book", "sample", "-n", "3", "-stones", "4", "-seed", "3", file)
	if lines := strings.Split(strings.TrimSpace(out), "\n"); code != 0 || len(lines) != 3 || len(strings.Fields(lines[0])[0]) != 4 {
		t.Errorf("book sample of 5x4: exit %d, %q; want 3 lines of 4 moves", code, out)
	}
	_, want, _ := runCmd(ctx, "", "-size", "5x4", "-nobook", "3", "31")
	if code, out, _ = runCmd(ctx, "", "-size", "5x4", "-book", file, "-v", "3", "31"); code != 0 || out != want {
		t.Errorf("-size 5x4 -book: exit %d, %q; want %q, as searched", code, out, want)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-book", file, "3"}, "a book of the 5x4 board, and -size is 7x6: give -size 5x4 to use it"},
		{[]string{"-size", "4x5", "-book", file, "3"}, "a book of the 5x4 board, and -size is 4x5"},
		{[]string{"book", "merge", "-o", dir + "/m2", parts[0], file}, "part 2 is a whole book"},
	} {
		if code, _, errOut := runCmd(ctx, "", tc.args...); code != exitBad || !strings.Contains(errOut, tc.want) {
			t.Errorf("c4solve %v: exit %d, %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}

// TestBookWide makes a book of 8x8, a board of 72 bits whose books have
// keys of two words (format version 2), from a root whose solves are
// quick, and solves from it.
func TestBookWide(t *testing.T) {
	ctx := context.Background()
	file := t.TempDir() + "/b.c4book"
	const root = "68333825128447741833366676678867"
	code, out, errOut := runCmd(ctx, "", "book", "generate", "-size", "8x8", "-from", root, "-depth", "34", "-threads", "2", "-tt", "16", "-o", file)
	if code != 0 || !strings.HasPrefix(out, "book="+file+" board=8x8 depth=34 positions=71 ") {
		t.Fatalf("book generate -size 8x8: exit %d, %q %q", code, out, errOut)
	}
	if code, out, _ = runCmd(ctx, "", "book", "info", file); code != 0 || !strings.Contains(out, " version=2 board=8x8 depth=34 ") {
		t.Errorf("book info: exit %d, %q; want version=2 board=8x8 depth=34", code, out)
	}
	_, want, _ := runCmd(ctx, "", "-size", "8x8", "-nobook", root+"1", root+"18")
	code, out, errOut = runCmd(ctx, "", "-size", "8x8", "-book", file, "-v", root+"1", root+"18")
	if code != 0 || out != want || strings.Count(errOut, "nodes=1 ") != 2 {
		t.Errorf("-size 8x8 -book: exit %d, %q, %q; want %q, each from the book in 1 node", code, out, errOut, want)
	}
}
