package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"c4solve/board"
	"c4solve/book"
	"c4solve/internal/position"
	"c4solve/server"
	"c4solve/solver"
)

func newServer(t *testing.T, cfg server.Config) *httptest.Server {
	t.Helper()
	if cfg.TableMiB == 0 {
		cfg.TableMiB = 16
	}
	if cfg.Full == 0 {
		cfg.Full = server.DefaultFull
	}
	if cfg.Books[board.Standard] == nil {
		bk, err := book.Default()
		if err != nil {
			t.Fatal(err)
		}
		cfg.Books = withBook(cfg.Books, board.Standard, bk)
	}
	h, err := server.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return ts
}

// get requests path and decodes the JSON answer into v.
func get(t *testing.T, ts *httptest.Server, path string, v any) *http.Response {
	t.Helper()
	resp, err := http.Get(ts.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if v != nil {
		if err := json.Unmarshal(body, v); err != nil {
			t.Fatalf("GET %s: %v in %q", path, err, body)
		}
	}
	return resp
}

func TestSolve(t *testing.T) {
	ts := newServer(t, server.Config{})
	tests := []struct {
		query string // after /solve?
		pos   string
		score [7]int
	}{
		{"pos=4453", "4453", [7]int{-5, -5, -2, -3, -4, -2, -2}},
		{"pos=", "", [7]int{-2, -1, 0, 1, 0, -1, -2}},
		// Other parameters are ignored: some clients add one to defeat caches.
		{"pos=4453&_=1732451", "4453", [7]int{-5, -5, -2, -3, -4, -2, -2}},
		{"pos=44%353", "4453", [7]int{-5, -5, -2, -3, -4, -2, -2}},
		// Column 7 full (Test_L3_R1's scores, checked with c4solve -analyze).
		{"pos=67152117737262713366376314254", "67152117737262713366376314254", [7]int{-5, -5, -5, -1, 6, -5, 100}},
		{"pos=2252576253462244111563365343671351441", "2252576253462244111563365343671351441", [7]int{100, 100, 100, 100, 100, -1, -2}},
	}
	for _, tc := range tests {
		var a server.SolveAnswer
		resp := get(t, ts, "/solve?"+tc.query, &a)
		if resp.StatusCode != 200 || a.Pos != tc.pos || !slices.Equal(a.Score, tc.score[:]) {
			t.Errorf("/solve?%s: %d %+v; want 200 %q %v", tc.query, resp.StatusCode, a, tc.pos, tc.score)
		}
		if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "*" {
			t.Errorf("/solve?%s: Access-Control-Allow-Origin %q; want *", tc.query, got)
		}
		if got := resp.Header.Get("Content-Type"); got != "application/json" {
			t.Errorf("/solve?%s: Content-Type %q; want application/json", tc.query, got)
		}
	}
	// The exact answer's bytes, as clients of the public service parse them.
	resp, err := http.Get(ts.URL + "/solve?pos=4453")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if want := `{"pos":"4453","score":[-5,-5,-2,-3,-4,-2,-2]}` + "\n"; string(body) != want {
		t.Errorf("/solve?pos=4453: %q; want %q", body, want)
	}
	// -full -1000, as spinbench's local server answers full columns.
	ts = newServer(t, server.Config{Full: -1000})
	var a server.SolveAnswer
	if get(t, ts, "/solve?pos=67152117737262713366376314254", &a); a.Score[6] != -1000 || a.Score[4] != 6 {
		t.Errorf("/solve?pos=67152117737262713366376314254 with Full -1000: %v; want -1000 for column 7", a.Score)
	}
	// Any user agent and headers.
	req, _ := http.NewRequest("GET", ts.URL+"/solve?pos=4", nil)
	req.Header.Set("User-Agent", "python-requests/2.31")
	req.Header.Set("Accept", "*/*")
	req.Header.Set("X-Anything", "1")
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 200 {
		t.Errorf("/solve with other headers: %v %v; want 200", resp, err)
	}
}

func TestErrors(t *testing.T) {
	ts := newServer(t, server.Config{})
	tests := []struct{ query, want string }{
		{"pos=4x53", `position 2: 'x' is not a column 1-7`},
		{"pos=48", `'8' is not a column`},
		{"pos=4444444", "column 4 is full"},
		{"pos=12121212", "already won"},
		{"pos=1212121", "already over"},
		{"pos=" + strings.Repeat("1", 1000), "..."},
		// Requests without exactly one well-formed pos: never a score.
		{"", "no pos parameter"},
		{"posx=4453", "no pos parameter"},
		{"POS=4453", "no pos parameter"},
		{"pos%3D4453", "no pos parameter"},
		{"pos=44%zz", "does not parse"},
		{"pos=4453;", "does not parse"},
		{"pos=4453;x=1", "does not parse"},
		{"pos=44&pos=53", "pos given 2 times"},
		{strings.Repeat("a=1&", 10001) + "pos=4453", "does not parse"},
	}
	for _, tc := range tests {
		var e struct{ Error string }
		resp := get(t, ts, "/solve?"+tc.query, &e)
		if resp.StatusCode != 400 || !strings.Contains(e.Error, tc.want) || len(e.Error) > 200 {
			t.Errorf("/solve?%.20s: %d %q; want 400 and %q, short", tc.query, resp.StatusCode, e.Error, tc.want)
		}
		if resp.Header.Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("/solve?%.20s: no CORS header on the error", tc.query)
		}
	}
	if resp := get(t, ts, "/analyze?pos=9", nil); resp.StatusCode != 400 {
		t.Errorf("/analyze?pos=9: %d; want 400", resp.StatusCode)
	}
	req, _ := http.NewRequest("OPTIONS", ts.URL+"/solve?pos=4", nil)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 204 ||
		resp.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("OPTIONS /solve: %v %v; want 204 with CORS headers", resp, err)
	}
	// A path that is none of the service's: a JSON 404, not net/http's text.
	for _, path := range []string{"/solve/?pos=4453", "/SOLVE?pos=4453", "/favicon.ico", "/page/index.html"} {
		var e struct{ Error string }
		resp := get(t, ts, path, &e)
		if resp.StatusCode != 404 || !strings.Contains(e.Error, "the service answers /solve") || resp.Header.Get("Content-Type") != "application/json" {
			t.Errorf("GET %s: %d %q; want 404 and a JSON error", path, resp.StatusCode, e.Error)
		}
	}
	if resp := get(t, ts, "/index.html", nil); resp.StatusCode != 301 && resp.StatusCode != 200 {
		t.Errorf("GET /index.html: %d; want the page", resp.StatusCode)
	}
	// POST is a batch of /solve and /analyze (batch_test.go): one with
	// no position in its body, a pos= in its query, says how to ask; the
	// other paths answer GET only.
	for _, tc := range []struct {
		method, path string
		status       int
		want         string
	}{
		{"POST", "/solve?pos=4", 400, "no position in the body: POST takes positions in its body"},
		{"POST", "/analyze?pos=4", 400, "GET /analyze?pos=MOVES answers one"},
		{"POST", "/", 405, "only GET"},
		{"POST", "/move?pos=4", 405, "only GET"},
		{"PUT", "/solve?pos=4", 405, "/solve answers GET of one position and POST of many"},
	} {
		req, _ := http.NewRequest(tc.method, ts.URL+tc.path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var e struct{ Error string }
		err = json.NewDecoder(resp.Body).Decode(&e)
		resp.Body.Close()
		if resp.StatusCode != tc.status || err != nil || !strings.Contains(e.Error, tc.want) {
			t.Errorf("%s %s: %d %q %v; want %d and %q", tc.method, tc.path, resp.StatusCode, e.Error, err, tc.status, tc.want)
		}
	}
}

// TestLog: one line a request, with its method, path and query, status and
// milliseconds; a client that goes away during its solve is logged as gone.
func TestLog(t *testing.T) {
	var log syncBuffer
	ts := newServer(t, server.Config{Log: &log})
	get(t, ts, "/solve?pos=4453", nil)
	get(t, ts, "/solve?pos=9", nil)
	get(t, ts, "/solve", nil)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+"/solve?pos="+hard, nil)
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
		t.Fatalf("/solve?pos=%s answered %d within 200ms; want a solve of seconds", hard, resp.StatusCode)
	}
	want := []*regexp.Regexp{
		regexp.MustCompile(`^\S+ GET /solve\?pos=4453 200 [0-9.]+ms$`),
		regexp.MustCompile(`^\S+ GET /solve\?pos=9 400 [0-9.]+ms$`),
		regexp.MustCompile(`^\S+ GET /solve 400 [0-9.]+ms$`),
		regexp.MustCompile(`^\S+ GET /solve\?pos=` + hard + ` gone [0-9.]+ms$`),
	}
	var lines []string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if lines = strings.Split(strings.TrimSpace(log.String()), "\n"); len(lines) == len(want) {
			break
		}
	}
	if len(lines) != len(want) {
		t.Fatalf("log:\n%s\nwant %d lines", log.String(), len(want))
	}
	for i, re := range want {
		if !re.MatchString(lines[i]) {
			t.Errorf("log line %d: %q; want %s", i+1, lines[i], re)
		}
	}
}

// syncBuffer is a bytes.Buffer safe for concurrent use.
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

// hard is a position whose moves take more than a second to solve: 9
// stones, in the built-in book but its moves not (1.7 to 1.9 s at one
// thread and 16 MiB on a 2-core VM: the slowest of 120 random positions
// of 9 stones).
const hard = "166251254"

// TestLimits: a solve over the timeout answers 503 with Retry-After; with
// the one solver busy and no queue, a request answers 503 at once, saying
// so with the noun's number ("1 request").
func TestLimits(t *testing.T) {
	// A timeout that did not stop the solve would answer 200 after it:
	// the status tells, with no clock to miss on a loaded machine.
	ts := newServer(t, server.Config{Timeout: 100 * time.Millisecond})
	var e struct{ Error string }
	resp := get(t, ts, "/solve?pos="+hard, &e)
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") == "" || !strings.Contains(e.Error, "not solved in time") {
		t.Errorf("/solve?pos=%s with 100ms: %d %q Retry-After %q; want 503 with Retry-After", hard, resp.StatusCode, e.Error, resp.Header.Get("Retry-After"))
	}

	ts = newServer(t, server.Config{Solvers: 1, Queue: 0, Timeout: 5 * time.Second})
	started := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		close(started)
		// Asked again while it finds the solver busy: a request below may
		// hold the solver at the moment this one arrives.
		for {
			resp, err := http.Get(ts.URL + "/solve?pos=" + hard)
			if err != nil {
				return
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 503 || !strings.Contains(string(body), "busy") {
				return
			}
		}
	}()
	<-started
	// The first request holds the only solver for seconds; keep asking
	// (for a position of the book, answered at once) until it has taken it.
	deadline := time.Now().Add(10 * time.Second)
	got := 0
	for time.Now().Before(deadline) {
		resp := get(t, ts, "/solve?pos=4", &e)
		if got = resp.StatusCode; got == 503 {
			const want = "busy: 1 request solving or waiting, the most the server takes" // one solver, no queue
			if e.Error != want || resp.Header.Get("Retry-After") == "" {
				t.Errorf("busy: %q, Retry-After %q; want %q and Retry-After", e.Error, resp.Header.Get("Retry-After"), want)
			}
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if got != 503 {
		t.Errorf("with the only solver busy and no queue: %d; want 503", got)
	}
	ts.CloseClientConnections()
	wg.Wait()
}

func TestAnalyze(t *testing.T) {
	ts := newServer(t, server.Config{})
	var a server.AnalyzeAnswer
	resp := get(t, ts, "/analyze?pos=4453", &a)
	want := [7]int{-5, -5, -2, -3, -4, -2, -2}
	for col, sc := range a.Scores {
		if sc == nil || *sc != want[col] {
			t.Errorf("/analyze?pos=4453: scores %v; want %v", a.Scores, want)
			break
		}
	}
	if resp.StatusCode != 200 || a.Pos != "4453" || a.Score == nil || *a.Score != -2 || !slices.Equal(a.Best, []int{3, 6, 7}) || a.Nodes == 0 {
		t.Errorf("/analyze?pos=4453: %d %+v; want score -2, best 3 6 7, nodes", resp.StatusCode, a)
	}
	p, err := position.Parse("4453" + a.PV)
	if err != nil || !p.Won() || p.Stones() != 40 || len(a.PV)%2 != 0 {
		t.Errorf("/analyze?pos=4453: pv %q; want a line to the second player's four with its 20th stone", a.PV)
	}
}

func TestPage(t *testing.T) {
	ts := newServer(t, server.Config{})
	resp, err := http.Get(ts.URL + "/?pos=4453")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") ||
		!strings.Contains(string(body), "dataset.col") || !strings.Contains(string(body), "solve?pos=") {
		t.Errorf("GET /: %d %s, %d bytes; want the page", resp.StatusCode, resp.Header.Get("Content-Type"), len(body))
	}
}

// withBook returns books with bk as the book of the board z, a new map
// where books is nil.
func withBook(books map[board.Size]solver.Book, z board.Size, bk solver.Book) map[board.Size]solver.Book {
	out := map[board.Size]solver.Book{z: bk}
	for k, v := range books {
		if k != z {
			out[k] = v
		}
	}
	return out
}

// standard7x6 is the 7x6 board's grid.
var standard7x6, _ = board.NewGrid(board.Standard)

// TestEmptyBoardSpellings: the empty board is pos= or pos="" (two quote
// characters, as a line of a file writes it) in every request, a line or
// an array element of a batch too, and every answer's pos is "" (pos=""
// was a 400, and a batch's array element `""` was a bad position).
func TestEmptyBoardSpellings(t *testing.T) {
	ts := newServer(t, server.Config{})
	const want = `{"pos":"","score":[-2,-1,0,1,0,-1,-2]}` + "\n"
	for _, path := range []string{"/solve?pos=", "/solve?pos=%22%22"} {
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || string(body) != want {
			t.Errorf("GET %s: %d %q; want 200 %q", path, resp.StatusCode, body, want)
		}
	}
	for _, path := range []string{"/analyze?pos=%22%22", "/move?pos=%22%22&seed=1", "/review?pos=%22%22"} {
		var a struct{ Pos *string }
		if resp := get(t, ts, path, &a); resp.StatusCode != 200 || a.Pos == nil || *a.Pos != "" {
			t.Errorf("GET %s: %d, pos %v; want 200 and pos \"\"", path, resp.StatusCode, a.Pos)
		}
	}
	for _, body := range []string{"\"\"\n4\n", `["", "4"]`, `["\"\"", "4"]`} {
		status, lines := post(t, ts.URL+"/solve", body)
		if want := []string{strings.TrimSuffix(want, "\n"), `{"pos":"4","score":[-4,-2,-2,-1,-2,-2,-4]}`}; status != 200 || !slices.Equal(lines, want) {
			t.Errorf("POST /solve %q: %d %q; want 200 %q", body, status, lines, want)
		}
	}
}

// TestAnalyzeIncomplete: /analyze of a position it cannot solve within
// Config.Timeout answers 200 with what it established (it answered 503):
// incomplete, no score, the bounds of the position and of each move, the
// best move found by solver.Analysis.BestFound's rule, and a note; in a
// batch too. A solved position's answer keeps its fields, and /solve past
// the limit still answers 503.
func TestAnalyzeIncomplete(t *testing.T) {
	ts := newServer(t, server.Config{Timeout: 500 * time.Millisecond, TableMiB: 16})
	var raw map[string]json.RawMessage
	resp := get(t, ts, "/analyze?size=8x8&pos=45", &raw)
	keys := slices.Sorted(maps.Keys(raw))
	if want := []string{"best_found", "highs", "incomplete", "lower", "lows", "nodes", "note", "pos", "seconds", "upper"}; resp.StatusCode != 200 || !slices.Equal(keys, want) {
		t.Fatalf("/analyze?size=8x8&pos=45 past 0.5 s: %d, fields %v; want 200 and %v", resp.StatusCode, keys, want)
	}
	var a server.AnalyzeIncomplete
	get(t, ts, "/analyze?size=8x8&pos=45", &a)
	const m = 29 // 8x8's highest score
	ok := a.Pos == "45" && a.Incomplete && a.Note == "not proved in 0.5 s" && -m <= a.Lower && a.Lower <= a.Upper && a.Upper <= m &&
		len(a.Lows) == 8 && len(a.Highs) == 8 && a.BestFound >= 1 && a.BestFound <= 8
	for col := 0; ok && col < 8; col++ {
		lo, hi := a.Lows[col], a.Highs[col]
		ok = lo != nil && hi != nil && -m <= *lo && *lo <= *hi && *hi <= m && *lo <= *a.Lows[a.BestFound-1] && *lo <= a.Upper
	}
	if !ok {
		t.Errorf("/analyze?size=8x8&pos=45 past 0.5 s: %+v; want incomplete, bounds within ±%d, the best found of the highest lower bound, the note", a, m)
	}
	status, lines := post(t, ts.URL+"/analyze?size=8x8", "45\n")
	if len(lines) != 1 || status != 200 || !strings.HasPrefix(lines[0], `{"pos":"45","incomplete":true,"lower":`) {
		t.Errorf("POST /analyze?size=8x8 of 45 past 0.5 s: %d %q; want its incomplete answer", status, lines)
	}
	var e struct{ Error string }
	if resp := get(t, ts, "/solve?size=8x8&pos=45", &e); resp.StatusCode != 503 || e.Error != "not solved in time (-timeout 500ms)" {
		t.Errorf("/solve?size=8x8&pos=45 past 0.5 s: %d %q; want 503, not solved in time", resp.StatusCode, e.Error)
	}
	// A limit a solve under the race detector keeps within.
	raw = nil
	get(t, newServer(t, server.Config{Timeout: time.Minute, TableMiB: 16}), "/analyze?pos=4453", &raw)
	if keys, want := slices.Sorted(maps.Keys(raw)), []string{"best", "nodes", "pos", "pv", "score", "scores", "seconds"}; !slices.Equal(keys, want) {
		t.Errorf("/analyze?pos=4453: fields %v; want %v", keys, want)
	}
}

// testSolver returns solver.New's solver of g, and fails t where the
// table's memory cannot be had.
func testSolver(t testing.TB, g *board.Grid, mib, threads int) *solver.Solver {
	t.Helper()
	s, err := solver.New(g, mib, threads)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
