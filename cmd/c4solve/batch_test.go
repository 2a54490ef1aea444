package main

import (
	"context"
	"regexp"
	"strings"
	"testing"
)

// measured matches the fields of -json results that differ from run to run.
var measured = regexp.MustCompile(`,"nodes":[0-9]+,"seconds":[0-9.e+-]+`)

// TestBatchOrder solves a stream of positions, with bad lines and a wrong
// expected score among them, at 1 thread and at 2 and 3, where they are
// solved side by side: the results, the messages and the exit status must
// be the same, in the order of the input.
func TestBatchOrder(t *testing.T) {
	lines := strings.Split(strings.TrimSpace(l3r1), "\n")
	var in strings.Builder
	for i, l := range lines {
		in.WriteString(l + "\n")
		switch i {
		case 3:
			in.WriteString("448\n") // bad: line 5
		case 7:
			in.WriteString(posA + " 5\n") // a wrong expected score: line 10
		}
	}
	stdin := in.String() + posC + "\n"
	for _, args := range [][]string{nil, {"-json"}, {"-v"}} {
		code1, out1, err1 := runCmd(context.Background(), stdin, append([]string{"-nobook", "-threads", "1"}, args...)...)
		if code1 != exitBad || !strings.Contains(err1, "line 5:") || args == nil && !strings.Contains(out1, posA+" 1 MISMATCH") {
			t.Fatalf("%v, 1 thread: exit %d, stdout %q, stderr %q; want exit %d, line 5 reported, a mismatch", args, code1, out1, err1, exitBad)
		}
		for _, threads := range []string{"2", "3"} {
			code, out, errOut := runCmd(context.Background(), stdin, append([]string{"-nobook", "-threads", threads}, args...)...)
			if code != code1 {
				t.Errorf("%v, %s threads: exit %d; want %d as at 1 thread", args, threads, code, code1)
			}
			if measured.ReplaceAllString(out, "") != measured.ReplaceAllString(out1, "") {
				t.Errorf("%v, %s threads: stdout\n%s\nwant, as at 1 thread,\n%s", args, threads, out, out1)
			}
			if args == nil && errOut != err1 {
				t.Errorf("%v, %s threads: stderr %q; want %q as at 1 thread", args, threads, errOut, err1)
			}
			if n1, n := strings.Count(err1, "\n"), strings.Count(errOut, "\n"); n != n1 {
				t.Errorf("%v, %s threads: %d lines on stderr; want %d", args, threads, n, n1)
			}
		}
	}
	// Arguments are a batch too.
	code, out, _ := runCmd(context.Background(), "", "-nobook", "-threads", "2", posA, "9", posB, posC)
	if want := posA + " 1\n" + posB + " -3\n" + posC + " -1\n"; code != exitBad || out != want {
		t.Errorf("three positions and a bad one as arguments, 2 threads: exit %d, stdout %q; want %d, %q", code, out, exitBad, want)
	}
}

// TestBatchCanceled stops a batch of long solves at once: every position
// started is reported incomplete, in order, and nothing is lost.
func TestBatchCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	code, out, _ := runCmd(ctx, "\n1\n2\n3\n", "-nobook", "-threads", "2")
	if code != exitIncomplete {
		t.Errorf("canceled batch: exit %d; want %d", code, exitIncomplete)
	}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if l != "" && !strings.Contains(l, "incomplete") {
			t.Errorf("canceled batch: line %q; want an incomplete result", l)
		}
	}
}
