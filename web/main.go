//go:build js && wasm

// Command web is c4solve's engine built for WebAssembly (GOOS=js
// GOARCH=wasm), for the static site (c4solve site) and the JavaScript
// module c4solve.mjs beside this file, in the browser and in node.
//
// Run by Go's wasm_exec.js, it sets globalThis.c4solve to an object of
// functions, each returning a Promise, and waits:
//
//	request(method, url, body) -> {status, type, retryAfter, body}
//	    what c4solve serve answers the HTTP request: url is a path with
//	    its query ("analyze?pos=4453"), body that of a POST ("" for a
//	    GET). The page and the module's analyze, bestMove and review ask
//	    this.
//	solve(pos, size, options) -> string
//	    the line c4solve -json prints for the exact solve of pos on the
//	    board size ("" for 7x6): pos, score, nodes and seconds; a
//	    rejected promise for a position that is not one. options (may be
//	    undefined): nobook true searches positions the book holds, as
//	    -nobook does; clear true empties the table first, as bench does
//	    before each position.
//	order(pos, size), moves(pos, size, cols, seconds), summary(lows,
//	highs), pv(pos, size, score, seconds)
//	    the moves to score, the scores of some, what they make, and a line
//	    of perfect play: the parts of an analysis that c4solve.mjs shares
//	    out among workers in a browser (see engine.moves).
//
// Before the program runs, globalThis.c4solveConfig may set tableMiB (the
// table of each board, 64 by default: memory here is the page's) and
// timeoutSeconds (request's limit, as serve's -timeout; 0, the default,
// for none). Solves use the built-in 7x6 opening book, as the command
// does. Goroutines share the page's one thread: every search runs at one
// thread, and a request waits for the one before it.
package main

import (
	"bytes"
	"context"
	"math"
	"net/http"
	"strings"
	"sync"
	"syscall/js"
	"time"

	"c4solve/board"
	"c4solve/book"
	"c4solve/internal/position"
	"c4solve/posfile"
	"c4solve/server"
	"c4solve/solver"
)

func main() {
	cfg := js.Global().Get("c4solveConfig")
	tableMiB := intOf(cfg, "tableMiB", 64)
	timeoutSeconds := intOf(cfg, "timeoutSeconds", 0)
	timeout := time.Duration(timeoutSeconds) * time.Second
	e := &engine{tableMiB: tableMiB}
	bk, err := book.Default()
	if err == nil {
		e.book = bk
		// Requests wait for the one solver (Queue) as serve's do: a page
		// may ask a review while an analysis runs.
		e.srv, err = server.New(server.Config{Solvers: 1, Threads: 1, Queue: 64, TableMiB: tableMiB, Boards: 2, Timeout: timeout,
			Full: server.DefaultFull, Books: map[board.Size]solver.Book{bk.Board(): bk}})
	}
	if err != nil {
		js.Global().Set("c4solveError", err.Error())
		return
	}
	js.Global().Set("c4solve", js.ValueOf(map[string]any{
		"request": js.FuncOf(e.request),
		"solve":   js.FuncOf(e.solve),
		"order":   js.FuncOf(e.order),
		"moves":   js.FuncOf(e.moves),
		"summary": js.FuncOf(e.summary),
		"pv":      js.FuncOf(e.pv),
	}))
	select {} // the functions are called from JavaScript
}

// intOf returns the field name of the object v as an int, def where v
// or the field is undefined.
func intOf(v js.Value, name string, def int) int {
	if v.Type() != js.TypeObject || v.Get(name).Type() != js.TypeNumber {
		return def
	}
	return v.Get(name).Int()
}

// engine answers the calls of globalThis.c4solve: requests with the
// server, solves with a solver of the board last solved.
type engine struct {
	tableMiB int
	book     *book.Book
	srv      *server.Server

	mu   sync.Mutex // guards size and sv, and makes their calls one at a time
	size board.Size
	sv   *solver.Solver
}

// request is globalThis.c4solve.request(method, url, body).
func (e *engine) request(_ js.Value, args []js.Value) any {
	method, url, body := arg(args, 0), arg(args, 1), arg(args, 2)
	return promise(func() (any, error) {
		r, err := http.NewRequest(method, "http://c4solve/"+strings.TrimPrefix(url, "/"), strings.NewReader(body))
		if err != nil {
			return nil, err
		}
		w := &recorder{header: make(http.Header), status: http.StatusOK}
		e.srv.ServeHTTP(w, r)
		retryAfter := w.header.Get("Retry-After") // of a 503
		return map[string]any{"status": w.status, "type": w.header.Get("Content-Type"), "retryAfter": retryAfter, "body": w.body.String()}, nil
	})
}

// solve is globalThis.c4solve.solve(pos, size, options).
func (e *engine) solve(_ js.Value, args []js.Value) any {
	pos, size := arg(args, 0), arg(args, 1)
	nobook, clear := flag(args, 2, "nobook"), flag(args, 2, "clear")
	return e.run(pos, size, nobook, 0, func(ctx context.Context, b board.Board) (any, error) {
		if clear {
			e.sv.ClearAll()
		}
		start := time.Now()
		r, err := e.sv.Solve(ctx, b)
		if err != nil {
			return nil, err
		}
		line, err := posfile.Result{Pos: pos, Score: &r.Score, Nodes: r.Nodes, Seconds: time.Since(start).Seconds()}.MarshalJSON()
		return string(line), err
	})
}

// moves is globalThis.c4solve.moves(pos, size, cols, seconds): the score
// of each move of cols (columns from 1) of pos, for the side that plays
// it, as bounds {col, lo, hi} (equal where it was solved in the time given,
// seconds; none for no limit), and the nodes searched: {moves, nodes}. A
// full column is left out. c4solve.mjs merges the moves that several
// workers score into an analysis, as /analyze answers it.
func (e *engine) moves(_ js.Value, args []js.Value) any {
	pos, size := arg(args, 0), arg(args, 1)
	var cols []int
	if len(args) > 2 && args[2].Type() == js.TypeObject {
		for i := range args[2].Length() {
			cols = append(cols, args[2].Index(i).Int())
		}
	}
	return e.run(pos, size, false, seconds(args, 3), func(ctx context.Context, b board.Board) (any, error) {
		if b.Over() {
			return nil, solver.ErrGameOver
		}
		z := b.Grid().Size
		var moves []any
		var nodes uint64
		for _, c := range cols {
			col := c - 1
			if col < 0 || col >= z.Width || !b.CanPlay(col) {
				continue
			}
			lo, hi := z.WinNextScore(b.Stones()), z.WinNextScore(b.Stones())
			if !b.IsWinningMove(col) {
				child := b
				child.Play(col)
				lo, hi = 0, 0 // the last cell, and no four: a draw
				if !child.Over() {
					r, err := e.sv.Solve(ctx, child)
					if err != nil && ctx.Err() == nil {
						return nil, err
					}
					lo, hi, nodes = -r.Upper, -r.Lower, nodes+r.Nodes
				}
			}
			moves = append(moves, map[string]any{"col": c, "lo": lo, "hi": hi})
		}
		return map[string]any{"moves": moves, "nodes": nodes}, nil
	})
}

// order is globalThis.c4solve.order(pos, size): the board's width and the
// columns (from 1) of the moves of pos, center first, {width, cols}: the
// order in which c4solve.mjs shares them out.
func (e *engine) order(_ js.Value, args []js.Value) any {
	return e.run(arg(args, 0), arg(args, 1), false, 0, func(_ context.Context, b board.Board) (any, error) {
		if b.Over() {
			return nil, solver.ErrGameOver
		}
		w := b.Grid().Size.Width
		var cols []any
		for _, c := range position.CenterFirst(w) {
			if b.CanPlay(c) {
				cols = append(cols, c+1)
			}
		}
		return map[string]any{"width": w, "cols": cols}, nil
	})
}

// summary is globalThis.c4solve.summary(lows, highs): of the bounds of
// each move's score (null for a full column), merged from workers' moves,
// what an analysis makes of them (solver.Analysis): the bounds of the
// position's score, the column (from 1) of the best move found, whether
// every move is solved, and then the columns of the best score: {lower,
// upper, best_found, exact, best}.
func (e *engine) summary(_ js.Value, args []js.Value) any {
	if len(args) < 2 {
		return nil
	}
	var an solver.Analysis
	for i := range args[0].Length() {
		lo, hi := args[0].Index(i), args[1].Index(i)
		legal := lo.Type() == js.TypeNumber && hi.Type() == js.TypeNumber
		an.Legal, an.Lows, an.Highs = append(an.Legal, legal), append(an.Lows, 0), append(an.Highs, 0)
		if legal {
			an.Lows[i], an.Highs[i] = lo.Int(), hi.Int()
		}
	}
	an.Scores = an.Lows
	an.Lower, an.Upper = math.MinInt, math.MinInt
	exact := true
	for i, legal := range an.Legal {
		if legal {
			an.Lower, an.Upper = max(an.Lower, an.Lows[i]), max(an.Upper, an.Highs[i])
			exact = exact && an.Lows[i] == an.Highs[i]
		}
	}
	col, _ := an.BestFound()
	var best []any
	if exact {
		for _, c := range an.Best() {
			best = append(best, c+1)
		}
	}
	return map[string]any{"lower": an.Lower, "upper": an.Upper, "best_found": col + 1, "exact": exact, "best": best}
}

// pv is globalThis.c4solve.pv(pos, size, score, seconds): a line of
// perfect play from pos, whose score is score, as columns ("344..."), and
// the nodes its searches took: {pv, nodes}; rejected past seconds (none:
// no limit).
func (e *engine) pv(_ js.Value, args []js.Value) any {
	pos, size := arg(args, 0), arg(args, 1)
	score := 0
	if len(args) > 2 && args[2].Type() == js.TypeNumber {
		score = args[2].Int()
	}
	return e.run(pos, size, false, seconds(args, 3), func(ctx context.Context, b board.Board) (any, error) {
		line, r, err := e.sv.PV(ctx, b, score)
		if err != nil {
			return nil, err
		}
		return map[string]any{"pv": board.FormatColumns(line, false), "nodes": r.Nodes}, nil
	})
}

// run returns the Promise of what work returns for pos on the board size
// (see board), given a context done after limit (0: never), with e.mu held.
func (e *engine) run(pos, size string, nobook bool, limit time.Duration, work func(context.Context, board.Board) (any, error)) js.Value {
	return promise(func() (any, error) {
		e.mu.Lock()
		defer e.mu.Unlock()
		b, err := e.board(pos, size, nobook)
		if err != nil {
			return nil, err
		}
		ctx, cancel := context.WithCancel(context.Background())
		if limit > 0 {
			ctx, cancel = context.WithTimeout(ctx, limit)
		}
		defer cancel()
		return work(ctx, b)
	})
}

// board returns pos parsed on the board size ("" for 7x6), with e.sv the
// solver of that board (made where the board changed), answering from the
// book unless nobook. e.mu must be held.
func (e *engine) board(pos, size string, nobook bool) (board.Board, error) {
	z := board.Standard
	if size != "" {
		var err error
		if z, err = board.ParseSize(size); err != nil {
			return board.Board{}, err
		}
	}
	if e.sv == nil || e.size != z {
		e.sv = nil // the table of the board before goes before the next is made
		g, err := board.NewGrid(z)
		if err != nil {
			return board.Board{}, err
		}
		sv, err := solver.New(g, e.tableMiB, 1)
		if err != nil {
			return board.Board{}, err
		}
		e.sv, e.size = sv, z
	}
	if z == e.book.Board() && !nobook {
		e.sv.UseBook(e.book)
	} else {
		e.sv.UseBook(nil)
	}
	return e.sv.Grid().Parse(pos, false)
}

// seconds returns args[i] as a duration of seconds, 0 (no limit) where it
// is missing or not a positive number.
func seconds(args []js.Value, i int) time.Duration {
	if i >= len(args) || args[i].Type() != js.TypeNumber || !(args[i].Float() > 0) {
		return 0
	}
	return time.Duration(args[i].Float() * float64(time.Second))
}

// arg returns args[i] as a string, "" where it is missing or undefined.
func arg(args []js.Value, i int) string {
	if i >= len(args) || args[i].Type() != js.TypeString {
		return ""
	}
	return args[i].String()
}

// flag returns the field name of the object args[i] as a bool, false
// where either is missing.
func flag(args []js.Value, i int, name string) bool {
	return i < len(args) && args[i].Type() == js.TypeObject && args[i].Get(name).Truthy()
}

// promise returns a JavaScript Promise of what work returns, run in a
// goroutine of its own: a function called from JavaScript must return
// before anything it waits for (a timer, another goroutine) can run.
func promise(work func() (any, error)) js.Value {
	executor := js.FuncOf(func(_ js.Value, args []js.Value) any {
		resolve, reject := args[0], args[1]
		go func() {
			v, err := work()
			if err != nil {
				reject.Invoke(js.Global().Get("Error").New(err.Error()))
				return
			}
			resolve.Invoke(v)
		}()
		return nil
	})
	defer executor.Release() // the Promise calls it before New returns
	return js.Global().Get("Promise").New(executor)
}

// recorder is the http.ResponseWriter of a request: what the server
// answered, in memory.
type recorder struct {
	header http.Header
	status int
	wrote  bool
	body   bytes.Buffer
}

func (w *recorder) Header() http.Header { return w.header }

func (w *recorder) WriteHeader(status int) {
	if !w.wrote {
		w.status, w.wrote = status, true
	}
}

func (w *recorder) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.body.Write(p)
}
