package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

var slow = flag.Bool("slow", false, "also solve 4-move positions, which take seconds each")

// Late positions from Pons' Test_L3_R1 set, with their published scores;
// each solves in milliseconds. The per-move scores in the -analyze cases
// were checked against a plain alpha-beta search over an array board.
const (
	posA   = "7422341735647741166133573473242566"        // score 1
	posB   = "3575316255751336464276636772271112"        // score -3
	posC   = "2252576253462244111563365343671351441"     // score -1
	posE   = "67152117737262713366376314254"             // score 6
	pos41  = "71255763773133525731261364622167124446454" // score 0, one move left
	posWon = "1212121"                                   // the first player has four in column 1
	posFul = "547125662261271266215743771576315353334444"
)

// l3r1 is the first 20 lines of Test_L3_R1.
const l3r1 = `2252576253462244111563365343671351441 -1
7422341735647741166133573473242566 1
23163416124767223154467471272416755633 0
71255763773133525731261364622167124446454 0
65214673556155731566316327373221417 -1
52677675164321472411331752454 0
3135151421347443544172316522225776773566 0
562154564361751726662253737734213275114 0
233377345754465174223731671122611552 1
6763525635134453444361412671365712 -1
211376455663355325112113664364524722 0
3146762114467714356347741621375222 -1
67152117737262713366376314254 6
2762751722231276466633475674533 5
3642756176227637211322113551637574556 2
22647455554314246733661634615122372377511 0
427566236745127177115664464254 2
7172212567451542223676134464437761515 0
641154574541323641152467137655232232366 0
5775265212657176476365522624313714333 2
`

// runCmd runs the command with args and standard input stdin, and returns
// its exit status and outputs. Tables are 16 MiB unless -tt says otherwise
// (see TestMain).
func runCmd(ctx context.Context, stdin string, args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(ctx, args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestMain makes the default table small: the test positions need little
// room, and tests run side by side.
func TestMain(m *testing.M) {
	if os.Getenv("C4SOLVE_TEST_MAIN") == "1" {
		if d, err := time.ParseDuration(os.Getenv(testEvery)); err == nil {
			progressEvery = d // a log line tells the test the command is at work
		}
		main() // the test binary as the command, for TestSignals
	}
	defaultTableMiB = 16
	// No test but those of the log (which shorten it) may get a line of
	// it in its stderr, however slowly a loaded machine runs it.
	progressEvery = time.Hour
	os.Exit(m.Run())
}

type runCase struct {
	name      string
	args      []string
	stdin     string
	code      int
	stdout    string   // exact, unless stdoutHas is set
	stdoutHas []string // substrings stdout must hold
	stderr    []string // substrings it must hold; none means it must be empty
}

func (tc runCase) check(t *testing.T) {
	t.Helper()
	code, stdout, stderr := runCmd(context.Background(), tc.stdin, tc.args...)
	cmd := "c4solve " + strings.Join(tc.args, " ")
	if tc.stdin != "" {
		cmd += " <<< " + strings.ReplaceAll(tc.stdin, "\n", `\n`)
	}
	if code != tc.code {
		t.Errorf("%s: exit %d; want %d (stderr %q)", cmd, code, tc.code, stderr)
	}
	if tc.stdoutHas == nil && stdout != tc.stdout {
		t.Errorf("%s: stdout %q; want %q", cmd, stdout, tc.stdout)
	}
	for _, s := range tc.stdoutHas {
		if !strings.Contains(stdout, s) {
			t.Errorf("%s: stdout %q; want it to hold %q", cmd, stdout, s)
		}
	}
	if len(tc.stderr) == 0 && stderr != "" {
		t.Errorf("%s: stderr %q; want it empty", cmd, stderr)
	}
	for _, s := range tc.stderr {
		if !strings.Contains(stderr, s) {
			t.Errorf("%s: stderr %q; want it to hold %q", cmd, stderr, s)
		}
	}
}

func TestRunArgs(t *testing.T) {
	tests := []runCase{
		{name: "one", args: []string{posA}, stdout: posA + " 1\n"},
		{name: "two", args: []string{posA, posB}, stdout: posA + " 1\n" + posB + " -3\n"},
		{name: "win with the fourth stone", args: []string{"4455"}, stdout: "4455 18\n"},
		{name: "one move left", args: []string{pos41}, stdout: pos41 + " 0\n"},
		{name: "won", args: []string{posWon}, code: 2,
			stderr: []string{`argument 1 "1212121": the game is already over`}},
		{name: "full", args: []string{posFul}, code: 2,
			stderr: []string{`argument 1 "` + posFul + `": the game is already over`}},
		{name: "bad move between good ones", args: []string{posA, "448", posB}, code: 2,
			stdout: posA + " 1\n" + posB + " -3\n",
			stderr: []string{`argument 2 "448": position 3: '8' is not a column 1-7`}},
		{name: "won then good", args: []string{posWon, posC}, code: 2, stdout: posC + " -1\n",
			stderr: []string{`argument 1 "1212121"`}},
		{name: "threads", args: []string{"-threads", "3", posA, posB}, stdout: posA + " 1\n" + posB + " -3\n"},
		{name: "timeout not reached", args: []string{"-timeout", "1m", posA}, stdout: posA + " 1\n"},
		{name: "weak win", args: []string{"-weak", posA}, stdout: posA + " 1\n"},
		{name: "weak loss", args: []string{"-weak", posB}, stdout: posB + " -1\n"},
		{name: "weak draw", args: []string{"-weak", pos41}, stdout: pos41 + " 0\n"},
		{name: "weak 4455", args: []string{"-weak", "4455"}, stdout: "4455 1\n"},
		{name: "analyze", args: []string{"-analyze", posA}, stdout: posA + " -3 1 full full -4 1 full\n"},
		{name: "analyze two", args: []string{"-analyze", posB, posE},
			stdout: posB + " -3 -3 -3 -4 -3 full full\n" + posE + " -5 -5 -5 -1 6 -5 full\n"},
		{name: "analyze five full", args: []string{"-analyze", posC}, stdout: posC + " full full full full full -1 -2\n"},
		{name: "analyze last move", args: []string{"-analyze", pos41}, stdout: pos41 + " full full full full 0 full full\n"},
		{name: "analyze weak", args: []string{"-analyze", "-weak", posA}, stdout: posA + " -1 1 full full -1 1 full\n"},
		{name: "analyze won", args: []string{"-analyze", posWon}, code: 2,
			stderr: []string{`argument 1 "1212121": the game is already over`}},
		{name: "verbose", args: []string{"-v", posA}, stdout: posA + " 1\n",
			stderr: []string{`"` + posA + `": nodes=`, "nodes_per_s="}},
		{name: "flags after moves are refused", args: []string{posA, "-weak"}, code: 2, stdout: "",
			stderr: []string{`argument 2 "-weak": flags go before the positions`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, tc.check)
	}
}

func TestRunStdin(t *testing.T) {
	tests := []runCase{
		{name: "empty"},
		{name: "dash", args: []string{"-"}, stdin: posA + "\n", stdout: posA + " 1\n"},
		{name: "expected scores", stdin: "4455 18\n" + posA + " 1\n# comment\n\n" + posC + "\n",
			stdout: "4455 18\n" + posA + " 1\n" + posC + " -1\n"},
		{name: "no final newline, CRLF", stdin: posA + " 1\r\n" + posB + " -3",
			stdout: posA + " 1\n" + posB + " -3\n"},
		{name: "mismatch", stdin: "4455 18\n4455 17\n" + posB + " -3\n", code: 1,
			stdout: "4455 18\n4455 18 MISMATCH\n" + posB + " -3\n"},
		{name: "bad line, then the rest",
			stdin:  "4455 18\n" + posA + " 1\n# comment\n\n" + posB + " 5\n448\n" + posC + " -1\n4455\n",
			code:   2,
			stdout: "4455 18\n" + posA + " 1\n" + posB + " -3 MISMATCH\n" + posC + " -1\n4455 18\n",
			stderr: []string{"line 6: position 3: '8' is not a column 1-7"}},
		{name: "bad score", stdin: posA + " x\n" + posA + " 19\n" + posB + "\n", code: 2, stdout: posB + " -3\n",
			stderr: []string{`line 1: score "x" is not a whole number from -18 to 18`, `line 2: score "19"`}},
		{name: "too many fields", stdin: posA + " 1 2\n", code: 2,
			stderr: []string{"line 1: 3 fields; want moves and an optional score"}},
		{name: "won", stdin: "# x\n" + posWon + "\n", code: 2,
			stderr: []string{`line 2 "1212121": the game is already over`}},
		{name: "weak", args: []string{"-weak"}, stdin: posE + " 6\n" + posE + " 1\n" + posE + " 0\n", code: 1,
			stdout: posE + " 1\n" + posE + " 1\n" + posE + " 1 MISMATCH\n"},
		{name: "analyze", args: []string{"-analyze"}, stdin: posA + " 1\n" + posA + " 2\n" + posA + "\n", code: 1,
			stdout: posA + " -3 1 full full -4 1 full\n" + posA + " -3 1 full full -4 1 full MISMATCH\n" +
				posA + " -3 1 full full -4 1 full\n"},
		{name: "a line longer than any buffer", stdin: strings.Repeat("4", 70000) + "\n4455\n", code: 2,
			stdout: "4455 18\n", stderr: []string{"line 1: longer than 4096 bytes"}},
		{name: "analyze weak", args: []string{"-analyze", "-weak"}, stdin: posE + " 6\n", code: 0,
			stdout: posE + " -1 -1 -1 -1 1 -1 full\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, tc.check)
	}
}

func TestRunUsage(t *testing.T) {
	tests := []runCase{
		{name: "help", args: []string{"-h"}, stdoutHas: []string{"Usage:", "c4solve verify [flags] FILE", "-tt", "-analyze", "-pv", "-json"}},
		{name: "help long", args: []string{"-help"}, stdoutHas: []string{"Usage:"}},
		{name: "verify help", args: []string{"verify", "-h"}, stdoutHas: []string{"Usage:"}},
		{name: "unknown flag", args: []string{"-x", posA}, code: 2,
			stderr: []string{"c4solve: -x: no such flag (c4solve -h lists the flags)\n"}},
		{name: "bad flag value", args: []string{"-tt", "many", posA}, code: 2, stderr: []string{"-tt"}},
		{name: "verify unknown flag", args: []string{"verify", "-x", "f"}, code: 2,
			stderr: []string{"c4solve verify: -x: no such flag (c4solve verify -h lists the flags)\n"}},
		{name: "table too small", args: []string{"-tt", "0", posA}, code: 2,
			stderr: []string{"-tt 0: the table needs at least 1 MiB"}},
		{name: "table too large", args: []string{"-tt", "1000000000", posA}, code: 2,
			stderr: []string{"-tt 1000000000: "}},
		{name: "verify table too small", args: []string{"verify", "-tt", "-5", "f"}, code: 2,
			stderr: []string{"-tt -5: the table needs at least 1 MiB"}},
		{name: "no threads", args: []string{"-threads", "0", posA}, code: 2,
			stderr: []string{"-threads 0: want 1 to " + strconv.Itoa(maxThreads())}},
		{name: "negative timeout", args: []string{"-timeout", "-1s", posA}, code: 2,
			stderr: []string{"-timeout -1s: want a positive duration"}},
		{name: "verify no files", args: []string{"verify"}, code: 2, stderr: []string{"c4solve verify: no files given"}},
		{name: "verify analyze", args: []string{"-analyze", "verify", "f"}, code: 2,
			stderr: []string{"c4solve verify: -analyze: no such flag (c4solve verify -h lists the flags)\n"}},
		{name: "verify pv", args: []string{"verify", "-pv", "f"}, code: 2,
			stderr: []string{"c4solve verify: -pv: no such flag (c4solve verify -h lists the flags)\n"}},
		{name: "weak pv", args: []string{"-weak", "-pv", posA}, code: 2,
			stderr: []string{"-pv needs the exact score"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, tc.check)
	}
}

// writeFile writes text to a file name in dir and returns its path.
func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestRunVerify(t *testing.T) {
	dir := t.TempDir()
	good := writeFile(t, dir, "good", l3r1)
	// Line 13 expects 6; say 5.
	wrong := writeFile(t, dir, "wrong", strings.Replace(l3r1, "67152117737262713366376314254 6\n", "67152117737262713366376314254 5\n", 1))
	bad := writeFile(t, dir, "bad", "# a comment\n448 0\n"+posA+" 1\n"+posC+"\n")
	missing := filepath.Join(dir, "missing")

	tests := []struct {
		name    string
		args    []string
		code    int
		stdout  []string // lines, each a prefix of the line at that place
		stderr  []string // substrings
		noError bool     // stderr must be empty
	}{
		{name: "good", args: []string{"verify", good},
			stdout: []string{good + " positions=20 mismatches=0 mean="}, noError: true},
		{name: "good weak", args: []string{"-weak", "verify", good},
			stdout: []string{good + " positions=20 mismatches=0 "}, noError: true},
		{name: "flags after verify", args: []string{"verify", "-weak", "-warm", good},
			stdout: []string{good + " positions=20 mismatches=0 "}, noError: true},
		{name: "warm without verify", args: []string{"-warm", "4455"}, code: 2,
			stderr: []string{"c4solve: -warm acts only with verify"}},
		{name: "twice warm", args: []string{"-warm", "verify", good, good},
			stdout: []string{good + " positions=20 mismatches=0 ", good + " positions=20 mismatches=0 "}, noError: true},
		{name: "wrong", args: []string{"verify", wrong}, code: 1,
			stdout: []string{"MISMATCH " + wrong + ":13 67152117737262713366376314254 expected=5 got=6",
				wrong + " positions=20 mismatches=1 "}, noError: true},
		{name: "wrong weak", args: []string{"-weak", "verify", wrong},
			stdout: []string{wrong + " positions=20 mismatches=0 "}, noError: true},
		{name: "missing", args: []string{"verify", missing}, code: 2, stderr: []string{missing, "no such file"}},
		{name: "missing then good", args: []string{"verify", missing, good}, code: 2,
			stdout: []string{good + " positions=20 mismatches=0 "}, stderr: []string{missing}},
		{name: "bad lines", args: []string{"verify", bad}, code: 2,
			stdout: []string{bad + " positions=2 mismatches=0 "},
			stderr: []string{bad + ":2: position 3: '8' is not a column 1-7", bad + ":4: no expected score"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCmd(context.Background(), "", tc.args...)
			cmd := "c4solve " + strings.Join(tc.args, " ")
			if code != tc.code {
				t.Errorf("%s: exit %d; want %d (stderr %q)", cmd, code, tc.code, stderr)
			}
			lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
			if stdout == "" {
				lines = nil
			}
			if len(lines) != len(tc.stdout) {
				t.Errorf("%s: stdout %q; want %d lines", cmd, stdout, len(tc.stdout))
			} else {
				for i, want := range tc.stdout {
					if !strings.HasPrefix(lines[i], want) {
						t.Errorf("%s: stdout line %d = %q; want it to start %q", cmd, i+1, lines[i], want)
					}
				}
			}
			if tc.noError && stderr != "" {
				t.Errorf("%s: stderr %q; want it empty", cmd, stderr)
			}
			for _, s := range tc.stderr {
				if !strings.Contains(stderr, s) {
					t.Errorf("%s: stderr %q; want it to hold %q", cmd, stderr, s)
				}
			}
		})
	}
}

// TestRunVerifyCanceled: a verify interrupted before its first solve
// says so: the first line's bounds if it had read it, a summary of none,
// incomplete.
func TestRunVerifyCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	good := writeFile(t, t.TempDir(), "good", l3r1)
	code, stdout, _ := runCmd(ctx, "", "verify", good)
	if code != 3 || !strings.HasSuffix(stdout, good+" positions=0 mismatches=0 mean=0s median=0s max=0s mean_nodes=0 mean_expanded=0 nodes_per_s=0 incomplete\n") {
		t.Errorf("c4solve verify, interrupted: exit %d, stdout %q; want 3, the first line's bounds and a summary of none", code, stdout)
	}
}

// TestRunTimeout stops a long solve with -timeout: the bounds it prints
// must hold the score, -1, and the command must stop there. Without a
// book: the built-in one answers "4" at once.
func TestRunTimeout(t *testing.T) {
	code, stdout, stderr := runCmd(context.Background(), "", "-nobook", "-timeout", "50ms", "-threads", "2", "4", posA)
	var lo, hi int
	n, err := fmt.Sscanf(stdout, "4 incomplete %d <= score <= %d\n", &lo, &hi)
	if code != 3 || n != 2 || err != nil || lo > -1 || hi < -1 ||
		!strings.Contains(stderr, `argument 1 "4": stopped at the time limit (-timeout)`) {
		t.Errorf("c4solve -timeout 50ms 4 %s: exit %d, stdout %q, stderr %q; want 3, bounds around -1, deadline exceeded",
			posA, code, stdout, stderr)
	}
}

// TestRunTimeoutStdin: past -timeout each line of standard input still
// gets its line, as arguments do (it printed nothing for the lines after
// the limit, and counted none): a line the book answers gets its score,
// the others their bounds; and a stream that never ends is read on only
// while lines come, for a second past the limit.
func TestRunTimeoutStdin(t *testing.T) {
	code, stdout, stderr := runCmd(context.Background(), "4\n"+posA+"\n44\n3\n", "-nobook", "-timeout", "50ms", "-threads", "1")
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if code != exitIncomplete || len(lines) != 4 || !strings.HasPrefix(lines[0], "4 incomplete") || !strings.HasPrefix(lines[1], posA+" incomplete") ||
		!strings.HasPrefix(lines[2], "44 incomplete") || !strings.HasPrefix(lines[3], "3 incomplete") ||
		!strings.Contains(stderr, "read after the time limit (-timeout), printed with the bounds found") {
		t.Errorf("c4solve -nobook -timeout 50ms < 4 lines: exit %d, stdout %q, stderr %q; want 3, a line for each, and the late ones counted", code, stdout, stderr)
	}
	// A stream that stays open: read on for a second after the limit.
	// 44 is written once 4453's line is out, after the limit: 4 alone
	// takes seconds, and 4453 is answered after it.
	r, w := io.Pipe()
	defer w.Close()
	out := newWatch("\n4453 ")
	go func() {
		fmt.Fprintf(w, "4\n4453\n")
		if out.wait(time.Minute) {
			fmt.Fprintf(w, "44\n")
		}
	}()
	var errOut bytes.Buffer
	code = run(context.Background(), []string{"-nobook", "-timeout", "100ms", "-threads", "1"}, r, out, &errOut)
	if !strings.HasPrefix(out.String(), "4 incomplete") || code != exitIncomplete || !strings.HasSuffix(out.String(), "44 incomplete -18 <= score <= 18\n") ||
		!strings.Contains(errOut.String(), "reading stopped when no line came within a second of the time limit") {
		t.Errorf("c4solve -nobook -timeout 100ms < an open stream: exit %d, stdout %q, stderr %q; want 3, the late line answered, and reading stopped",
			code, out.String(), errOut.String())
	}
}

// TestRunCanceled checks that an interrupted solve prints nothing on
// stdout and fails.
func TestRunCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	code, stdout, stderr := runCmd(ctx, "", "-nobook", "4453", posA)
	if want := "4453 incomplete -18 <= score <= 18\n"; code != 3 || stdout != want ||
		!strings.Contains(stderr, `argument 1 "4453": interrupted`) {
		t.Errorf("c4solve 4453 %s, interrupted: exit %d, stdout %q, stderr %q; want 3, %q, context canceled",
			posA, code, stdout, stderr, want)
	}
	if strings.Contains(stderr, posA) {
		t.Errorf("c4solve 4453 %s, interrupted: stderr %q; want it to stop after the first", posA, stderr)
	}
}

// TestRunShallow solves positions of 4 moves from the built-in book, and
// with -slow also by search alone, with one of 6 moves (each takes seconds).
func TestRunShallow(t *testing.T) {
	tests := []runCase{
		{name: "solve", args: []string{"4453"}, stdout: "4453 -2\n"},
		{name: "weak", args: []string{"-weak", "4453"}, stdout: "4453 -1\n"},
		{name: "analyze", args: []string{"-analyze", "4453"}, stdout: "4453 -5 -5 -2 -3 -4 -2 -2\n"},
		{name: "stdin", stdin: "4453 -2\n4455 18\n# comment\n\n4453 5\n448\n4453\n", code: 2,
			stdout: "4453 -2\n4455 18\n4453 -2 MISMATCH\n4453 -2\n",
			stderr: []string{"line 6: position 3: '8' is not a column 1-7"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.check(t) })
	}
	if !*slow {
		t.Log("the same by search alone needs a minute; run with -slow")
		return
	}
	// Beyond the book's depth: its moves have 7 stones.
	tests = append(tests, runCase{name: "analyze full", args: []string{"-analyze", "444444"}, stdout: "444444 -1 0 1 full 1 0 -1\n"})
	for _, tc := range tests {
		t.Run(tc.name+" nobook", func(t *testing.T) {
			t.Parallel()
			tc.args = append([]string{"-nobook"}, tc.args...)
			tc.check(t)
		})
	}
}

func TestRunRandom(t *testing.T) {
	tests := []runCase{
		{name: "two of 8 stones", args: []string{"random", "-n", "2", "8"}, stdout: "46413573\n12627521\n"},
		{name: "seed", args: []string{"random", "-seed", "7", "-n", "1", "5"}, stdoutHas: []string{"\n"}},
		{name: "no stones", args: []string{"random"}, code: 2,
			stderr: []string{"want one argument, the number of stones"}},
		{name: "not a number", args: []string{"random", "7x"}, code: 2,
			stderr: []string{`number of stones "7x": not a number`}},
		{name: "too many stones", args: []string{"random", "42"}, code: 2,
			stderr: []string{"42 stones: want 0 to 41"}},
		{name: "too few positions", args: []string{"random", "-n", "26", "2"}, code: 2,
			stderr: []string{"only 25 distinct positions exist"}},
		{name: "n zero", args: []string{"random", "-n", "0", "7"}, code: 2,
			stderr: []string{"-n 0: want at least 1"}},
		{name: "games", args: []string{"random", "-games", "-n", "2", "-seed", "3"}, stdout: "27155675766315727\n146724552721375217\n"},
		{name: "games of 5x4", args: []string{"random", "-games", "-n", "1", "-size", "5x4"}, stdout: "314143532\n"},
		{name: "games and stones", args: []string{"random", "-games", "8"}, code: 2,
			stderr: []string{"-games takes no number of stones"}},
		{name: "games n zero", args: []string{"random", "-games", "-n", "0"}, code: 2,
			stderr: []string{"-n 0: want at least 1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, tc.check)
	}
}
