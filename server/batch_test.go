package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"c4solve/server"
)

// post posts body to path and returns the status and the lines of the
// answer.
func post(t *testing.T, url, body string) (int, []string) {
	t.Helper()
	resp, err := http.Post(url, "text/plain", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// randomPositions returns n positions of 7x6 of 8 to 12 stones of random
// play.
func randomPositions(t *testing.T, n int) []string {
	t.Helper()
	var positions []string
	for stones := 8; stones <= 12; stones++ {
		if err := standard7x6.RandomPositions(uint64(stones), stones, n/5, func(m string) bool {
			positions = append(positions, m)
			return true
		}); err != nil {
			t.Fatal(err)
		}
	}
	return positions
}

// TestBatchSolve: POST /solve of positions, one a line, answers each as
// GET /solve does, in the order given; a JSON array of strings does the
// same; a bad position gets its error object in its place; POST /analyze
// answers as GET /analyze.
func TestBatchSolve(t *testing.T) {
	ts := newServer(t, server.Config{Solvers: 2})
	n := 200
	if testing.Short() {
		n = 40
	}
	positions := randomPositions(t, n)
	positions = append(positions[:10:10], append([]string{"4448", ""}, positions[10:]...)...)
	body := strings.Join(positions, "\n")
	body = strings.Replace(body, "\n\n", "\n\"\"\n", 1) // the empty board, written as a line writes it
	status, lines := post(t, ts.URL+"/solve", body)
	if status != 200 || len(lines) != len(positions) {
		t.Fatalf("POST /solve of %d positions: %d, %d lines", len(positions), status, len(lines))
	}
	arr, _ := json.Marshal(positions)
	status, fromJSON := post(t, ts.URL+"/solve", string(arr))
	if status != 200 || strings.Join(fromJSON, "\n") != strings.Join(lines, "\n") {
		t.Fatalf("POST /solve of a JSON array: %d, answers differ from the lines'", status)
	}
	for i, pos := range positions {
		var want map[string]any
		get(t, ts, "/solve?pos="+pos, &want)
		var got map[string]any
		if err := json.Unmarshal([]byte(lines[i]), &got); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if pos == "4448" {
			if e, _ := got["error"].(string); got["pos"] != pos || !strings.Contains(e, "'8' is not a column 1-7") {
				t.Errorf("line %d: %s; want the error of 4448 in its place", i+1, lines[i])
			}
			continue
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("line %d, %q: %s; GET /solve answers %v", i+1, pos, lines[i], want)
		}
	}
	status, lines = post(t, ts.URL+"/analyze", strings.Join(positions[:5], "\n"))
	for i, pos := range positions[:5] {
		var got, want server.AnalyzeAnswer
		get(t, ts, "/analyze?pos="+pos, &want)
		if err := json.Unmarshal([]byte(lines[i]), &got); status != 200 || err != nil ||
			got.Pos != pos || got.Score == nil || want.Score == nil || *got.Score != *want.Score || got.PV != want.PV || fmt.Sprint(got.Best) != fmt.Sprint(want.Best) {
			t.Errorf("POST /analyze line %d: %d %s; GET answers %+v", i+1, status, lines[i], want)
		}
	}
}

// TestBatchLimits: a body over Config.MaxBody or of more positions than
// Config.MaxBatch is refused whole with 413 and a reason; a body that is
// no array, a bad size and another method are refused too.
func TestBatchLimits(t *testing.T) {
	ts := newServer(t, server.Config{MaxBatch: 3, MaxBody: 64})
	for _, tc := range []struct {
		path, body string
		status     int
		want       string
	}{
		{"/solve", "4\n44\n444\n4444\n", 413, "4 positions: send at most 3 a request"},
		{"/solve", strings.Repeat("4", 70), 413, "a body of more than 64 bytes"},
		{"/analyze", `["4", 5]`, 400, "not a JSON array of strings"},
		{"/solve?size=3x9", "4", 400, "each side must be 4 or more"},
		{"/review", "4", 405, "only GET is answered"},
	} {
		status, lines := post(t, ts.URL+tc.path, tc.body)
		if status != tc.status || !strings.Contains(lines[0], tc.want) {
			t.Errorf("POST %s %q: %d %s; want %d and %q", tc.path, tc.body, status, lines[0], tc.status, tc.want)
		}
	}
}

// TestBatchConcurrentAndCancelled: ten batches at once are all answered
// in full; a client that goes away part way stops its batch: the log
// says how many positions were answered, fewer than asked, soon after.
func TestBatchConcurrentAndCancelled(t *testing.T) {
	var log syncBuffer
	ts := newServer(t, server.Config{Solvers: 2, Queue: 16, Log: &log})
	positions := randomPositions(t, 50)
	var wg sync.WaitGroup
	for i := range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			status, lines := post(t, ts.URL+"/solve", strings.Join(positions, "\n"))
			if status != 200 || len(lines) != len(positions) || strings.Contains(strings.Join(lines, ""), `"error"`) {
				t.Errorf("batch %d of 10 at once: %d, %d lines", i, status, len(lines))
			}
		}()
	}
	wg.Wait()

	// Hard positions, no book: a client gone after the first answer.
	hard := []string{"4", "3", "5", "2", "6", "1", "7"}
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, ts.URL+"/solve?size=7x5", strings.NewReader(strings.Join(hard, "\n")))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	first, err := bufio.NewReader(resp.Body).ReadString('\n')
	if err != nil || !strings.Contains(first, `"pos":"4"`) {
		t.Fatalf("the first answer: %q, %v", first, err)
	}
	cancel()
	resp.Body.Close()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(log.String(), "POST /solve?size=7x5") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	line := ""
	for l := range strings.Lines(log.String()) {
		if strings.Contains(l, "POST /solve?size=7x5") {
			line = l
		}
	}
	if !strings.Contains(line, "gone (1 of 7 positions answered)") && !strings.Contains(line, "gone (2 of 7 positions answered)") {
		t.Errorf("the log of a batch whose client went away: %q; want gone, 1 or 2 of 7 answered", line)
	}
}

// TestBatchLogOne: the log's line of a batch of one position counts it
// in the singular.
func TestBatchLogOne(t *testing.T) {
	var log syncBuffer
	ts := newServer(t, server.Config{Log: &log})
	resp, err := http.Post(ts.URL+"/solve", "text/plain", strings.NewReader("4453\n"))
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if want := `{"pos":"4453","score":[-5,-5,-2,-3,-4,-2,-2]}` + "\n"; err != nil || resp.StatusCode != 200 || string(body) != want {
		t.Fatalf("POST /solve of 4453: %d %q, %v; want 200 %q", resp.StatusCode, body, err, want)
	}
	ts.Close() // waits for the handler, and its log line
	re := regexp.MustCompile(`^\S+ POST /solve 200 \(1 of 1 position answered\) [0-9.]+ms\n$`)
	if !re.MatchString(log.String()) {
		t.Errorf("the log of a batch of one position: %q; want it to match %s", log.String(), re)
	}
}

// TestBatchServerStops: a server that stops (its requests' base context
// cancelled with ErrStopping) during a batch answers the position under
// way and each one after it with a line that says so, so that the client
// can tell a cut batch from a whole one; the log says who cut it. (It
// ended the stream after the lines written, and logged the client as
// gone.)
func TestBatchServerStops(t *testing.T) {
	var log syncBuffer
	h, err := server.New(server.Config{Solvers: 1, TableMiB: 16, Full: server.DefaultFull, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	base, stop := context.WithCancelCause(context.Background())
	defer stop(nil)
	ts := httptest.NewUnstartedServer(h)
	ts.Config.BaseContext = func(net.Listener) context.Context { return base }
	ts.Start()
	defer ts.Close()
	// No book: two positions searched in milliseconds, then the empty
	// board's moves (minutes), then three more.
	positions := []string{"737534232264", "4453", "", "4", "737534232264", "44"}
	resp, err := http.Post(ts.URL+"/solve", "text/plain", strings.NewReader(strings.ReplaceAll(strings.Join(positions, "\n"), "\n\n", "\n\"\"\n")))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	r := bufio.NewReader(resp.Body)
	var lines []string
	for range 2 {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("line %d: %q, %v", len(lines)+1, line, err)
		}
		lines = append(lines, line)
	}
	stop(server.ErrStopping)
	rest, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	lines = append(lines, strings.SplitAfter(string(rest), "\n")...)
	want := []string{
		`{"pos":"737534232264","score":[-15,-10,-15,-15,-15,-15,-15]}` + "\n",
		`{"pos":"4453","score":[-5,-5,-2,-3,-4,-2,-2]}` + "\n",
		`{"pos":"","error":"the server is stopping"}` + "\n",
		`{"pos":"4","error":"the server is stopping"}` + "\n",
		`{"pos":"737534232264","error":"the server is stopping"}` + "\n",
		`{"pos":"44","error":"the server is stopping"}` + "\n",
		"", // the stream's end
	}
	if resp.StatusCode != 200 || !slices.Equal(lines, want) {
		t.Errorf("POST /solve of %q, the server stopped after 2 lines: %d %q; want %q", positions, resp.StatusCode, lines, want)
	}
	ts.Close() // waits for the handler, and its log line
	if got, want := log.String(), " 200 (2 of 6 positions answered, 4 cut short: the server is stopping)"; !strings.Contains(got, want) {
		t.Errorf("the log of a batch cut by the server's stop: %q; want %q", got, want)
	}
}
