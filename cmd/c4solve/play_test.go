package main

import (
	"cmp"
	"context"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"c4solve/internal/position"
)

// lost is a position of Test_L2_R1 that the side to move loses (-11).
const lost = "271713432331713132"

func TestPlay(t *testing.T) {
	// The human plays the columns in turn, 1 to 7 and again, from a
	// position the side to move loses (Test_L2_R1: -11); the perfect
	// player, second, wins.
	code, stdout, stderr := runCmd(context.Background(), strings.Repeat("1\n2\n3\n4\n5\n6\n7\n", 6), "play", lost)
	i := strings.LastIndex(stdout, "c4solve wins (")
	if code != 0 || stderr != "" || i < 0 || !strings.HasSuffix(stdout, ")\n") {
		t.Fatalf("play <<< 1 2 3 ...: exit %d, stderr %q, stdout ending %q; want 0 and c4solve winning",
			code, stderr, tail(stdout))
	}
	moves := strings.TrimSuffix(stdout[i+len("c4solve wins ("):], ")\n")
	if p, err := position.Parse(moves); err != nil || !strings.HasPrefix(moves, lost) || !p.Won() || p.Stones()%2 != 0 {
		t.Errorf("play: c4solve wins (%s), which is no win of the second player: %v", moves, err)
	}
	// The board: plain text, x for the first player, o for the second.
	if !strings.HasPrefix(stdout, "\n. . x . . . .\no . x . . . .\no . x . . . .\no o o . . . x\nx x o . . . o\nx x o x . . o\n1 2 3 4 5 6 7\n") {
		t.Errorf("play %s: the first board drawn is not %s's in plain text: %q", lost, lost, stdout)
	}
	if strings.Contains(stdout, "\033[") {
		t.Errorf("play: colours in output that is not a terminal")
	}

	// Undo, a hint, bad input, a full column, end of input.
	code, stdout, _ = runCmd(context.Background(), "u\n9\nh\n3\nu\n5\n", "play", "-first", "engine", posB)
	for _, want := range []string{
		"nothing of yours to take back",
		`"9": type a column 1 to 7, u, h or q`,
		"hint: the score of each column: 1:",
		" 7:full\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("play %s <<< u 9 h 3 u 5: stdout %q; want it to hold %q", posB, stdout, want)
		}
	}
	if code != 0 {
		t.Errorf("play %s: exit %d; want 0", posB, code)
	}
	// The first u finds nothing to take back; the second takes back 3 and
	// the answer to it: 5 follows the engine's first move, the answer to
	// 5 ends the input.
	if !regexp.MustCompile(`end of input: the game stops at "` + posB + `[1-7]5[1-7]"\n$`).MatchString(stdout) {
		t.Errorf("play %s <<< u 9 h 3 u 5: stdout ending %q; want the game to stop after a reply, 5, a reply", posB, tail(stdout))
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-first", "nobody"}, `-first "nobody": want human or engine`},
		{[]string{"1212121"}, "the game is already over"},
		{[]string{"48"}, "'8' is not a column"},
		{[]string{"1", "2"}, "at most one position"},
		{[]string{"-level", "0"}, "-level 0: want 1 to 10"},
		{[]string{"-level", "11"}, "-level 11: want 1 to 10"},
		{[]string{"-timeout", "-1s"}, "-timeout"},
	} {
		if code, _, stderr := runCmd(context.Background(), "", append([]string{"play"}, tc.args...)...); code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("play %v: exit %d, stderr %q; want 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
	if code, stdout, _ := runCmd(context.Background(), "q\n", "play"); code != 0 || !strings.HasSuffix(stdout, "quit at \"\"\n") {
		t.Errorf("play <<< q: exit %d, stdout ending %q; want 0 and quit", code, tail(stdout))
	}
}

func tail(s string) string {
	if len(s) > 200 {
		return "..." + s[len(s)-200:]
	}
	return s
}

// TestPlayLongLines: a line too long to be a move is reported by its
// number and a short quote, and the game goes on; a long bad line is

// TestPlayLevelAndTimeout: a weaker level's moves are the same for the
// same seed, and differ from the perfect player's somewhere; with
// -timeout, a board it cannot solve in time gets the best move found
// within it, said so.
func TestPlayLevelAndTimeout(t *testing.T) {
	game := func(args ...string) string {
		t.Helper()
		code, stdout, stderr := runCmd(context.Background(), "q\n", append([]string{"play", "-first", "engine"}, args...)...)
		if code != 0 {
			t.Fatalf("play %v: exit %d, stderr %q", args, code, stderr)
		}
		return stdout
	}
	a, b := game("-level", "1", "-seed", "5", "44"), game("-level", "1", "-seed", "5", "44")
	if a != b {
		t.Errorf("play -level 1 -seed 5 twice: two games\n%s\n%s", a, b)
	}
	perfect := game("44")
	differ := false
	for seed := range 8 {
		differ = differ || game("-level", "1", "-seed", strconv.Itoa(seed+1), "44") != perfect
	}
	if !differ {
		t.Error("play -level 1 with 8 seeds: every move the perfect player's; want a random one somewhere")
	}
	// The limit stops the search: the move is the best found, said so.
	out := game("-size", "8x8", "-tt", "64", "-timeout", "1s")
	if !strings.Contains(out, "(the best found in 1s, not proved)") {
		t.Errorf("play -size 8x8 -timeout 1s: output %q; want a move at the limit, said not proved", tail(out))
	}
}

// quoted short.
func TestPlayLongLines(t *testing.T) {
	input := strings.Repeat("5", 70000) + "\n" + strings.Repeat("6", 3000) + "\nq\n"
	code, stdout, stderr := runCmd(context.Background(), input, "play", lost)
	for _, want := range []string{
		`line 1: longer than 4096 bytes ("55555555555555555555"...)`,
		`"` + strings.Repeat("6", 40) + `...": type a column 1 to 7`,
		"quit at",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("play <<< a 70 KB line, a 3 KB line, q: stdout lacks %q", want)
		}
	}
	if code != exitOK || stderr != "" || len(stdout) > 10000 {
		t.Errorf("play <<< long lines: exit %d, stderr %q, %d bytes out; want 0, nothing, short", code, stderr, len(stdout))
	}
}

// TestPlayColourOnTerminal: on a terminal (a pseudo-terminal of script(1))
// play draws the stones in colour.
func TestPlayColourOnTerminal(t *testing.T) {
	if _, err := exec.LookPath("script"); err != nil {
		t.Skip("no script(1) for a terminal")
	}
	cmd := exec.Command("script", "-qfec", os.Args[0]+" play -tt 16 4453", "/dev/null")
	cmd.Env = append(os.Environ(), "C4SOLVE_TEST_MAIN=1")
	cmd.Stdin = strings.NewReader("q\n")
	out, err := cmd.Output()
	if err != nil || !strings.Contains(string(out), "\033[1;31m●") || !strings.Contains(string(out), "quit at") {
		t.Errorf("play on a terminal: %v, output %q; want red and yellow stones", err, out)
	}
}

// TestPlayHintPastTimeout: a hint that -timeout cuts short gives the best
// move found and the bounds on each column's score. On 8x8's
// 616617284683586836 (18 stones, not solved in 5 s), columns 4 and 5
// leave the opponent no move that does not lose at once, score 22 with no
// search, and no other column can score as much: column 4, the first of
// them from the center, is proved best; the other columns' bounds are what
// the second found.
func TestPlayHintPastTimeout(t *testing.T) {
	code, stdout, stderr := runCmd(context.Background(), "h\nq\n", "play", "-size", "8x8", "-tt", "16", "-threads", "1", "-timeout", "1s", "616617284683586836")
	if code != 0 || stderr != "" {
		t.Fatalf("play -size 8x8 -timeout 1s 616617284683586836 <<< h q: exit %d, stderr %q; want 0, nothing", code, stderr)
	}
	want := "hint: not solved within 1s; the best found is column 4, proved best\n"
	r := `(-?\d+)(?:\.\.(-?\d+))?` // a column's score, or its bounds lo..hi
	bounds := regexp.MustCompile(`\nhint: the bounds of each column's score: 1:` + r + ` 2:` + r + ` 3:` + r + ` 4:22 5:22 6:` + r + ` 7:` + r + ` 8:` + r + `\n`)
	m := bounds.FindStringSubmatch(stdout)
	if !strings.Contains(stdout, want) || m == nil {
		t.Fatalf("play -size 8x8 -timeout 1s 616617284683586836 <<< h q: stdout %q; want %q and the bounds of columns 1-3 and 6-8, 4 and 5 scoring 22", tail(stdout), want)
	}
	for i := 1; i < len(m); i += 2 {
		lo, _ := strconv.Atoi(m[i])
		hi, _ := strconv.Atoi(cmp.Or(m[i+1], m[i]))
		if lo < -22 || lo > hi || hi > 21 {
			t.Errorf("hint: bounds %d..%d; want -22 <= lo <= hi <= 21, the most a move other than 4 and 5 can score", lo, hi)
		}
	}
}
