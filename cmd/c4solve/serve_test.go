package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for one writer and readers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestServe starts c4solve serve on a free port, asks it a position,
// starts a long solve, and stops the server as a signal would (its
// context): the long solve answers 503 at once, and the command exits 0.
func TestServe(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve", "-addr", "127.0.0.1:0", "-tt", "16", "-timeout", "0", "-nobook"},
			strings.NewReader(""), &stdout, &stderr)
	}()
	listening := regexp.MustCompile(`listening on (http://[0-9.:]+/)`)
	var base string
	for deadline := time.Now().Add(10 * time.Second); base == "" && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if m := listening.FindStringSubmatch(stderr.String()); m != nil {
			base = m[1]
		}
	}
	if base == "" {
		t.Fatalf("c4solve serve: no address on stderr %q", stderr.String())
	}
	resp, err := http.Get(base + "solve?pos=4453")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != `{"pos":"4453","score":[-5,-5,-2,-3,-4,-2,-2]}`+"\n" {
		t.Errorf("GET /solve?pos=4453: %q", body)
	}

	// A solve of minutes (the empty board's moves, no book) under way.
	long := make(chan int, 1)
	go func() {
		resp, err := http.Get(base + "solve?pos=")
		if err != nil {
			long <- 0
			return
		}
		resp.Body.Close()
		long <- resp.StatusCode
	}()
	time.Sleep(300 * time.Millisecond)
	cancel()
	select {
	case code := <-done:
		if code != 0 || !strings.Contains(stderr.String(), "c4solve serve: stopped") {
			t.Errorf("c4solve serve, stopped: exit %d, stderr %q; want 0 and stopped", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("c4solve serve did not stop within 10s of its context's end")
	}
	if code := <-long; code != http.StatusServiceUnavailable {
		t.Errorf("the solve under way when the server stopped answered %d; want 503", code)
	}
	if stdout.String() != "" {
		t.Errorf("c4solve serve wrote %q on standard output; want nothing", stdout.String())
	}
	for _, args := range [][]string{{"serve", "-solvers", "0"}, {"serve", "x"}, {"serve", "-addr", "nonsense"}} {
		if code, _, stderr := runCmd(context.Background(), "", args...); code != exitBad || !strings.HasPrefix(stderr, "c4solve serve: ") {
			t.Errorf("c4solve %v: exit %d, stderr %q; want 2 and a message", args, code, stderr)
		}
	}
}
