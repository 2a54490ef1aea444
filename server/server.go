// Package server answers Connect-Four positions over HTTP, as a local,
// exact stand-in for the public solver service at connect4.gamesolver.org,
// and serves a page to play and analyse on.
//
//	GET /solve?pos=MOVES    {"pos":"4453","score":[-5,-5,-2,-3,-4,-2,-2]}
//	GET /analyze?pos=MOVES  score, scores, best moves, a line of perfect play, nodes, time
//	GET /                   the page (/?pos=4453 opens a position)
//
// /solve answers as the public service does: score[i] is the score, for
// the side to move, of playing column i+1 (100 for a full column, or
// Config.Full), and pos is the string given, unchanged. A bad position
// answers 400 with {"error": "..."}; a solve over Config.Timeout, or a
// request beyond the queue, answers 503 with Retry-After. Every answer
// carries Access-Control-Allow-Origin: *, so that pages on other sites can
// call it.
//
// All requests share one transposition table, so later requests gain from
// what earlier ones stored, and positions of the opening book are answered
// at once.
package server

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"strconv"
	"time"

	"c4solve/board"
	"c4solve/solver"
	"c4solve/ttable"
)

// Config is what a Server needs. Zero values of Solvers, Threads and Queue
// mean 1, 1 and 0; a zero Full answers 0 for a full column, so set it
// (DefaultFull is the public service's).
type Config struct {
	Table   *ttable.Table // shared by all solves
	Book    solver.Book   // nil for none
	Solvers int           // positions solved at once (at least 1)
	Threads int           // search goroutines of each solve (at least 1)
	Queue   int           // requests that may wait for a solver; more are refused at once
	Timeout time.Duration // the longest a request may take; 0 for no limit
	Full    int           // /solve's score of a full column (the public service's is 100)
}

// DefaultFull is the public service's score of a full column.
const DefaultFull = 100

// Server is an http.Handler for /solve, /analyze and the page. It is safe
// for concurrent use, as an http.Handler must be: requests share its
// solvers, Config.Solvers of them, and wait for one in a queue of
// Config.Queue. The zero value is not usable; call New.
type Server struct {
	cfg     Config
	solvers chan *solver.Solver // the idle ones
	slots   chan struct{}       // one per request admitted: solving or waiting
	mux     *http.ServeMux
}

//go:embed page
var page embed.FS

// New returns a Server.
func New(cfg Config) *Server {
	cfg.Solvers, cfg.Threads, cfg.Queue = max(cfg.Solvers, 1), max(cfg.Threads, 1), max(cfg.Queue, 0)
	s := &Server{
		cfg:     cfg,
		solvers: make(chan *solver.Solver, cfg.Solvers),
		slots:   make(chan struct{}, cfg.Solvers+cfg.Queue),
		mux:     http.NewServeMux(),
	}
	for range cfg.Solvers {
		sv := solver.New(cfg.Table, cfg.Threads)
		sv.UseBook(cfg.Book)
		s.solvers <- sv
	}
	files, err := fs.Sub(page, "page")
	if err != nil {
		panic(err) // the folder is embedded: it is there
	}
	s.mux.HandleFunc("GET /solve", s.solve)
	s.mux.HandleFunc("GET /analyze", s.analyze)
	s.mux.Handle("GET /", http.FileServerFS(files))
	return s
}

// ServeHTTP answers a request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Access-Control-Allow-Origin", "*")
	if r.Method == http.MethodOptions {
		w.Header().Set("Access-Control-Allow-Methods", "GET, OPTIONS")
		w.Header().Set("Access-Control-Allow-Headers", "*")
		w.WriteHeader(http.StatusNoContent)
		return
	}
	s.mux.ServeHTTP(w, r)
}

// SolveAnswer is the answer of /solve.
type SolveAnswer struct {
	Pos   string           `json:"pos"`
	Score [board.Width]int `json:"score"`
}

// AnalyzeAnswer is the answer of /analyze: the position's score, the
// score of each move (null for a full column), the columns (1 to 7) of the
// best moves, and a line of perfect play from the position.
type AnalyzeAnswer struct {
	Pos     string            `json:"pos"`
	Score   int               `json:"score"`
	Scores  [board.Width]*int `json:"scores"`
	Best    []int             `json:"best"`
	PV      string            `json:"pv"`
	Nodes   uint64            `json:"nodes"`
	Seconds float64           `json:"seconds"`
}

func (s *Server) solve(w http.ResponseWriter, r *http.Request) {
	pos := r.URL.Query().Get("pos")
	s.run(w, r, pos, func(ctx context.Context, sv *solver.Solver, p board.Position) (any, error) {
		an, err := sv.Analyze(ctx, p)
		if err != nil {
			return nil, err
		}
		a := SolveAnswer{Pos: pos}
		for col := range a.Score {
			a.Score[col] = an.Scores[col]
			if !an.Legal[col] {
				a.Score[col] = s.cfg.Full
			}
		}
		return a, nil
	})
}

func (s *Server) analyze(w http.ResponseWriter, r *http.Request) {
	pos := r.URL.Query().Get("pos")
	start := time.Now()
	s.run(w, r, pos, func(ctx context.Context, sv *solver.Solver, p board.Position) (any, error) {
		an, err := sv.Analyze(ctx, p)
		if err != nil {
			return nil, err
		}
		a := AnalyzeAnswer{Pos: pos, Score: an.Lower, Nodes: an.Nodes}
		for col := range a.Scores {
			if an.Legal[col] {
				a.Scores[col] = &an.Scores[col]
			}
		}
		for _, col := range an.Best() {
			a.Best = append(a.Best, col+1)
		}
		line, nodes, err := sv.PV(ctx, p, a.Score)
		if err != nil {
			return nil, err
		}
		a.PV = board.FormatMoves(line)
		a.Nodes += nodes
		a.Seconds = time.Since(start).Seconds()
		return a, nil
	})
}

// run parses pos, waits for a solver, and answers with what work returns
// for the position, or with the error that stopped it.
func (s *Server) run(w http.ResponseWriter, r *http.Request, pos string,
	work func(context.Context, *solver.Solver, board.Position) (any, error)) {
	p, err := board.Parse(pos)
	if err == nil && p.Over() {
		err = errors.New("the game is already over")
	}
	if err != nil {
		if len(pos) > 64 {
			pos = pos[:64] + "..."
		}
		writeError(w, http.StatusBadRequest, fmt.Sprintf("pos %q: %v", pos, err))
		return
	}
	select {
	case s.slots <- struct{}{}:
		defer func() { <-s.slots }()
	default:
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusServiceUnavailable, "busy: too many requests waiting")
		return
	}
	ctx := r.Context()
	if s.cfg.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.cfg.Timeout)
		defer cancel()
	}
	var sv *solver.Solver
	select {
	case sv = <-s.solvers:
		defer func() { s.solvers <- sv }()
	case <-ctx.Done():
		s.stopped(w, ctx)
		return
	}
	answer, err := work(ctx, sv, p)
	if err != nil {
		s.stopped(w, ctx)
		return
	}
	writeJSON(w, http.StatusOK, answer)
}

// stopped answers a request whose solve did not finish: 503 with
// Retry-After when it ran out of time. (When the client went away, nobody
// reads the answer.)
func (s *Server) stopped(w http.ResponseWriter, ctx context.Context) {
	w.Header().Set("Retry-After", strconv.Itoa(max(1, int(s.cfg.Timeout.Seconds()))))
	writeError(w, http.StatusServiceUnavailable, fmt.Sprintf("not solved in time (%v)", context.Cause(ctx)))
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
