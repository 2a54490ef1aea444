package main

import (
	"bytes"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
)

// watch is a writer that keeps what is written and says when it first
// holds a match of a pattern: a test waits on it for what a command says
// (its progress, a prompt, a line of results) to know that the command
// got there, rather than sleeping and assuming it did. It is safe for
// concurrent use.
type watch struct {
	re *regexp.Regexp

	mu   sync.Mutex
	b    bytes.Buffer
	seen chan struct{} // closed at the first match
	met  bool
}

// newWatch returns a watch for the regular expression pattern.
func newWatch(pattern string) *watch {
	return &watch{re: regexp.MustCompile(pattern), seen: make(chan struct{})}
}

func (w *watch) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := w.b.Write(p)
	if !w.met && w.re.Match(w.b.Bytes()) {
		w.met = true
		close(w.seen)
	}
	return n, err
}

func (w *watch) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// wait waits for the match, and reports whether it came within limit, a
// guard against a command that hangs (generous: the match comes in
// milliseconds on an idle machine).
func (w *watch) wait(limit time.Duration) bool {
	select {
	case <-w.seen:
		return true
	case <-time.After(limit):
		return false
	}
}

// testEvery names the environment variable with which a test that runs
// the test binary as the command (C4SOLVE_TEST_MAIN) sets progressEvery
// there, a time.Duration: the lines of the progress log tell the test
// that the command is at work.
const testEvery = "C4SOLVE_TEST_EVERY"

// running returns the stacks of the goroutines that run a function whose
// name holds one of names (their "created by" lines aside): none may be
// left of a display whose stop has returned, or it could write after.
func running(names ...string) []string {
	buf := make([]byte, 1<<16)
	n := runtime.Stack(buf, true)
	for n == len(buf) {
		buf = make([]byte, 2*len(buf))
		n = runtime.Stack(buf, true)
	}
	var found []string
	for g := range strings.SplitSeq(string(buf[:n]), "\n\n") {
		for l := range strings.Lines(g) {
			if !strings.HasPrefix(l, "created by ") && slices.ContainsFunc(names, func(name string) bool { return strings.Contains(l, name) }) {
				found = append(found, g)
				break
			}
		}
	}
	return found
}
