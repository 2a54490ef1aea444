package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
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
		done <- run(ctx, []string{"serve", "-addr", "127.0.0.1:0", "-tt", "24", "-timeout", "0", "-nobook", "-solvers", "1", "-queue", "0"},
			strings.NewReader(""), &stdout, &stderr)
	}()
	base := listeningOn(t, &stderr)
	if want := "c4solve: note: -tt 24: a table holds a power of two of buckets: using 16 MiB\n"; !strings.HasPrefix(stderr.String(), want) {
		t.Errorf("c4solve serve -tt 24: stderr %q; want it to begin %q", stderr.String(), want)
	}
	// A position of Test_L2_R1 (score -10), searched in milliseconds.
	resp, err := http.Get(base + "solve?pos=737534232264")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != `{"pos":"737534232264","score":[-15,-10,-15,-15,-15,-15,-15]}`+"\n" {
		t.Errorf("GET /solve?pos=737534232264: %q", body)
	}

	// A solve of minutes (the empty board's moves, no book) under way:
	// with one solver and no queue, a quick request finds it busy. (The
	// long one is asked again when it finds the solver busy with a quick
	// one.) Each has a client of its own: one client's requests side by
	// side may dial a connection it then leaves unused, which the server
	// waits for as long as serve waits to stop.
	longClient, quickClient := &http.Client{Transport: &http.Transport{}}, &http.Client{Transport: &http.Transport{}}
	defer longClient.CloseIdleConnections()
	defer quickClient.CloseIdleConnections()
	long := make(chan string, 1)
	go func() {
		for {
			resp, err := longClient.Get(base + "solve?pos=")
			if err != nil {
				long <- err.Error()
				return
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), "busy") {
				long <- fmt.Sprintf("%d %s", resp.StatusCode, body)
				return
			}
		}
	}()
	for deadline := time.Now().Add(time.Minute); ; {
		resp, err := quickClient.Get(base + "solve?pos=2252576253462244111563365343671351441") // tens of nodes
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusServiceUnavailable && strings.Contains(string(body), "busy") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the long solve never held the solver: the last quick one answered %d %s", resp.StatusCode, body)
		}
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 || !strings.Contains(stderr.String(), "c4solve serve: stopping (context canceled): requests under way answer \"the server is stopping\"\n") ||
			!strings.Contains(stderr.String(), "c4solve serve: stopped") {
			t.Errorf("c4solve serve, stopped: exit %d, stderr %q; want 0, what stopped it, and stopped", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("c4solve serve did not stop within 10s of its context's end")
	}
	if answer := <-long; !strings.HasPrefix(answer, "503 ") || !strings.Contains(answer, "the server is stopping") {
		t.Errorf("the solve under way when the server stopped answered %q; want 503, the server is stopping", answer)
	}
	if !regexp.MustCompile(`GET /solve\?pos=737534232264 200 [0-9.]+ms`).MatchString(stderr.String()) {
		t.Errorf("c4solve serve: no log line of GET /solve?pos=737534232264 on stderr %q", stderr.String())
	}
	if stdout.String() != "" {
		t.Errorf("c4solve serve wrote %q on standard output; want nothing", stdout.String())
	}
	for _, args := range [][]string{{"serve", "-full", "0"}, {"serve", "-full", "18"}, {"serve", "-full", "-18"}, {"serve", "-solvers", "0"}, {"serve", "-boards", "0"}, {"serve", "x"}, {"serve", "-addr", "nonsense"}, {"serve", "-addr", ""}, {"serve", "-idle", "0s"}} {
		if code, _, stderr := runCmd(context.Background(), "", args...); code != exitBad || !strings.HasPrefix(stderr, "c4solve serve: ") {
			t.Errorf("c4solve %v: exit %d, stderr %q; want 2 and a message", args, code, stderr)
		}
	}
}

// TestServeHelp: serve's help says what -tt is there, as everywhere the
// table that a solve uses: each board's, shared by its solves and kept
// between requests, -boards of them at most.
func TestServeHelp(t *testing.T) {
	code, out, _ := runCmd(context.Background(), "", "serve", "-h")
	for _, want := range []string{
		"The\nrequests of each board share one table of -tt MiB, kept from request to\nrequest",
		"A board's table is made when a request first needs it (the default\nboard's at the start, made resident); at most -boards are kept",
		"-boards K\n    \tkeep the tables of at most K boards between requests, each of -tt MiB (default 4)",
	} {
		if code != exitOK || !strings.Contains(out, want) {
			t.Errorf("c4solve serve -h: exit %d, stdout %q; want 0 and %q", code, out, want)
		}
	}
	if strings.Contains(out, "-tt/-solvers") || strings.Contains(out, "beside 7x6's") {
		t.Errorf("c4solve serve -h: %q; want no table of 7x6 apart from the other boards'", out)
	}
}

// TestServeIdleClients: clients that keep their connections open and idle
// cannot use up the server's file descriptors. With a limit of 64, more
// idle clients than it allows, then a new client: the idle connections
// are closed after -idle, and the new client is answered.
func TestServeIdleClients(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash for ulimit")
	}
	cmd := exec.Command("bash", "-c", `ulimit -n 64 && exec "$0" serve -addr 127.0.0.1:0 -tt 16 -idle 1s -quiet`, os.Args[0])
	cmd.Env = append(os.Environ(), "C4SOLVE_TEST_MAIN=1")
	var stderr syncBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	}()
	base := listeningOn(t, &stderr)
	host := strings.TrimSuffix(strings.TrimPrefix(base, "http://"), "/")
	var idle []net.Conn
	defer func() {
		for _, c := range idle {
			c.Close()
		}
	}()
	for range 80 {
		c, err := net.Dial("tcp", host)
		if err != nil {
			break // the backlog is full
		}
		idle = append(idle, c)
		// One request, then the connection stays open and idle (keep-alive).
		fmt.Fprintf(c, "GET /solve?pos=4 HTTP/1.1\r\nHost: %s\r\n\r\n", host)
	}
	client := &http.Client{Timeout: 20 * time.Second}
	resp, err := client.Get(base + "solve?pos=4453")
	if err != nil {
		t.Fatalf("a new client beside %d idle ones: %v (server: %s)", len(idle), err, stderr.String())
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != `{"pos":"4453","score":[-5,-5,-2,-3,-4,-2,-2]}`+"\n" {
		t.Errorf("a new client beside %d idle ones: %d %q", len(idle), resp.StatusCode, body)
	}
}

// listeningOn waits for the address that c4solve serve prints on stderr.
func listeningOn(t *testing.T, stderr *syncBuffer) string {
	t.Helper()
	listening := regexp.MustCompile(`listening on (http://[0-9.:]+/)`)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if m := listening.FindStringSubmatch(stderr.String()); m != nil {
			return m[1]
		}
	}
	t.Fatalf("c4solve serve: no address on stderr %q", stderr.String())
	return ""
}
