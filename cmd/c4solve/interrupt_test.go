package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestInterruptWhileReading: an interrupt while the command waits for a
// line of standard input stops it at once, exit 3; a line that comes
// after is not solved.
func TestInterruptWhileReading(t *testing.T) {
	in, w := io.Pipe()
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	var errOut syncBuffer
	out := newWatch("\n") // the line's result: the command waits for the next line
	done := make(chan int, 1)
	go func() { done <- run(ctx, nil, in, out, &errOut) }()
	io.WriteString(w, "4453\n")
	out.wait(time.Minute)
	cancel()
	select {
	case code := <-done:
		if code != exitIncomplete || out.String() != "4453 -2\n" || !strings.Contains(errOut.String(), "standard input: interrupted") {
			t.Errorf("c4solve <<< 4453, interrupted while reading: exit %d, stdout %q, stderr %q; want 3, 4453 -2, interrupted",
				code, out.String(), errOut.String())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("c4solve waiting on standard input did not stop within 5s of an interrupt")
	}
}

// TestAnalyzeIncomplete: -analyze stopped prints the bounds it found.
func TestAnalyzeIncomplete(t *testing.T) {
	code, stdout, stderr := runCmd(context.Background(), "", "-analyze", "-nobook", "-timeout", "100ms", "")
	var lo, hi int
	if _, err := fmt.Sscanf(stdout, "\"\" incomplete %d <= score <= %d\n", &lo, &hi); err != nil || code != exitIncomplete ||
		lo > 1 || hi < 1 || !strings.Contains(stderr, "stopped at the time limit") {
		t.Errorf("c4solve -analyze -timeout 100ms \"\": exit %d, stdout %q, stderr %q; want 3 and bounds around 1", code, stdout, stderr)
	}
}

// TestSignals runs the command as a process and stops a long solve with
// SIGTERM and SIGHUP: each is taken as Ctrl-C is, the bounds printed and
// exit 3, and said in words a person reads (not "interrupted: interrupt").
func TestSignals(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	words := map[syscall.Signal]string{syscall.SIGTERM: "stopped by SIGTERM", syscall.SIGHUP: "stopped by SIGHUP", syscall.SIGINT: "interrupted (Ctrl-C)"}
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT} {
		cmd := exec.Command(os.Args[0], "-nobook", "-tt", "16", "-threads", "1", "")
		cmd.Env = append(os.Environ(), "C4SOLVE_TEST_MAIN=1", testEvery+"=10ms")
		var out bytes.Buffer
		// Signalled once its log shows the search under way (the empty
		// board takes minutes): its signals are caught by then.
		errOut := newWatch(`under way: [1-9]\d* nodes`)
		cmd.Stdout, cmd.Stderr = &out, errOut
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if !errOut.wait(time.Minute) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("c4solve \"\": no search under way in its log %q", errOut.String())
		}
		cmd.Process.Signal(sig)
		err := cmd.Wait()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != exitIncomplete || !strings.HasPrefix(out.String(), `"" incomplete `) ||
			!strings.Contains(errOut.String(), `argument 1 "": `+words[sig]) {
			t.Errorf("c4solve \"\" stopped by %v: %v, stdout %q, stderr %q; want exit 3, the bounds and %q", sig, err, out.String(), errOut.String(), words[sig])
		}
	}
}

// TestBenchInterruptedKeepsRows: bench stopped in its second file prints
// the row of the first.
func TestBenchInterruptedKeepsRows(t *testing.T) {
	dir := t.TempDir()
	quick := writeFile(t, dir, "quick", l3r1Ten)
	slow := writeFile(t, dir, "slow", "4\n") // seconds of search without the book
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	code, stdout, stderr := runCmd(ctx, "", "bench", "-nobook", "-threads", "1", "-tt", "16", quick, slow)
	if code != exitIncomplete || !strings.Contains(stdout, "/quick |") || strings.Contains(stdout, "/slow |") {
		t.Errorf("c4solve bench quick slow, interrupted in slow: exit %d, stdout %q, stderr %q; want 3 and the row of quick",
			code, stdout, stderr)
	}
}

// TestVerifyInterrupted: a verify stopped by -timeout prints the bounds of
// the position under way and the summary of what it checked, marked
// incomplete, and exits 3.
func TestVerifyInterrupted(t *testing.T) {
	file := filepath.Join(t.TempDir(), "v.txt")
	// Two quick positions, then the empty board's, minutes without a book.
	os.WriteFile(file, []byte("4455 18\n737534232264 -10\n\"\" 1\n"), 0o644)
	code, stdout, stderr := runCmd(context.Background(), "", "verify", "-nobook", "-tt", "16", "-timeout", "300ms", file)
	want := regexp.MustCompile(`^` + regexp.QuoteMeta(file) + `:3 "" incomplete -?\d+ <= score <= \d+\n` +
		regexp.QuoteMeta(file) + ` positions=2 mismatches=0 .* incomplete\n$`)
	if code != exitIncomplete || !want.MatchString(stdout) || !strings.Contains(stderr, "stopped at the time limit (-timeout)") {
		t.Errorf("verify stopped in its third position: exit %d, stdout %q, stderr %q; want 3, the bounds and the summary of 2, incomplete", code, stdout, stderr)
	}
	code, stdout, _ = runCmd(context.Background(), "", "verify", "-json", "-nobook", "-tt", "16", "-timeout", "300ms", file)
	if code != exitIncomplete || !strings.Contains(stdout, `"line":3,"pos":"","lower":`) || !strings.Contains(stdout, `"positions":2,`) ||
		!strings.HasSuffix(stdout, `"incomplete":true}`+"\n") {
		t.Errorf("verify -json stopped: exit %d, stdout %q", code, stdout)
	}
}

// TestRandomLimitsAndSignals: random refuses at once what cannot be
// drawn, prints positions as it draws them, and stops on SIGTERM.
func TestRandomLimitsAndSignals(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"random", "-n", "1000000000", "5"}, "at most 1000000 a run"},
		{[]string{"random", "-n", "3000", "5"}, "only 2144 distinct positions exist"},
	} {
		code, stdout, stderr := runCmd(context.Background(), "", tc.args...)
		if code != exitBad || stdout != "" || !strings.Contains(stderr, tc.stderr) {
			t.Errorf("c4solve %v: exit %d, stdout %q, stderr %q; want 2 and %q", tc.args, code, stdout, stderr, tc.stderr)
		}
	}
	// Positions of 40 stones are slow to draw (most games end before):
	// a million take minutes; SIGTERM stops the run within a second.
	cmd := exec.Command(os.Args[0], "random", "-n", "1000000", "40")
	cmd.Env = append(os.Environ(), "C4SOLVE_TEST_MAIN=1")
	var errOut bytes.Buffer
	out := newWatch("\n") // a position drawn: its signals are caught by then
	cmd.Stdout, cmd.Stderr = out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if !out.wait(time.Minute) {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("random -n 1000000 40: no position drawn; stderr %q", errOut.String())
	}
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != exitIncomplete || !strings.Contains(errOut.String(), "stopped by SIGTERM") {
			t.Errorf("random stopped by SIGTERM: %v, %d bytes out, stderr %q; want exit 3, the positions drawn, and a message", err, len(out.String()), errOut.String())
		}
	case <-time.After(5 * time.Second):
		cmd.Process.Kill()
		t.Error("random did not stop within 5 s of SIGTERM")
	}
}
