package main

import (
	"bytes"
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

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal: its controller end, which the test
// reads and writes, and the terminal a process takes as standard streams.
func openPTY(t *testing.T) (controller, tty *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		m.Close()
		t.Skipf("unlocking a pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		m.Close()
		t.Skipf("naming a pseudo-terminal: %v", err)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		t.Skipf("opening a pseudo-terminal: %v", err)
	}
	return m, tty
}

// onTerminal runs c4solve with args, those of its standard streams that
// streams names ("in", "out", "err") on a terminal and the others on
// pipes, and returns what the terminal and the pipes got once it exits.
// Once the terminal shows a match of the regular expression ready ("" for
// at once: the command's prompt, its progress), it writes input to the
// terminal (standard input off the terminal is given input from the
// start), or, with no input, kills the process: the work it shows would
// run on. A process that hangs is killed after a minute.
func onTerminal(t *testing.T, env []string, streams, ready, input string, args ...string) (code int, term, stdout, stderr string) {
	t.Helper()
	m, tty := openPTY(t)
	defer m.Close()
	cmd := c4solveCmd(args...)
	cmd.Env = append(cmd.Env, env...)
	var out, errOut bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(input), &out, &errOut
	if strings.Contains(streams, "in") {
		// The terminal is the process's own, as a shell's job has it:
		// Ctrl-C typed on it interrupts the process.
		cmd.Stdin = tty
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	}
	if strings.Contains(streams, "out") {
		cmd.Stdout = tty
	}
	if strings.Contains(streams, "err") {
		cmd.Stderr = tty
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close()
	seen := newWatch(ready)
	read := make(chan struct{})
	go func() {
		io.Copy(seen, m) // until the terminal's last user is gone (EIO)
		close(read)
	}()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	if ready != "" {
		if !seen.wait(time.Minute) {
			t.Errorf("c4solve %q: the terminal never showed %q; it got %q", args, ready, seen.String())
			cmd.Process.Kill()
		}
		switch {
		case input == "":
			cmd.Process.Kill()
		case strings.Contains(streams, "in"):
			m.Write([]byte(input))
		}
	} else if input != "" && strings.Contains(streams, "in") {
		m.Write([]byte(input))
	}
	var err error
	select {
	case err = <-done:
	case <-time.After(time.Minute):
		t.Errorf("c4solve %q: still running after a minute", args)
		cmd.Process.Kill()
		err = <-done
	}
	select {
	case <-read:
	case <-time.After(time.Minute):
		t.Errorf("c4solve %q: the terminal still open a minute after the process ended", args)
	}
	code = 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	}
	return code, seen.String(), out.String(), errOut.String()
}

// TestTerminalInput: c4solve alone on a terminal says that it reads
// positions, rather than wait in silence.
func TestTerminalInput(t *testing.T) {
	code, term, stdout, _ := onTerminal(t, nil, "in err", "reading positions", "4453\n\x04")
	if code != 0 || !strings.Contains(term, "reading positions from standard input") || stdout != "4453 -2\n" {
		t.Errorf("c4solve on a terminal: exit %d, terminal %q, stdout %q; want the note and 4453's score", code, term, stdout)
	}
	// Off a terminal, nothing is said.
	if code, _, errOut := runCmd(t.Context(), "4453\n"); code != 0 || errOut != "" {
		t.Errorf("c4solve < 4453: exit %d, stderr %q; want nothing on stderr", code, errOut)
	}
}

// TestNoColour: play draws in colour on a terminal, and with NO_COLOR or
// TERM=dumb in plain x and o.
func TestNoColour(t *testing.T) {
	for _, tc := range []struct {
		env    []string
		colour bool
	}{
		{[]string{"NO_COLOR=", "TERM=xterm"}, true},
		{[]string{"NO_COLOR=1", "TERM=xterm"}, false},
		{[]string{"NO_COLOR=", "TERM=dumb"}, false},
	} {
		_, term, _, _ := onTerminal(t, tc.env, "in out", "your move", "q\n", "play", "44")
		hasColour := strings.Contains(term, "\033[")
		if hasColour != tc.colour || !tc.colour && !(strings.Contains(term, "x") && strings.Contains(term, "o")) {
			t.Errorf("c4solve play 44 with %q: colour %v in %q; want colour %v, else x and o", tc.env, hasColour, term, tc.colour)
		}
	}
}

// TestBenchProgress: bench on a terminal shows its progress while a row
// runs.
func TestBenchProgress(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	f := writeFile(t, t.TempDir(), "slow", "4\n") // seconds of search without the book
	_, term, stdout, _ := onTerminal(t, nil, "err", regexp.QuoteMeta(f+", 1 threads, 16 MiB")+".*0/1", "", "bench", "-nobook", "-threads", "1", "-tt", "16", f)
	if !strings.Contains(term, f+", 1 threads, 16 MiB") || !strings.Contains(term, "0/1") {
		t.Errorf("c4solve bench on a terminal: terminal %q, stdout %q; want the row under way and its positions", term, stdout)
	}
}

// TestProgressCleared: Ctrl-C during a solve leaves no trace of the
// progress display on the terminal: the line it was on, with the "^C" the
// terminal echoed after it, is erased before the messages.
func TestProgressCleared(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	code, term, stdout, _ := onTerminal(t, nil, "in err", "nodes/s", "\x03", "-nobook", "-tt", "16", "")
	i := strings.LastIndex(term, "^C")
	if code != exitIncomplete || i < 0 || !strings.HasPrefix(stdout, `"" incomplete`) {
		t.Fatalf("c4solve \"\" interrupted by Ctrl-C on a terminal: exit %d, terminal %q, stdout %q; want 3, ^C and the bounds", code, term, stdout)
	}
	after := term[i:]
	if e, m := strings.Index(after, "\r\033[K"), strings.Index(after, "c4solve: "); e < 0 || m < e {
		t.Errorf("after ^C the terminal got %q; want the line erased (\\r\\033[K) before the message", after)
	}
}

// TestBatchCount: a stream of positions on standard input, stderr on a
// terminal, keeps a count of the positions done there, erased before each
// result and at the end; typed positions get none (it would mix with what
// is typed), nor does stderr off a terminal (TestTerminalInput).
func TestBatchCount(t *testing.T) {
	code, term, stdout, _ := onTerminal(t, nil, "err", "", "4453\n44\n4455\n")
	if code != 0 || stdout != "4453 -2\n44 1\n4455 18\n" || !strings.Contains(term, "positions done: 3") || !strings.HasSuffix(term, "\r\033[K") {
		t.Errorf("c4solve < positions, stderr on a terminal: exit %d, stdout %q, terminal %q; want the scores, and the count shown then erased", code, stdout, term)
	}
	if _, term, _, _ := onTerminal(t, nil, "in err", "reading positions", "4453\n\x04"); strings.Contains(term, "positions done") {
		t.Errorf("c4solve, positions typed: terminal %q; want no count", term)
	}
}

// TestBookVerifyProgress: book verify on a terminal counts the positions
// checked (it was silent for 20 s).
func TestBookVerifyProgress(t *testing.T) {
	bk := filepath.Join(t.TempDir(), "4x5.c4book")
	if code, _, errOut := runCmd(t.Context(), "", "book", "generate", "-size", "4x5", "-depth", "3", "-o", bk); code != 0 {
		t.Fatalf("book generate -size 4x5: exit %d, %s", code, errOut)
	}
	code, term, stdout, _ := onTerminal(t, nil, "err", "", "", "book", "verify", "-n", "3", bk)
	if code != 0 || !strings.Contains(stdout, "checked=3 mismatches=0") || !strings.Contains(term, "positions checked") || !strings.Contains(term, "3/3") {
		t.Errorf("c4solve book verify -n 3 on a terminal: exit %d, stdout %q, terminal %q; want the count of positions checked", code, stdout, term)
	}
}
