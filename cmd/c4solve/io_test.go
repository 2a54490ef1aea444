package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// failWriter fails every write, as a full disk does.
type failWriter struct{ writes int }

func (f *failWriter) Write(p []byte) (int, error) {
	f.writes++
	return 0, errors.New("no space left on device")
}

// TestWriteError: results that cannot be written are an error, exit 2,
// and the command stops at the first failed write.
func TestWriteError(t *testing.T) {
	for _, tc := range []struct {
		args []string
		path string // the command that says so
	}{
		{[]string{"4453", "4455"}, "c4solve"},
		{[]string{"-analyze", "4453", "4455"}, "c4solve"},
		{[]string{"-json", "4453", "4455"}, "c4solve"},
		{[]string{"book", "info"}, "c4solve book"},
		{[]string{"help"}, "c4solve help"},
	} {
		args := tc.args
		var out failWriter
		var errOut bytes.Buffer
		code := run(context.Background(), args, strings.NewReader(""), &out, &errOut)
		if code != exitBad || !strings.Contains(errOut.String(), tc.path+": writing standard output: no space left on device") || out.writes != 1 {
			t.Errorf("c4solve %v > full disk: exit %d, %d writes, stderr %q; want 2, one write and the error", args, code, out.writes, errOut.String())
		}
	}
	// Standard input mode, and verify.
	var out failWriter
	var errOut bytes.Buffer
	if code := run(context.Background(), nil, strings.NewReader("4453\n4455\n"), &out, &errOut); code != exitBad || out.writes != 1 {
		t.Errorf("c4solve <<< 4453 4455 > full disk: exit %d, %d writes; want 2, one write", code, out.writes)
	}
	name := writeFile(t, t.TempDir(), "set", posA+" 1\n")
	if code := run(context.Background(), []string{"verify", name}, strings.NewReader(""), &out, &errOut); code != exitBad {
		t.Errorf("c4solve verify > full disk: exit %d; want 2", code)
	}
	// play says it once, not also as an interruption.
	errOut.Reset()
	if code := run(context.Background(), []string{"play"}, strings.NewReader("q\n"), &out, &errOut); code != exitBad ||
		strings.Count(errOut.String(), "no space left on device") != 1 || strings.Contains(errOut.String(), "interrupted") {
		t.Errorf("c4solve play > full disk: exit %d, stderr %q; want 2 and the error once", code, errOut.String())
	}
	// The real thing, where there is one.
	if full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0); err == nil {
		defer full.Close()
		errOut.Reset()
		if code := run(context.Background(), []string{"4453"}, strings.NewReader(""), full, &errOut); code != exitBad {
			t.Errorf("c4solve 4453 > /dev/full: exit %d, stderr %q; want 2", code, errOut.String())
		}
	}
}

// TestUnreadableInputs: a directory or a stream of NUL bytes is refused,
// exit 2, with no summary of what could not be read.
func TestUnreadableInputs(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := runCmd(context.Background(), "", "verify", dir)
	if code != exitBad || stdout != "" || !strings.Contains(stderr, "is a directory") {
		t.Errorf("c4solve verify DIR: exit %d, stdout %q, stderr %q; want 2, nothing, is a directory", code, stdout, stderr)
	}
	code, stdout, stderr = runCmd(context.Background(), strings.Repeat("\x00", 1<<16))
	if code != exitBad || stdout != "" || !strings.Contains(stderr, "the input is not text") {
		t.Errorf("c4solve < NUL bytes: exit %d, stdout %q, stderr %q; want 2 and not text", code, stdout, stderr)
	}
}

// TestClosedStdout: output sent to the null device, opened for writing (a
// shell's >/dev/null) or for reading and writing (1<>/dev/null, as
// Python's subprocess.DEVNULL opens it), is not an error; a closed
// standard output, which Go's runtime replaces with the null device
// opened read-write before main runs, is refused at the start, exit 2,
// where it lost every result with exit 0; serve, which writes no results
// there, starts. A closed standard input, read, is an error, exit 2: it
// read as empty, exit 0 in silence. Only a build with cgo tells the
// closed descriptors from the null device (closedStdFiles).
func TestClosedStdout(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	dir := t.TempDir()
	set := writeFile(t, dir, "set", "4453 -2\n")
	bookFile := filepath.Join("..", "..", "book", "default.c4book")
	closedOut := "c4solve: standard output is closed (as by >&-): the results would be lost; send it to a file, or to /dev/null (>/dev/null) to discard them\n"
	for _, tc := range []struct {
		script string // $0 is c4solve
		code   int
		stdout string
		stderr string // exact
		closed bool   // a closed descriptor, told apart only by a build with cgo
	}{
		{`"$0" -tt 16 4453 >/dev/null`, exitOK, "", "", false},
		{`"$0" -tt 16 4453 1<>/dev/null`, exitOK, "", "", false},
		{`"$0" -tt 16 4453 </dev/null`, exitOK, "4453 -2\n", "", false},
		{`"$0" -tt 16 </dev/null`, exitOK, "", "", false},
		{`"$0" -tt 16 4453 <&-`, exitOK, "4453 -2\n", "", false},
		{`"$0" -tt 16 4453 >&-`, exitBad, "", closedOut, true},
		{`"$0" -tt 16 verify ` + set + ` >&-`, exitBad, "", closedOut, true},
		{`"$0" -tt 16 -book ` + bookFile + ` 4453 >&-`, exitBad, "", closedOut, true},
		{`"$0" serve -h >&-`, exitBad, "", "c4solve serve: writing standard output: " + errClosedStdout.Error() + "\n", true},
		{`"$0" -tt 16 <&-`, exitBad, "", "c4solve: reading standard input: " + errClosedStdin.Error() + "\n", true},
		{`"$0" review -tt 16 <&-`, exitBad, "", "c4solve review: reading standard input: " + errClosedStdin.Error() + "\n", true},
		{`"$0" play -tt 16 <&-`, exitBad, "", "c4solve play: standard input, where your moves are read: " + errClosedStdin.Error() + "\n", true},
	} {
		if tc.closed && !seesClosedStd {
			continue // read as the null device: the limit closedStdFiles documents
		}
		code, stdout, stderr := runScript(t, tc.script)
		if code != tc.code || stdout != tc.stdout || stderr != tc.stderr {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want %d, %q and %q", tc.script, code, stdout, stderr, tc.code, tc.stdout, tc.stderr)
		}
	}
}

// TestFIFOInputs: a book that is a FIFO is refused before it is opened
// (opening one waits for a writer); verify of a FIFO with no writer stops
// waiting when the command is stopped (exit 3, as any stop), and reads one
// that has a writer.
func TestFIFOInputs(t *testing.T) {
	dir := t.TempDir()
	fifo := dir + "/fifo"
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	code, _, stderr := runCmd(context.Background(), "", "-book", fifo, "4453")
	if code != exitBad || !strings.Contains(stderr, "not a regular file") {
		t.Errorf("c4solve -book FIFO 4453: exit %d, stderr %q; want 2 and not a regular file", code, stderr)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		code, _, stderr = runCmd(ctx, "", "verify", fifo)
	}()
	select {
	case <-done:
		if code != exitIncomplete || !strings.Contains(stderr, "stopped at the time limit (-timeout) while waiting for a writer to open it (a FIFO)") {
			t.Errorf("c4solve verify FIFO, stopped: exit %d, stderr %q; want 3 and stopped waiting for a writer", code, stderr)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("c4solve verify FIFO: still waiting 10s after the command was stopped")
	}
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err == nil {
			fmt.Fprintln(w, posA+" 1")
			w.Close()
		}
	}()
	if code, stdout, stderr := runCmd(context.Background(), "", "verify", fifo); code != exitOK || !strings.Contains(stdout, "positions=1 mismatches=0") {
		t.Errorf("c4solve verify FIFO with a writer: exit %d, stdout %q, stderr %q; want 0 and one position", code, stdout, stderr)
	}
}
