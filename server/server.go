// Package server answers Connect-Four positions over HTTP, as a local,
// exact stand-in for the public solver service at connect4.gamesolver.org,
// and serves a page to play and analyse on.
//
//	GET /solve?pos=MOVES    {"pos":"4453","score":[-5,-5,-2,-3,-4,-2,-2]}
//	GET /analyze?pos=MOVES  score, scores, best moves, a line of perfect play, nodes, time
//	                        (past Config.Timeout, the bounds found: AnalyzeIncomplete)
//	POST /solve, /analyze   many positions, a JSON line each, in order (batch.go)
//	GET /review?pos=MOVES   every move of a game graded (package review; play.go)
//	GET /move?pos=MOVES&level=N  the move of a player of level N (package player; play.go)
//	GET /                   the page (/?pos=4453 opens a position, /?size=8x5&pos=45 one of 8x5)
//
// /solve answers as the public service does: score[i] is the score, for
// the side to move, of playing column i+1 (100 for a full column, or
// Config.Full), and pos is the string given, unchanged. "pos=" with no
// value is the empty board, and so is pos="" (two quote characters, as
// a line of a file writes it), answered as "pos":"": in every answer the
// empty board's pos is the empty string.
//
// Both answer positions of any board the solver takes (4 or more columns
// and rows, width x (height+1) at most 128 bits): size=WxH or
// width=W&height=H in the query names it, Config.Size (7x6 unless set)
// is the board of a request that names none. /solve then has a score for
// each column of that board.
//
// Every error the Server answers is JSON, {"error": "..."}, never a score:
// 400 for a request without exactly one well-formed pos (none, two, a
// query that does not parse, a bad position) or with a bad size, 404 for
// a path it does not answer, 405 for a method other than GET (and POST
// of a batch), 413 for a batch over its limits, 503 with Retry-After for
// a solve over Config.Timeout (but /analyze's, which answers what it
// established: AnalyzeIncomplete), a request beyond the queue or a server
// that is stopping, 500 for anything else. (A request that net/http
// itself refuses before any handler sees it, a malformed request line or
// headers too large, gets net/http's plain-text 400, 431 or 505.) Every
// answer carries Access-Control-Allow-Origin: *, so that pages on other
// sites can call it.
//
// The requests of each board share one transposition table, kept from
// request to request, so that later requests, a retry among them, gain
// from what earlier ones stored; positions of the board's opening book
// (Config.Books) are answered at once. A board's table is made when a
// request first needs it, the default board's at the start, and the
// tables of Config.Boards boards at most are kept.
package server

import (
	"cmp"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"c4solve/board"
	"c4solve/internal/settings"
	"c4solve/posfile"
	"c4solve/solver"
	"c4solve/ttable"
)

// Config is what a Server needs. Zero values of Solvers, Threads, Queue,
// Boards and TableMiB mean 1, 1, 0, 1 and the smallest table
// (ttable.MinMiB); Full must lie outside the scores of the board of
// Size (DefaultFull is the public service's), or New refuses it.
type Config struct {
	Solvers int           // positions solved at once, of all boards (at least 1)
	Threads int           // search goroutines of each solve (at least 1)
	Queue   int           // requests that may wait for a solver; more are refused at once
	Timeout time.Duration // the longest a request may take; 0 for no limit
	Full    int           // /solve's score of a full column (the public service's is 100)
	Log     io.Writer     // where a line per request goes (time, method, path and query, status, milliseconds); nil for none

	// Size is the board of the requests that name none (size= or width=
	// and height=); the zero Size is 7x6.
	Size board.Size
	// TableMiB is the size of each board's table (solver.TableConfig, ttable.New),
	// shared by its solves and kept between requests; Boards is the most
	// boards kept, the default board's among them: a request of another
	// releases the one used least recently whose solves are all done, or
	// waits for one to be done.
	TableMiB, Boards int
	// Books are the opening books of the boards, 7x6's among them, by
	// size (solver.Solver.UseBook); nil for none.
	Books map[board.Size]solver.Book
	// MaxBatch and MaxBody are the most positions and bytes of a batch
	// (POST /solve, POST /analyze); zero: 10,000 and 1 MiB.
	MaxBatch, MaxBody int
}

// ErrStopping is the cause (context.Cause) with which the caller cancels
// the requests' base context (http.Server.BaseContext) when the server
// stops: solves under way then answer 503, "the server is stopping".
var ErrStopping = errors.New("the server is stopping")

// errTimeout is the cause of a request's context past Config.Timeout.
var errTimeout = errors.New("not solved in time")

// DefaultFull is the public service's score of a full column.
const DefaultFull = 100

// Server is an http.Handler for /solve, /analyze, /review, /move and the
// page. It is safe for concurrent use, as an http.Handler must be:
// requests of every board share Config.Solvers solves at once, and wait
// for one in a queue of Config.Queue. The zero value is not usable; call
// New.
type Server struct {
	cfg     Config
	boards  *boards       // the solvers of each board
	slots   chan struct{} // one per request admitted: solving or waiting
	solving chan struct{} // one per request solving, of any board
	mux     *http.ServeMux
	table   ttable.Table // the default board's
}

//go:embed page
var page embed.FS

// New returns a Server, or the error of a default board (Config.Size)
// that is none, whose scores reach Config.Full, or whose table's memory
// cannot be had. It makes that board's table, the one most requests ask
// for, and its memory resident (ttable.Table's Prefault), so that the first
// requests after a start do not pay for it: up to 1.8 s for the default
// 512 MiB on a virtual machine, more than a caller at 9 or 10 stones
// otherwise waits. The tables of other boards are made as requests need
// them.
func New(cfg Config) (*Server, error) {
	cfg.Solvers, cfg.Threads, cfg.Queue, cfg.Boards = max(cfg.Solvers, 1), max(cfg.Threads, 1), max(cfg.Queue, 0), max(cfg.Boards, 1)
	cfg.Size = cfg.Size.OrStandard()
	cfg.MaxBatch, cfg.MaxBody = cmp.Or(cfg.MaxBatch, settings.MaxBatch), cmp.Or(cfg.MaxBody, settings.MaxBody)
	s := &Server{cfg: cfg, mux: http.NewServeMux()}
	s.boards = &boards{cfg: cfg, grids: make(map[board.Size]*board.Grid), idle: make(chan struct{})}
	g, err := s.boards.grid(cfg.Size)
	if err == nil {
		err = s.checkFull(cfg.Size)
	}
	if err != nil {
		return nil, err
	}
	b, err := s.boards.newPool(g)
	if err != nil {
		return nil, err
	}
	s.table = b.Table()
	s.table.Prefault()
	s.boards.kept = []*pool{b}
	s.slots = make(chan struct{}, cfg.Solvers+cfg.Queue)
	s.solving = make(chan struct{}, cfg.Solvers)
	files := Page()
	s.mux.HandleFunc("/solve", s.each(s.solveWork))
	s.mux.HandleFunc("/analyze", s.each(s.analyzeWork))
	s.mux.HandleFunc("/review", s.review)
	s.mux.HandleFunc("/move", s.move)
	pageFiles := http.FileServerFS(files)
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		// The page's own files; anything else is a JSON 404 that names
		// what is answered ("/SOLVE", "/solve/" are typos of a client).
		// The page plays the board of its address, 7x6 if it names none:
		// with another default board, the address is made to name it.
		if q := r.URL.Query(); r.URL.Path == "/" && s.cfg.Size != board.Standard && !q.Has("size") && !q.Has("width") {
			http.Redirect(w, r, "/?"+strings.TrimSuffix("size="+s.cfg.Size.String()+"&"+r.URL.RawQuery, "&"), http.StatusFound)
			return
		}
		if st, err := fs.Stat(files, strings.TrimPrefix(r.URL.Path, "/")); r.URL.Path == "/" || err == nil && !st.IsDir() {
			pageFiles.ServeHTTP(w, r)
			return
		}
		writeError(w, http.StatusNotFound, fmt.Sprintf("no such path %q: the service answers /solve?pos=MOVES, /analyze?pos=MOVES, /review?pos=MOVES, /move?pos=MOVES and the page at /", clip(r.URL.Path)))
	})
	return s, nil
}

// Page returns the files of the page served at /, index.html among them:
// c4solve site writes a copy that asks the engine in the browser.
func Page() fs.FS {
	files, err := fs.Sub(page, "page")
	if err != nil {
		panic(err) // the folder is embedded: it is there
	}
	return files
}

// TableMiB returns the size of the default board's table as it was made:
// Config.TableMiB, or less where a table holds a power of two of buckets.
func (s *Server) TableMiB() int { return s.table.Bytes() >> 20 }

// count writes n and the noun, singular for 1: "1 position", "2
// positions".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// ServeHTTP answers a request, and logs it to Config.Log.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	lw := &logWriter{ResponseWriter: w, status: http.StatusOK}
	s.serve(lw, r)
	if s.cfg.Log != nil {
		status := strconv.Itoa(lw.status)
		if lw.gone {
			status = "gone" // the client went away before its answer
		}
		if lw.note != "" {
			status += " (" + lw.note + ")"
		}
		fmt.Fprintf(s.cfg.Log, "%s %s %s %s %.1fms\n", start.Format("2006-01-02T15:04:05.000"),
			r.Method, clip(r.URL.RequestURI()), status, float64(time.Since(start).Microseconds())/1000)
	}
}

func (s *Server) serve(w *logWriter, r *http.Request) {
	w.Header().Set("Access-Control-Allow-Origin", "*")
	batch := r.URL.Path == "/solve" || r.URL.Path == "/analyze"
	switch {
	case r.Method == http.MethodGet || r.Method == http.MethodHead || r.Method == http.MethodPost && batch:
		s.mux.ServeHTTP(w, r)
	case r.Method == http.MethodOptions:
		w.Header().Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
		w.Header().Set("Access-Control-Allow-Headers", "*")
		w.WriteHeader(http.StatusNoContent)
	case batch:
		w.Header().Set("Allow", "GET, HEAD, POST, OPTIONS")
		writeError(w, http.StatusMethodNotAllowed, fmt.Sprintf("method %s: %s answers GET of one position and POST of many", r.Method, r.URL.Path))
	default:
		w.Header().Set("Allow", "GET, HEAD, OPTIONS")
		writeError(w, http.StatusMethodNotAllowed, fmt.Sprintf("method %s: only GET is answered", r.Method))
	}
}

// logWriter is a ResponseWriter that notes the status written, and
// whether the client went away before its answer, for the log.
type logWriter struct {
	http.ResponseWriter
	status int
	gone   bool
	note   string // more for the log line: a batch's count answered
}

func (w *logWriter) WriteHeader(status int) {
	w.status = status
	w.ResponseWriter.WriteHeader(status)
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *logWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// clip shortens a string quoted in a message or the log.
func clip(s string) string {
	if len(s) > 64 {
		return s[:64] + "..."
	}
	return s
}

// position returns the one pos parameter of r's query and the board it
// names (query), or answers 400 and returns ok false, with query's error
// or one that says why there is not exactly one pos: none, or pos given
// twice. Other parameters are ignored: some clients add one to defeat
// caches. A pos of `""` is returned as "", the empty board.
func (s *Server) position(w http.ResponseWriter, r *http.Request) (pos string, z board.Size, ok bool) {
	vals, z, err := s.query(r)
	if err == nil {
		switch pos := vals["pos"]; len(pos) {
		case 0:
			err = errors.New("no pos parameter: ask /solve?pos=MOVES (pos= for the empty board)")
		case 1:
			return posfile.Unspell(pos[0]), z, true
		default:
			err = fmt.Errorf("pos given %d times; give it once", len(pos))
		}
	}
	writeError(w, http.StatusBadRequest, err.Error())
	return "", board.Size{}, false
}

// query returns r's query and the board it names (boardSize; Config.Size
// if none), or an error: a query that does not parse (a bad escape, a
// semicolon, too many parameters), a bad size, or one whose scores reach
// Config.Full.
func (s *Server) query(r *http.Request) (url.Values, board.Size, error) {
	vals, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return nil, board.Size{}, fmt.Errorf("the query %q does not parse: %v", clip(r.URL.RawQuery), err)
	}
	z, err := boardSize(vals, s.cfg.Size)
	if err == nil {
		err = s.checkFull(z)
	}
	return vals, z, err
}

// checkFull refuses a board z whose scores reach Config.Full: a full
// column would look playable.
func (s *Server) checkFull(z board.Size) error {
	if m := z.MaxScore(); s.cfg.Full >= -m && s.cfg.Full <= m {
		return fmt.Errorf("size %v: its scores run from %d to %d, and this server scores a full column %d", z, -m, m, s.cfg.Full)
	}
	return nil
}

// SolveAnswer is the answer of /solve: a score for each column, 7 on the
// standard board (another board: its width), Config.Full for a full one.
type SolveAnswer struct {
	Pos   string `json:"pos"`
	Score []int  `json:"score"`
}

// AnalyzeAnswer is the answer of /analyze, the type of c4solve -json's
// lines: the position's score, the score of each move (null for a full
// column), the columns (1 to 7 on 7x6) of the best moves, and a line of
// perfect play from the position; the fields of a line read back
// (expected, mismatch) and of a stopped solve (lower, upper, incomplete)
// are left out. Past Config.Timeout the answer is an AnalyzeIncomplete.
type AnalyzeAnswer posfile.Result

// AnalyzeIncomplete is the answer of /analyze for a position whose
// analysis ran past Config.Timeout (200, as /move's answer past it): what
// the search established in the time. It has no score, scores, best or
// pv, so that a client that reads them cannot take it for a solve:
// Incomplete is always true; Lower <= score <= Upper bounds the
// position's score, and Lows[i] <= score <= Highs[i] that of the move in
// column i+1 (null for a full column; equal where the move was solved);
// BestFound is the column (from 1) that /move's perfect player plays, the
// best the search established (solver.Analysis.BestFound); Note says
// what was not done in the time: "not proved in 10 s", or, where every
// move was solved but the line of perfect play was not found, "every
// score proved; the line of perfect play not found in 10 s". A request
// again continues from the work the board's table kept.
type AnalyzeIncomplete struct {
	Pos        string  `json:"pos"`
	Incomplete bool    `json:"incomplete"`
	Lower      int     `json:"lower"`
	Upper      int     `json:"upper"`
	Lows       []*int  `json:"lows"`
	Highs      []*int  `json:"highs"`
	BestFound  int     `json:"best_found"`
	Note       string  `json:"note"`
	Nodes      uint64  `json:"nodes"`
	Seconds    float64 `json:"seconds"`
}

// each returns the handler that answers a GET of one position (pos=) with
// what work makes of it, or a POST of many (batch).
func (s *Server) each(workOf func(pos string) work) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			s.batch(w, r, workOf)
		} else if pos, z, ok := s.position(w, r); ok {
			s.run(w, r, pos, z, workOf(pos))
		}
	}
}

// solveWork is the work of /solve of pos.
func (s *Server) solveWork(pos string) work {
	return func(ctx context.Context, sv *solver.Solver, b board.Board) (any, error) {
		a, err := sv.Analyze(ctx, b, false)
		if err != nil {
			return nil, err
		}
		answer := SolveAnswer{Pos: pos, Score: make([]int, len(a.Scores))}
		for col := range answer.Score {
			answer.Score[col] = a.Scores[col]
			if !a.Legal[col] {
				answer.Score[col] = s.cfg.Full
			}
		}
		return answer, nil
	}
}

// analyzeWork is the work of /analyze of pos: an AnalyzeAnswer, or an
// AnalyzeIncomplete where Config.Timeout stopped the analysis or its
// line of perfect play.
func (s *Server) analyzeWork(pos string) work {
	return func(ctx context.Context, sv *solver.Solver, b board.Board) (any, error) {
		start := time.Now()
		a, err := sv.Analyze(ctx, b, false)
		if err != nil {
			return s.incomplete(ctx, pos, a, a.Nodes, start, "not proved in", err)
		}
		answer := AnalyzeAnswer{Pos: pos, Score: &a.Lower, Nodes: a.Nodes}
		answer.Scores, answer.Best = a.Columns()
		line, r, err := sv.PV(ctx, b, a.Lower)
		if err != nil {
			return s.incomplete(ctx, pos, a, a.Nodes+r.Nodes, start, "every score proved; the line of perfect play not found in", err)
		}
		answer.PV = board.FormatColumns(line, false)
		answer.Nodes += r.Nodes
		answer.Seconds = time.Since(start).Seconds()
		return answer, nil
	}
}

// incomplete returns the AnalyzeIncomplete of a, an analysis of pos
// begun at start that took nodes, where err stopped it (or the line of
// perfect play after it) at Config.Timeout, with its note, what then
// the time limit; else, or where a established nothing, err.
func (s *Server) incomplete(ctx context.Context, pos string, a solver.Analysis, nodes uint64, start time.Time, what string, err error) (any, error) {
	best := -1
	if len(a.Lows) == len(a.Legal) && len(a.Highs) == len(a.Legal) {
		best, _ = a.BestFound()
	}
	if !errors.Is(context.Cause(ctx), errTimeout) || best < 0 {
		return nil, err
	}
	answer := AnalyzeIncomplete{Pos: pos, Incomplete: true, Lower: a.Lower, Upper: a.Upper, BestFound: best + 1,
		Note: what + " " + strconv.FormatFloat(s.cfg.Timeout.Seconds(), 'f', -1, 64) + " s", Nodes: nodes, Seconds: time.Since(start).Seconds()}
	for col, legal := range a.Legal {
		var lo, hi *int
		if legal {
			lo, hi = &a.Lows[col], &a.Highs[col]
		}
		answer.Lows, answer.Highs = append(answer.Lows, lo), append(answer.Highs, hi)
	}
	return answer, nil
}

// work is what a request does with a solver of its board and its
// position: what it returns is the answer.
type work func(ctx context.Context, sv *solver.Solver, b board.Board) (any, error)

// run parses pos, a position of the board z, which must not be over, and
// answers with what do returns for it (answer).
func (s *Server) run(w http.ResponseWriter, r *http.Request, pos string, z board.Size, do work) {
	b, err := s.parse(pos, z)
	if err != nil {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("pos %q: %v", clip(pos), err))
		return
	}
	s.answer(w, r, b, do)
}

// admit takes one of the slots of requests solving or waiting, or
// answers 503 when none is free; the caller frees it when it is done.
func (s *Server) admit(w http.ResponseWriter) bool {
	select {
	case s.slots <- struct{}{}:
		return true
	default:
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusServiceUnavailable, fmt.Sprintf("busy: %s solving or waiting, the most the server takes", count(cap(s.slots), "request", "requests")))
		return false
	}
}

// answer admits the request (or refuses it, with the queue full), waits
// for a solver of b's board, and answers with what do returns for b with
// it, within Config.Timeout, or with the error that stopped it.
func (s *Server) answer(w http.ResponseWriter, r *http.Request, b board.Board, do work) {
	if !s.admit(w) {
		return
	}
	defer func() { <-s.slots }()
	ctx, cancel := s.limited(r.Context())
	defer cancel()
	answer, err := s.solveWith(ctx, b, do)
	if err != nil {
		s.failed(w, ctx, err)
		return
	}
	writeJSON(w, http.StatusOK, answer)
}

// parse returns the position pos of the board of size z, which must not
// be over.
func (s *Server) parse(pos string, z board.Size) (board.Board, error) {
	g, err := s.boards.grid(z)
	if err != nil {
		return board.Board{}, err
	}
	b, err := g.Parse(pos, false)
	if err == nil && b.Over() {
		err = solver.ErrGameOver
	}
	return b, err
}

// solveWith waits for one of the Config.Solvers solves at once, of any
// board, and for a solver of b's board, and does work with it.
func (s *Server) solveWith(ctx context.Context, b board.Board, do work) (any, error) {
	select {
	case s.solving <- struct{}{}:
		defer func() { <-s.solving }()
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
	sv, put, err := s.boards.get(ctx, b.Grid())
	if err != nil {
		return nil, err
	}
	defer put()
	return do(ctx, sv, b)
}

// failed answers a request whose work returned err: 503 with Retry-After
// when the solve ran out of time or the server is stopping; nothing that
// anyone reads when the client went away (the log says it is gone); 500
// for anything else.
func (s *Server) failed(w http.ResponseWriter, ctx context.Context, err error) {
	switch cause := context.Cause(ctx); {
	case ctx.Err() == nil:
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	case errors.Is(cause, errTimeout):
		w.Header().Set("Retry-After", strconv.Itoa(max(1, int(s.cfg.Timeout.Seconds()))))
	case errors.Is(cause, ErrStopping):
		w.Header().Set("Retry-After", "1")
	default:
		// The client closed its connection: nobody reads an answer.
		if lw, ok := w.(*logWriter); ok {
			lw.gone = true
		}
		return
	}
	writeError(w, http.StatusServiceUnavailable, s.reason(ctx, err))
}

// limited returns ctx bounded by Config.Timeout, if any, with errTimeout
// its cause past it.
func (s *Server) limited(ctx context.Context) (context.Context, context.CancelFunc) {
	if s.cfg.Timeout > 0 {
		return context.WithTimeoutCause(ctx, s.cfg.Timeout, errTimeout)
	}
	return ctx, func() {}
}

// reason says why a solve under ctx returned err: it ran past
// Config.Timeout, the server is stopping, or err itself.
func (s *Server) reason(ctx context.Context, err error) string {
	switch cause := context.Cause(ctx); {
	case ctx.Err() != nil && errors.Is(cause, errTimeout):
		return fmt.Sprintf("not solved in time (-timeout %v)", s.cfg.Timeout)
	case ctx.Err() != nil && errors.Is(cause, ErrStopping):
		return ErrStopping.Error()
	}
	return err.Error()
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":"encoding the answer"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}
