package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The tests of a new user's first hour (issue 41): what c4solve prints
// reads back, words that are no position are refused, and nothing waits
// or fails in silence.

// TestOutputReadsBack: every line c4solve prints for a position (a
// solve, -analyze, -pv, -json, random, book sample) reads back as that
// position, the empty board too, and verify agrees with its score.
func TestOutputReadsBack(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
		want string // the output's first field
	}{
		{"solve", []string{"", "4"}, `""`},
		{"analyze", []string{"-analyze", "", "4"}, `""`},
		{"pv", []string{"-pv", "", "4"}, `""`},
		{"analyze pv", []string{"-analyze", "-pv", "", "4453"}, `""`},
		{"random", []string{"random", "-n", "1", "0"}, `""`},
		{"book sample", []string{"book", "sample", "-stones", "0", "-n", "1", "-seed", "1"}, `""`},
		{"json", []string{"-json", "", "4"}, `{"pos":""`},
		{"json analyze pv", []string{"-json", "-analyze", "-pv", "", "4453"}, `{"pos":""`},
	} {
		code, out, errOut := runCmd(context.Background(), "", tc.args...)
		if code != 0 || !strings.HasPrefix(out, tc.want) {
			t.Errorf("c4solve %q: exit %d, stdout %q, stderr %q; want 0 and a first field %s", tc.args, code, out, errOut, tc.want)
			continue
		}
		// Solved again from its own output, each line gives the same
		// position, and where it holds a score, verify finds it right.
		code, again, errOut := runCmd(context.Background(), out)
		if code != 0 || len(strings.Split(again, "\n")) != len(strings.Split(out, "\n")) {
			t.Errorf("c4solve < (c4solve %q): exit %d, stdout %q, stderr %q; want 0 and a line for each of %q", tc.args, code, again, errOut, out)
		}
		for i, line := range strings.Split(strings.TrimSpace(out), "\n") {
			want := strings.Fields(line)[0]
			if strings.HasPrefix(line, "{") {
				var r struct{ Pos string }
				json.Unmarshal([]byte(line), &r)
				if want = r.Pos; want == "" {
					want = `""` // the empty board: "" in JSON, `""` in a line
				}
			}
			if got := strings.Fields(strings.Split(again, "\n")[i])[0]; got != want {
				t.Errorf("c4solve %q, line %d read back: position %s; want %s", tc.args, i+1, got, want)
			}
		}
		f := writeFile(t, dir, strings.ReplaceAll(tc.name, " ", "_"), out)
		if code, vout, verr := runCmd(context.Background(), "", "verify", f); code != 0 && !(tc.name == "random" && code == exitBad) {
			t.Errorf("c4solve verify (c4solve %q): exit %d, stdout %q, stderr %q; want 0", tc.args, code, vout, verr)
		}
	}
	// -json's pos is the empty string, as the server's, and is a
	// position as an argument.
	_, out, _ := runCmd(context.Background(), "", "-json", "")
	var r struct{ Pos *string }
	if err := json.Unmarshal([]byte(out), &r); err != nil || r.Pos == nil || *r.Pos != "" {
		t.Fatalf("c4solve -json \"\": %q (%v); want pos \"\"", out, err)
	}
	if code, out, errOut := runCmd(context.Background(), "", *r.Pos); code != 0 || out != "\"\" 1\n" {
		t.Errorf("c4solve %q: exit %d, stdout %q, stderr %q; want the empty board's score", *r.Pos, code, out, errOut)
	}
	// A line of -analyze's is read with the best move's score: a wrong
	// one is a mismatch.
	wrong := writeFile(t, dir, "wrong", "4453 -5 -5 -3 -3 -4 -3 -3\n")
	if code, out, _ := runCmd(context.Background(), "", "verify", wrong); code != exitMismatch || !strings.Contains(out, "expected=-3 got=-2") {
		t.Errorf("c4solve verify of an -analyze line whose best is -3: exit %d, stdout %q; want 1 and the mismatch", code, out)
	}
}

// TestWordsThatAreNoPosition: a first word that is no position and is a
// command misspelt (near one, or with no letter a column) is an unknown
// command, refused before anything is solved, with what it most likely
// means; so is a flag after the positions.
func TestWordsThatAreNoPosition(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"solve", "4453"}, `unknown command "solve": solving takes no command word (c4solve 4453)`},
		{[]string{"analyze", "4453"}, `unknown command "analyze" (did you mean -analyze?)`},
		{[]string{"analyse", "4453"}, `unknown command "analyse" (did you mean -analyze?)`},
		{[]string{"-size", "25x4", "plya"}, `unknown command "plya" (did you mean play?)`},
		{[]string{"sreve"}, `unknown command "sreve" (did you mean serve?)`},
		{[]string{"frobnicate"}, `unknown command "frobnicate" (the commands are verify, bench`},
		{[]string{"3342", "-from0"}, `argument 2 "-from0": flags go before the positions`},
		{[]string{"4453", "-pv", "44"}, `argument 2 "-pv": flags go before the positions`},
	} {
		code, out, errOut := runCmd(context.Background(), "", tc.args...)
		if code != exitBad || out != "" || !strings.Contains(errOut, tc.want) {
			t.Errorf("c4solve %q: exit %d, stdout %q, stderr %q; want 2, nothing solved, %q", tc.args, code, out, errOut, tc.want)
		}
	}
	// A word after the first is a position, and so is a first one with
	// a column among its letters that is near no command: each gets the
	// position's own error, and the others are solved.
	for _, tc := range []struct {
		args           []string
		stdout, stderr string
	}{
		{[]string{"4453", "foo"}, "4453 -2\n", "c4solve: argument 2 \"foo\": position 1: 'f' is not a column 1-7\n"},
		{[]string{"4453", "analyse"}, "4453 -2\n", "c4solve: argument 2 \"analyse\": position 1: 'a' is not a column 1-7\n"},
		{[]string{"-size", "25x4", "pq"}, "", "c4solve: argument 1 \"pq\": position 2: 'q' is not a column 1-p of the 25x4 board\n"},
		{[]string{"-size", "25x4", "pq", "121212"}, "121212 47\n", "c4solve: argument 1 \"pq\": position 2: 'q' is not a column 1-p of the 25x4 board\n"},
	} {
		code, out, errOut := runCmd(context.Background(), "", tc.args...)
		if code != exitBad || out != tc.stdout || errOut != tc.stderr {
			t.Errorf("c4solve %q: exit %d, stdout %q, stderr %q; want 2, %q and %q", tc.args, code, out, errOut, tc.stdout, tc.stderr)
		}
	}
	// A word of letters that is a position on a wide board is one (its
	// solve takes minutes: its bounds after 1 ms say it was taken so).
	if code, out, errOut := runCmd(context.Background(), "", "-size", "12x4", "-timeout", "1ms", "abc"); code != exitIncomplete || !strings.HasPrefix(out, "abc incomplete ") {
		t.Errorf("c4solve -size 12x4 -timeout 1ms abc: exit %d, stdout %q, stderr %q; want its bounds", code, out, errOut)
	}
}

// TestUsersWords: no Go words reach users (context canceled, a 8x5, 1
// positions), and -v's rate counts -pv's nodes over -pv's time.
func TestUsersWords(t *testing.T) {
	code, _, errOut := runCmd(context.Background(), "", "-nobook", "-timeout", "20ms", "4")
	if code != exitIncomplete || !strings.Contains(errOut, `argument 1 "4": stopped at the time limit (-timeout)`) || strings.Contains(errOut, "context") {
		t.Errorf("c4solve -timeout 20ms 4: exit %d, stderr %q; want 3 and the time limit in words", code, errOut)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, errOut := runCmd(ctx, "", "-nobook", "4"); !strings.Contains(errOut, `argument 1 "4": interrupted`) || strings.Contains(errOut, "context") {
		t.Errorf("c4solve 4, interrupted: stderr %q; want interrupted in words", errOut)
	}
	if _, _, errOut := runCmd(context.Background(), "", "-size", "8x5", "19"); !strings.Contains(errOut, "of the 8x5 board") {
		t.Errorf("c4solve -size 8x5 19: stderr %q; want \"of the 8x5 board\"", errOut)
	}
	if _, _, errOut := runCmd(context.Background(), "", "random", "-n", "2", "0"); !strings.Contains(errOut, "only 1 distinct position exists") {
		t.Errorf("c4solve random -n 2 0: stderr %q; want \"only 1 distinct position exists\"", errOut)
	}
	code, _, errOut = runCmd(context.Background(), "", "-v", "-pv", "4453")
	m := regexp.MustCompile(`nodes=(\d+) .*nodes_per_s=(\d+)`).FindStringSubmatch(errOut)
	if code != 0 || m == nil {
		t.Fatalf("c4solve -v -pv 4453: exit %d, stderr %q; want nodes and nodes_per_s", code, errOut)
	}
	if rate, _ := strconv.ParseFloat(m[2], 64); rate > 1e9 {
		t.Errorf("c4solve -v -pv 4453: nodes_per_s=%s: more than a machine does (the line's nodes over the book's time)", m[2])
	}
	code, _, errOut = runCmd(context.Background(), "", "-timeout", "9999999h", "4453")
	if code != exitBad || !strings.Contains(errOut, "longer than the longest duration") {
		t.Errorf("c4solve -timeout 9999999h: exit %d, stderr %q; want 2 and that it is too long", code, errOut)
	}
}

// TestHelpOfEach: each command's help is its own, -warm is verify's, and
// -version says which build this is.
func TestHelpOfEach(t *testing.T) {
	if _, out, _ := runCmd(context.Background(), "", "-h"); strings.Contains(out, "-warm") {
		t.Errorf("c4solve -h lists -warm, a flag of verify only:\n%s", out)
	}
	if _, out, _ := runCmd(context.Background(), "", "verify", "-h"); !strings.Contains(out, "-warm") {
		t.Errorf("c4solve verify -h does not list -warm:\n%s", out)
	}
	generate := "generate solves the positions of exactly D stones"
	for _, cmd := range []string{"info", "merge", "verify", "sample"} {
		code, out, _ := runCmd(context.Background(), "", "book", cmd, "-h")
		if code != 0 || strings.Contains(out, generate) || !strings.Contains(out, "c4solve book "+cmd) {
			t.Errorf("c4solve book %s -h: exit %d, stdout %q; want its own help, not generate's", cmd, code, out)
		}
	}
	if _, out, _ := runCmd(context.Background(), "", "book", "generate", "-h"); !strings.Contains(out, generate) {
		t.Errorf("c4solve book generate -h: %q; want how generate works", out)
	}
	code, out, errOut := runCmd(context.Background(), "", "-version")
	if code != 0 || !regexp.MustCompile(`^c4solve \S+ .*go1\.\d+`).MatchString(out) {
		t.Errorf("c4solve -version: exit %d, stdout %q, stderr %q; want c4solve, the version and Go's", code, out, errOut)
	}
}

// TestLongComment: a comment line is skipped however long.
func TestLongComment(t *testing.T) {
	f := writeFile(t, t.TempDir(), "long", "#"+strings.Repeat("x", 10000)+"\n4453 -2\n")
	if code, out, errOut := runCmd(context.Background(), "", "verify", f); code != 0 || !strings.Contains(out, "positions=1 ") {
		t.Errorf("c4solve verify <a comment of 10 KB, a position>: exit %d, stdout %q, stderr %q; want 0 and one position", code, out, errOut)
	}
	if code, out, errOut := runCmd(context.Background(), "", "bench", "-threads", "1", "-tt", "16", f); code != 0 || !strings.Contains(out, "| 1 | 0 |") {
		t.Errorf("c4solve bench <a comment of 10 KB, a position>: exit %d, stdout %q, stderr %q; want 0 and a row of one position", code, out, errOut)
	}
}

// TestBenchRows: bench prints the one-thread row first, whatever the
// order of -threads, and with the speedups of the others.
func TestBenchRows(t *testing.T) {
	ten := writeFile(t, t.TempDir(), "ten", l3r1Ten)
	code, out, errOut := runCmd(context.Background(), "", "bench", "-threads", "2,1", "-tt", "16", ten)
	rows := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(rows) != 4 || !strings.HasPrefix(rows[2], "| "+ten+" | 1 |") || !strings.HasPrefix(rows[3], "| "+ten+" | 2 |") ||
		strings.HasSuffix(rows[3], "| - |") {
		t.Errorf("c4solve bench -threads 2,1: exit %d, stdout %q, stderr %q; want the rows of 1 then 2 threads, with a speedup", code, out, errOut)
	}
}

// c4solveCmd runs the test binary as c4solve (TestMain) with args.
func c4solveCmd(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "C4SOLVE_TEST_MAIN=1")
	return cmd
}

// TestSignalsWhileWaiting: a signal stops verify and bench while they wait
// for a line of a pipe that stays open, or for a FIFO's writer.
func TestSignalsWhileWaiting(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	// Signalled once its log says it waits: verify with 4453 done, bench
	// with no position solved (it reads its file whole first).
	for _, tc := range []struct {
		args    []string
		waiting string
	}{
		{[]string{"verify", "/dev/stdin"}, `verify: \S+: 1 position done\n`},
		{[]string{"bench", "-threads", "1", "-tt", "16", "/dev/stdin"}, `bench: \S+: 0 positions solved\n`},
		{[]string{"bench", "-threads", "1", "-tt", "16", fifo}, `bench: \S+: 0 positions solved\n`},
	} {
		args := tc.args
		cmd := c4solveCmd(args...)
		cmd.Env = append(cmd.Env, testEvery+"=10ms")
		in, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		errOut := newWatch(tc.waiting)
		cmd.Stdout, cmd.Stderr = &out, errOut
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		in.Write([]byte("4453 -2\n")) // and the pipe stays open
		if !errOut.wait(time.Minute) {
			t.Errorf("c4solve %q: its log %q never said it waits", args, errOut.String())
		}
		cmd.Process.Signal(syscall.SIGINT)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err = <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
			t.Errorf("c4solve %q: still running 10 s after SIGINT", args)
			in.Close()
			continue
		}
		in.Close()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != exitIncomplete || strings.Contains(out.String(), "| 1 |") ||
			!strings.Contains(errOut.String(), "interrupted (Ctrl-C)") || strings.Contains(errOut.String(), "context") {
			t.Errorf("c4solve %q, SIGINT while waiting: %v, stdout %q, stderr %q; want exit 3, no row, interrupted", args, err, out.String(), errOut.String())
		}
	}
}

// TestBookLog: book generation off a terminal says at once how many
// positions it will solve, then at each tick (every progressEvery) a line
// of progress, with the rate and the time left of what this run solves
// (not what it resumed), even where no position was solved since the last
// line; before it knows the positions, that it lists them.
func TestBookLog(t *testing.T) {
	var buf bytes.Buffer
	now := time.Unix(0, 0)
	show, tick := bookLog(&buf, "c4solve book generate", 10*time.Second, func() time.Time { return now }, &knownScores{resumed: 10})
	now = now.Add(10 * time.Second)
	tick()         // listing
	show(10, 1010) // the start: 10 resumed
	now = now.Add(10 * time.Second)
	tick() // none solved yet
	show(110, 1010)
	now = now.Add(51 * time.Second)
	tick()
	now = now.Add(10 * time.Second)
	tick()      // none solved since: still a line
	show(-1, 0) // the end
	want := "c4solve book generate: 10s so far, listing the positions of the book\n" +
		"c4solve book generate: 1000 positions to solve (10 solved before the resume), a line of progress every 10s\n" +
		"c4solve book generate: 10 of 1010 positions (1.0%), none solved yet, 10s so far\n" +
		"c4solve book generate: 110 of 1010 positions (10.9%), 5902 an hour, 1m1s so far, about 9m9s left\n" +
		"c4solve book generate: 110 of 1010 positions (10.9%), 5070 an hour, 1m11s so far, about 10m39s left\n"
	if buf.String() != want {
		t.Errorf("bookLog wrote %q; want %q", buf.String(), want)
	}
}

// TestOtherSizesFirstHour: the paths of other sizes speak as 7x6's do.
func TestOtherSizesFirstHour(t *testing.T) {
	ctx := context.Background()
	// A full column is named as the position names it.
	if code, _, errOut := runCmd(ctx, "", "-size", "5x4", "-from0", "00000"); code != exitBad || !strings.Contains(errOut, "column 0 is full") {
		t.Errorf("c4solve -size 5x4 -from0 00000: exit %d, stderr %q; want 2 and column 0 full", code, errOut)
	}
	// -pv with -from0 writes the line as the position is written, and it
	// reads back so.
	code, out, errOut := runCmd(ctx, "", "-size", "5x4", "-from0", "-pv", "2")
	f := strings.Fields(out)
	if code != 0 || len(f) != 3 || strings.Trim(f[2], "01234") != "" {
		t.Fatalf("c4solve -size 5x4 -from0 -pv 2: exit %d, stdout %q, stderr %q; want a line of columns 0 to 4", code, out, errOut)
	}
	if code, _, errOut := runCmd(ctx, "", "-size", "5x4", "-from0", "2"+f[2]); code != exitBad || !strings.Contains(errOut, "is over") && !strings.Contains(errOut, "game") {
		t.Errorf("c4solve -size 5x4 -from0 2%s (the line played out): exit %d, stderr %q; want the game over", f[2], code, errOut)
	}
	// A stopped -analyze bounds the score within the board's scores.
	code, out, _ = runCmd(ctx, "", "-size", "8x5", "-nobook", "-analyze", "-timeout", "100ms", "")
	var lo, hi int
	if n, _ := fmt.Sscanf(out, "\"\" incomplete %d <= score <= %d", &lo, &hi); code != exitIncomplete || n != 2 || hi > 17 || lo < -17 {
		t.Errorf("c4solve -size 8x5 -analyze -timeout 100ms \"\": exit %d, stdout %q; want bounds within [-17, 17]", code, out)
	}
	// Past -timeout every position of a batch still gets its line.
	code, out, _ = runCmd(ctx, "", "-size", "8x5", "-nobook", "-timeout", "100ms", "", "1", "2")
	if lines := strings.Split(strings.TrimSpace(out), "\n"); code != exitIncomplete || len(lines) != 3 || !strings.HasPrefix(lines[2], "2 ") {
		t.Errorf("c4solve -size 8x5 -timeout 100ms \"\" 1 2: exit %d, stdout %q; want a line for each", code, out)
	}
	// Bad flags of book generate are refused, whatever the size.
	o := filepath.Join(t.TempDir(), "x")
	if code, _, errOut := runCmd(ctx, "", "book", "generate", "-size", "5x4", "-depth", "3", "-tt", "-5", "-threads", "-3", "-o", o, "extra"); code != exitBad || errOut == "" {
		t.Errorf("c4solve book generate -size 5x4 -tt -5 -threads -3 -o x extra: exit %d, stderr %q; want 2 and why", code, errOut)
	}
	// bench says when a table size is rounded.
	ten := writeFile(t, t.TempDir(), "ten", "1\n2\n")
	code, _, errOut = runCmd(ctx, "", "bench", "-size", "5x4", "-threads", "1", "-tt", "100,3", ten)
	if code != 0 || !strings.Contains(errOut, "-tt 100: a table holds a power of two of buckets: using 64 MiB") ||
		!strings.Contains(errOut, "-tt 3: a table holds a power of two of buckets: using 2 MiB") {
		t.Errorf("c4solve bench -size 5x4 -tt 100,3: exit %d, stderr %q; want a note for each size rounded", code, errOut)
	}
}

// TestBookVerifyInterrupted: book verify stopped part way says how far it
// got, in words.
func TestBookVerifyInterrupted(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	code, _, errOut := runCmd(ctx, "", "book", "verify", "-n", "100", "-seed", "1")
	if code != exitIncomplete || !strings.Contains(errOut, "stopped at the time limit (-timeout) after ") ||
		!strings.Contains(errOut, " of 100 positions checked, 0 of them wrong") || strings.Contains(errOut, "context") {
		t.Errorf("c4solve book verify -n 100, stopped: exit %d, stderr %q; want 3 and how far it got", code, errOut)
	}
}

// TestVerboseTells: -v prints its line for a stopped solve too, with the
// bounds found, and for -pv of a position of the book says the score came
// from the book and counts the line's nodes and expanded nodes.
func TestVerboseTells(t *testing.T) {
	code, _, errOut := runCmd(context.Background(), "", "-v", "-nobook", "-timeout", "100ms", "4")
	if code != exitIncomplete || !regexp.MustCompile(`"4": nodes=[1-9]\d* expanded=[1-9]\d* .* stopped=true lower=-?\d+ upper=-?\d+\n`).MatchString(errOut) {
		t.Errorf("c4solve -v -nobook -timeout 100ms 4: exit %d, stderr %q; want the counts and bounds of the stopped solve", code, errOut)
	}
	code, _, errOut = runCmd(context.Background(), "", "-v", "-pv", "4453")
	m := regexp.MustCompile(`"4453": nodes=(\d+) expanded=(\d+) .* score_from=book pv_nodes=(\d+) pv_expanded=(\d+)\n`).FindStringSubmatch(errOut)
	if code != 0 || m == nil {
		t.Fatalf("c4solve -v -pv 4453: exit %d, stderr %q; want the score from the book and the line's counts", code, errOut)
	}
	if m[2] == "0" || m[2] != m[4] {
		t.Errorf("c4solve -v -pv 4453: expanded=%s, pv_expanded=%s; want the line's expanded nodes counted", m[2], m[4])
	}
}

// TestCheckScoresProgress: compare/check_scores.sh, which the README runs
// on a book's sample, says how far it is on stderr while the solver
// answers (it ran 20 minutes without a line), prints each differing line,
// then the counts, and exits 1 for a difference. A stand-in answers for
// the reference solver.
func TestCheckScoresProgress(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	dir := t.TempDir()
	// A solver that answers a line every quarter second, score 1 for all.
	solver := writeFile(t, dir, "slow", "#!/bin/sh\nwhile read -r m s; do sleep 0.25; echo \"$m 1 10 5 250000\"; done\n")
	if err := os.Chmod(solver, 0o755); err != nil {
		t.Fatal(err)
	}
	file := writeFile(t, dir, "s.txt", "4 1\n44 1\n444 1\n4444 -2\n1 1\n2 1\n3 1\n5 1\n")
	cmd := exec.Command("bash", filepath.Join("..", "..", "compare", "check_scores.sh"), solver, file)
	cmd.Env = append(os.Environ(), "CHECK_EVERY=1")
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := cmd.ProcessState.ExitCode()
	if code != 1 || stdout.String() != "DIFFER line 4: 4444 file -2 solver 1\nchecked=8 differed=1\n" {
		t.Errorf("check_scores.sh: exit %d (%v), stdout %q; want 1, the line that differs and the counts", code, err, stdout.String())
	}
	if !strings.Contains(stderr.String(), "8 positions to check") || !strings.Contains(stderr.String(), " of 8 checked, ") {
		t.Errorf("check_scores.sh: stderr %q; want a line at the start and lines of progress", stderr.String())
	}
}

// TestWordsOnEveryBoard: -h says what -analyze prints on any board (it
// said "each of the seven moves"), and verify of a file numbered from 0
// without -from0 gives one hint, not an error a line and false
// MISMATCHes.
func TestWordsOnEveryBoard(t *testing.T) {
	_, out, errOut := runCmd(context.Background(), "", "-h")
	if usage := out + errOut; strings.Contains(usage, "seven moves") || !strings.Contains(usage, "one a column of the board") {
		t.Errorf("c4solve -h: %q; want -analyze's moves on any board", usage)
	}
	// Positions of 9x5 from c4solve random, their columns numbered from 0.
	f := writeFile(t, t.TempDir(), "from0.txt", "785111222566108174327430540742 -7\n113120532167176734705723354582 -1\n456871851264446018113403568336 -3\n")
	code, stdout, stderr := runCmd(context.Background(), "", "verify", "-size", "9x5", f)
	if code != exitBad || strings.Contains(stdout, "MISMATCH") || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "from 0") || !strings.Contains(stderr, "-from0") {
		t.Errorf("c4solve verify -size 9x5 FILE numbered from 0: exit %d, stdout %q, stderr %q; want 2 and one line that suggests -from0", code, stdout, stderr)
	}
	if code, stdout, stderr := runCmd(context.Background(), "", "verify", "-size", "9x5", "-from0", f); code != exitOK || !strings.Contains(stdout, "positions=3 mismatches=0") {
		t.Errorf("c4solve verify -size 9x5 -from0 FILE: exit %d, stdout %q, stderr %q; want its 3 positions, no mismatch", code, stdout, stderr)
	}
}
